"""Identifiers: the one form they are stored and compared in, and what they may not contain.

Every id a caller gives (tenant, user, thread, agent, message, speaker name) goes through
:func:`check_id` wherever it comes from: the Python API, a REST path, query or body, an MCP
header. Two rules: ids are compared in Unicode NFC, so "joão" typed as one code point or as "a"
plus a combining tilde is one user; and ids may not hold control or invisible characters, so two
ids that print the same cannot name two users.

A third rule for the ids that are path segments of the HTTP API (tenant, user, thread, agent:
``/v1/users/{user_id}/threads/{thread_id}``), :func:`check_path_id`: no ``/``. A ``/`` in a path
segment is read as a separator however it is encoded, so a user "sl/ash" was stored through the
tools, MCP and the query-string routes and then could be neither exported nor forgotten. Every
entry point refuses it now, and so does every write; users stored before keep working (the
domain's :class:`~hipocampo.domain.model.Scope` takes stored ids as they are) and the HTTP API
reaches them for export and deletion by query string (``?user_id=sl%2Fash``). Message ids and
speaker names are never path segments and may hold ``/``.
"""

from __future__ import annotations

import unicodedata

from .errors import InvalidInput

MAX_ID_CHARS = 200

INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Zl", "Zp"})
"""Unicode categories refused in ids: controls, format characters (zero-width spaces and joiners,
bidi marks, the BOM, word joiners), private use, lone surrogates, line and paragraph separators."""
INVISIBLE_EXTRA = frozenset("\u034f\u115f\u1160\u2800\u3164\uffa0")
"""Letters and marks that render as nothing (the grapheme joiner, Hangul fillers, the blank
Braille pattern): valid text elsewhere, a way to make look-alike ids here."""


def id_problem(value: str) -> str | None:
    """Why ``value`` (already NFC) cannot be an id, or ``None``: the rule of :func:`check_id`."""
    if not value.strip():
        return "must not be empty"
    if len(value) > MAX_ID_CHARS:
        return f"is longer than {MAX_ID_CHARS} characters"
    if value.isascii():  # the common case, without a per-character table look-up
        bad = next((c for c in value if ord(c) < 32 or ord(c) == 127), None)
    else:
        bad = next((c for c in value if unicodedata.category(c) in INVISIBLE_CATEGORIES or c in INVISIBLE_EXTRA), None)
    if bad is not None:
        return f"must not contain control or invisible characters (found U+{ord(bad):04X})"
    return None


SEPARATOR = "/"
PATH_ID_RULE = "must not contain '/' (ids are path segments of the HTTP API's URLs)"


def path_id_problem(value: str) -> str | None:
    """Why ``value`` (already NFC) cannot name a tenant, user, thread or agent, or ``None``: the
    rule of :func:`check_id` and no ``/``."""
    return id_problem(value) or (PATH_ID_RULE if SEPARATOR in value else None)


def check_path_id(name: str, value: str | None, *, required: bool = True) -> str | None:
    """:func:`check_id` for an id that is a path segment of the HTTP API (tenant, user, thread,
    agent): also refused with a ``/`` (see the module)."""
    value = check_id(name, value, required=required)
    if value is not None and SEPARATOR in value:
        raise InvalidInput(f"{name} {PATH_ID_RULE}")
    return value


def normal_id(value: str) -> str:
    """An id in the one form it is stored and compared in: Unicode NFC, so that "joão" typed as
    one code point or as "a" plus a combining tilde is the same user."""
    return value if value.isascii() else unicodedata.normalize("NFC", value)


def check_id(name: str, value: str | None, *, required: bool = True) -> str | None:
    """Validate a caller-supplied identifier (tenant, user, thread, agent, message) and return it
    in NFC, the form to use from then on. Refused: empty or blank, longer than ``MAX_ID_CHARS``,
    control or invisible characters (see :data:`INVISIBLE_CATEGORIES`)."""
    if value is None:
        if required:
            raise InvalidInput(f"{name} is required")
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string, got {type(value).__name__}")
    value = normal_id(value)
    problem = id_problem(value)
    if problem is not None:
        raise InvalidInput(f"{name} {problem}")
    return value
