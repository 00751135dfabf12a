"""Rolling thread summaries in process memory.

For tests and single-process experiments; summaries are lost when the process exits.
"""

from __future__ import annotations

from ...domain.model import Scope, Summary, as_utc
from .rows import SummaryRow
from .state import InMemoryDatabase, State


class InMemorySummaryStore:
    """The :class:`~hipocampo.ports.SummaryStore` port over an :class:`InMemoryDatabase`.

    For tests and single-process experiments; behaves as ``SqliteSummaryStore`` does."""

    def __init__(self, db: InMemoryDatabase) -> None:
        self._db = db

    async def get(self, scope: Scope, thread_id: str) -> Summary | None:
        row = self._db.view().summaries.get((scope.tenant_id, scope.user_id, thread_id))
        if row is None:
            return None
        return Summary(
            scope=scope,
            thread_id=thread_id,
            content=row.content,
            messages_summarized=row.messages_summarized,
            last_message_seq=row.last_message_seq,
            token_count=row.token_count,
            updated_at=row.updated_at,
        )

    async def put(self, summary: Summary) -> None:
        s = summary
        key = (s.scope.tenant_id, s.scope.user_id, s.thread_id)
        row = SummaryRow(
            s.content,
            s.messages_summarized,
            s.last_message_seq,
            s.token_count,
            as_utc(s.updated_at),
        )

        def write(st: State) -> None:
            st.summaries[key] = row

        await self._db.write(write)

    async def delete_thread(self, scope: Scope, thread_id: str) -> None:
        key = (scope.tenant_id, scope.user_id, thread_id)
        await self._db.write(lambda st: st.summaries.pop(key, None))

    async def delete_user(self, scope: Scope) -> None:
        who = (scope.tenant_id, scope.user_id)

        def write(st: State) -> None:
            for key in [k for k in st.summaries if k[:2] == who]:
                del st.summaries[key]

        await self._db.write(write)
