"""Memories in process memory. Deleting a memory also removes its keyword and vector entries.

For tests and single-process experiments; memories are lost when the process exits.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from ...domain.model import HistoryEntry, MemoryItem, MemoryKind, MemoryType, Role, Scope, as_utc
from .rows import MemoryRow
from .state import InMemoryDatabase, State, bump_vectors, page, scope_of, visible


def memory_item(row: MemoryRow) -> MemoryItem:
    return MemoryItem(
        id=row.id,
        scope=scope_of(row.tenant_id, row.user_id, row.agent_id),
        kind=MemoryKind(row.kind),
        content=row.content,
        created_at=row.created_at,
        thread_id=row.thread_id,
        memory_type=MemoryType(row.memory_type) if row.memory_type else None,
        importance=row.importance,
        source_message_ids=json.loads(row.source_ids),
        metadata=json.loads(row.metadata),
        name=row.name,
        role=Role(row.role) if row.role else None,
        seq=row.seq,
        updated_at=row.updated_at,
        valid_to=row.valid_to,
        key=row.key,
        confidence=row.confidence,
        mention_count=row.mention_count,
        access_count=row.access_count,
        last_accessed=row.last_accessed,
        expires_at=row.expires_at,
        event_start=row.event_start,
        event_end=row.event_end,
    )


def _row(m: MemoryItem) -> MemoryRow:
    """The row for ``m``, its rid still to assign. Raises (bad enum, non-JSON data) before any
    write, as SQLite's adapter does."""
    return MemoryRow(
        rid=0,
        id=m.id,
        tenant_id=m.scope.tenant_id,
        user_id=m.scope.user_id,
        agent_id=m.scope.agent_id,
        thread_id=m.thread_id,
        kind=m.kind.value,
        memory_type=m.memory_type.value if m.memory_type else None,
        content=m.content,
        name=m.name,
        role=m.role.value if m.role else None,
        seq=m.seq,
        importance=float(m.importance),
        source_ids=json.dumps(m.source_message_ids),
        metadata=json.dumps(m.metadata),
        created_at=as_utc(m.created_at),
        updated_at=as_utc(m.updated_at) if m.updated_at else None,
        valid_to=_utc(m.valid_to),
        key=m.key,
        confidence=m.confidence,
        mention_count=m.mention_count,
        expires_at=_utc(m.expires_at),
        event_start=_utc(m.event_start),
        event_end=_utc(m.event_end),
    )


def _utc(value: datetime | None) -> datetime | None:
    return as_utc(value) if value is not None else None


# What an upsert of an existing id may change (the rest is fixed when the memory is created).
_UPDATABLE = (
    "content",
    "memory_type",
    "importance",
    "source_ids",
    "metadata",
    "updated_at",
    "valid_to",
    "name",
    "confidence",
    "mention_count",
    "expires_at",
    "event_start",
    "event_end",
)


class InMemoryMemoryStore:
    """The :class:`~hipocampo.ports.MemoryStore` port over an :class:`InMemoryDatabase`.

    For tests and single-process experiments; behaves as ``SqliteMemoryStore`` does."""

    def __init__(self, db: InMemoryDatabase) -> None:
        self._db = db

    async def upsert(self, items: Sequence[MemoryItem]) -> None:
        rows = [_row(m) for m in items]
        if not rows:
            return

        def write(st: State) -> None:
            for row in rows:
                old = st.memories.get(row.id)
                if old is None:
                    st.memories[row.id] = replace(row, rid=st.next_rid("memories"))
                elif (old.tenant_id, old.user_id) == (row.tenant_id, row.user_id):
                    st.memories[row.id] = replace(old, **{f: getattr(row, f) for f in _UPDATABLE})
                # else: the id belongs to another scope's memory, which stays as it is

        await self._db.write(write)

    async def restore(self, items: Sequence[MemoryItem]) -> int:
        rows = [replace(_row(m), access_count=m.access_count, last_accessed=_utc(m.last_accessed)) for m in items]

        def write(st: State) -> int:
            written = 0
            for row in rows:
                if row.id not in st.memories:
                    st.memories[row.id] = replace(row, rid=st.next_rid("memories"))
                    written += 1
            return written

        return await self._db.write(write) if rows else 0

    async def get_many(self, scope: Scope, memory_ids: Sequence[str]) -> list[MemoryItem]:
        st = self._db.view()
        by_id = {
            i: memory_item(row)
            for i in set(memory_ids)
            if (row := st.memories.get(i)) is not None and visible(scope, row.tenant_id, row.user_id, row.agent_id)
        }
        return [by_id[i] for i in memory_ids if i in by_id]

    async def list(
        self,
        scope: Scope,
        *,
        kind: MemoryKind | None = None,
        thread_id: str | None = None,
        memory_type: MemoryType | str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int = 100,
        offset: int = 0,
        current_at: datetime | None = None,
    ) -> list[MemoryItem]:
        builtin = memory_type if isinstance(memory_type, MemoryType) else None
        custom = None if memory_type is None or builtin else memory_type
        since_utc = as_utc(since) if since is not None else None
        until_utc = as_utc(until) if until is not None else None
        rows = [
            r
            for r in self._db.view().memories.values()
            if visible(scope, r.tenant_id, r.user_id, r.agent_id)
            and (kind is None or r.kind == kind.value)
            and (thread_id is None or r.thread_id == thread_id)
            and (builtin is None or r.memory_type == builtin.value)
            and (custom is None or memory_item(r).type_name == custom)
            and (since_utc is None or r.created_at >= since_utc)
            and (until_utc is None or r.created_at < until_utc)
            and (current_at is None or memory_item(r).is_current(as_utc(current_at)))
        ]
        rows.sort(key=lambda r: (r.created_at, r.rid), reverse=True)
        return [memory_item(r) for r in page(rows, limit, offset)]

    async def neighbours(self, scope: Scope, thread_id: str, seqs: Sequence[int]) -> builtins.list[MemoryItem]:
        wanted = set(seqs)
        rows = [
            r
            for r in self._db.view().memories.values()
            if r.kind == MemoryKind.TURN.value
            and r.thread_id == thread_id
            and r.seq in wanted
            and visible(scope, r.tenant_id, r.user_id, r.agent_id)
        ]
        return [memory_item(r) for r in sorted(rows, key=lambda r: (r.seq, r.rid))]

    async def neighbours_of(self, scope: Scope, positions: Mapping[str, Sequence[int]]) -> builtins.list[MemoryItem]:
        out: builtins.list[MemoryItem] = []
        for thread_id in sorted(positions):
            out += await self.neighbours(scope, thread_id, positions[thread_id])
        return out

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> int:
        if not memory_ids:
            return 0

        def write(st: State) -> int:
            rows = [st.memories[i] for i in set(memory_ids) if i in st.memories]
            return delete_memories(st, [r for r in rows if visible(scope, r.tenant_id, r.user_id, r.agent_id)])

        return await self._db.write(write)

    async def delete_thread(self, scope: Scope, thread_id: str) -> int:
        key = (scope.tenant_id, scope.user_id, thread_id)

        def write(st: State) -> int:
            return delete_memories(
                st,
                [r for r in st.memories.values() if (r.tenant_id, r.user_id, r.thread_id) == key],
            )

        return await self._db.write(write)

    async def delete_user(self, scope: Scope) -> int:
        who = (scope.tenant_id, scope.user_id)

        def write(st: State) -> int:
            return delete_memories(st, [r for r in st.memories.values() if (r.tenant_id, r.user_id) == who])

        return await self._db.write(write)

    async def count(self, scope: Scope | None = None) -> int:
        rows = self._db.view().memories.values()
        if scope is None:
            return len(rows)
        return sum(1 for r in rows if visible(scope, r.tenant_id, r.user_id, r.agent_id))

    async def count_tenant(self, tenant_id: str) -> int:
        return sum(1 for r in self._db.view().memories.values() if r.tenant_id == tenant_id)

    async def scopes(self) -> builtins.list[tuple[str, str]]:
        return sorted({(r.tenant_id, r.user_id) for r in self._db.view().memories.values()})

    async def current_by_key(self, scope: Scope, key: str) -> builtins.list[MemoryItem]:
        rows = [
            r
            for r in self._db.view().memories.values()
            if r.key == key and r.valid_to is None and visible(scope, r.tenant_id, r.user_id, r.agent_id)
        ]
        rows.sort(key=lambda r: (r.created_at, r.rid), reverse=True)
        return [memory_item(r) for r in rows]

    async def closed_facts(self, scope: Scope, limit: int) -> builtins.list[MemoryItem]:
        facts = [
            r
            for r in self._db.view().memories.values()
            if r.kind == MemoryKind.FACT.value
            and r.key is not None
            and visible(scope, r.tenant_id, r.user_id, r.agent_id)
        ]
        closed = sorted((r for r in facts if r.valid_to is not None), key=lambda r: (r.valid_to, r.rid), reverse=True)
        closed = closed[: max(limit, 0)]
        keys = {r.key for r in closed}
        current = sorted(
            (r for r in facts if r.valid_to is None and r.key in keys),
            key=lambda r: (r.created_at, r.rid),
            reverse=True,
        )
        return [memory_item(r) for r in [*closed, *current]]

    async def touch(self, scope: Scope, memory_ids: Sequence[str], when: datetime) -> None:
        at = as_utc(when)

        def write(st: State) -> None:
            for i in set(memory_ids):
                row = st.memories.get(i)
                if row is not None and visible(scope, row.tenant_id, row.user_id, row.agent_id):
                    st.memories[i] = replace(row, access_count=row.access_count + 1, last_accessed=at)

        await self._db.write(write)

    async def add_history(self, scope: Scope, entries: Sequence[HistoryEntry]) -> None:
        def write(st: State) -> None:
            for e in entries:
                st.history[e.memory_id] = (*st.history.get(e.memory_id, ()), replace(e))

        if entries:
            await self._db.write(write)

    async def history(self, scope: Scope, memory_id: str) -> builtins.list[HistoryEntry]:
        st = self._db.view()
        row = st.memories.get(memory_id)
        if row is None or (row.tenant_id, row.user_id) != (scope.tenant_id, scope.user_id):
            return []
        return [replace(e) for e in st.history.get(memory_id, ())]


def delete_memories(st: State, rows: list[MemoryRow]) -> int:
    """Delete memories with their keyword and vector entries; returns how many."""
    for r in rows:
        del st.memories[r.id]
        st.history.pop(r.id, None)
        st.keywords.pop(r.id, None)
        st.vectors.pop(r.id, None)
    for tenant, user in {(r.tenant_id, r.user_id) for r in rows}:
        bump_vectors(st, tenant, user)
    return len(rows)
