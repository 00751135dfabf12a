"""Memories on Postgres, with their history. Behaves as ``SqliteMemoryStore`` does.

Deleting a memory takes its vector and keyword entries along (foreign keys with ``ON DELETE
CASCADE``) and its history (in the same statement), whichever code path deletes. The quota's
share of memories (facts stored directly) is counted by triggers (see :mod:`.schema_memories`).

A batch is one statement (arrays unnested), so a write is atomic inside or outside a transaction.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ...domain.model import (
    CUSTOM_TYPE_KEY,
    HistoryEntry,
    HistoryEvent,
    MemoryItem,
    MemoryKind,
    MemoryType,
    Role,
    Scope,
)
from .db import PostgresDatabase
from .rows import check_text, row_scope, to_json, utc
from .sql import Query, execute, fetch_all, fetch_one, scope_filter

_COLUMNS = (
    ("id", "text"),
    ("tenant_id", "text"),
    ("user_id", "text"),
    ("agent_id", "text"),
    ("thread_id", "text"),
    ("kind", "text"),
    ("memory_type", "text"),
    ("content", "text"),
    ("name", "text"),
    ("role", "text"),
    ("seq", "bigint"),
    ("importance", "float8"),
    ("source_ids", "text"),
    ("metadata", "text"),
    ("created_at", "timestamptz"),
    ("updated_at", "timestamptz"),
    ("valid_to", "timestamptz"),
    ("key", "text"),
    ("confidence", "float8"),
    ("mention_count", "integer"),
    ("expires_at", "timestamptz"),
    ("event_start", "timestamptz"),
    ("event_end", "timestamptz"),
)
_ACCESS = (("access_count", "integer"), ("last_accessed", "timestamptz"))
_UPDATED_BY_UPSERT = (
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
"""What an upsert of a stored id changes. Not: identity and position (id, scope, kind, thread, seq,
role, key, created_at), and the access counters, which only :meth:`touch` (and a restore) moves."""


def _values(m: MemoryItem) -> tuple[Any, ...]:
    return (
        m.id,
        m.scope.tenant_id,
        m.scope.user_id,
        m.scope.agent_id,
        m.thread_id,
        m.kind.value,
        m.memory_type.value if m.memory_type else None,
        check_text("memory content", m.content),
        check_text("a memory's name", m.name),
        m.role.value if m.role else None,
        m.seq,
        m.importance,
        to_json("source ids", m.source_message_ids),
        to_json("memory metadata", m.metadata),
        utc(m.created_at),
        utc(m.updated_at),
        utc(m.valid_to),
        check_text("a memory's key", m.key),
        m.confidence,
        m.mention_count,
        utc(m.expires_at),
        utc(m.event_start),
        utc(m.event_end),
    )


def insert_memories(items: Sequence[MemoryItem], *, restore: bool = False) -> Query:
    """One statement for the batch. An upsert updates a stored id only in its own scope (another
    scope's row is left alone); a restore writes every field, access counters too, and leaves
    any stored id alone. Returns the ids written."""
    columns = _COLUMNS + (_ACCESS if restore else ())
    arrays: list[list[Any]] = [[] for _ in columns]
    last = {m.id: m for m in items}  # one row per id: a statement cannot upsert a row twice
    for m in last.values():
        values = _values(m) + ((m.access_count, utc(m.last_accessed)) if restore else ())
        for array, value in zip(arrays, values, strict=True):
            array.append(value)
    names = ", ".join(name for name, _ in columns)
    selected = ", ".join(
        f"r.{name}::jsonb" if name in ("source_ids", "metadata") else f"r.{name}" for name, _ in columns
    )
    unnest = ", ".join(f"%s::{kind}[]" for _, kind in columns)
    if restore:
        conflict = "ON CONFLICT (id) DO NOTHING"
    else:
        updates = ", ".join(f"{c} = excluded.{c}" for c in _UPDATED_BY_UPSERT)
        conflict = (
            f"ON CONFLICT (id) DO UPDATE SET {updates}"
            " WHERE memories.tenant_id = excluded.tenant_id AND memories.user_id = excluded.user_id"
        )
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


def list_memories(
    scope: Scope,
    *,
    kind: MemoryKind | None,
    thread_id: str | None,
    memory_type: MemoryType | str | None,
    since: datetime | None,
    until: datetime | None,
    current_at: datetime | None,
    limit: int,
    offset: int,
) -> Query:
    where, params = scope_filter(scope)
    params = list(params)
    if memory_type is not None and not isinstance(memory_type, MemoryType):  # a custom type, in the metadata
        where += f" AND kind = 'fact' AND memory_type IS NULL AND metadata->>'{CUSTOM_TYPE_KEY}' = %s"
        params.append(memory_type)
    for column, op, value in (
        ("kind", "=", kind.value if kind else None),
        ("thread_id", "=", thread_id),
        ("memory_type", "=", memory_type.value if isinstance(memory_type, MemoryType) else None),
        ("created_at", ">=", utc(since)),
        ("created_at", "<", utc(until)),
    ):
        if value is not None:
            where += f" AND {column} {op} %s"
            params.append(value)
    if current_at is not None:
        where += " AND (valid_to IS NULL OR valid_to > %s) AND (expires_at IS NULL OR expires_at > %s)"
        params += [utc(current_at), utc(current_at)]
    return (
        f"SELECT * FROM memories WHERE {where} ORDER BY created_at DESC, rid DESC LIMIT %s OFFSET %s",
        [*params, max(limit, 0), max(offset, 0)],
    )


def memory_from_row(row: dict[str, Any]) -> MemoryItem:
    return MemoryItem(
        id=row["id"],
        scope=row_scope(row["tenant_id"], row["user_id"], row["agent_id"]),
        kind=MemoryKind(row["kind"]),
        content=row["content"],
        created_at=row["created_at"],
        thread_id=row["thread_id"],
        memory_type=MemoryType(row["memory_type"]) if row["memory_type"] else None,
        importance=row["importance"],
        source_message_ids=row["source_ids"],
        metadata=row["metadata"],
        name=row["name"],
        role=Role(row["role"]) if row["role"] else None,
        seq=row["seq"],
        updated_at=row["updated_at"],
        valid_to=row["valid_to"],
        key=row["key"],
        confidence=row["confidence"],
        mention_count=row["mention_count"],
        access_count=row["access_count"],
        last_accessed=row["last_accessed"],
        expires_at=row["expires_at"],
        event_start=row["event_start"],
        event_end=row["event_end"],
    )


def _history_from_row(row: dict[str, Any]) -> HistoryEntry:
    return HistoryEntry(
        memory_id=row["memory_id"],
        event=HistoryEvent(row["event"]),
        created_at=row["created_at"],
        old_content=row["old_content"],
        new_content=row["new_content"],
        actor=row["actor"],
        reason=row["reason"],
        related_id=row["related_id"],
    )


class PostgresMemoryStore:
    """The :class:`~hipocampo.ports.MemoryStore` port on a :class:`PostgresDatabase`."""

    def __init__(self, db: PostgresDatabase) -> None:
        self._db = db

    async def upsert(self, items: Sequence[MemoryItem]) -> None:
        if items:
            await execute(self._db, insert_memories(items))

    async def restore(self, items: Sequence[MemoryItem]) -> int:
        if not items:
            return 0
        return len(await fetch_all(self._db, insert_memories(items, restore=True)))

    async def get_many(self, scope: Scope, memory_ids: Sequence[str]) -> list[MemoryItem]:
        if not memory_ids:
            return []
        where, params = scope_filter(scope)
        # In a transaction the rows found stay until it commits (a concurrent delete waits): what
        # a writer checked is still there when it writes (the worker's "still there?" before
        # indexing, which would otherwise bring back a memory deleted meanwhile).
        lock = " FOR SHARE" if self._db.in_transaction else ""
        rows = await fetch_all(
            self._db, (f"SELECT * FROM memories WHERE id = ANY(%s) AND {where}{lock}", (list(memory_ids), *params))
        )
        by_id = {r["id"]: memory_from_row(r) for r in rows}
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
        query = list_memories(
            scope,
            kind=kind,
            thread_id=thread_id,
            memory_type=memory_type,
            since=since,
            until=until,
            current_at=current_at,
            limit=limit,
            offset=offset,
        )
        return [memory_from_row(r) for r in await fetch_all(self._db, query)]

    async def neighbours(self, scope: Scope, thread_id: str, seqs: Sequence[int]) -> builtins.list[MemoryItem]:
        if not seqs:
            return []
        where, params = scope_filter(scope)
        rows = await fetch_all(
            self._db,
            (
                f"SELECT * FROM memories WHERE {where} AND kind = 'turn' AND thread_id = %s AND seq = ANY(%s)"
                " ORDER BY seq",
                (*params, thread_id, list(seqs)),
            ),
        )
        return [memory_from_row(r) for r in rows]

    async def neighbours_of(self, scope: Scope, positions: Mapping[str, Sequence[int]]) -> builtins.list[MemoryItem]:
        """Every thread's positions in one statement (one round trip, where a statement per
        thread took one each): ``(thread, seq)`` pairs joined to the thread index."""
        pairs = [(t, s) for t in sorted(positions) for s in dict.fromkeys(positions[t])]
        if not pairs:
            return []
        where, params = scope_filter(scope, "m")
        rows = await fetch_all(
            self._db,
            (
                "SELECT m.* FROM unnest(%s::text[], %s::bigint[]) AS w (thread_id, seq)"
                f" JOIN memories m ON m.thread_id = w.thread_id AND m.seq = w.seq"
                f" WHERE {where} AND m.kind = 'turn' ORDER BY m.thread_id, m.seq",
                ([t for t, _ in pairs], [s for _, s in pairs], *params),
            ),
        )
        return [memory_from_row(r) for r in rows]

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> int:
        if not memory_ids:
            return 0
        where, params = scope_filter(scope)
        return await self._count(delete_memories(f"id = ANY(%s) AND {where}", (list(memory_ids), *params)))

    async def delete_thread(self, scope: Scope, thread_id: str) -> int:
        return await self._count(
            delete_memories(
                "tenant_id = %s AND user_id = %s AND thread_id = %s", (scope.tenant_id, scope.user_id, thread_id)
            )
        )

    async def delete_user(self, scope: Scope) -> int:
        return await self._count(delete_memories("tenant_id = %s AND user_id = %s", (scope.tenant_id, scope.user_id)))

    async def count(self, scope: Scope | None = None) -> int:
        if scope is None:
            return await self._count(("SELECT count(*) AS n FROM memories", ()))
        where, params = scope_filter(scope)
        return await self._count((f"SELECT count(*) AS n FROM memories WHERE {where}", params))

    async def count_tenant(self, tenant_id: str) -> int:
        return await self._count(("SELECT count(*) AS n FROM memories WHERE tenant_id = %s", (tenant_id,)))

    async def current_by_key(self, scope: Scope, key: str) -> builtins.list[MemoryItem]:
        where, params = scope_filter(scope)
        rows = await fetch_all(
            self._db,
            (
                f"SELECT * FROM memories WHERE {where} AND key = %s AND valid_to IS NULL"
                " ORDER BY created_at DESC, rid DESC",
                (*params, key),
            ),
        )
        return [memory_from_row(r) for r in rows]

    async def closed_facts(self, scope: Scope, limit: int) -> builtins.list[MemoryItem]:
        where, params = scope_filter(scope)
        rows = await fetch_all(
            self._db,
            (
                f"WITH closed AS (SELECT * FROM memories WHERE {where} AND valid_to IS NOT NULL AND key IS NOT NULL"
                " AND kind = 'fact' ORDER BY valid_to DESC, rid DESC LIMIT %s)"
                " SELECT *, 0 AS part, valid_to AS at FROM closed"
                " UNION ALL SELECT *, 1 AS part, created_at AS at FROM memories"
                f" WHERE {where} AND valid_to IS NULL AND kind = 'fact'"
                " AND key IN (SELECT key FROM closed)"
                " ORDER BY part, at DESC, rid DESC",
                (*params, max(limit, 0), *params),
            ),
        )
        return [memory_from_row(r) for r in rows]

    async def touch(self, scope: Scope, memory_ids: Sequence[str], when: datetime) -> None:
        if not memory_ids:
            return
        where, params = scope_filter(scope)
        await execute(
            self._db,
            (
                f"UPDATE memories SET access_count = access_count + 1, last_accessed = %s"
                f" WHERE id = ANY(%s) AND {where}",
                (utc(when), list(memory_ids), *params),
            ),
        )

    async def add_history(self, scope: Scope, entries: Sequence[HistoryEntry]) -> None:
        if not entries:
            return
        columns: list[list[Any]] = [[] for _ in range(8)]
        for e in entries:
            values = (
                e.memory_id,
                e.event.value,
                check_text("history content", e.old_content),
                check_text("history content", e.new_content),
                e.actor,
                e.reason,
                e.related_id,
                utc(e.created_at),
            )
            for column, value in zip(columns, values, strict=True):
                column.append(value)
        await execute(
            self._db,
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

    async def history(self, scope: Scope, memory_id: str) -> builtins.list[HistoryEntry]:
        rows = await fetch_all(
            self._db,
            (
                "SELECT * FROM memory_history WHERE tenant_id = %s AND user_id = %s AND memory_id = %s ORDER BY id",
                (scope.tenant_id, scope.user_id, memory_id),
            ),
        )
        return [_history_from_row(r) for r in rows]

    async def scopes(self) -> builtins.list[tuple[str, str]]:
        # Byte order, as SQLite sorts, whatever the database's collation.
        rows = await fetch_all(
            self._db,
            (
                "SELECT tenant_id, user_id FROM (SELECT DISTINCT tenant_id, user_id FROM memories) s"
                ' ORDER BY tenant_id COLLATE "C", user_id COLLATE "C"',
                (),
            ),
        )
        return [(r["tenant_id"], r["user_id"]) for r in rows]

    async def _count(self, query: Query) -> int:
        row = await fetch_one(self._db, query)
        return int(row["n"]) if row else 0
