"""The conversation log on a SQL engine: the reads and deletes both engines run alike.

An engine's log subclasses :class:`SqlMessageLog` and adds how it appends (handing out positions
and enqueueing jobs in one transaction: SQLite on its one writer, Postgres under a lock on the
thread's row) and restores, and how a deletion gives threads a new version.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...domain.model import Message, Scope
from .dialect import Database, Dialect
from .rows import message_from_row
from .where import scope_filter, scoped_ids

INSERTED = (
    "id",
    "external_id",
    "tenant_id",
    "user_id",
    "agent_id",
    "thread_id",
    "seq",
    "role",
    "name",
    "content",
    "created_at",
    "metadata",
)
"""The columns :func:`message_values` fills, in its order (``ingested_at`` is the engine's clock)."""


def message_values(d: Dialect, m: Message) -> tuple[Any, ...]:
    """The :data:`INSERTED` columns of ``m``, as the engine stores them."""
    return (
        m.id,
        m.external_id,
        m.scope.tenant_id,
        m.scope.user_id,
        m.scope.agent_id,
        m.thread_id,
        m.seq,
        m.role.value,
        d.text_in("a message's name", m.name),
        d.text_in("message content", m.content),
        d.time_in(m.created_at),
        d.json_in("message metadata", m.metadata),
    )


def conflict_message(m: Message) -> str:
    """Why a restored message cannot be written (it would take another message's place or id)."""
    s = m.scope
    return (
        f"message {m.id!r} would take seq {m.seq} of thread {m.thread_id!r} or caller id"
        f" {m.external_id!r} from another message of {s.tenant_id}/{s.user_id}"
    )


class SqlMessageLog:
    """What both engines' :class:`~hipocampo.ports.MessageLog` share, on ``db`` in ``dialect``."""

    def __init__(self, db: Database, dialect: Dialect) -> None:
        self._db = db
        self._d = dialect

    def _messages(self, rows: Sequence[Any]) -> list[Message]:
        d = self._d
        return [message_from_row(d, r) for r in rows]

    async def recent(self, scope: Scope, thread_id: str, limit: int) -> list[Message]:
        where, params = scope_filter(self._d, scope)
        sql = f"SELECT * FROM messages WHERE {where} AND thread_id = ? ORDER BY seq DESC LIMIT ?"
        rows = await self._db.fetch_all((self._d.sql(sql), (*params, thread_id, self._d.limit(limit))))
        return self._messages(rows)[::-1]

    async def get_many(self, scope: Scope, message_ids: Sequence[str]) -> list[Message]:
        if not message_ids:
            return []
        where, params = scoped_ids(self._d, scope, message_ids)
        lock = self._d.share_lock if self._db.in_transaction else ""  # as SqlMemoryStore.get_many
        rows = await self._db.fetch_all((f"SELECT * FROM messages WHERE {where} ORDER BY thread_id, seq{lock}", params))
        return self._messages(rows)

    async def list_thread(
        self, scope: Scope, thread_id: str, *, after_seq: int = -1, limit: int = 1000
    ) -> list[Message]:
        where, params = scope_filter(self._d, scope)
        sql = f"SELECT * FROM messages WHERE {where} AND thread_id = ? AND seq > ? ORDER BY seq LIMIT ?"
        return self._messages(
            await self._db.fetch_all((self._d.sql(sql), (*params, thread_id, after_seq, self._d.limit(limit))))
        )

    async def users(self, tenant_id: str) -> list[str]:
        sql = self._d.sql("SELECT DISTINCT user_id FROM threads WHERE tenant_id = ? ORDER BY user_id")
        return [r["user_id"] for r in await self._db.fetch_all((sql, (tenant_id,)))]

    async def iter_all(self, *, after_rowid: int = 0, limit: int = 1000) -> list[tuple[int, Message]]:
        # ``rid`` is handed out at insert, not at commit: on Postgres a walk racing live writers
        # may pass a message whose transaction commits after a later one. Such a message is new,
        # and its own index job (written with it) indexes it, so a reindex still misses nothing.
        sql = self._d.sql("SELECT * FROM messages WHERE rid > ? ORDER BY rid LIMIT ?")
        rows = await self._db.fetch_all((sql, (after_rowid, self._d.limit(limit))))
        return [(r["rid"], message_from_row(self._d, r)) for r in rows]

    async def scopes(self) -> list[tuple[str, str]]:
        rows = await self._db.fetch_all(("SELECT DISTINCT tenant_id, user_id FROM threads ORDER BY 1, 2", ()))
        return [(r["tenant_id"], r["user_id"]) for r in rows]

    async def thread_version(self, scope: Scope, thread_id: str) -> int:
        sql = self._d.sql("SELECT version FROM threads WHERE tenant_id = ? AND user_id = ? AND thread_id = ?")
        row = await self._db.fetch_one((sql, (scope.tenant_id, scope.user_id, thread_id)))
        return 0 if row is None else int(row["version"])

    async def count(self, scope: Scope | None = None) -> int:
        if scope is None:
            row = await self._db.fetch_one(("SELECT count(*) AS n FROM messages", ()))
        else:
            where, params = scope_filter(self._d, scope)
            row = await self._db.fetch_one((f"SELECT count(*) AS n FROM messages WHERE {where}", params))
        return int(row["n"]) if row else 0

    async def delete_thread(self, scope: Scope, thread_id: str) -> int:
        return await self._delete(
            "tenant_id = ? AND user_id = ? AND thread_id = ?", (scope.tenant_id, scope.user_id, thread_id)
        )

    async def delete_user(self, scope: Scope) -> int:
        return await self._delete("tenant_id = ? AND user_id = ?", (scope.tenant_id, scope.user_id))

    async def _delete(self, where: str, params: tuple[str, ...]) -> int:
        """The messages and threads ``where`` picks, in one transaction; how many messages."""
        where = self._d.sql(where)
        async with self._db.transaction():
            n = await self._db.execute((f"DELETE FROM messages WHERE {where}", params))
            await self._db.execute((f"DELETE FROM threads WHERE {where}", params))
        return n
