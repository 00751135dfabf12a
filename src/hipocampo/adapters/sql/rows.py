"""One row mapper per domain type, shared by the SQL engines: a row (read by column name) and
the engine's :class:`~.dialect.Dialect`, whose decoders turn its times and JSON into Python.

The columns are the same on both engines; only how a time or a JSON value is held differs, so
each mapper is written once and a new column is added in one place.
"""

from __future__ import annotations

from functools import lru_cache

from ...domain.model import (
    HistoryEntry,
    HistoryEvent,
    Job,
    JobStatus,
    MemoryItem,
    MemoryKind,
    MemoryType,
    Message,
    Role,
    Scope,
    Summary,
)
from ...domain.tenancy import ApiKey, KeyRole, Quotas, Tenant
from ...ports import StoredResponse
from .dialect import Dialect, Row


@lru_cache(maxsize=4096)
def row_scope(tenant_id: str, user_id: str, agent_id: str | None) -> Scope:
    """The scope of a stored row. Its ids were validated on the way in; validating them again per
    row showed in profiles, so scopes are cached."""
    return Scope(tenant_id, user_id, agent_id)


def message_from_row(d: Dialect, row: Row) -> Message:
    return Message(
        id=row["id"],
        scope=row_scope(row["tenant_id"], row["user_id"], row["agent_id"]),
        thread_id=row["thread_id"],
        role=Role(row["role"]),
        content=row["content"],
        created_at=d.time_out(row["created_at"]),
        seq=row["seq"],
        name=row["name"],
        metadata=d.metadata_out(row["metadata"], "message", row["id"]),
        external_id=row["external_id"],
    )


def memory_from_row(d: Dialect, row: Row) -> MemoryItem:
    t = d.time_out
    return MemoryItem(
        id=row["id"],
        scope=row_scope(row["tenant_id"], row["user_id"], row["agent_id"]),
        kind=MemoryKind(row["kind"]),
        content=row["content"],
        created_at=t(row["created_at"]),
        thread_id=row["thread_id"],
        memory_type=MemoryType(row["memory_type"]) if row["memory_type"] else None,
        importance=row["importance"],
        source_message_ids=d.json_out(row["source_ids"]),
        metadata=d.metadata_out(row["metadata"], "memory", row["id"]),
        name=row["name"],
        role=Role(row["role"]) if row["role"] else None,
        seq=row["seq"],
        updated_at=t(row["updated_at"]),
        valid_to=t(row["valid_to"]),
        key=row["key"],
        confidence=row["confidence"],
        mention_count=row["mention_count"],
        access_count=row["access_count"],
        last_accessed=t(row["last_accessed"]),
        expires_at=t(row["expires_at"]),
        event_start=t(row["event_start"]),
        event_end=t(row["event_end"]),
    )


def history_from_row(d: Dialect, row: Row) -> HistoryEntry:
    return HistoryEntry(
        memory_id=row["memory_id"],
        event=HistoryEvent(row["event"]),
        created_at=d.time_out(row["created_at"]),
        old_content=row["old_content"],
        new_content=row["new_content"],
        actor=row["actor"],
        reason=row["reason"],
        related_id=row["related_id"],
    )


def summary_from_row(d: Dialect, row: Row, scope: Scope) -> Summary:
    return Summary(
        scope=scope,
        thread_id=row["thread_id"],
        content=row["content"],
        messages_summarized=row["messages_summarized"],
        last_message_seq=row["last_message_seq"],
        token_count=row["token_count"],
        updated_at=d.time_out(row["updated_at"]),
    )


def job_from_row(d: Dialect, row: Row) -> Job:
    return Job(
        id=row["id"],
        kind=row["kind"],
        payload=d.json_out(row["payload"]),
        tenant_id=row["tenant_id"],
        user_id=row["user_id"],
        status=JobStatus(row["status"]),
        attempts=row["attempts"],
        last_error=row["last_error"],
        run_after=d.time_out(row["run_after"]),
    )


def tenant_from_row(d: Dialect, row: Row) -> Tenant:
    return Tenant(
        id=row["id"],
        name=row["name"],
        plan=row["plan"],
        quotas=Quotas(requests_per_minute=row["requests_per_minute"], max_memories=row["max_memories"]),
        created_at=d.time_out(row["created_at"]),
        disabled=bool(row["disabled"]),  # SQLite holds 0/1
    )


def key_from_row(d: Dialect, row: Row) -> ApiKey:
    return ApiKey(
        id=row["id"],
        tenant_id=row["tenant_id"],
        role=KeyRole(row["role"]),
        secret_hash=row["secret_hash"],
        name=row["name"],
        created_at=d.time_out(row["created_at"]),
        revoked_at=d.time_out(row["revoked_at"]),
        last_used_at=d.time_out(row["last_used_at"]),
    )


def response_from_row(d: Dialect, row: Row) -> StoredResponse:
    return StoredResponse(
        request_hash=row["request_hash"],
        status_code=row["status_code"],
        body=None if row["body"] is None else d.json_out(row["body"]),
        created_at=d.time_out(row["created_at"]),
    )
