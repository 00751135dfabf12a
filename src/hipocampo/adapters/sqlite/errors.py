"""Which SQLite failures mean "the store cannot take writes now" rather than "this is a bug".

A read-only file, a full disk, an I/O error or a lock held past the busy timeout are conditions of
the machine, not of the request: callers get :class:`~hipocampo.domain.errors.StorageUnavailable`
(HTTP 503 with ``Retry-After``) instead of an opaque 500. Everything else (constraint violations,
SQL errors) is left as it is: those are bugs and must surface as such.
"""

from __future__ import annotations

import sqlite3

from ...domain.errors import StorageUnavailable

# Primary result codes (https://sqlite.org/rescode.html); extended codes carry them in the low byte.
SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN = 5, 6, 8, 10, 13, 14

_REASONS: dict[int, tuple[str, float]] = {
    SQLITE_READONLY: ("the database file is read-only", 30.0),
    SQLITE_FULL: ("the disk holding the database is full", 30.0),
    SQLITE_IOERR: ("the disk holding the database failed to read or write (I/O error)", 10.0),
    SQLITE_BUSY: ("the database stayed locked by another writer past the busy timeout", 5.0),
    SQLITE_LOCKED: ("the database stayed locked by another writer past the busy timeout", 5.0),
    SQLITE_CANTOPEN: ("the database file or its journal cannot be opened", 30.0),
}
# Python < 3.11 has no error codes on the exception: the messages SQLite gives them instead.
_MESSAGES = {
    "readonly": SQLITE_READONLY,
    "disk is full": SQLITE_FULL,
    "disk i/o error": SQLITE_IOERR,
    "database is locked": SQLITE_BUSY,
    "database table is locked": SQLITE_LOCKED,
    "unable to open database file": SQLITE_CANTOPEN,
}


def primary_code(exc: sqlite3.Error) -> int | None:
    """The primary result code of a SQLite error, or ``None`` when it cannot be told."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF
    text = str(exc).lower()
    return next((c for needle, c in _MESSAGES.items() if needle in text), None)


def storage_unavailable(exc: sqlite3.Error) -> StorageUnavailable | None:
    """The :class:`StorageUnavailable` that ``exc`` means, or ``None`` for any other error."""
    code = primary_code(exc)
    if code not in _REASONS:
        return None
    reason, retry_after = _REASONS[code]
    return StorageUnavailable(f"the memory store cannot take writes now: {reason}", retry_after)


def needs_reopen(exc: sqlite3.Error) -> bool:
    """A connection opened while its file was read-only stays read-only after the file is writable
    again (and one whose file was moved keeps writing to the old one): only a new one recovers."""
    return primary_code(exc) in (SQLITE_READONLY, SQLITE_CANTOPEN)
