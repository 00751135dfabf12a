"""The write path: validate, append to the log with an indexing job (one transaction), ack."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..domain.errors import InvalidInput
from ..domain.ids import check_path_id
from ..domain.model import Job, Message, NewMessage, Role, Scope, check_id, parse_time
from ..domain.values import check_metadata
from .deps import Deps
from .quota import enforce_memory_quota

INDEX_JOB = "index_messages"
INDEX_MEMORIES_JOB = "index_memories"
EXTRACT_JOB = "extract_facts"
SUMMARIZE_JOB = "summarize_thread"
MAX_MESSAGES_PER_CALL = 1000


def writable(scope: Scope, thread_id: str | None) -> str | None:
    """``thread_id`` in NFC, if new data may go under these ids: the rule of every id the HTTP API
    has in its paths (no ``/``, :func:`~hipocampo.domain.ids.check_path_id`). Users and threads
    stored before it are read, exported and forgotten, but get nothing new."""
    check_path_id("tenant_id", scope.tenant_id)
    check_path_id("user_id", scope.user_id)
    check_path_id("agent_id", scope.agent_id, required=False)
    return check_path_id("thread_id", thread_id, required=False)


def recent_cache_key(scope: Scope, thread_id: str) -> str:
    return f"recent:{scope.tenant_id}:{scope.user_id}:{thread_id}"


async def add_messages(
    deps: Deps,
    scope: Scope,
    thread_id: str,
    messages: Sequence[NewMessage | dict[str, Any] | str],
    *,
    at: datetime | str | None = None,
    metadata: dict[str, Any] | None = None,
) -> list[Message]:
    """Write turns to the log and acknowledge; embedding and indexing happen in the background.

    ``at`` is the time of messages that carry none; ``metadata`` is merged into each message's own.
    """
    thread_id = writable(scope, check_id("thread_id", thread_id)) or thread_id  # NFC, as stored
    if isinstance(messages, (str, dict, NewMessage)):
        messages = [messages]
    if not messages:
        raise InvalidInput("no messages to add")
    if len(messages) > MAX_MESSAGES_PER_CALL:
        raise InvalidInput(f"at most {MAX_MESSAGES_PER_CALL} messages per call; split the batch")
    if metadata is not None:
        metadata = check_metadata("metadata", metadata)  # the rule every message's own metadata follows
    default_time = parse_time(at) if at is not None else None
    parsed = []
    for raw in messages:
        m = NewMessage.parse(raw)
        if m.created_at is None:
            m.created_at = default_time
        if metadata:
            m.metadata = {**metadata, **m.metadata}
        parsed.append(m)
    jobs = [Job(INDEX_JOB, {"message_ids": "$ids"}, scope.tenant_id, scope.user_id)]
    s = deps.settings
    if s.extraction and any(m.role is Role.USER for m in parsed):
        jobs.append(Job(EXTRACT_JOB, {"message_ids": "$ids"}, scope.tenant_id, scope.user_id))
    if s.summaries:
        jobs.append(Job(SUMMARIZE_JOB, {"thread_id": thread_id}, scope.tenant_id, scope.user_id))
    async with deps.uow.transaction():
        stored = await deps.log.append(scope, thread_id, parsed, jobs)
        await enforce_memory_quota(deps, scope.tenant_id)
    # The log is the truth; the cached window is rebuilt from it on the next read.
    await deps.cache.delete(recent_cache_key(scope, thread_id))
    return stored
