"""The four memory tools an agent calls: get, save, update and delete its user's memories.

:class:`MemoryTools` binds them to one :class:`~hipocampo.agent.session.SessionConfig`, so the model
never chooses whose memory it touches: ownership is the session's user, checked on every call.
Tools never raise for a model's mistake (unknown id, bad type, empty text); they answer with
``success=False`` and an ``error_message`` the model can read and act on.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from ..domain.errors import HipocampoError, InvalidInput
from ..domain.model import CUSTOM_TYPE_KEY, MemoryItem, MemoryKind, MemoryType, Scope

if TYPE_CHECKING:
    from ..client import AsyncMemory
    from .session import SessionConfig

log = logging.getLogger(__name__)

CHRONOLOGICAL_KINDS = (MemoryKind.FACT, MemoryKind.EPISODE, MemoryKind.CONSOLIDATED)
"""What chronological mode lists by default: the long-term memories, not the raw turns (the
recent window already has those) nor thread summaries. Ask for ``memory_type="turn"`` to get turns."""


class MemoryRecord(BaseModel):
    memory_id: str
    content: str
    memory_type: str | None  # a fact's type, else the memory's kind (turn, episode, ...)
    kind: str
    created_at: datetime
    thread_id: str | None = None
    relevance_score: float | None = None  # semantic mode only: calibrated, 0.6 = related 3 times in 5
    last_accessed: datetime | None = None
    current: bool = True  # False: a later fact replaced what it says; never answer from it as if current
    outdated_note: str | None = None  # what replaced it and since when: "earlier; since 2024-06-02: ..."


class GetMemoryResult(BaseModel):
    success: bool = True
    mode: str
    query: str | None = None
    memories: list[MemoryRecord] = []
    error_message: str | None = None


class WriteResult(BaseModel):
    success: bool
    memory_id: str | None = None
    memory: MemoryRecord | None = None
    old_content: str | None = None  # update_memory: the text replaced
    new_content: str | None = None  # update_memory: the text now stored
    deleted_content: str | None = None  # delete_memory: the text removed
    error_message: str | None = None


def _record(m: MemoryItem, score: float | None = None) -> MemoryRecord:
    return MemoryRecord(
        memory_id=m.id,
        content=m.content,
        memory_type=m.memory_type.value if m.memory_type else _custom_type(m) or m.kind.value,
        kind=m.kind.value,
        created_at=m.created_at,
        thread_id=m.thread_id,
        relevance_score=None if score is None else round(score, 4),
        last_accessed=m.last_accessed,
    )


def _custom_type(m: MemoryItem) -> str | None:
    value = m.metadata.get(CUSTOM_TYPE_KEY) if m.kind is MemoryKind.FACT and m.memory_type is None else None
    return value if isinstance(value, str) else None


def _matches(m: MemoryItem, wanted: MemoryType | str | None) -> bool:
    if wanted is None:
        return True
    if isinstance(wanted, MemoryType):
        return m.memory_type is wanted
    return _custom_type(m) == wanted


def _type_filter(
    memory_type: str | None, custom: Sequence[str] = ()
) -> tuple[MemoryType | str | None, tuple[MemoryKind, ...] | None]:
    """A ``memory_type`` argument names a fact type (built in, or custom in this session) or a
    memory kind; anything else is a mistake."""
    if memory_type is None or memory_type == "":
        return None, None
    if memory_type in {t.value for t in MemoryType}:
        return MemoryType(memory_type), (MemoryKind.FACT,)
    if memory_type in custom:
        return memory_type, (MemoryKind.FACT,)
    if memory_type in {k.value for k in MemoryKind}:
        return None, (MemoryKind(memory_type),)
    names = [t.value for t in MemoryType] + list(custom) + [k.value for k in MemoryKind]
    raise InvalidInput(f"memory_type must be one of {', '.join(names)}, got {memory_type!r}")


class MemoryTools:
    """``get_memory``, ``save_memory``, ``update_memory`` and ``delete_memory`` for one session."""

    def __init__(self, memory: AsyncMemory, session: SessionConfig) -> None:
        self.memory = memory
        self.session = session

    @property
    def scope(self) -> Scope:
        s = self.session
        return Scope(s.tenant_id, s.user_id, s.agent_id)

    @property
    def actor(self) -> str:
        """Who the agent's writes are recorded as in a memory's history: an agent, not the user
        or an operator (and which agent, when the session names one)."""
        return f"agent {self.session.agent_id}" if self.session.agent_id else "agent"

    async def get_memory(
        self,
        mode: Literal["semantic", "chronological"] = "semantic",
        query: str | None = None,
        memory_type: str | None = None,
        limit: int | None = None,
    ) -> GetMemoryResult:
        """Find memories: ``semantic`` ranks them against ``query``; ``chronological`` lists the
        newest first. ``memory_type`` narrows to a fact type (user_profile, preference, goal,
        constraint, critical_info, entity) or a kind (fact, episode, consolidated, turn, summary)."""
        s = self.session
        n = min(max(limit or s.memory_limit, 1), s.memory_limit)
        try:
            wanted_type, kinds = _type_filter(memory_type, s.custom_memory_types)
            if mode == "semantic":
                if not query or not query.strip():
                    raise InvalidInput("semantic mode needs a query; use mode='chronological' to list memories")
                found = await self.memory.search(
                    s.user_id,
                    query,
                    tenant_id=s.tenant_id,
                    agent_id=s.agent_id,
                    kinds=kinds,
                    k=n * 3 if wanted_type else n,
                    min_relevance=s.memory_min_relevance,
                )
                hits = [h for h in found.hits if _matches(h.memory, wanted_type)][:n]
                records = [
                    _record(h.memory, h.explanation.relevance).model_copy(
                        update={"current": h.current, "outdated_note": h.outdated_note}
                    )
                    for h in hits
                ]
            elif mode == "chronological":
                records = [_record(m) for m in await self._newest(wanted_type, kinds or CHRONOLOGICAL_KINDS, n)]
            else:
                raise InvalidInput(f"mode must be 'semantic' or 'chronological', got {mode!r}")
        except HipocampoError as exc:
            return GetMemoryResult(success=False, mode=str(mode), query=query, error_message=str(exc))
        await self._touch([r.memory_id for r in records])
        return GetMemoryResult(mode=mode, query=query, memories=records)

    async def save_memory(self, content: str, memory_type: str) -> WriteResult:
        """Save a durable fact about the user, of one of the session's memory types."""
        s = self.session
        if memory_type not in s.memory_types:
            return WriteResult(
                success=False,
                error_message=f"memory_type must be one of {', '.join(s.memory_types)}, got {memory_type!r}",
            )
        custom = memory_type not in {t.value for t in MemoryType}
        metadata = {"source": "agent_tool"} | ({CUSTOM_TYPE_KEY: memory_type} if custom else {})
        try:
            item = await self.memory.remember(
                s.user_id,
                content,
                memory_type=None if custom else memory_type,
                tenant_id=s.tenant_id,
                agent_id=s.agent_id,
                thread_id=s.thread_id,
                metadata=metadata,
                actor=self.actor,
            )
        except HipocampoError as exc:
            return WriteResult(success=False, error_message=str(exc))
        await self._index_now(item)
        return WriteResult(success=True, memory_id=item.id, memory=_record(item))

    async def update_memory(self, memory_id: str, new_content: str) -> WriteResult:
        """Replace a memory's content (the old text stays in its history)."""
        s = self.session
        try:
            old = await self.memory.get(s.user_id, memory_id, tenant_id=s.tenant_id)
            item = await self.memory.update(s.user_id, memory_id, new_content, tenant_id=s.tenant_id, actor=self.actor)
        except HipocampoError as exc:
            return WriteResult(success=False, memory_id=memory_id, error_message=str(exc))
        await self._index_now(item)
        return WriteResult(
            success=True, memory_id=item.id, memory=_record(item), old_content=old.content, new_content=item.content
        )

    async def delete_memory(self, memory_id: str) -> WriteResult:
        """Delete one of the user's memories for good."""
        s = self.session
        try:
            item = await self.memory.delete(s.user_id, memory_id, tenant_id=s.tenant_id)
        except HipocampoError as exc:
            return WriteResult(success=False, memory_id=memory_id, error_message=str(exc))
        return WriteResult(success=True, memory_id=item.id, memory=_record(item), deleted_content=item.content)

    async def _index_now(self, item: MemoryItem) -> None:
        """Index a memory the agent just wrote, in this call, so its next ``get_memory`` finds it
        (read-your-writes within a turn); failing loses nothing but immediacy."""
        await self.memory.index_now(item)

    async def _newest(
        self, memory_type: MemoryType | str | None, kinds: tuple[MemoryKind, ...], n: int
    ) -> list[MemoryItem]:
        s = self.session
        # The store filters by type, custom ones too (in the facts' metadata), so the page is exact.
        # Unchecked here: the session already checked the type, and a session may have types of
        # its own that HIPOCAMPO_MEMORY_TYPES (which the client's list checks against) lacks.
        items: list[MemoryItem] = []
        for kind in kinds:
            items.extend(
                await self.memory.newest(s.user_id, kind, tenant_id=s.tenant_id, memory_type=memory_type, limit=n)
            )
        items.sort(key=lambda m: m.created_at, reverse=True)
        return items[:n]

    async def _touch(self, memory_ids: list[str]) -> None:
        if not memory_ids:
            return
        try:
            await self.memory.mark_accessed(self.session.user_id, memory_ids, tenant_id=self.session.tenant_id)
        except Exception:  # an access count is not worth failing the tool call
            log.warning("could not record access to %d memories", len(memory_ids), exc_info=True)


TOOL_NAMES = ("get_memory", "save_memory", "update_memory", "delete_memory")
