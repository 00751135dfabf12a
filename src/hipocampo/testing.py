"""Fakes for your own tests, in the package so they need no model, file, server or network.

Everything here is what hipocampo's own test suite uses (docs/testing.md):

- :func:`open_memory`: an :class:`~hipocampo.AsyncMemory` on in-process stores, with the fake
  embedder, a character tokenizer and (optionally) a :class:`FakeClock` and a scripted LLM;
- :func:`build_memory_deps`: the same wiring one level down, for testing services directly;
- :class:`FakeEmbedder` (deterministic vectors: texts sharing words are close),
  :class:`CharTokenizer` (one token per 4 characters), :class:`FakeClock` (time moves when you
  say so);
- :class:`ScriptedChatModel`: an LLM answering from a list or a function, recording its calls;
  :class:`ScriptedToolChatModel` and :func:`tool_call`: a LangChain chat model that calls memory
  tools from a script (needs the ``langgraph`` extra; imported on first use).

The in-memory stores pass the same contract suites as SQLite and Postgres, so what a test sees
through them is what a real store does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .adapters.clock import FakeClock, SystemClock
from .adapters.embedders.cached import CachingEmbedder
from .adapters.embedders.fake import FakeEmbedder
from .adapters.llm.scripted import ScriptedChatModel, ScriptExhausted
from .adapters.memory import InMemoryDatabase, storage_on
from .adapters.memory_cache import InMemoryCache
from .adapters.rate_limits import LimitsRateLimiter
from .adapters.tokenizers import CharTokenizer
from .client import AsyncMemory
from .ports import ChatModel, Clock, Embedder, Tokenizer
from .services.deps import Deps
from .settings import Settings

if TYPE_CHECKING:  # loaded on first use (see __getattr__): the core install has no langchain-core
    from .agent.scripted_chat import ScriptedToolChatModel, tool_call

__all__ = [
    "CharTokenizer",
    "FakeClock",
    "FakeEmbedder",
    "ScriptExhausted",
    "ScriptedChatModel",
    "ScriptedToolChatModel",
    "build_memory_deps",
    "deps_of",
    "open_memory",
    "tool_call",
]


async def open_memory(
    *,
    clock: Clock | None = None,
    chat: ChatModel | None = None,
    name: str | None = None,
    **settings: Any,
) -> AsyncMemory:
    """An :class:`~hipocampo.AsyncMemory` for a test: in-process stores (``memory://name`` shares
    one store between opens of the same ``name`` in a process; fresh and private by default), the
    fake embedder and a character tokenizer. ``settings`` are :class:`~hipocampo.Settings` fields
    (``recent_messages=4``, ``facts_enabled=False``...). Close it (``await mem.close()``) or use
    ``async with``.
    """
    target = f"memory://{name}" if name else "memory://"
    return await AsyncMemory.open(
        target, embedder=FakeEmbedder(), tokenizer=CharTokenizer(), clock=clock, chat=chat, **settings
    )


def deps_of(memory: AsyncMemory | Any) -> Deps:
    """The wired ports behind an :class:`~hipocampo.AsyncMemory` (or a sync ``Memory``), for a test
    that checks what a store holds underneath the API (a cache entry, a job, a vector).

    Why here and not a property of the memory: the ports are private to the core, so that entry
    points, the agent and the integrations go through its methods (an import-rule test holds them
    to it); a test is the one reader allowed underneath."""
    inner = getattr(memory, "_inner", memory)  # the sync facade wraps an AsyncMemory
    deps: Deps = inner._deps
    return deps


def __getattr__(name: str) -> Any:
    """The LangChain-based fakes load on first use: the core install has no langchain-core."""
    if name in ("ScriptedToolChatModel", "tool_call"):
        from .agent import scripted_chat

        return getattr(scripted_chat, name)
    raise AttributeError(name)


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
