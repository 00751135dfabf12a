"""In-memory adapters for every storage port: for tests and single-process experiments.

They behave as the SQLite adapters do (the same contract suites run against both), but keep
everything in this process: nothing is written to disk and the state is lost on exit. One
:class:`InMemoryDatabase` holds the state that the stores built on it share.

>>> deps = build_memory_deps()  # FakeEmbedder, CharTokenizer, no files, no network
"""

from __future__ import annotations

from ...ports import ChatModel, Clock, Embedder, Tokenizer
from ...services.deps import Deps
from ...settings import Settings
from ..clock import SystemClock
from ..embedders.cached import CachingEmbedder
from ..embedders.fake import FakeEmbedder
from ..memory_cache import InMemoryCache
from ..tokenizers import CharTokenizer
from .idempotency import InMemoryIdempotencyStore
from .jobs import InMemoryJobQueue
from .keywords import InMemoryKeywordIndex
from .memories import InMemoryMemoryStore
from .messages import InMemoryMessageLog
from .state import InMemoryDatabase
from .summaries import InMemorySummaryStore
from .tenants import InMemoryTenantStore
from .vectors import InMemoryVectorIndex

__all__ = [
    "InMemoryDatabase",
    "InMemoryIdempotencyStore",
    "InMemoryJobQueue",
    "InMemoryKeywordIndex",
    "InMemoryMemoryStore",
    "InMemoryMessageLog",
    "InMemorySummaryStore",
    "InMemoryTenantStore",
    "InMemoryVectorIndex",
    "build_memory_deps",
]


def build_memory_deps(
    settings: Settings | None = None,
    *,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
    tokenizer: Tokenizer | None = None,
    chat: ChatModel | None = None,
) -> Deps:
    """Every port wired to in-memory adapters on one fresh :class:`InMemoryDatabase`.

    Defaults need no model, file or network: :class:`FakeEmbedder` (whatever ``settings.embedder``
    says), :class:`CharTokenizer` and the system clock. The database is ``deps.uow``.
    """
    settings = settings or Settings()
    clock = clock or SystemClock()
    db = InMemoryDatabase()
    return Deps(
        settings=settings,
        uow=db,
        log=InMemoryMessageLog(db, clock),
        memories=InMemoryMemoryStore(db),
        vectors=InMemoryVectorIndex(db),
        keywords=InMemoryKeywordIndex(db),
        jobs=InMemoryJobQueue(db, clock),
        summaries=InMemorySummaryStore(db),
        cache=InMemoryCache(settings.cache_max_entries, clock),
        embedder=CachingEmbedder(embedder or FakeEmbedder()),
        tokenizer=tokenizer or CharTokenizer(),
        clock=clock,
        tenants=InMemoryTenantStore(db),
        idempotency=InMemoryIdempotencyStore(db),
        chat=chat,
    )
