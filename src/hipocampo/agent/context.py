"""The memory an agent reads before it answers: :class:`MemoryFlags` choose the layers,
:func:`load_context` renders them. No LangGraph here, so the HTTP service can serve the same
context (``POST /v1/users/{user_id}/context``) to agents that run elsewhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from ..domain.model import MemoryKind, Scope
from ..domain.retrieval.context import ContextPiece, render_context
from ..services import browse
from ..services import recall as recall_service
from ..services.retrieval import MAX_QUERY_CHARS, SearchOptions
from .session import SessionConfig

if TYPE_CHECKING:
    from ..client import AsyncMemory
    from ..services.deps import Deps

FACT_KINDS = (MemoryKind.FACT, MemoryKind.CONSOLIDATED)
CONVERSATION_KINDS = (MemoryKind.TURN, MemoryKind.EPISODE, MemoryKind.SUMMARY)


class MemoryFlags(BaseModel):
    """Which memory layers ``load_memory`` injects (feature flags, one per layer).

    - ``summaries``: the rolling summary of the current thread.
    - ``recent``: the thread's last turns, read from the log (``HIPOCAMPO_RECENT_MESSAGES``). Turn
      it off when a LangGraph checkpointer already keeps the thread's messages in the state.
    - ``vectors``: retrieval over past conversation: turns, episodes and other threads' summaries
      ranked by hybrid (dense + keyword) search. Off: none of those are recalled.
    - ``entities``: what hipocampo knows about the user: facts (profile, preferences, goals,
      constraints, critical info, entities; extracted or saved by the agent) and their
      consolidations. Off: no facts are recalled.
    - ``cross_thread``: memories from the user's other threads. Off: only memories from the
      current thread are kept (ranked among all of the user's, so fewer may come back).
    - ``quotas``: a line with the tenant's plan and quotas, before the memory. Off by default:
      quotas are operator data, which a prompt should carry only when the agent is meant to
      reason about them (say why a save was refused, keep fewer memories near the limit).

    Every memory layer is on by default: hipocampo is built to carry memory across conversations. The
    layers map onto recall options (kinds of memory) where the engine has them, and onto the
    sections of the rendered context otherwise.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    summaries: bool = True
    recent: bool = True
    vectors: bool = True
    entities: bool = True
    cross_thread: bool = True
    quotas: bool = False

    def kinds(self) -> tuple[MemoryKind, ...] | None:
        """Kinds of memory to recall: ``None`` for all, ``()`` for none."""
        if self.vectors and self.entities:
            return None
        return (FACT_KINDS if self.entities else ()) + (CONVERSATION_KINDS if self.vectors else ())


async def tenant_context(deps: Deps, tenant_id: str) -> str | None:
    """The tenant's plan and quotas as one line of context, or None for a tenant with no record
    (local use: the default tenant, unlimited). An agent that knows the plan can say why a save was
    refused, or keep fewer memories near the limit."""
    tenant = await deps.tenants.get_tenant(tenant_id)
    if tenant is None:
        return None
    q = tenant.quotas

    def limit(value: int | None) -> str:
        return "unlimited" if value is None else str(value)

    return (
        f"Tenant {tenant.id}: plan {tenant.plan}; quotas: max_memories {limit(q.max_memories)}, "
        f"requests_per_minute {limit(q.requests_per_minute)}"
    )


async def load_context(memory: AsyncMemory, session: SessionConfig, query: str, flags: MemoryFlags) -> str:
    """The memory context for ``query`` in ``session``, with the layers ``flags`` allows, after the
    tenant's plan and quotas (:func:`tenant_context`) when ``flags.quotas`` asks for them. Raises
    on failure (the nodes catch)."""
    text = await _memory_context(memory, session, query, flags)
    tenant = await tenant_context(memory.deps, session.tenant_id) if flags.quotas else None
    return f"{tenant}\n\n{text}" if tenant and text else tenant or text


async def _memory_context(memory: AsyncMemory, session: SessionConfig, query: str, flags: MemoryFlags) -> str:
    deps = memory.deps
    scope = Scope(session.tenant_id, session.user_id, session.agent_id)
    thread = session.thread_id
    kinds = flags.kinds()
    query = query[:MAX_QUERY_CHARS]  # a pasted document still gets an answer, recalled from its start
    pieces: list[ContextPiece]
    if kinds != ():
        result = await recall_service.recall(deps, scope, query, thread_id=thread, options=SearchOptions(kinds=kinds))
        if flags.summaries and flags.recent and flags.cross_thread:
            return result.context
        summary, recent, pieces, validity = result.summary, result.recent, result.pieces, result.validity
    else:
        summary = await browse.thread_summary(deps, scope, thread) if flags.summaries else None
        recent = await recall_service.recent_messages(deps, scope, thread) if flags.recent else []
        pieces = []
        # No search ran, but the summary and the window may still state a value since replaced.
        validity = await browse.validity(deps, scope) if summary or recent else None
    if not flags.cross_thread:
        pieces = [p for p in pieces if p.memory.thread_id == thread]
    # Re-rendered from the sections kept; the hits keep the neighbouring turns they brought in.
    text, _, _ = render_context(
        summary=summary if flags.summaries else None,
        recent=recent if flags.recent else [],
        pieces=pieces,
        budget=deps.settings.context_token_budget,
        count=deps.tokenizer.count,
        truncate=deps.tokenizer.truncate,
        validity=validity,
    )
    return text
