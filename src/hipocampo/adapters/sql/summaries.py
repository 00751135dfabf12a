"""Rolling thread summaries on a SQL engine: one row per thread, overwritten as the thread grows.
Nothing in it differs between engines but the :class:`~.dialect.Dialect`."""

from __future__ import annotations

from ...domain.model import Scope, Summary
from .dialect import Database, Dialect
from .rows import summary_from_row
from .where import upsert

_PUT = (
    "INSERT INTO summaries (tenant_id, user_id, thread_id, content, messages_summarized, last_message_seq,"
    " token_count, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
    + upsert(
        "tenant_id, user_id, thread_id",
        ("content", "messages_summarized", "last_message_seq", "token_count", "updated_at"),
    )
)


class SqlSummaryStore:
    """The :class:`~hipocampo.ports.SummaryStore` port on ``db``, spoken in ``dialect``."""

    def __init__(self, db: Database, dialect: Dialect) -> None:
        self._db = db
        self._d = dialect

    async def get(self, scope: Scope, thread_id: str) -> Summary | None:
        row = await self._db.fetch_one(
            (
                self._d.sql("SELECT * FROM summaries WHERE tenant_id = ? AND user_id = ? AND thread_id = ?"),
                (scope.tenant_id, scope.user_id, thread_id),
            )
        )
        return None if row is None else summary_from_row(self._d, row, scope)

    async def put(self, summary: Summary) -> None:
        s, d = summary, self._d
        values = (
            s.scope.tenant_id,
            s.scope.user_id,
            s.thread_id,
            d.text_in("a summary", s.content),
            s.messages_summarized,
            s.last_message_seq,
            s.token_count,
            d.time_in(s.updated_at),
        )
        await self._db.execute((d.sql(_PUT), values))

    async def delete_thread(self, scope: Scope, thread_id: str) -> None:
        await self._db.execute(
            (
                self._d.sql("DELETE FROM summaries WHERE tenant_id = ? AND user_id = ? AND thread_id = ?"),
                (scope.tenant_id, scope.user_id, thread_id),
            )
        )

    async def delete_user(self, scope: Scope) -> None:
        await self._db.execute(
            (self._d.sql("DELETE FROM summaries WHERE tenant_id = ? AND user_id = ?"), (scope.tenant_id, scope.user_id))
        )
