"""Memories on SQLite: the shared SQL store (:mod:`..sql.memories`) plus what SQLite does its own
way. A batch is written row by row on the one writer connection (in its own transaction), and
deleting a memory also removes its keyword and vector index entries and its history here (no
cascading foreign keys on those tables)."""

from __future__ import annotations

import builtins
import sqlite3
from collections.abc import Mapping, Sequence

from ...domain.model import HistoryEntry, MemoryItem, Scope
from ..sql import memories as core
from ..sql.rows import memory_from_row
from ..sql.where import insert, scope_filter, scoped_ids, upsert
from .db import SqliteDatabase
from .dialect import SQLITE, placeholders
from .keywords import unindex

_UPSERT = insert("memories", core.COLUMNS) + " " + upsert("id", core.UPDATED_BY_UPSERT, where=core.SAME_SCOPE)
_RESTORE = insert("memories", core.COLUMNS + core.ACCESS) + " ON CONFLICT (id) DO NOTHING"


class SqliteMemoryStore(core.SqlMemoryStore):
    """The :class:`~hipocampo.ports.MemoryStore` port on the shared SQLite database."""

    _db: SqliteDatabase

    def __init__(self, db: SqliteDatabase) -> None:
        super().__init__(db, SQLITE)

    async def upsert(self, items: Sequence[MemoryItem]) -> None:
        rows = [core.memory_values(SQLITE, m) for m in items]
        if rows:
            await self._db.write(lambda c: c.executemany(_UPSERT, rows))

    async def restore(self, items: Sequence[MemoryItem]) -> int:
        rows = [core.memory_values(SQLITE, m) + core.access_values(SQLITE, m) for m in items]
        if not rows:
            return 0
        return await self._db.write(lambda c: sum(c.execute(_RESTORE, row).rowcount for row in rows))

    async def neighbours(self, scope: Scope, thread_id: str, seqs: Sequence[int]) -> builtins.list[MemoryItem]:
        return await self.neighbours_of(scope, {thread_id: seqs})

    async def neighbours_of(self, scope: Scope, positions: Mapping[str, Sequence[int]]) -> builtins.list[MemoryItem]:
        """Every thread's positions in one read (one trip to the reader thread, where a read per
        thread queued one each behind the others)."""
        wanted = [(t, list(positions[t])) for t in sorted(positions) if positions[t]]
        if not wanted:
            return []
        where, params = scope_filter(SQLITE, scope)

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

        return [memory_from_row(SQLITE, r) for r in await self._db.read(read)]

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> int:
        if not memory_ids:
            return 0
        return await self._delete_where(*scoped_ids(SQLITE, scope, memory_ids))

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

    async def add_history(self, scope: Scope, entries: Sequence[HistoryEntry]) -> None:
        rows = [(e.memory_id, scope.tenant_id, scope.user_id, *core.history_values(SQLITE, e)) for e in entries]
        if rows:
            await self._db.write(
                lambda c: c.executemany(
                    "INSERT INTO memory_history (memory_id, tenant_id, user_id, event, old_content, new_content,"
                    " actor, reason, related_id, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    rows,
                )
            )


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
