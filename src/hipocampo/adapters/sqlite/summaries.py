"""Rolling thread summaries on SQLite."""

from __future__ import annotations

from ...domain.model import Scope, Summary
from .db import SqliteDatabase
from .rows import from_epoch, to_epoch


class SqliteSummaryStore:
    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def get(self, scope: Scope, thread_id: str) -> Summary | None:
        row = await self._db.read(
            lambda c: c.execute(
                "SELECT * FROM summaries WHERE tenant_id = ? AND user_id = ? AND thread_id = ?",
                (scope.tenant_id, scope.user_id, thread_id),
            ).fetchone()
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
            updated_at=from_epoch(row["updated_at"]),  # type: ignore[arg-type]
        )

    async def put(self, summary: Summary) -> None:
        s = summary
        await self._db.write(
            lambda c: c.execute(
                "INSERT INTO summaries (tenant_id, user_id, thread_id, content, messages_summarized,"
                " last_message_seq, token_count, updated_at) VALUES (?,?,?,?,?,?,?,?)"
                " ON CONFLICT (tenant_id, user_id, thread_id) DO UPDATE SET content = excluded.content,"
                " messages_summarized = excluded.messages_summarized, last_message_seq = excluded.last_message_seq,"
                " token_count = excluded.token_count, updated_at = excluded.updated_at",
                (
                    s.scope.tenant_id,
                    s.scope.user_id,
                    s.thread_id,
                    s.content,
                    s.messages_summarized,
                    s.last_message_seq,
                    s.token_count,
                    to_epoch(s.updated_at),
                ),
            )
        )

    async def delete_thread(self, scope: Scope, thread_id: str) -> None:
        await self._db.write(
            lambda c: c.execute(
                "DELETE FROM summaries WHERE tenant_id = ? AND user_id = ? AND thread_id = ?",
                (scope.tenant_id, scope.user_id, thread_id),
            )
        )

    async def delete_user(self, scope: Scope) -> None:
        await self._db.write(
            lambda c: c.execute(
                "DELETE FROM summaries WHERE tenant_id = ? AND user_id = ?", (scope.tenant_id, scope.user_id)
            )
        )
