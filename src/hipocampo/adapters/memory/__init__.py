"""In-memory adapters for every storage port: for tests and single-process experiments.

They behave as the SQLite adapters do (the same contract suites run against both), but keep
everything in this process: nothing is written to disk and the state is lost on exit. One
:class:`InMemoryDatabase` holds the state that the stores built on it share.

>>> storage = storage_on(InMemoryDatabase(), SystemClock())

``hipocampo.testing.build_memory_deps()`` wires them with the fake embedder for tests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...ports import Clock, Storage
from .idempotency import InMemoryIdempotencyStore
from .jobs import InMemoryJobQueue
from .keywords import InMemoryKeywordIndex
from .memories import InMemoryMemoryStore
from .messages import InMemoryMessageLog
from .state import InMemoryDatabase
from .summaries import InMemorySummaryStore
from .tenants import InMemoryTenantStore
from .vectors import InMemoryVectorIndex

if TYPE_CHECKING:
    from ...settings import StorageSettings

__all__ = [
    "InMemoryDatabase",
    "InMemoryIdempotencyStore",
    "InMemoryJobQueue",
    "InMemoryKeywordIndex",
    "InMemoryMemoryStore",
    "InMemoryMessageLog",
    "InMemorySummaryStore",
    "InMemoryTenantStore",
    "InMemoryVectorIndex",
    "open_storage",
    "storage_on",
]

_NAMED: dict[str, InMemoryDatabase] = {}
"""``memory://name`` databases of this process: every open of one name shares its state."""


def storage_on(db: InMemoryDatabase, clock: Clock) -> Storage:
    """Every storage port over ``db``."""

    async def close() -> None:
        return None

    return Storage(
        uow=db,
        log=InMemoryMessageLog(db, clock),
        memories=InMemoryMemoryStore(db),
        vectors=InMemoryVectorIndex(db),
        keywords=InMemoryKeywordIndex(db),
        jobs=InMemoryJobQueue(db, clock),
        summaries=InMemorySummaryStore(db),
        tenants=InMemoryTenantStore(db),
        idempotency=InMemoryIdempotencyStore(db),
        close=close,
        backend="memory",
    )


async def open_storage(url: str, *, clock: Clock, settings: StorageSettings | None = None) -> Storage:
    """``memory://``: a fresh database; ``memory://name``: the process's database of that name."""
    name = url.split("://", 1)[1].strip("/") if "://" in url else ""
    db = _NAMED.setdefault(name, InMemoryDatabase()) if name else InMemoryDatabase()
    return storage_on(db, clock)
