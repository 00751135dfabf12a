"""The state shared by the in-memory stores, and its transactions.

For tests and single-process experiments: everything lives in this process and is lost on exit.
The tables are flat dicts of the frozen rows in ``rows.py``, so copying a table is a shallow
``dict`` copy, and a row can be shared by two copies safely.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any, TypeVar

from ...domain.model import HistoryEntry, Scope
from ...domain.tenancy import ApiKey, Tenant
from ...ports import StoredResponse
from .rows import JobRow, KeywordDoc, MemoryRow, MessageRow, SummaryRow, ThreadRow, VectorRow

T = TypeVar("T")


@dataclass
class State:
    """Every table. Dicts keep insertion order, which is rowid order for the keyed-by-id tables."""

    messages: dict[str, MessageRow] = field(default_factory=dict)
    message_at: dict[tuple[str, str, str, int], str] = field(default_factory=dict)  # position -> id
    external: dict[tuple[str, str, str], str] = field(default_factory=dict)  # caller's id -> id
    threads: dict[tuple[str, str, str], ThreadRow] = field(default_factory=dict)
    memories: dict[str, MemoryRow] = field(default_factory=dict)
    keywords: dict[str, KeywordDoc] = field(default_factory=dict)  # memory id -> terms
    vectors: dict[str, VectorRow] = field(default_factory=dict)  # memory id -> vector
    vector_model: tuple[str, int] | None = None  # fixed by the first vector, cleared by reset
    vector_epochs: dict[tuple[str, str], int] = field(default_factory=dict)
    jobs: dict[int, JobRow] = field(default_factory=dict)
    summaries: dict[tuple[str, str, str], SummaryRow] = field(default_factory=dict)
    history: dict[str, tuple[HistoryEntry, ...]] = field(default_factory=dict)  # memory id -> entries
    # Private copies of the domain objects, replaced and never mutated, so copies can share them.
    tenants: dict[str, Tenant] = field(default_factory=dict)
    api_keys: dict[str, ApiKey] = field(default_factory=dict)
    idempotency: dict[tuple[str, str], StoredResponse] = field(default_factory=dict)  # body as JSON text
    last_rid: dict[str, int] = field(default_factory=lambda: {"messages": 0, "memories": 0, "vectors": 0, "jobs": 0})

    def copy(self) -> State:
        # Rows are frozen, so copying each table (not each row) isolates the copy: O(rows).
        return State(**{f.name: _copy(getattr(self, f.name)) for f in fields(self)})

    def next_rid(self, table: str) -> int:
        self.last_rid[table] += 1
        return self.last_rid[table]


def _copy(value: Any) -> Any:
    return dict(value) if isinstance(value, dict) else value


_epochs = itertools.count(1)  # never rolled back, so an epoch value names one version for good


def bump_vectors(state: State, tenant_id: str, user_id: str) -> None:
    """Tell vector caches that a user's vectors changed (as SQLite's ``vector_epochs`` does)."""
    state.vector_epochs[(tenant_id, user_id)] = next(_epochs)


def visible(scope: Scope, tenant_id: str, user_id: str, agent_id: str | None) -> bool:
    """``rows.scope_filter`` in Python: the scope's tenant and user; agent-only scopes also see
    rows shared by every agent (``agent_id`` None)."""
    if tenant_id != scope.tenant_id or user_id != scope.user_id:
        return False
    if scope.agent_only and scope.agent_id is not None:
        return agent_id is None or agent_id == scope.agent_id
    return True


def page(rows: list[T], limit: int, offset: int = 0) -> list[T]:
    """SQLite's ``LIMIT ? OFFSET ?``: a negative limit means none, a negative offset counts as 0."""
    start = max(offset, 0)
    return rows[start:] if limit < 0 else rows[start : start + limit]


@lru_cache(maxsize=4096)
def scope_of(tenant_id: str, user_id: str, agent_id: str | None) -> Scope:
    # Stored ids were validated on the way in; re-validating them per row is wasted work.
    return Scope(tenant_id, user_id, agent_id)


class InMemoryDatabase:
    """The shared state of the in-memory stores, with the :class:`~hipocampo.ports.UnitOfWork` face.

    For tests and single-process experiments; the state is lost when the process exits.
    A transaction works on a copy of the state and replaces the committed state with it on exit,
    or drops it on an exception, so readers outside never see half a transaction (as with
    SQLite's WAL). Transactions and writes outside one are serialised by an asyncio lock;
    a transaction opened inside another joins it.
    """

    def __init__(self) -> None:
        self._state = State()
        self._locks: dict[asyncio.AbstractEventLoop, asyncio.Lock] = {}
        self._tx: contextvars.ContextVar[State | None] = contextvars.ContextVar(
            f"hipocampo-memory-tx-{id(self)}", default=None
        )

    def _lock(self) -> asyncio.Lock:
        # A lock belongs to one event loop, and a caller may run several in turn (asyncio.run).
        loop = asyncio.get_running_loop()
        if loop not in self._locks:
            self._locks = {loop: asyncio.Lock()}
        return self._locks[loop]

    @property
    def in_transaction(self) -> bool:
        return self._tx.get() is not None

    def view(self) -> State:
        """What a read sees: the open transaction's working copy, else the committed state.

        Readers must not await while they use it, so that a read is one consistent snapshot."""
        working = self._tx.get()
        return self._state if working is None else working

    async def write(self, fn: Callable[[State], T]) -> T:
        """Run ``fn`` on the open transaction's copy, or on the committed state under the lock.

        Outside a transaction nothing rolls ``fn`` back: it must check everything that can fail
        before it changes anything (every store here does), so each write is all or nothing."""
        working = self._tx.get()
        if working is not None:
            return fn(working)
        async with self._lock():
            return fn(self._state)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        if self._tx.get() is not None:  # nested: join the outer transaction
            yield
            return
        async with self._lock():
            # Staging by snapshot: work on a copy (cheap, see State.copy), swap it in on commit.
            working = self._state.copy()
            token = self._tx.set(working)
            try:
                yield
            finally:
                self._tx.reset(token)
            self._state = working  # reached only when the block raised nothing

    async def probe_write(self) -> None:
        """Memory always takes writes."""

    async def close(self) -> None:
        """Nothing to release; here so the database can stand in wherever one is closed."""
