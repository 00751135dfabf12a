"""LangGraph nodes that give an agent hipocampo's memory (``load_memory`` and
``persist_memory``), usable in any graph whose state has a ``messages`` list.

``load_memory`` recalls what the memory knows for the latest user message and puts it, with the
session's system prompt, in ONE system message at the head of the conversation.
``persist_memory`` writes the run's user and assistant turns to the log; the worker then indexes
them, extracts facts and folds long threads into summaries.

A memory failure never costs the user the answer: the node logs it, records it in
``memory_errors``, and the agent goes on without memory.
"""

from __future__ import annotations

import logging
import operator
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Annotated, Any, TypedDict

from ...domain.errors import ConfigurationError
from ..backend import AgentMemory, bind_memory
from ..context import CONVERSATION_KINDS, FACT_KINDS, MemoryFlags, load_context
from ..session import SessionConfig

try:
    from langchain_core.messages import AnyMessage, BaseMessage, HumanMessage, RemoveMessage, SystemMessage
    from langchain_core.runnables import RunnableLambda
    from langgraph.graph.message import REMOVE_ALL_MESSAGES, add_messages
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ConfigurationError("The LangGraph integration needs langgraph: pip install 'hipocampo[langgraph]'") from exc

if TYPE_CHECKING:
    from ...client import AsyncMemory
    from ...client_sync import Memory

__all__ = [
    "CONVERSATION_KINDS",
    "FACT_KINDS",
    "SYSTEM_MESSAGE_ID",
    "MemoryFlags",
    "MemoryState",
    "load_context",
    "load_memory_node",
    "memory_node",
    "persist_memory_node",
    "persist_turns",
    "system_update",
    "turns_to_persist",
]

log = logging.getLogger(__name__)

SYSTEM_MESSAGE_ID = "hipocampo-system"
"""The id of the system message the nodes write: a later run replaces it instead of adding one."""


class MemoryState(TypedDict, total=False):
    """The state keys the memory nodes read and write; merge them into your graph's state."""

    messages: Annotated[list[AnyMessage], add_messages]
    memory_context: str
    memory_errors: Annotated[list[str], operator.add]
    memory_persisted: Annotated[list[str], operator.add]  # ids of the messages already in the log


def latest_user_text(messages: Sequence[BaseMessage]) -> str | None:
    for m in reversed(messages):
        if isinstance(m, HumanMessage) and m.text.strip():
            return m.text
    return None


def system_update(session: SessionConfig, messages: Sequence[BaseMessage], context: str | None) -> list[Any]:
    """Messages update that puts the system prompt (with ``retrieval.context``) first, replacing an older one."""
    system = SystemMessage(content=session.render_system_prompt(context), id=SYSTEM_MESSAGE_ID)
    rest = [m for m in messages if m.id != SYSTEM_MESSAGE_ID]
    return [RemoveMessage(id=REMOVE_ALL_MESSAGES), system, *rest]


def turns_to_persist(messages: list[BaseMessage], persisted: set[str]) -> list[dict[str, Any]]:
    """The user turns and assistant answers not yet in the log. System messages and tool traffic
    stay out: the JSON of a tool result would be recalled later as if someone had said it."""
    out = []
    for m in messages:
        if m.id in persisted or not m.text.strip():
            continue
        if m.type == "human":
            role = "user"
        elif m.type == "ai":
            role = "assistant"
        else:
            continue
        out.append({"role": role, "content": m.text, "id": m.id, "metadata": {"source": "langgraph"}})
    return out


async def persist_turns(
    memory: AgentMemory, session: SessionConfig, messages: list[BaseMessage], persisted: set[str] | None = None
) -> list[str]:
    """Write the new turns of ``messages`` to the session's thread; returns the ids written. The
    message ids are the log's idempotency keys, so writing a turn twice stores it once."""
    turns = turns_to_persist(messages, persisted or set())
    if not turns:
        return []
    await memory.persist(session, turns)
    return [t["id"] for t in turns]


def load_memory_node(
    memory: AsyncMemory | Memory | AgentMemory,
    session: SessionConfig,
    flags: MemoryFlags | None = None,
    *,
    recall: bool = True,
) -> RunnableLambda:
    """A node that injects the system prompt and the recalled memory as one system message.

    Reads ``messages`` (the latest user message is the recall query); writes ``messages``,
    ``memory_context`` and, on failure, ``memory_errors``. With ``recall=False`` it injects the
    system prompt alone.
    """
    chosen = flags or MemoryFlags()

    def core(backend: AgentMemory) -> Callable[[MemoryState], Coroutine[Any, Any, dict[str, Any]]]:
        async def load(state: MemoryState) -> dict[str, Any]:
            messages = list(state.get("messages") or [])
            query = latest_user_text(messages)
            context, errors = "", []
            if recall and query:
                try:
                    context = await backend.context(session, query, chosen)
                except Exception as exc:
                    log.warning("load_memory failed; answering without memory", exc_info=True)
                    errors.append(f"load_memory: {type(exc).__name__}: {exc}")
            update: dict[str, Any] = {
                "messages": system_update(session, messages, context or None),
                "memory_context": context,
            }
            if errors:
                update["memory_errors"] = errors
            return update

        return load

    return memory_node(memory, core, "load_memory")


def persist_memory_node(memory: AsyncMemory | Memory | AgentMemory, session: SessionConfig) -> RunnableLambda:
    """A node that writes the run's user turns and assistant answers to the session's thread.

    Writes ``memory_persisted`` (ids written) and, on failure, ``memory_errors``; never
    ``messages``. Extraction, indexing and summaries follow in the background worker.
    """

    def core(backend: AgentMemory) -> Callable[[MemoryState], Coroutine[Any, Any, dict[str, Any]]]:
        async def persist(state: MemoryState) -> dict[str, Any]:
            try:
                written = await persist_turns(
                    backend, session, list(state.get("messages") or []), set(state.get("memory_persisted") or [])
                )
            except Exception as exc:
                log.warning("persist_memory failed; the answer stands, the turns are not stored", exc_info=True)
                return {"memory_errors": [f"persist_memory: {type(exc).__name__}: {exc}"]}
            return {"memory_persisted": written} if written else {}

        return persist

    return memory_node(memory, core, "persist_memory")


def memory_node(
    memory: AsyncMemory | Memory | AgentMemory,
    core: Callable[[AgentMemory], Callable[[Any], Coroutine[Any, Any, dict[str, Any]]]],
    name: str,
) -> RunnableLambda:
    """A node running ``core`` on the memory's event loop: with a sync :class:`Memory` the graph
    may run sync (``invoke``) or async; with an :class:`AsyncMemory` or an :class:`AgentMemory`
    (e.g. ``RemoteAgentMemory``), async only."""
    bound = bind_memory(memory)
    node = core(bound.backend)

    async def afunc(state: Any) -> dict[str, Any]:
        return await bound.arun(node, state)

    def func(state: Any) -> dict[str, Any]:
        return bound.run(name, node, state)

    return RunnableLambda(func, afunc=afunc, name=name)
