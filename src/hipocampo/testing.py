"""Fakes for tests, in the package so users' own tests need no model, file or network.

>>> deps = build_memory_deps()  # in-memory stores, FakeEmbedder, CharTokenizer

The in-memory stores pass the same contract suites as SQLite and Postgres; the fake embedder
gives deterministic vectors; :class:`~hipocampo.adapters.llm.scripted.ScriptedChatModel` answers
from a script.
"""

from __future__ import annotations

from .adapters.clock import FakeClock, SystemClock
from .adapters.embedders.cached import CachingEmbedder
from .adapters.embedders.fake import FakeEmbedder
from .adapters.memory import InMemoryDatabase, storage_on
from .adapters.memory_cache import InMemoryCache
from .adapters.rate_limits import LimitsRateLimiter
from .adapters.tokenizers import CharTokenizer
from .ports import ChatModel, Clock, Embedder, Tokenizer
from .services.deps import Deps
from .settings import Settings

__all__ = ["FakeClock", "FakeEmbedder", "build_memory_deps"]


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
    return Deps.over(
        storage_on(InMemoryDatabase(), clock),
        settings=settings,
        cache=InMemoryCache(settings.cache_max_entries, clock),
        limiter=LimitsRateLimiter(),
        embedder=CachingEmbedder(embedder or FakeEmbedder(), max_chars=settings.embed_max_chars),
        tokenizer=tokenizer or CharTokenizer(),
        clock=clock,
        chat=chat,
    )
