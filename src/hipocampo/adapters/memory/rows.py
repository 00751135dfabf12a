"""The rows of the in-memory tables: frozen, so two copies of a table can share them.

They mirror the SQLite schema (``adapters/sqlite/schema.py``). JSON columns are kept as JSON
text, as SQLite keeps them: a write checks that the value can be stored, and every read decodes
a fresh copy that callers may mutate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class MessageRow:
    rid: int
    id: str
    external_id: str | None
    tenant_id: str
    user_id: str
    agent_id: str | None
    thread_id: str
    seq: int
    role: str
    name: str | None
    content: str
    created_at: datetime
    metadata: str  # JSON


@dataclass(frozen=True)
class ThreadRow:
    agent_id: str | None
    created_at: datetime
    last_seq: int
    version: int = 0  # MessageLog.thread_version: a fresh value at every change of the messages


@dataclass(frozen=True)
class MemoryRow:
    rid: int
    id: str
    tenant_id: str
    user_id: str
    agent_id: str | None
    thread_id: str | None
    kind: str
    memory_type: str | None
    content: str
    name: str | None
    role: str | None
    seq: int | None
    importance: float
    source_ids: str  # JSON
    metadata: str  # JSON
    created_at: datetime
    updated_at: datetime | None
    valid_to: datetime | None
    key: str | None = None
    confidence: float | None = None
    mention_count: int = 1
    access_count: int = 0
    last_accessed: datetime | None = None
    expires_at: datetime | None = None
    event_start: datetime | None = None
    event_end: datetime | None = None


@dataclass(frozen=True)
class KeywordDoc:
    """One memory's analysed terms (what SQLite puts in ``memory_fts``)."""

    freqs: Mapping[str, int]  # term -> occurrences; never mutated once built
    length: int  # terms in the document, BM25's document length


@dataclass(frozen=True)
class VectorRow:
    rid: int
    memory_id: str
    tenant_id: str
    user_id: str
    agent_id: str | None
    thread_id: str | None
    model: str
    dim: int
    vec: Any  # np.ndarray, float32, unit length, read-only


@dataclass(frozen=True)
class JobRow:
    id: int
    kind: str
    tenant_id: str
    user_id: str
    payload: str  # JSON
    status: str
    attempts: int
    run_after: datetime
    locked_until: datetime | None
    last_error: str | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class SummaryRow:
    content: str
    messages_summarized: int
    last_message_seq: int
    token_count: int
    updated_at: datetime
