"""Memories on SQLite. Deleting a memory also removes its keyword and vector index entries."""

from __future__ import annotations

import builtins
import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime

from ...domain.model import CUSTOM_TYPE_KEY, HistoryEntry, HistoryEvent, MemoryItem, MemoryKind, MemoryType, Scope
from .db import SqliteDatabase
from .keywords import unindex
from .rows import from_epoch, memory_from_row, placeholders, scope_filter, to_epoch

_UPSERT = """
INSERT INTO memories (id, tenant_id, user_id, agent_id, thread_id, kind, memory_type, content, name, role,
                      seq, importance, source_ids, metadata, created_at, updated_at, valid_to,
                      key, confidence, mention_count, expires_at, event_start, event_end)
VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
ON CONFLICT (id) DO UPDATE SET
    content = excluded.content, memory_type = excluded.memory_type, importance = excluded.importance,
    source_ids = excluded.source_ids, metadata = excluded.metadata, updated_at = excluded.updated_at,
    valid_to = excluded.valid_to, name = excluded.name, confidence = excluded.confidence,
    mention_count = excluded.mention_count, expires_at = excluded.expires_at,
    event_start = excluded.event_start, event_end = excluded.event_end
WHERE memories.tenant_id = excluded.tenant_id AND memories.user_id = excluded.user_id
"""
# Not updated by an upsert: identity and position (id, scope, kind, thread, seq, role, key, created_at),
# and the access counters, which only touch() moves.

_RESTORE = """
INSERT INTO memories (id, tenant_id, user_id, agent_id, thread_id, kind, memory_type, content, name, role,
                      seq, importance, source_ids, metadata, created_at, updated_at, valid_to,
                      key, confidence, mention_count, expires_at, event_start, event_end,
                      access_count, last_accessed)
VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
ON CONFLICT (id) DO NOTHING
"""


def _values(m: MemoryItem) -> tuple[object, ...]:
    """The columns of ``_UPSERT``, in its order."""
    return (
        m.id,
        m.scope.tenant_id,
        m.scope.user_id,
        m.scope.agent_id,
        m.thread_id,
        m.kind.value,
        m.memory_type.value if m.memory_type else None,
        m.content,
        m.name,
        m.role.value if m.role else None,
        m.seq,
        m.importance,
        json.dumps(m.source_message_ids),
        json.dumps(m.metadata),
        to_epoch(m.created_at),
        to_epoch(m.updated_at),
        to_epoch(m.valid_to),
        m.key,
        m.confidence,
        m.mention_count,
        to_epoch(m.expires_at),
        to_epoch(m.event_start),
        to_epoch(m.event_end),
    )


def _history_from_row(row: sqlite3.Row) -> HistoryEntry:
    return HistoryEntry(
        memory_id=row["memory_id"],
        event=HistoryEvent(row["event"]),
        created_at=from_epoch(row["created_at"]),  # type: ignore[arg-type]
        old_content=row["old_content"],
        new_content=row["new_content"],
        actor=row["actor"],
        reason=row["reason"],
        related_id=row["related_id"],
    )


class SqliteMemoryStore:
    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def upsert(self, items: Sequence[MemoryItem]) -> None:
        rows = [_values(m) for m in items]
        if rows:
            await self._db.write(lambda c: c.executemany(_UPSERT, rows))

    async def restore(self, items: Sequence[MemoryItem]) -> int:
        rows = [(*_values(m), m.access_count, to_epoch(m.last_accessed)) for m in items]
        if not rows:
            return 0
        return await self._db.write(lambda c: sum(c.execute(_RESTORE, row).rowcount for row in rows))

    async def get_many(self, scope: Scope, memory_ids: Sequence[str]) -> list[MemoryItem]:
        if not memory_ids:
            return []
        where, params = scope_filter(scope, by_id=True)
        rows = await self._db.read(
            lambda c: c.execute(
                f"SELECT * FROM memories WHERE {where} AND id IN ({placeholders(len(memory_ids))})",
                (*params, *memory_ids),
            ).fetchall()
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
        where, params = scope_filter(scope)
        custom = memory_type if memory_type is not None and not isinstance(memory_type, MemoryType) else None
        if custom is not None:
            where += f" AND kind = 'fact' AND memory_type IS NULL AND json_extract(metadata, '$.{CUSTOM_TYPE_KEY}') = ?"
            params.append(custom)
        for column, op, value in (
            ("kind", "=", kind.value if kind else None),
            ("thread_id", "=", thread_id),
            ("memory_type", "=", memory_type.value if isinstance(memory_type, MemoryType) else None),
            ("created_at", ">=", to_epoch(since)),
            ("created_at", "<", to_epoch(until)),
        ):
            if value is not None:
                where += f" AND {column} {op} ?"
                params.append(value)
        if current_at is not None:
            where += " AND (valid_to IS NULL OR valid_to > ?) AND (expires_at IS NULL OR expires_at > ?)"
            params += [to_epoch(current_at), to_epoch(current_at)]
        rows = await self._db.read(
            lambda c: c.execute(
                f"SELECT * FROM memories WHERE {where} ORDER BY created_at DESC, rid DESC LIMIT ? OFFSET ?",
                (*params, limit, offset),
            ).fetchall()
        )
        return [memory_from_row(r) for r in rows]

    async def neighbours(self, scope: Scope, thread_id: str, seqs: Sequence[int]) -> builtins.list[MemoryItem]:
        return await self.neighbours_of(scope, {thread_id: seqs})

    async def neighbours_of(self, scope: Scope, positions: Mapping[str, Sequence[int]]) -> builtins.list[MemoryItem]:
        """Every thread's positions in one read (one trip to the reader thread, where a read per
        thread queued one each behind the others)."""
        wanted = [(t, list(positions[t])) for t in sorted(positions) if positions[t]]
        if not wanted:
            return []
        where, params = scope_filter(scope)

        def read(conn: sqlite3.Connection) -> list[sqlite3.Row]:
            return [
                row
                for thread_id, seqs in wanted
                for row in conn.execute(
                    f"SELECT * FROM memories WHERE {where} AND kind = 'turn' AND thread_id = ?"
                    f" AND seq IN ({placeholders(len(seqs))}) ORDER BY seq",
                    (*params, thread_id, *seqs),
                )
            ]

        return [memory_from_row(r) for r in await self._db.read(read)]

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> int:
        if not memory_ids:
            return 0
        where, params = scope_filter(scope, by_id=True)
        return await self._delete_where(f"{where} AND id IN ({placeholders(len(memory_ids))})", [*params, *memory_ids])

    async def delete_thread(self, scope: Scope, thread_id: str) -> int:
        return await self._delete_where(
            "tenant_id = ? AND user_id = ? AND thread_id = ?", [scope.tenant_id, scope.user_id, thread_id]
        )

    async def delete_user(self, scope: Scope) -> int:
        return await self._delete_where("tenant_id = ? AND user_id = ?", [scope.tenant_id, scope.user_id])

    async def _delete_where(self, where: str, params: builtins.list[object]) -> int:
        def delete(conn: sqlite3.Connection) -> int:
            rows = conn.execute(f"SELECT rid, id, tenant_id, user_id FROM memories WHERE {where}", params).fetchall()
            if not rows:
                return 0
            rids = [r["rid"] for r in rows]
            ids = [r["id"] for r in rows]
            for chunk in _chunks(rids):
                unindex(conn, chunk)  # with the users' keyword statistics
                conn.execute(f"DELETE FROM memories WHERE rid IN ({placeholders(len(chunk))})", chunk)
            for chunk in _chunks(ids):
                conn.execute(f"DELETE FROM vectors WHERE memory_id IN ({placeholders(len(chunk))})", chunk)
                conn.execute(f"DELETE FROM memory_history WHERE memory_id IN ({placeholders(len(chunk))})", chunk)
            for tenant, user in {(r["tenant_id"], r["user_id"]) for r in rows}:
                bump_epoch(conn, tenant, user, rewrite=True)
            return len(rows)

        return await self._db.write(delete)

    async def count(self, scope: Scope | None = None) -> int:
        if scope is None:
            return await self._db.read(lambda c: c.execute("SELECT count(*) FROM memories").fetchone()[0])
        where, params = scope_filter(scope)
        return await self._db.read(
            lambda c: c.execute(f"SELECT count(*) FROM memories WHERE {where}", params).fetchone()[0]
        )

    async def count_tenant(self, tenant_id: str) -> int:
        return await self._db.read(
            lambda c: c.execute("SELECT count(*) FROM memories WHERE tenant_id = ?", (tenant_id,)).fetchone()[0]
        )

    async def current_by_key(self, scope: Scope, key: str) -> builtins.list[MemoryItem]:
        where, params = scope_filter(scope)
        rows = await self._db.read(
            lambda c: c.execute(
                f"SELECT * FROM memories WHERE {where} AND key = ? AND valid_to IS NULL"
                " ORDER BY created_at DESC, rid DESC",
                (*params, key),
            ).fetchall()
        )
        return [memory_from_row(r) for r in rows]

    async def closed_facts(self, scope: Scope, limit: int) -> builtins.list[MemoryItem]:
        where, params = scope_filter(scope)
        sql = (
            f"WITH closed AS (SELECT * FROM memories WHERE {where} AND valid_to IS NOT NULL AND key IS NOT NULL"
            " AND kind = 'fact' ORDER BY valid_to DESC, rid DESC LIMIT ?)"
            " SELECT *, 0 AS part, valid_to AS at FROM closed"
            " UNION ALL SELECT *, 1 AS part, created_at AS at FROM memories"
            f" WHERE {where} AND valid_to IS NULL AND kind = 'fact'"
            " AND key IN (SELECT key FROM closed)"
            " ORDER BY part, at DESC, rid DESC"
        )
        rows = await self._db.read(lambda c: c.execute(sql, (*params, max(limit, 0), *params)).fetchall())
        return [memory_from_row(r) for r in rows]

    async def touch(self, scope: Scope, memory_ids: Sequence[str], when: datetime) -> None:
        if not memory_ids:
            return
        where, params = scope_filter(scope, by_id=True)
        await self._db.write(
            lambda c: c.execute(
                f"UPDATE memories SET access_count = access_count + 1, last_accessed = ?"
                f" WHERE {where} AND id IN ({placeholders(len(memory_ids))})",
                (to_epoch(when), *params, *memory_ids),
            )
        )

    async def add_history(self, scope: Scope, entries: Sequence[HistoryEntry]) -> None:
        rows = [
            (
                e.memory_id,
                scope.tenant_id,
                scope.user_id,
                e.event.value,
                e.old_content,
                e.new_content,
                e.actor,
                e.reason,
                e.related_id,
                to_epoch(e.created_at),
            )
            for e in entries
        ]
        if rows:
            await self._db.write(
                lambda c: c.executemany(
                    "INSERT INTO memory_history (memory_id, tenant_id, user_id, event, old_content, new_content,"
                    " actor, reason, related_id, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    rows,
                )
            )

    async def history(self, scope: Scope, memory_id: str) -> builtins.list[HistoryEntry]:
        rows = await self._db.read(
            lambda c: c.execute(
                "SELECT * FROM memory_history WHERE tenant_id = ? AND user_id = ? AND memory_id = ? ORDER BY id",
                (scope.tenant_id, scope.user_id, memory_id),
            ).fetchall()
        )
        return [_history_from_row(r) for r in rows]

    async def scopes(self) -> builtins.list[tuple[str, str]]:
        rows = await self._db.read(
            lambda c: c.execute("SELECT DISTINCT tenant_id, user_id FROM memories ORDER BY 1, 2").fetchall()
        )
        return [(r["tenant_id"], r["user_id"]) for r in rows]


def bump_epoch(conn: sqlite3.Connection, tenant_id: str, user_id: str, *, rewrite: bool) -> None:
    """Tell vector caches (in this and other processes) that a user's vectors changed.

    ``rewrite`` means rows were removed or replaced, so an append-only refresh is not enough.
    """
    conn.execute(
        "INSERT INTO vector_epochs (tenant_id, user_id, epoch, rewrites) VALUES (?, ?, 1, ?)"
        " ON CONFLICT (tenant_id, user_id) DO UPDATE SET epoch = epoch + 1, rewrites = rewrites + excluded.rewrites",
        (tenant_id, user_id, int(rewrite)),
    )


def _chunks(values: list, size: int = 500) -> list[list]:
    return [values[i : i + size] for i in range(0, len(values), size)]
