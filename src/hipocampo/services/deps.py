"""The bundle of ports a service needs, built by bootstrap (or by tests with fakes)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..ports import (
    Cache,
    ChatModel,
    Clock,
    Embedder,
    IdempotencyStore,
    JobQueue,
    KeywordIndex,
    MemoryStore,
    MessageLog,
    RateLimiter,
    Storage,
    SummaryStore,
    TenantStore,
    Tokenizer,
    UnitOfWork,
    VectorIndex,
)
from ..settings import Settings


@dataclass
class Deps:
    settings: Settings
    uow: UnitOfWork
    log: MessageLog
    memories: MemoryStore
    vectors: VectorIndex
    keywords: KeywordIndex
    jobs: JobQueue
    summaries: SummaryStore
    cache: Cache
    embedder: Embedder
    tokenizer: Tokenizer
    clock: Clock
    tenants: TenantStore
    idempotency: IdempotencyStore
    limiter: RateLimiter  # requests per minute per tenant (HTTP and MCP count through it)
    chat: ChatModel | None = None  # an LLM, when configured; every service works without one
    worker_embedder: Embedder | None = None
    """The background worker's own instance of the embedder (None: it shares ``embedder``).

    ``embedder`` serves requests (query embeddings, a fact saved with a key, HyDE); the worker
    embeds its batches with this one, so a query never queues behind a batch of long texts on
    a model that runs one call at a time."""

    def for_worker(self) -> Deps:
        """These deps as the worker uses them: embedding with the worker's own instance."""
        if self.worker_embedder is None or self.worker_embedder is self.embedder:
            return self
        return replace(self, embedder=self.worker_embedder)

    @classmethod
    def over(
        cls,
        storage: Storage,
        *,
        settings: Settings,
        cache: Cache,
        limiter: RateLimiter,
        embedder: Embedder,
        tokenizer: Tokenizer,
        clock: Clock,
        chat: ChatModel | None = None,
    ) -> Deps:
        """The ports of ``storage`` plus the providers: how bootstrap and the test fakes build Deps."""
        return cls(
            settings=settings,
            uow=storage.uow,
            log=storage.log,
            memories=storage.memories,
            vectors=storage.vectors,
            keywords=storage.keywords,
            jobs=storage.jobs,
            summaries=storage.summaries,
            cache=cache,
            limiter=limiter,
            embedder=embedder,
            tokenizer=tokenizer,
            clock=clock,
            tenants=storage.tenants,
            idempotency=storage.idempotency,
            chat=chat,
        )
