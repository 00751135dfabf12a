"""The memory an agent reads before it answers: :class:`MemoryFlags` choose the layers,
:func:`load_context` renders them. No LangGraph here, so the HTTP service can serve the same
context (``POST /v1/users/{user_id}/context``) to agents that run elsewhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from ..domain.model import MemoryKind, Scope
from .session import SessionConfig

if TYPE_CHECKING:
    from ..client import AsyncMemory

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


async def load_context(memory: AsyncMemory, session: SessionConfig, query: str, flags: MemoryFlags) -> str:
    """The memory context for ``query`` in ``session``, with the layers ``flags`` allows, after the
    tenant's plan and quotas (:meth:`AsyncMemory.tenant_context`) when ``flags.quotas`` asks for them. Raises
    on failure (the nodes catch)."""
    text = await _memory_context(memory, session, query, flags)
    tenant = await memory.tenant_context(session.tenant_id) if flags.quotas else None
    return f"{tenant}\n\n{text}" if tenant and text else tenant or text


async def _memory_context(memory: AsyncMemory, session: SessionConfig, query: str, flags: MemoryFlags) -> str:
    return await memory.layered_context(
        Scope(session.tenant_id, session.user_id, session.agent_id),
        session.thread_id,
        query,
        kinds=flags.kinds(),
        summaries=flags.summaries,
        recent=flags.recent,
        cross_thread=flags.cross_thread,
    )
