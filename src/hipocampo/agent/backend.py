"""What the agent layer needs from a memory, as a port: :class:`AgentMemory`.

The LangChain tools, the LangGraph nodes and graph, and :func:`~hipocampo.agent.chat.run_chat`
take an ``AgentMemory`` or an engine (:class:`~hipocampo.client.AsyncMemory` or the sync
:class:`~hipocampo.Memory`), which they wrap in :class:`LocalAgentMemory`. The other
implementation, :class:`~hipocampo.agent.remote.RemoteAgentMemory`, speaks to a hipocampo HTTP
service, so an agent can run far from its memory with the same graph.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, runtime_checkable

from ..domain.errors import ConfigurationError
from .context import MemoryFlags, load_context
from .session import SessionConfig
from .tools import GetMemoryResult, MemoryTools, WriteResult

if TYPE_CHECKING:
    from ..client import AsyncMemory
    from ..client_sync import Memory
    from ..settings import Settings

T = TypeVar("T")


class AgentTools(Protocol):
    """The four memory tools of one session (:class:`~hipocampo.agent.tools.MemoryTools` locally).
    A model's mistake is a result with ``success=False``, never an exception."""

    async def get_memory(
        self,
        mode: Literal["semantic", "chronological"] = "semantic",
        query: str | None = None,
        memory_type: str | None = None,
        limit: int | None = None,
    ) -> GetMemoryResult: ...

    async def save_memory(self, content: str, memory_type: str) -> WriteResult: ...

    async def update_memory(self, memory_id: str, new_content: str) -> WriteResult: ...

    async def delete_memory(self, memory_id: str) -> WriteResult: ...


@runtime_checkable
class AgentMemory(Protocol):
    """The memory of an agent: what to read before answering, where the turns go, and the tools."""

    async def context(self, session: SessionConfig, query: str, flags: MemoryFlags | None = None) -> str:
        """The rendered memory for ``query`` in ``session`` (empty when nothing is recalled)."""
        ...

    async def persist(self, session: SessionConfig, turns: list[dict[str, Any]]) -> None:
        """Write turns (``{"role", "content", "id", "metadata"}``) to the session's thread. The ids
        are idempotency keys: writing a turn again stores it once."""
        ...

    def tools(self, session: SessionConfig) -> AgentTools:
        """The memory tools bound to ``session``."""
        ...


class LocalAgentMemory:
    """The in-process engine as an :class:`AgentMemory`."""

    def __init__(self, memory: AsyncMemory) -> None:
        self.memory = memory

    @property
    def settings(self) -> Settings:
        return self.memory.settings

    async def context(self, session: SessionConfig, query: str, flags: MemoryFlags | None = None) -> str:
        return await load_context(self.memory, session, query, flags or MemoryFlags())

    async def persist(self, session: SessionConfig, turns: list[dict[str, Any]]) -> None:
        await self.memory.add(
            session.user_id, session.thread_id, turns, tenant_id=session.tenant_id, agent_id=session.agent_id
        )

    def tools(self, session: SessionConfig) -> MemoryTools:
        return MemoryTools(self.memory, session)


@dataclass(frozen=True)
class BoundMemory:
    """An :class:`AgentMemory` and the event loop its coroutines must run on: a sync
    :class:`~hipocampo.Memory`'s own loop thread, or (``loop=None``) the caller's."""

    backend: AgentMemory
    loop: asyncio.AbstractEventLoop | None = None

    async def arun(self, fn: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
        """Await ``fn(*args)`` on the memory's loop."""
        if self.loop is None:
            return await fn(*args)
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(fn(*args), self.loop))

    def run(self, what: str, fn: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
        """Run ``fn(*args)`` from sync code: only a sync ``Memory`` has a loop of its own for that."""
        if self.loop is None:
            raise ConfigurationError(f"{what} is async with this memory: call ainvoke, or use a sync Memory")
        return asyncio.run_coroutine_threadsafe(fn(*args), self.loop).result()


def bind_memory(memory: AsyncMemory | Memory | AgentMemory) -> BoundMemory:
    """Wrap an engine in :class:`LocalAgentMemory` (a sync ``Memory`` keeps its own loop); an
    :class:`AgentMemory` is used as is."""
    from ..client import AsyncMemory
    from ..client_sync import Memory

    if isinstance(memory, Memory):
        return BoundMemory(LocalAgentMemory(memory._inner), memory._runner.loop)
    if isinstance(memory, AsyncMemory):
        return BoundMemory(LocalAgentMemory(memory))
    if isinstance(memory, AgentMemory):
        return BoundMemory(memory)
    raise ConfigurationError(
        f"expected an AsyncMemory, a Memory or an AgentMemory (e.g. RemoteAgentMemory), got {type(memory).__name__}"
    )
