"""The bundle of ports a service needs, built by bootstrap (or by tests with fakes)."""

from __future__ import annotations

from dataclasses import dataclass

from ..ports import (
    Cache,
    ChatModel,
    Clock,
    Embedder,
    JobQueue,
    KeywordIndex,
    MemoryStore,
    MessageLog,
    SummaryStore,
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
    chat: ChatModel | None = None  # an LLM, when configured; every service works without one
