"""Storage contract fixtures: every storage port, built by each adapter on a real database.

A test asks for ``run`` and hands it an ``async def scenario(s: Stores)``. The runner opens the
backend on a fresh event loop, runs the scenario and closes everything, so each test owns its
database, its loop and a :class:`FakeClock` it can move. Test bodies talk to the ports only;
adding a backend means adding a param here and a ``_Backend`` that builds the same ``Stores``.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hipocampo import plugins
from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.memory import _NAMED
from hipocampo.backends import open_storage
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
from hipocampo.settings import Settings

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


class _Backend:
    """A database URL, opened through the backend registry exactly as bootstrap opens it."""

    def __init__(self, url: str, vectors: str = "") -> None:
        self.url = url
        self.vectors = vectors  # HIPOCAMPO_VECTORS: the vector index in another engine

    @asynccontextmanager
    async def open(self, clock: FakeClock) -> AsyncIterator[Stores]:
        storage = await open_storage(self.url, clock=clock, settings=Settings(db=self.url, vectors=self.vectors))
        try:
            yield Stores(
                uow=storage.uow,
                messages=storage.log,
                memories=storage.memories,
                vectors=storage.vectors,
                keywords=storage.keywords,
                jobs=storage.jobs,
                summaries=storage.summaries,
                tenants=storage.tenants,
                idempotency=storage.idempotency,
                clock=clock,
                _reopen=lambda: self.open(clock),
            )
        finally:
            await storage.close()


BACKENDS = ["sqlite", "memory", "postgresql"]
"""Every backend the contract suites run against."""

# The vector index suite also runs on the engines HIPOCAMPO_VECTORS names ("chroma", "chroma-http",
# "duckdb", with SQLite as the log), through `pytest.mark.parametrize("backend", [...], indirect=True)`.


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[_Backend]:
    if request.param == "sqlite":
        yield _Backend(f"sqlite:///{tmp_path / 'contract.db'}")
    elif request.param == "memory":
        # A named in-process database, so "another connection" shares its state.
        name = f"contract-{uuid.uuid4().hex}"
        yield _Backend(f"memory://{name}")
        _NAMED.pop(name, None)
    elif request.param == "postgresql":
        # A fresh database per test, migrated as `hipocampo migrate` does; "another connection"
        # is a second pool on it, as another process would open.
        from engines import create_pg_database

        from hipocampo.adapters.postgres.schema import migrate

        url, drop = create_pg_database(request.getfixturevalue("pg_url"), prefix="hipo_contract")
        try:
            asyncio.run(migrate(url))
            yield _Backend(url)
        finally:
            drop()
    elif request.param == "chroma":
        pytest.importorskip("chromadb")
        yield _Backend(f"sqlite:///{tmp_path / 'contract.db'}", vectors=f"chroma:///{tmp_path / 'chroma'}")
    elif request.param == "chroma-http":
        from vector_engines import chroma_http_url

        url = chroma_http_url(request.getfixturevalue("chroma_server"))
        yield _Backend(f"sqlite:///{tmp_path / 'contract.db'}", vectors=url)
    elif request.param == "duckdb":
        pytest.importorskip("duckdb_extension_vss")
        yield _Backend(f"sqlite:///{tmp_path / 'contract.db'}", vectors=f"duckdb:///{tmp_path / 'vectors.duckdb'}")
    elif request.param == "plugin":
        # A third-party vector index, found through its entry point only: HIPOCAMPO_CONTRACT_VECTORS is
        # its HIPOCAMPO_VECTORS URL, "{uid}" made fresh per test (docs/plugins.md). By default the
        # example plugin of tests/plugins/, which scripts/test.sh installs.
        template = os.environ.get("HIPOCAMPO_CONTRACT_VECTORS", "example://contract-{uid}")
        if template.split("://", 1)[0] not in plugins.vector_indexes:
            pytest.skip(f"no vector index plugin installed for {template}")
        yield _Backend(f"sqlite:///{tmp_path / 'contract.db'}", vectors=template.format(uid=uuid.uuid4().hex))
    else:
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
