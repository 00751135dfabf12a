"""The conversation log on Postgres, with the transactional outbox.

Many processes append at once, so positions are handed out under a lock: each append locks its
thread's row (an upsert, which also creates the thread) and numbers its messages after the
thread's ``last_seq``. Appends to one thread queue behind each other; appends to different threads
never wait. Caller-supplied ids are looked up again under that lock, and inserted with ``ON
CONFLICT DO NOTHING`` on their unique index, so a retry racing its own first attempt (even to
another thread) is returned as stored instead of failing.

Every change of a thread's messages gives its row a new ``version`` from the ``thread_versions``
sequence (see the schema), which is what :meth:`PostgresMessageLog.thread_version` reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ...domain.errors import Conflict
from ...domain.model import Job, Message, NewMessage, Scope
from ...ports import Clock
from ..sql.dialect import Query
from ..sql.messages import SqlMessageLog, conflict_message, message_values
from ..sql.rows import message_from_row
from ..sql.where import scoped_ids
from .db import PostgresDatabase
from .dialect import POSTGRES
from .jobs import insert_jobs


def by_external_ids(scope: Scope, external_ids: Sequence[str]) -> Query:
    return (
        "SELECT * FROM messages WHERE tenant_id = %s AND user_id = %s AND external_id = ANY(%s)",
        (scope.tenant_id, scope.user_id, list(external_ids)),
    )


def lock_thread(scope: Scope, thread_id: str, now: datetime) -> Query:
    """Create the thread if new, lock its row until commit, and return its ``last_seq``."""
    return (
        "INSERT INTO threads AS t (tenant_id, user_id, thread_id, agent_id, created_at) VALUES (%s, %s, %s, %s, %s)"
        " ON CONFLICT (tenant_id, user_id, thread_id) DO UPDATE SET last_seq = t.last_seq RETURNING last_seq",
        (scope.tenant_id, scope.user_id, thread_id, scope.agent_id, now),
    )


def insert_messages(messages: Sequence[Message], now: datetime, *, keep_ids: bool = False) -> Query:
    """One statement for the whole batch (arrays unnested, in order); returns the ids inserted.

    A message whose caller id is stored already in its scope is skipped; with ``keep_ids``
    (restoring), one that clashes on anything unique (its id, its place, its caller id) is.
    """
    columns: list[list[Any]] = [[] for _ in range(12)]
    for m in messages:
        for column, value in zip(columns, message_values(POSTGRES, m), strict=True):
            column.append(value)
    conflict = (
        "ON CONFLICT DO NOTHING"
        if keep_ids
        else "ON CONFLICT (tenant_id, user_id, external_id) WHERE external_id IS NOT NULL DO NOTHING"
    )
    return (
        "INSERT INTO messages (id, external_id, tenant_id, user_id, agent_id, thread_id, seq, role, name,"
        " content, created_at, ingested_at, metadata)"
        " SELECT m.id, m.external_id, m.tenant_id, m.user_id, m.agent_id, m.thread_id, m.seq, m.role, m.name,"
        " m.content, m.created_at, %s, m.metadata::jsonb"
        " FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::bigint[],"
        " %s::text[], %s::text[], %s::text[], %s::timestamptz[], %s::text[]) WITH ORDINALITY AS m (id, external_id,"
        " tenant_id, user_id, agent_id, thread_id, seq, role, name, content, created_at, metadata, n)"
        f" ORDER BY m.n {conflict} RETURNING id",
        (now, *columns),
    )


def upsert_restored_threads(messages: Sequence[Message]) -> Query:
    """Create (or extend) the threads of restored messages, each with a new version. A new
    thread was created when its first restored message was said."""
    threads: dict[tuple[str, str, str], list[Any]] = {}
    for m in messages:
        key = (m.scope.tenant_id, m.scope.user_id, m.thread_id)
        if key in threads:
            threads[key][2] = max(threads[key][2], m.seq)
        else:
            threads[key] = [m.scope.agent_id, m.created_at, m.seq]
    keys = sorted(threads)  # a fixed lock order: two restores never deadlock
    columns = [
        [k[0] for k in keys],
        [k[1] for k in keys],
        [k[2] for k in keys],
        *([threads[k][i] for k in keys] for i in range(3)),
    ]
    return (
        "INSERT INTO threads AS t (tenant_id, user_id, thread_id, agent_id, created_at, last_seq)"
        " SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::timestamptz[], %s::bigint[])"
        " ON CONFLICT (tenant_id, user_id, thread_id) DO UPDATE"
        " SET last_seq = greatest(t.last_seq, excluded.last_seq), version = nextval('thread_versions')",
        columns,
    )


class PostgresMessageLog(SqlMessageLog):
    """The :class:`~hipocampo.ports.MessageLog` port on the shared Postgres database."""

    _db: PostgresDatabase

    def __init__(self, db: PostgresDatabase, clock: Clock) -> None:
        super().__init__(db, POSTGRES)
        self._clock = clock

    async def append(
        self, scope: Scope, thread_id: str, messages: Sequence[NewMessage], jobs: Sequence[Job]
    ) -> list[Message]:
        now = self._clock.now()
        async with self._db.transaction(), self._db.connection() as conn:
            known = await self._known(conn, scope, [m.id for m in messages if m.id is not None])
            if all(m.id is not None and m.id in known for m in messages):
                return [known[m.id] for m in messages if m.id is not None]  # a retry: nothing to write
            cur = await conn.execute(*lock_thread(scope, thread_id, now))
            row = await cur.fetchone()
            assert row is not None  # the thread row was just upserted under its lock
            seq = row["last_seq"]
            # Under the thread's lock: a racing retry of these messages may have committed since.
            known |= await self._known(conn, scope, [m.id for m in messages if m.id is not None and m.id not in known])
            stored: list[Message] = []
            fresh: list[Message] = []
            for m in messages:
                if m.id is not None and m.id in known:
                    stored.append(known[m.id])
                    continue
                seq += 1
                msg = m.stored(scope, thread_id, seq, now)
                if m.id is not None:
                    known[m.id] = msg  # the same id twice in one batch is one message
                stored.append(msg)
                fresh.append(msg)
            if not fresh:
                return stored
            cur = await conn.execute(*insert_messages(fresh, now))
            inserted = {r["id"] for r in await cur.fetchall()}
            if len(inserted) < len(fresh):  # a retry of ours committed in another thread meanwhile
                stored = await self._swap_lost(conn, scope, stored, inserted, fresh)
                fresh = [m for m in fresh if m.id in inserted]
            if fresh:
                await conn.execute(
                    "UPDATE threads SET last_seq = %s, version = nextval('thread_versions')"
                    " WHERE tenant_id = %s AND user_id = %s AND thread_id = %s",
                    (seq, scope.tenant_id, scope.user_id, thread_id),
                )
                new_ids = [m.id for m in fresh]
                await insert_jobs(conn, [j.with_message_ids(new_ids) for j in jobs], now)
            return stored

    async def _known(self, conn: Any, scope: Scope, external_ids: list[str]) -> dict[str, Message]:
        if not external_ids:
            return {}
        cur = await conn.execute(*by_external_ids(scope, external_ids))
        return {r["external_id"]: message_from_row(POSTGRES, r) for r in await cur.fetchall()}

    async def _swap_lost(
        self, conn: Any, scope: Scope, stored: list[Message], inserted: set[str], fresh: list[Message]
    ) -> list[Message]:
        lost = {m.id: m.external_id for m in fresh if m.id not in inserted}
        winners = await self._known(conn, scope, [e for e in lost.values() if e is not None])
        return [winners[m.external_id] if m.id in lost and m.external_id else m for m in stored]

    async def threads(self, scope: Scope) -> list[str]:
        rows = await self._db.fetch_all(
            (
                "SELECT thread_id FROM threads WHERE tenant_id = %s AND user_id = %s ORDER BY created_at, thread_id",
                (scope.tenant_id, scope.user_id),
            ),
        )
        return [r["thread_id"] for r in rows]

    async def restore(self, messages: Sequence[Message]) -> int:
        if not messages:
            return 0
        async with self._db.transaction(), self._db.connection() as conn:
            cur = await conn.execute(*insert_messages(messages, self._clock.now(), keep_ids=True))
            inserted = {r["id"] for r in await cur.fetchall()}
            skipped = [m for m in messages if m.id not in inserted]
            if skipped:
                cur = await conn.execute("SELECT id FROM messages WHERE id = ANY(%s)", ([m.id for m in skipped],))
                present = {r["id"] for r in await cur.fetchall()}
                for m in skipped:
                    if m.id not in present:  # rolls back the whole restore, as SQLite's does
                        raise Conflict(conflict_message(m))
            written = [m for m in messages if m.id in inserted]
            if written:
                await conn.execute(*upsert_restored_threads(written))
            return len(inserted)

    async def delete_messages(self, scope: Scope, message_ids: Sequence[str]) -> int:
        if not message_ids:
            return 0
        chosen, params = scoped_ids(POSTGRES, scope, message_ids)
        row = await self._db.fetch_one(
            (
                f"WITH gone AS (DELETE FROM messages WHERE {chosen} RETURNING thread_id),"
                " bumped AS (UPDATE threads SET version = nextval('thread_versions')"
                " WHERE tenant_id = %s AND user_id = %s AND thread_id IN (SELECT thread_id FROM gone))"
                " SELECT count(*) AS n FROM gone",
                (*params, scope.tenant_id, scope.user_id),
            )
        )
        return int(row["n"]) if row else 0
