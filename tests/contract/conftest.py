"""Storage contract fixtures: every storage port, built by each adapter on a real database.

A test asks for ``run`` and hands it an ``async def scenario(s: Stores)``. The runner opens the
backend on a fresh event loop, runs the scenario and closes everything, so each test owns its
database, its loop and a :class:`FakeClock` it can move. Test bodies talk to the ports only;
adding a backend means adding a param here and a ``_Backend`` that builds the same ``Stores``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.memory import (
    InMemoryDatabase,
    InMemoryIdempotencyStore,
    InMemoryJobQueue,
    InMemoryKeywordIndex,
    InMemoryMemoryStore,
    InMemoryMessageLog,
    InMemorySummaryStore,
    InMemoryTenantStore,
    InMemoryVectorIndex,
)
from hipocampo.adapters.sqlite.db import SqliteDatabase
from hipocampo.adapters.sqlite.idempotency import SqliteIdempotencyStore
from hipocampo.adapters.sqlite.jobs import SqliteJobQueue
from hipocampo.adapters.sqlite.keywords import SqliteKeywordIndex
from hipocampo.adapters.sqlite.memories import SqliteMemoryStore
from hipocampo.adapters.sqlite.messages import SqliteMessageLog
from hipocampo.adapters.sqlite.summaries import SqliteSummaryStore
from hipocampo.adapters.sqlite.tenants import SqliteTenantStore
from hipocampo.adapters.sqlite.vectors import SqliteVectorIndex
from hipocampo.domain.model import MemoryItem, MemoryKind, Role, Scope
from hipocampo.ports import (
    IdempotencyStore,
    JobQueue,
    KeywordIndex,
    MemoryStore,
    MessageLog,
    SummaryStore,
    TenantStore,
    UnitOfWork,
    VectorIndex,
)

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
"""Where every FakeClock starts."""


@dataclass
class Stores:
    """Every storage port of one backend, opened on one database, sharing one clock."""

    uow: UnitOfWork
    messages: MessageLog
    memories: MemoryStore
    vectors: VectorIndex
    keywords: KeywordIndex
    jobs: JobQueue
    summaries: SummaryStore
    tenants: TenantStore
    idempotency: IdempotencyStore
    clock: FakeClock
    _reopen: Callable[[], AbstractAsyncContextManager[Stores]] = field(repr=False)

    def another_connection(self) -> AbstractAsyncContextManager[Stores]:
        """The same database opened again, as another process would: own connections and caches."""
        return self._reopen()


class _Backend(Protocol):
    def open(self, clock: FakeClock) -> AbstractAsyncContextManager[Stores]: ...


class _SqliteBackend:
    def __init__(self, path: Path) -> None:
        self.path = str(path)

    @asynccontextmanager
    async def open(self, clock: FakeClock) -> AsyncIterator[Stores]:
        db = await SqliteDatabase.open(self.path)
        try:
            yield Stores(
                uow=db,
                messages=SqliteMessageLog(db, clock),
                memories=SqliteMemoryStore(db),
                vectors=SqliteVectorIndex(db),
                keywords=SqliteKeywordIndex(db),
                jobs=SqliteJobQueue(db, clock),
                summaries=SqliteSummaryStore(db),
                tenants=SqliteTenantStore(db),
                idempotency=SqliteIdempotencyStore(db),
                clock=clock,
                _reopen=lambda: self.open(clock),
            )
        finally:
            await db.close()


class _MemoryBackend:
    """One shared state per test. It lives in one process, so "another connection" is a second
    set of stores (with their own caches) over the same :class:`InMemoryDatabase`."""

    def __init__(self) -> None:
        self.db = InMemoryDatabase()

    @asynccontextmanager
    async def open(self, clock: FakeClock) -> AsyncIterator[Stores]:
        db = self.db
        yield Stores(
            uow=db,
            messages=InMemoryMessageLog(db, clock),
            memories=InMemoryMemoryStore(db),
            vectors=InMemoryVectorIndex(db),
            keywords=InMemoryKeywordIndex(db),
            jobs=InMemoryJobQueue(db, clock),
            summaries=InMemorySummaryStore(db),
            tenants=InMemoryTenantStore(db),
            idempotency=InMemoryIdempotencyStore(db),
            clock=clock,
            _reopen=lambda: self.open(clock),
        )


@pytest.fixture(params=["sqlite", "memory"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> _Backend:
    if request.param == "sqlite":
        return _SqliteBackend(tmp_path / "contract.db")
    if request.param == "memory":
        return _MemoryBackend()
    raise AssertionError(f"unknown backend {request.param}")


Scenario = Callable[[Stores], Awaitable[None]]


@pytest.fixture
def run(backend: _Backend) -> Callable[[Scenario], None]:
    """``run(scenario)``: open the stores on a new loop, run ``scenario(stores)``, close them."""

    def runner(scenario: Scenario) -> None:
        async def main() -> None:
            async with backend.open(FakeClock(T0)) as stores:
                await scenario(stores)

        asyncio.run(main())

    return runner


def make_memory(
    memory_id: str,
    scope: Scope,
    content: str = "some memory",
    *,
    kind: MemoryKind = MemoryKind.TURN,
    thread_id: str | None = "t1",
    seq: int | None = None,
    created_at: datetime = T0,
    **extra: Any,
) -> MemoryItem:
    return MemoryItem(
        id=memory_id,
        scope=scope,
        kind=kind,
        content=content,
        created_at=created_at,
        thread_id=thread_id,
        seq=seq,
        **({"role": Role.USER} if kind is MemoryKind.TURN else {}) | extra,
    )


def unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


@pytest.fixture
def memory() -> Callable[..., MemoryItem]:
    """Factory for MemoryItems: ``memory("m1", scope, "text", thread_id=..., seq=...)``."""
    return make_memory


@pytest.fixture
def vec() -> Callable[..., np.ndarray]:
    """``vec(1, 0, 0)``: an L2-normalised float32 vector."""
    return unit
