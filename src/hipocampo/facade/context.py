"""The memory context an agent reads before it answers, with layers left out on request: what
:func:`hipocampo.agent.context.load_context` and ``POST /v1/users/{user_id}/context`` render."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..domain.model import MemoryKind, Scope
from ..domain.retrieval.context import ContextPiece, render_context
from ..services import browse
from ..services import recall as recall_service
from ..services.retrieval import MAX_QUERY_CHARS, SearchOptions

if TYPE_CHECKING:
    from ..services.deps import Deps


class ContextCalls:
    """One rendered context, from the recall the engine runs and the layers the caller keeps."""

    _deps: Deps

    async def layered_context(
        self,
        scope: Scope,
        thread_id: str,
        query: str,
        *,
        kinds: tuple[MemoryKind, ...] | None = None,
        summaries: bool = True,
        recent: bool = True,
        cross_thread: bool = True,
    ) -> str:
        """The context for ``query`` in ``thread_id``: memories of ``kinds`` (None: all; ``()``:
        none, so no search runs), with the thread's summary, its recent turns and the user's other
        threads kept or left out. A query past the search's limit is recalled from its start."""
        deps = self._deps
        query = query[:MAX_QUERY_CHARS]  # a pasted document still gets an answer
        pieces: list[ContextPiece]
        if kinds != ():
            result = await recall_service.recall(
                deps, scope, query, thread_id=thread_id, options=SearchOptions(kinds=kinds)
            )
            if summaries and recent and cross_thread:
                return result.context
            summary, window, pieces, validity = result.summary, result.recent, result.pieces, result.validity
        else:
            summary = await browse.thread_summary(deps, scope, thread_id) if summaries else None
            window = await recall_service.recent_messages(deps, scope, thread_id) if recent else []
            pieces = []
            # No search ran, but the summary and the window may still state a value since replaced.
            validity = await browse.validity(deps, scope) if summary or window else None
        if not cross_thread:
            pieces = [p for p in pieces if p.memory.thread_id == thread_id]
        # Re-rendered from the sections kept; the hits keep the neighbouring turns they brought in.
        text, _, _ = render_context(
            summary=summary if summaries else None,
            recent=window if recent else [],
            pieces=pieces,
            budget=deps.settings.context_token_budget,
            count=deps.tokenizer.count,
            truncate=deps.tokenizer.truncate,
            validity=validity,
        )
        return text
