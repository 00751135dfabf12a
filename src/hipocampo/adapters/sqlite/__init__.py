"""SQLite adapters: the embedded default. One file holds the log, memories, indexes and outbox."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...domain.errors import ConfigurationError

if TYPE_CHECKING:
    from ...ports import Clock, Storage
    from ...settings import StorageSettings


def sqlite_path(target: str) -> str:
    """A plain path, or the path of a ``sqlite:///path`` URL."""
    if target.startswith("sqlite:///"):
        return target[len("sqlite:///") :]
    if target.startswith("sqlite://"):
        raise ConfigurationError("a SQLite URL is sqlite:///path (three slashes, then the path)")
    return target


async def open_storage(url: str, *, clock: Clock, settings: StorageSettings) -> Storage:
    """Every storage port over one SQLite file (created and migrated when new)."""
    from ...ports import Storage
    from .db import SqliteDatabase
    from .idempotency import SqliteIdempotencyStore
    from .jobs import SqliteJobQueue
    from .keywords import SqliteKeywordIndex
    from .memories import SqliteMemoryStore
    from .messages import SqliteMessageLog
    from .summaries import SqliteSummaryStore
    from .tenants import SqliteTenantStore
    from .vectors import SqliteVectorIndex

    db = await SqliteDatabase.open(sqlite_path(url))
    return Storage(
        uow=db,
        log=SqliteMessageLog(db, clock),
        memories=SqliteMemoryStore(db),
        vectors=SqliteVectorIndex(db),
        keywords=SqliteKeywordIndex(db),
        jobs=SqliteJobQueue(db, clock),
        summaries=SqliteSummaryStore(db),
        tenants=SqliteTenantStore(db),
        idempotency=SqliteIdempotencyStore(db),
        close=db.close,
        backend="sqlite",
    )
