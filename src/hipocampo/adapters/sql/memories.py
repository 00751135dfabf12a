"""Memories on a SQL engine: the reads and simple writes both engines run alike.

An engine's store subclasses :class:`SqlMemoryStore` and adds what it does its own way: writing a
batch (SQLite one row at a time on its writer; Postgres one statement of unnested arrays),
deleting (SQLite removes the keyword and vector entries itself; Postgres's foreign keys cascade),
and reading a thread's neighbours.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ...domain.model import HistoryEntry, MemoryItem, MemoryKind, MemoryType, Scope
from .dialect import Database, Dialect, Query
from .rows import history_from_row, memory_from_row
from .where import list_memories, scope_filter, scoped_ids

COLUMNS = (
    "id",
    "tenant_id",
    "user_id",
    "agent_id",
    "thread_id",
    "kind",
    "memory_type",
    "content",
    "name",
    "role",
    "seq",
    "importance",
    "source_ids",
    "metadata",
    "created_at",
    "updated_at",
    "valid_to",
    "key",
    "confidence",
    "mention_count",
    "expires_at",
    "event_start",
    "event_end",
)
"""The columns :func:`memory_values` fills, in its order."""

ACCESS = ("access_count", "last_accessed")
"""Written by a restore only (:func:`access_values`); an upsert leaves them to :meth:`SqlMemoryStore.touch`."""

UPDATED_BY_UPSERT = (
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
role, key, created_at), and the access counters, which only ``touch`` (and a restore) moves."""

SAME_SCOPE = "memories.tenant_id = excluded.tenant_id AND memories.user_id = excluded.user_id"
"""An upsert updates a stored id only in its own scope: another scope's row is left alone."""


def memory_values(d: Dialect, m: MemoryItem) -> tuple[Any, ...]:
    """The :data:`COLUMNS` of ``m``, as the engine stores them."""
    t = d.time_in
    return (
        m.id,
        m.scope.tenant_id,
        m.scope.user_id,
        m.scope.agent_id,
        m.thread_id,
        m.kind.value,
        m.memory_type.value if m.memory_type else None,
        d.text_in("memory content", m.content),
        d.text_in("a memory's name", m.name),
        m.role.value if m.role else None,
        m.seq,
        m.importance,
        d.json_in("source ids", m.source_message_ids),
        d.json_in("memory metadata", m.metadata),
        t(m.created_at),
        t(m.updated_at),
        t(m.valid_to),
        d.text_in("a memory's key", m.key),
        m.confidence,
        m.mention_count,
        t(m.expires_at),
        t(m.event_start),
        t(m.event_end),
    )


def access_values(d: Dialect, m: MemoryItem) -> tuple[Any, ...]:
    """The :data:`ACCESS` columns of ``m``."""
    return m.access_count, d.time_in(m.last_accessed)


def history_values(d: Dialect, e: HistoryEntry) -> tuple[Any, ...]:
    """A history entry's columns after its memory id and scope: ``event, old_content,
    new_content, actor, reason, related_id, created_at``."""
    return (
        e.event.value,
        d.text_in("history content", e.old_content),
        d.text_in("history content", e.new_content),
        e.actor,
        e.reason,
        e.related_id,
        d.time_in(e.created_at),
    )


def closed_facts_query(d: Dialect, scope: Scope, limit: int) -> Query:
    """The ``limit`` facts closed last (a ``valid_to``), then the current facts of their keys."""
    where, params = scope_filter(d, scope)
    return (
        d.sql(
            f"WITH closed AS (SELECT * FROM memories WHERE {where} AND valid_to IS NOT NULL AND key IS NOT NULL"
            " AND kind = 'fact' ORDER BY valid_to DESC, rid DESC LIMIT ?)"
            " SELECT *, 0 AS part, valid_to AS at FROM closed"
            " UNION ALL SELECT *, 1 AS part, created_at AS at FROM memories"
            f" WHERE {where} AND valid_to IS NULL AND kind = 'fact'"
            " AND key IN (SELECT key FROM closed)"
            " ORDER BY part, at DESC, rid DESC"
        ),
        (*params, max(limit, 0), *params),
    )


class SqlMemoryStore:
    """What both engines' :class:`~hipocampo.ports.MemoryStore` share, on ``db`` in ``dialect``."""

    def __init__(self, db: Database, dialect: Dialect) -> None:
        self._db = db
        self._d = dialect

    def _items(self, rows: Sequence[Any]) -> builtins.list[MemoryItem]:
        d = self._d
        return [memory_from_row(d, r) for r in rows]

    async def get_many(self, scope: Scope, memory_ids: Sequence[str]) -> builtins.list[MemoryItem]:
        if not memory_ids:
            return []
        where, params = scoped_ids(self._d, scope, memory_ids)
        # In a transaction the rows found stay until it commits (a concurrent delete waits): what
        # a writer checked is still there when it writes (the worker's "still there?" before
        # indexing, which would otherwise bring back a memory deleted meanwhile). SQLite's one
        # writer holds the whole file already.
        lock = self._d.share_lock if self._db.in_transaction else ""
        rows = await self._db.fetch_all((f"SELECT * FROM memories WHERE {where}{lock}", params))
        by_id = {m.id: m for m in self._items(rows)}
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
    ) -> builtins.list[MemoryItem]:
        query = list_memories(
            self._d,
            scope,
            kind=kind,
            thread_id=thread_id,
            memory_type=memory_type,
            since=since,
            until=until,
            current=current_at,
            limit=limit,
            offset=offset,
        )
        return self._items(await self._db.fetch_all(query))

    async def count(self, scope: Scope | None = None) -> int:
        if scope is None:
            return await self._count(("SELECT count(*) AS n FROM memories", ()))
        where, params = scope_filter(self._d, scope)
        return await self._count((f"SELECT count(*) AS n FROM memories WHERE {where}", params))

    async def count_tenant(self, tenant_id: str) -> int:
        return await self._count((self._d.sql("SELECT count(*) AS n FROM memories WHERE tenant_id = ?"), (tenant_id,)))

    async def current_by_key(self, scope: Scope, key: str) -> builtins.list[MemoryItem]:
        where, params = scope_filter(self._d, scope)
        sql = (
            f"SELECT * FROM memories WHERE {where} AND key = ? AND valid_to IS NULL ORDER BY created_at DESC, rid DESC"
        )
        return self._items(await self._db.fetch_all((self._d.sql(sql), (*params, key))))

    async def closed_facts(self, scope: Scope, limit: int) -> builtins.list[MemoryItem]:
        return self._items(await self._db.fetch_all(closed_facts_query(self._d, scope, limit)))

    async def touch(self, scope: Scope, memory_ids: Sequence[str], when: datetime) -> None:
        if not memory_ids:
            return
        d = self._d
        where, params = scoped_ids(d, scope, memory_ids)
        await self._db.execute(
            (
                d.sql("UPDATE memories SET access_count = access_count + 1, last_accessed = ? WHERE ") + where,
                (d.time_in(when), *params),
            )
        )

    async def history(self, scope: Scope, memory_id: str) -> builtins.list[HistoryEntry]:
        rows = await self._db.fetch_all(
            (
                self._d.sql(
                    "SELECT * FROM memory_history WHERE tenant_id = ? AND user_id = ? AND memory_id = ? ORDER BY id"
                ),
                (scope.tenant_id, scope.user_id, memory_id),
            )
        )
        return [history_from_row(self._d, r) for r in rows]

    async def scopes(self) -> builtins.list[tuple[str, str]]:
        c = self._d.collate_bytes  # byte order on both engines, whatever the database's collation
        rows = await self._db.fetch_all(
            (
                "SELECT tenant_id, user_id FROM (SELECT DISTINCT tenant_id, user_id FROM memories) s"
                f" ORDER BY tenant_id{c}, user_id{c}",
                (),
            )
        )
        return [(r["tenant_id"], r["user_id"]) for r in rows]

    async def _count(self, query: Query) -> int:
        row = await self._db.fetch_one(query)
        return int(row["n"]) if row else 0
