"""The bundle of ports a service needs, built by bootstrap (or by tests with fakes)."""

from __future__ import annotations

from dataclasses import dataclass

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
    chat: ChatModel | None = None  # an LLM, when configured; every service works without one
