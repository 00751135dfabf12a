"""Memories on Postgres, with their history. Behaves as ``SqliteMemoryStore`` does.

Deleting a memory takes its vector and keyword entries along (foreign keys with ``ON DELETE
CASCADE``) and its history (in the same statement), whichever code path deletes. The quota's
share of memories (facts stored directly) is counted by triggers (see :mod:`.schema_memories`).

A batch is one statement (arrays unnested), so a write is atomic inside or outside a transaction.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from typing import Any

from ...domain.model import HistoryEntry, MemoryItem, Scope
from ..sql import memories as core
from ..sql.dialect import Query
from ..sql.where import scope_filter, scoped_ids, upsert
from .db import PostgresDatabase
from .dialect import POSTGRES

_TYPES = {"seq": "bigint", "importance": "float8", "confidence": "float8", "mention_count": "integer"}
_TYPES |= dict.fromkeys(
    ("created_at", "updated_at", "valid_to", "expires_at", "event_start", "event_end"), "timestamptz"
)
_TYPES |= {"access_count": "integer", "last_accessed": "timestamptz"}
"""The array type each column travels in (the others: ``text``; JSON is cast to ``jsonb`` on the way)."""


def insert_memories(items: Sequence[MemoryItem], *, restore: bool = False) -> Query:
    """One statement for the batch. An upsert updates a stored id only in its own scope (another
    scope's row is left alone); a restore writes every field, access counters too, and leaves
    any stored id alone. Returns the ids written."""
    columns = core.COLUMNS + (core.ACCESS if restore else ())
    arrays: list[list[Any]] = [[] for _ in columns]
    last = {m.id: m for m in items}  # one row per id: a statement cannot upsert a row twice
    for m in last.values():
        values = core.memory_values(POSTGRES, m) + (core.access_values(POSTGRES, m) if restore else ())
        for array, value in zip(arrays, values, strict=True):
            array.append(value)
    names = ", ".join(columns)
    selected = ", ".join(f"r.{name}::jsonb" if name in ("source_ids", "metadata") else f"r.{name}" for name in columns)
    unnest = ", ".join(f"%s::{_TYPES.get(name, 'text')}[]" for name in columns)
    conflict = "ON CONFLICT (id) DO NOTHING" if restore else upsert("id", core.UPDATED_BY_UPSERT, where=core.SAME_SCOPE)
    return (
        f"INSERT INTO memories ({names}) SELECT {selected}"
        f" FROM unnest({unnest}) WITH ORDINALITY AS r ({names}, n) ORDER BY r.n {conflict} RETURNING id",
        arrays,
    )


def delete_memories(where: str, params: Sequence[Any]) -> Query:
    """Delete the memories matching ``where`` and their history; returns the count (``n``)."""
    return (
        f"WITH gone AS (DELETE FROM memories WHERE {where} RETURNING id, tenant_id, user_id),"
        " history AS (DELETE FROM memory_history h USING gone"
        " WHERE h.tenant_id = gone.tenant_id AND h.user_id = gone.user_id AND h.memory_id = gone.id)"
        " SELECT count(*) AS n FROM gone",
        params,
    )


class PostgresMemoryStore(core.SqlMemoryStore):
    """The :class:`~hipocampo.ports.MemoryStore` port on a :class:`PostgresDatabase`."""

    _db: PostgresDatabase

    def __init__(self, db: PostgresDatabase) -> None:
        super().__init__(db, POSTGRES)

    async def upsert(self, items: Sequence[MemoryItem]) -> None:
        if items:
            await self._db.execute(insert_memories(items))

    async def restore(self, items: Sequence[MemoryItem]) -> int:
        if not items:
            return 0
        return len(await self._db.fetch_all(insert_memories(items, restore=True)))

    async def neighbours(self, scope: Scope, thread_id: str, seqs: Sequence[int]) -> builtins.list[MemoryItem]:
        if not seqs:
            return []
        where, params = scope_filter(POSTGRES, scope)
        rows = await self._db.fetch_all(
            (
                f"SELECT * FROM memories WHERE {where} AND kind = 'turn' AND thread_id = %s AND seq = ANY(%s)"
                " ORDER BY seq",
                (*params, thread_id, list(seqs)),
            ),
        )
        return self._items(rows)

    async def neighbours_of(self, scope: Scope, positions: Mapping[str, Sequence[int]]) -> builtins.list[MemoryItem]:
        """Every thread's positions in one statement (one round trip, where a statement per
        thread took one each): ``(thread, seq)`` pairs joined to the thread index."""
        pairs = [(t, s) for t in sorted(positions) for s in dict.fromkeys(positions[t])]
        if not pairs:
            return []
        where, params = scope_filter(POSTGRES, scope, "m")
        rows = await self._db.fetch_all(
            (
                "SELECT m.* FROM unnest(%s::text[], %s::bigint[]) AS w (thread_id, seq)"
                f" JOIN memories m ON m.thread_id = w.thread_id AND m.seq = w.seq"
                f" WHERE {where} AND m.kind = 'turn' ORDER BY m.thread_id, m.seq",
                ([t for t, _ in pairs], [s for _, s in pairs], *params),
            ),
        )
        return self._items(rows)

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> int:
        if not memory_ids:
            return 0
        return await self._count(delete_memories(*scoped_ids(POSTGRES, scope, memory_ids)))

    async def delete_thread(self, scope: Scope, thread_id: str) -> int:
        return await self._count(
            delete_memories(
                "tenant_id = %s AND user_id = %s AND thread_id = %s", (scope.tenant_id, scope.user_id, thread_id)
            )
        )

    async def delete_user(self, scope: Scope) -> int:
        return await self._count(delete_memories("tenant_id = %s AND user_id = %s", (scope.tenant_id, scope.user_id)))

    async def add_history(self, scope: Scope, entries: Sequence[HistoryEntry]) -> None:
        if not entries:
            return
        columns: list[list[Any]] = [[] for _ in range(8)]
        for e in entries:
            for column, value in zip(columns, (e.memory_id, *core.history_values(POSTGRES, e)), strict=True):
                column.append(value)
        await self._db.execute(
            (
                "INSERT INTO memory_history (memory_id, tenant_id, user_id, event, old_content, new_content, actor,"
                " reason, related_id, created_at)"
                " SELECT h.memory_id, %s, %s, h.event, h.old_content, h.new_content, h.actor, h.reason, h.related_id,"
                " h.created_at FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[],"
                " %s::text[], %s::timestamptz[]) WITH ORDINALITY AS h (memory_id, event, old_content, new_content,"
                " actor, reason, related_id, created_at, n) ORDER BY h.n",
                (scope.tenant_id, scope.user_id, *columns),
            ),
        )
