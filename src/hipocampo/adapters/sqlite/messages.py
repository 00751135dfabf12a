"""The conversation log on SQLite, with the transactional outbox: the shared SQL log
(:mod:`..sql.messages`) plus appending and restoring, which run on the one writer connection (so
positions are handed out without a lock of their own)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from ...domain.errors import Conflict
from ...domain.model import Job, Message, NewMessage, Scope
from ...ports import Clock
from ..sql.messages import INSERTED, SqlMessageLog, conflict_message, message_values
from ..sql.rows import message_from_row
from ..sql.where import insert, scoped_ids
from .db import SqliteDatabase
from .dialect import SQLITE, placeholders, to_epoch
from .jobs import insert_jobs

_INSERT = insert("messages", (*INSERTED, "ingested_at"))
_THREAD = (
    "INSERT INTO threads (tenant_id, user_id, thread_id, agent_id, created_at, last_seq, version)"
    " VALUES (?,?,?,?,?,?,?) ON CONFLICT (tenant_id, user_id, thread_id)"
)


class SqliteMessageLog(SqlMessageLog):
    """The :class:`~hipocampo.ports.MessageLog` port on the shared SQLite database."""

    _db: SqliteDatabase

    def __init__(self, db: SqliteDatabase, clock: Clock) -> None:
        super().__init__(db, SQLITE)
        self._clock = clock

    async def append(
        self, scope: Scope, thread_id: str, messages: Sequence[NewMessage], jobs: Sequence[Job]
    ) -> list[Message]:
        now = self._clock.now()

        def write(conn: sqlite3.Connection) -> list[Message]:
            row = conn.execute(
                "SELECT last_seq FROM threads WHERE tenant_id = ? AND user_id = ? AND thread_id = ?",
                (scope.tenant_id, scope.user_id, thread_id),
            ).fetchone()
            seq = -1 if row is None else row["last_seq"]
            stored: list[Message] = []
            new_ids: list[str] = []
            for m in messages:
                if m.id is not None:
                    existing = conn.execute(
                        "SELECT * FROM messages WHERE tenant_id = ? AND user_id = ? AND external_id = ?",
                        (scope.tenant_id, scope.user_id, m.id),
                    ).fetchone()
                    if existing is not None:
                        stored.append(message_from_row(SQLITE, existing))
                        continue
                seq += 1
                msg = m.stored(scope, thread_id, seq, now)
                conn.execute(_INSERT, (*message_values(SQLITE, msg), to_epoch(now)))
                stored.append(msg)
                new_ids.append(msg.id)
            if new_ids:  # a retry of stored messages creates no thread, no job, no new version
                conn.execute(
                    _THREAD + " DO UPDATE SET last_seq = excluded.last_seq, version = excluded.version",
                    (
                        scope.tenant_id,
                        scope.user_id,
                        thread_id,
                        scope.agent_id,
                        to_epoch(now),
                        seq,
                        _next_version(conn),
                    ),
                )
                insert_jobs(conn, [j.with_message_ids(new_ids) for j in jobs], now)
            return stored

        return await self._db.write(write)

    async def threads(self, scope: Scope) -> list[str]:
        rows = await self._db.fetch_all(
            (
                "SELECT thread_id FROM threads WHERE tenant_id = ? AND user_id = ? ORDER BY created_at",
                (scope.tenant_id, scope.user_id),
            )
        )
        return [r["thread_id"] for r in rows]

    async def restore(self, messages: Sequence[Message]) -> int:
        now = to_epoch(self._clock.now())

        def write(conn: sqlite3.Connection) -> int:
            written = 0
            threads: dict[tuple[str, str, str], tuple[str | None, float | None, int]] = {}
            for m in messages:
                s = m.scope
                try:
                    inserted = conn.execute(
                        _INSERT + " ON CONFLICT (id) DO NOTHING", (*message_values(SQLITE, m), now)
                    ).rowcount
                except sqlite3.IntegrityError as exc:  # the position or the caller id is taken
                    raise Conflict(conflict_message(m)) from exc
                if inserted:
                    written += 1
                    key = (s.tenant_id, s.user_id, m.thread_id)
                    first = threads.get(key, (s.agent_id, to_epoch(m.created_at), m.seq))
                    threads[key] = (first[0], first[1], max(first[2], m.seq))
            for (tenant, user, thread_id), (agent, created, last_seq) in threads.items():
                conn.execute(
                    _THREAD + " DO UPDATE SET last_seq = max(last_seq, excluded.last_seq), version = excluded.version",
                    (tenant, user, thread_id, agent, created, last_seq, _next_version(conn)),
                )
            return written

        return await self._db.write(write)

    async def delete_messages(self, scope: Scope, message_ids: Sequence[str]) -> int:
        if not message_ids:
            return 0
        chosen, params = scoped_ids(SQLITE, scope, message_ids)

        def delete(conn: sqlite3.Connection) -> int:
            threads = [r[0] for r in conn.execute(f"SELECT DISTINCT thread_id FROM messages WHERE {chosen}", params)]
            n = conn.execute(f"DELETE FROM messages WHERE {chosen}", params).rowcount
            if threads:
                conn.execute(
                    "UPDATE threads SET version = ? WHERE tenant_id = ? AND user_id = ?"
                    f" AND thread_id IN ({placeholders(len(threads))})",
                    (_next_version(conn), scope.tenant_id, scope.user_id, *threads),
                )
            return n

        return await self._db.write(delete)


def _next_version(conn: sqlite3.Connection) -> int:
    """A thread version no thread had before (see migration 6): the counter only grows."""
    (value,) = conn.execute("UPDATE thread_version_clock SET value = value + 1 WHERE id = 1 RETURNING value").fetchone()
    return int(value)
