"""The conversation log on SQLite, with the transactional outbox."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from ...domain.errors import Conflict
from ...domain.model import Job, Message, NewMessage, Scope
from ...ports import Clock
from .db import SqliteDatabase
from .jobs import insert_jobs
from .rows import message_from_row, placeholders, scope_filter, to_epoch


class SqliteMessageLog:
    def __init__(self, db: SqliteDatabase, clock: Clock) -> None:
        self._db = db
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
                        stored.append(message_from_row(existing))
                        continue
                seq += 1
                msg = m.stored(scope, thread_id, seq, now)
                conn.execute(
                    "INSERT INTO messages (id, external_id, tenant_id, user_id, agent_id, thread_id, seq,"
                    " role, name, content, created_at, ingested_at, metadata)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        msg.id,
                        msg.external_id,
                        scope.tenant_id,
                        scope.user_id,
                        scope.agent_id,
                        thread_id,
                        seq,
                        msg.role.value,
                        msg.name,
                        msg.content,
                        to_epoch(msg.created_at),
                        to_epoch(now),
                        json.dumps(msg.metadata),
                    ),
                )
                stored.append(msg)
                new_ids.append(msg.id)
            if new_ids:  # a retry of stored messages creates no thread, no job, no new version
                conn.execute(
                    "INSERT INTO threads (tenant_id, user_id, thread_id, agent_id, created_at, last_seq, version)"
                    " VALUES (?,?,?,?,?,?,?) ON CONFLICT (tenant_id, user_id, thread_id)"
                    " DO UPDATE SET last_seq = excluded.last_seq, version = excluded.version",
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

    async def recent(self, scope: Scope, thread_id: str, limit: int) -> list[Message]:
        where, params = scope_filter(scope)
        rows = await self._db.read(
            lambda c: c.execute(
                f"SELECT * FROM messages WHERE {where} AND thread_id = ? ORDER BY seq DESC LIMIT ?",
                (*params, thread_id, limit),
            ).fetchall()
        )
        return [message_from_row(r) for r in reversed(rows)]

    async def get_many(self, scope: Scope, message_ids: Sequence[str]) -> list[Message]:
        if not message_ids:
            return []
        where, params = scope_filter(scope, by_id=True)
        rows = await self._db.read(
            lambda c: c.execute(
                f"SELECT * FROM messages WHERE {where} AND id IN ({placeholders(len(message_ids))})"
                " ORDER BY thread_id, seq",
                (*params, *message_ids),
            ).fetchall()
        )
        return [message_from_row(r) for r in rows]

    async def list_thread(
        self, scope: Scope, thread_id: str, *, after_seq: int = -1, limit: int = 1000
    ) -> list[Message]:
        where, params = scope_filter(scope)
        rows = await self._db.read(
            lambda c: c.execute(
                f"SELECT * FROM messages WHERE {where} AND thread_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                (*params, thread_id, after_seq, limit),
            ).fetchall()
        )
        return [message_from_row(r) for r in rows]

    async def threads(self, scope: Scope) -> list[str]:
        rows = await self._db.read(
            lambda c: c.execute(
                "SELECT thread_id FROM threads WHERE tenant_id = ? AND user_id = ? ORDER BY created_at",
                (scope.tenant_id, scope.user_id),
            ).fetchall()
        )
        return [r["thread_id"] for r in rows]

    async def users(self, tenant_id: str) -> list[str]:
        rows = await self._db.read(
            lambda c: c.execute(
                "SELECT DISTINCT user_id FROM threads WHERE tenant_id = ? ORDER BY user_id", (tenant_id,)
            ).fetchall()
        )
        return [r["user_id"] for r in rows]

    async def iter_all(self, *, after_rowid: int = 0, limit: int = 1000) -> list[tuple[int, Message]]:
        rows = await self._db.read(
            lambda c: c.execute(
                "SELECT * FROM messages WHERE rid > ? ORDER BY rid LIMIT ?", (after_rowid, limit)
            ).fetchall()
        )
        return [(r["rid"], message_from_row(r)) for r in rows]

    async def restore(self, messages: Sequence[Message]) -> int:
        now = to_epoch(self._clock.now())

        def write(conn: sqlite3.Connection) -> int:
            written = 0
            threads: dict[tuple[str, str, str], tuple[str | None, float | None, int]] = {}
            for m in messages:
                s = m.scope
                try:
                    inserted = conn.execute(
                        "INSERT INTO messages (id, external_id, tenant_id, user_id, agent_id, thread_id, seq,"
                        " role, name, content, created_at, ingested_at, metadata)"
                        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (id) DO NOTHING",
                        (
                            m.id,
                            m.external_id,
                            s.tenant_id,
                            s.user_id,
                            s.agent_id,
                            m.thread_id,
                            m.seq,
                            m.role.value,
                            m.name,
                            m.content,
                            to_epoch(m.created_at),
                            now,
                            json.dumps(m.metadata),
                        ),
                    ).rowcount
                except sqlite3.IntegrityError as exc:  # the position or the caller id is taken
                    raise Conflict(
                        f"message {m.id!r} would take seq {m.seq} of thread {m.thread_id!r} or caller id"
                        f" {m.external_id!r} from another message of {s.tenant_id}/{s.user_id}"
                    ) from exc
                if inserted:
                    written += 1
                    key = (s.tenant_id, s.user_id, m.thread_id)
                    first = threads.get(key, (s.agent_id, to_epoch(m.created_at), m.seq))
                    threads[key] = (first[0], first[1], max(first[2], m.seq))
            for (tenant, user, thread_id), (agent, created, last_seq) in threads.items():
                conn.execute(
                    "INSERT INTO threads (tenant_id, user_id, thread_id, agent_id, created_at, last_seq, version)"
                    " VALUES (?,?,?,?,?,?,?) ON CONFLICT (tenant_id, user_id, thread_id)"
                    " DO UPDATE SET last_seq = max(last_seq, excluded.last_seq), version = excluded.version",
                    (tenant, user, thread_id, agent, created, last_seq, _next_version(conn)),
                )
            return written

        return await self._db.write(write)

    async def scopes(self) -> list[tuple[str, str]]:
        rows = await self._db.read(
            lambda c: c.execute("SELECT DISTINCT tenant_id, user_id FROM threads ORDER BY 1, 2").fetchall()
        )
        return [(r["tenant_id"], r["user_id"]) for r in rows]

    async def count(self, scope: Scope | None = None) -> int:
        if scope is None:
            return await self._db.read(lambda c: c.execute("SELECT count(*) FROM messages").fetchone()[0])
        where, params = scope_filter(scope)
        return await self._db.read(
            lambda c: c.execute(f"SELECT count(*) FROM messages WHERE {where}", params).fetchone()[0]
        )

    async def delete_messages(self, scope: Scope, message_ids: Sequence[str]) -> int:
        if not message_ids:
            return 0
        where, params = scope_filter(scope, by_id=True)
        chosen = f"{where} AND id IN ({placeholders(len(message_ids))})"

        def delete(conn: sqlite3.Connection) -> int:
            threads = [
                r[0]
                for r in conn.execute(
                    f"SELECT DISTINCT thread_id FROM messages WHERE {chosen}", (*params, *message_ids)
                ).fetchall()
            ]
            n = conn.execute(f"DELETE FROM messages WHERE {chosen}", (*params, *message_ids)).rowcount
            if threads:
                conn.execute(
                    "UPDATE threads SET version = ? WHERE tenant_id = ? AND user_id = ?"
                    f" AND thread_id IN ({placeholders(len(threads))})",
                    (_next_version(conn), scope.tenant_id, scope.user_id, *threads),
                )
            return n

        return await self._db.write(delete)

    async def delete_thread(self, scope: Scope, thread_id: str) -> int:
        def delete(conn: sqlite3.Connection) -> int:
            args = (scope.tenant_id, scope.user_id, thread_id)
            n = conn.execute(
                "DELETE FROM messages WHERE tenant_id = ? AND user_id = ? AND thread_id = ?", args
            ).rowcount
            conn.execute("DELETE FROM threads WHERE tenant_id = ? AND user_id = ? AND thread_id = ?", args)
            return n

        return await self._db.write(delete)

    async def delete_user(self, scope: Scope) -> int:
        def delete(conn: sqlite3.Connection) -> int:
            args = (scope.tenant_id, scope.user_id)
            n = conn.execute("DELETE FROM messages WHERE tenant_id = ? AND user_id = ?", args).rowcount
            conn.execute("DELETE FROM threads WHERE tenant_id = ? AND user_id = ?", args)
            return n

        return await self._db.write(delete)

    async def thread_version(self, scope: Scope, thread_id: str) -> int:
        row = await self._db.read(
            lambda c: c.execute(
                "SELECT version FROM threads WHERE tenant_id = ? AND user_id = ? AND thread_id = ?",
                (scope.tenant_id, scope.user_id, thread_id),
            ).fetchone()
        )
        return 0 if row is None else int(row["version"])


def _next_version(conn: sqlite3.Connection) -> int:
    """A thread version no thread had before (see migration 6): the counter only grows."""
    (value,) = conn.execute("UPDATE thread_version_clock SET value = value + 1 WHERE id = 1 RETURNING value").fetchone()
    return int(value)
