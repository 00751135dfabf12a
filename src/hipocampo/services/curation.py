"""Saving, editing and deleting individual memories (what agent memory tools call)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from ..domain.errors import InvalidInput, NotFound
from ..domain.model import (
    CUSTOM_TYPE_KEY,
    MAX_CONTENT_CHARS,
    HistoryEntry,
    HistoryEvent,
    Job,
    MemoryItem,
    MemoryKind,
    MemoryType,
    Scope,
    new_id,
    parse_time,
)
from ..domain.values import check_metadata, check_text
from .deps import Deps
from .facts import custom_memory_types
from .ingest import INDEX_MEMORIES_JOB, recent_cache_key, writable
from .quota import enforce_memory_quota
from .summaries import summary_memory_id


def _content(content: Any) -> str:
    if not isinstance(content, str) or not content.strip():
        raise InvalidInput("memory content must be a non-empty string")
    if len(content) > MAX_CONTENT_CHARS:
        raise InvalidInput(f"memory content is {len(content)} characters; the limit is {MAX_CONTENT_CHARS}")
    check_text("memory content", content)  # the rule of domain.values: what every backend can store
    return content.strip()


def parse_memory_type(value: MemoryType | str | None, custom: Collection[str] = ()) -> MemoryType | str | None:
    """A built-in type as :class:`MemoryType`, one of the ``custom`` types (those configured in
    ``HIPOCAMPO_MEMORY_TYPES``) as its name; anything else is refused with the names accepted."""
    if value is None or isinstance(value, MemoryType):
        return value
    try:
        return MemoryType(value)
    except ValueError:
        if value in custom:
            return value
        names = [t.value for t in MemoryType] + [name for name in custom if name not in {t.value for t in MemoryType}]
        hint = "" if custom else " (custom types need HIPOCAMPO_MEMORY_TYPES)"
        raise InvalidInput(f"memory_type must be one of {', '.join(names)}, got {value!r}{hint}") from None


def memory_type_of(deps: Deps, value: MemoryType | str | None) -> MemoryType | str | None:
    """``value`` checked against the built-in types and the deployment's custom ones."""
    return parse_memory_type(value, custom_memory_types(deps))


def set_memory_type(item: MemoryItem, memory_type: MemoryType | str) -> None:
    """Type a fact: a built-in type in its own field, a custom one in its metadata (where the
    agent tools, extraction and :attr:`MemoryItem.type_name` read it)."""
    if isinstance(memory_type, MemoryType):
        item.memory_type = memory_type
        item.metadata.pop(CUSTOM_TYPE_KEY, None)
    else:
        item.memory_type = None
        item.metadata = {**item.metadata, CUSTOM_TYPE_KEY: memory_type}


async def remember(
    deps: Deps,
    scope: Scope,
    content: str,
    *,
    memory_type: MemoryType | str | None = None,
    importance: float = 0.5,
    thread_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    expires_at: datetime | str | None = None,
    actor: str = "api",
) -> MemoryItem:
    """Store a fact directly (not derived from a turn); it is indexed in the background. Its
    history records ``actor`` as who added it.

    ``expires_at``: after it the memory leaves recall (e.g. "in hospital until Friday"); it stays
    stored, with its history.
    """
    if not 0.0 <= importance <= 1.0:
        raise InvalidInput("importance must be between 0 and 1")
    thread_id = writable(scope, thread_id)
    now = deps.clock.now()
    expiry = parse_time(expires_at) if expires_at is not None else None
    item = MemoryItem(
        id=new_id("mem"),
        scope=scope,
        kind=MemoryKind.FACT,
        content=_content(content),
        created_at=now,
        thread_id=thread_id,
        importance=importance,
        metadata=dict(check_metadata("memory metadata", metadata)),
        updated_at=now,
        expires_at=expiry,
    )
    typed = memory_type_of(deps, memory_type)
    if typed is not None:
        set_memory_type(item, typed)
    async with deps.uow.transaction():
        await deps.memories.upsert([item])
        added = HistoryEntry(item.id, HistoryEvent.ADD, now, None, item.content, actor)
        await deps.memories.add_history(scope, [added])
        await deps.jobs.enqueue([Job(INDEX_MEMORIES_JOB, {"memory_ids": [item.id]}, scope.tenant_id, scope.user_id)])
        await enforce_memory_quota(deps, scope.tenant_id)
    return item


async def get_memory(deps: Deps, scope: Scope, memory_id: str) -> MemoryItem:
    found = await deps.memories.get_many(scope, [memory_id])
    if not found:
        raise NotFound(f"no memory {memory_id!r} for this user")
    return found[0]


async def update_memory(
    deps: Deps,
    scope: Scope,
    memory_id: str,
    content: str | None = None,
    *,
    memory_type: MemoryType | str | None = None,
    importance: float | None = None,
    actor: str = "api",
) -> MemoryItem:
    """Edit a fact; the old text goes into its history, recorded as changed by ``actor``."""
    item = await get_memory(deps, scope, memory_id)
    if item.kind is MemoryKind.TURN:
        raise InvalidInput(
            "this memory is a conversation turn, which mirrors the log: delete it, or save a corrected fact"
        )
    old_content = item.content
    if content is not None:
        item.content = _content(content)
    typed = memory_type_of(deps, memory_type)
    if typed is not None:
        set_memory_type(item, typed)
    if importance is not None:
        if not 0.0 <= importance <= 1.0:
            raise InvalidInput("importance must be between 0 and 1")
        item.importance = importance
    item.updated_at = deps.clock.now()
    edit = HistoryEntry(item.id, HistoryEvent.UPDATE, item.updated_at, old_content, item.content, actor, "edited")
    async with deps.uow.transaction():
        await deps.memories.upsert([item])
        await deps.memories.add_history(scope, [edit])
        await deps.jobs.enqueue([Job(INDEX_MEMORIES_JOB, {"memory_ids": [item.id]}, scope.tenant_id, scope.user_id)])
    return item


async def delete_memory(deps: Deps, scope: Scope, memory_id: str) -> MemoryItem:
    """Delete a memory and its index entries. A turn's message leaves the log too, so a
    reindex cannot bring it back."""
    item = await get_memory(deps, scope, memory_id)
    async with deps.uow.transaction():
        if item.kind is MemoryKind.TURN:
            await deps.log.delete_messages(scope, item.source_message_ids)
            if item.thread_id is not None:  # the summary may quote it: drop it, the next one is rebuilt
                await deps.summaries.delete_thread(scope, item.thread_id)
                await deps.memories.delete(scope, [summary_memory_id(scope, item.thread_id)])
        await deps.memories.delete(scope, [memory_id])
    if item.thread_id:
        await deps.cache.delete(recent_cache_key(scope, item.thread_id))
    return item
