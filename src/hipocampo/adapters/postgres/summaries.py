"""Rolling thread summaries on Postgres: one row per thread, overwritten as the thread grows."""

from __future__ import annotations

from ...domain.model import Scope, Summary
from .db import PostgresDatabase
from .rows import check_text
from .sql import execute, fetch_one


class PostgresSummaryStore:
    """The :class:`~hipocampo.ports.SummaryStore` port on the shared Postgres database."""

    def __init__(self, db: PostgresDatabase) -> None:
        self._db = db

    async def get(self, scope: Scope, thread_id: str) -> Summary | None:
        row = await fetch_one(
            self._db,
            (
                "SELECT * FROM summaries WHERE tenant_id = %s AND user_id = %s AND thread_id = %s",
                (scope.tenant_id, scope.user_id, thread_id),
            ),
        )
        if row is None:
            return None
        return Summary(
            scope=scope,
            thread_id=thread_id,
            content=row["content"],
            messages_summarized=row["messages_summarized"],
            last_message_seq=row["last_message_seq"],
            token_count=row["token_count"],
            updated_at=row["updated_at"],
        )

    async def put(self, summary: Summary) -> None:
        s = summary
        await execute(
            self._db,
            (
                "INSERT INTO summaries (tenant_id, user_id, thread_id, content, messages_summarized,"
                " last_message_seq, token_count, updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (tenant_id, user_id, thread_id) DO UPDATE SET content = excluded.content,"
                " messages_summarized = excluded.messages_summarized, last_message_seq = excluded.last_message_seq,"
                " token_count = excluded.token_count, updated_at = excluded.updated_at",
                (
                    s.scope.tenant_id,
                    s.scope.user_id,
                    s.thread_id,
                    check_text("a summary", s.content),
                    s.messages_summarized,
                    s.last_message_seq,
                    s.token_count,
                    s.updated_at,
                ),
            ),
        )

    async def delete_thread(self, scope: Scope, thread_id: str) -> None:
        await execute(
            self._db,
            (
                "DELETE FROM summaries WHERE tenant_id = %s AND user_id = %s AND thread_id = %s",
                (scope.tenant_id, scope.user_id, thread_id),
            ),
        )

    async def delete_user(self, scope: Scope) -> None:
        await execute(
            self._db, ("DELETE FROM summaries WHERE tenant_id = %s AND user_id = %s", (scope.tenant_id, scope.user_id))
        )
