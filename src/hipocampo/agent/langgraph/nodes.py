"""LangGraph nodes that give an agent hipocampo's memory (seed 000's ``load_memory`` and
``persist_memory``), usable in any graph whose state has a ``messages`` list.

``load_memory`` recalls what the memory knows for the latest user message and puts it, with the
session's system prompt, in ONE system message at the head of the conversation.
``persist_memory`` writes the run's user and assistant turns to the log; the worker then indexes
them, extracts facts and folds long threads into summaries.

A memory failure never costs the user the answer: the node logs it, records it in
``memory_errors``, and the agent goes on without memory.
"""

from __future__ import annotations

import asyncio
import logging
import operator
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Annotated, Any, TypedDict

from pydantic import BaseModel, ConfigDict

from ...domain.context import ContextPiece, render_context
from ...domain.errors import ConfigurationError
from ...domain.model import MemoryKind, Scope
from ...services import recall as recall_service
from ...services.retrieval import MAX_QUERY_CHARS, SearchOptions
from ..session import SessionConfig

try:
    from langchain_core.messages import AnyMessage, BaseMessage, HumanMessage, RemoveMessage, SystemMessage
    from langchain_core.runnables import RunnableLambda
    from langgraph.graph.message import REMOVE_ALL_MESSAGES, add_messages
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ConfigurationError("The LangGraph integration needs langgraph: pip install 'hipocampo[langgraph]'") from exc

if TYPE_CHECKING:
    from ...client import AsyncMemory, Memory

log = logging.getLogger(__name__)

SYSTEM_MESSAGE_ID = "hipocampo-system"
"""The id of the system message the nodes write: a later run replaces it instead of adding one."""

FACT_KINDS = (MemoryKind.FACT, MemoryKind.CONSOLIDATED)
CONVERSATION_KINDS = (MemoryKind.TURN, MemoryKind.EPISODE, MemoryKind.SUMMARY)


class MemoryFlags(BaseModel):
    """Which memory layers ``load_memory`` injects (seed 000's feature flags, one per layer).

    - ``summaries``: the rolling summary of the current thread.
    - ``recent``: the thread's last turns, read from the log (``HIPOCAMPO_RECENT_MESSAGES``). Turn
      it off when a LangGraph checkpointer already keeps the thread's messages in the state.
    - ``vectors``: retrieval over past conversation: turns, episodes and other threads' summaries
      ranked by hybrid (dense + keyword) search. Off: none of those are recalled.
    - ``entities``: what hipocampo knows about the user: facts (profile, preferences, goals,
      constraints, critical info, entities; extracted or saved by the agent) and their
      consolidations. Off: no facts are recalled.
    - ``cross_thread``: memories from the user's other threads. Off: only memories from the
      current thread are kept (ranked among all of the user's, so fewer may come back).

    Everything is on by default: hipocampo is built to carry memory across conversations. The
    layers map onto recall options (kinds of memory) where the engine has them, and onto the
    sections of the rendered context otherwise.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    summaries: bool = True
    recent: bool = True
    vectors: bool = True
    entities: bool = True
    cross_thread: bool = True

    def kinds(self) -> tuple[MemoryKind, ...] | None:
        """Kinds of memory to recall: ``None`` for all, ``()`` for none."""
        if self.vectors and self.entities:
            return None
        return (FACT_KINDS if self.entities else ()) + (CONVERSATION_KINDS if self.vectors else ())


class MemoryState(TypedDict, total=False):
    """The state keys the memory nodes read and write; merge them into your graph's state."""

    messages: Annotated[list[AnyMessage], add_messages]
    memory_context: str
    memory_errors: Annotated[list[str], operator.add]
    memory_persisted: Annotated[list[str], operator.add]  # ids of the messages already in the log


def latest_user_text(messages: list[BaseMessage]) -> str | None:
    for m in reversed(messages):
        if isinstance(m, HumanMessage) and m.text.strip():
            return m.text
    return None


async def load_context(memory: AsyncMemory, session: SessionConfig, query: str, flags: MemoryFlags) -> str:
    """The memory context for ``query`` in ``session``, with the layers ``flags`` allows. Raises on
    failure (the node catches)."""
    deps = memory.deps
    scope = Scope(session.tenant_id, session.user_id, session.agent_id)
    thread = session.thread_id
    kinds = flags.kinds()
    query = query[:MAX_QUERY_CHARS]  # a pasted document still gets an answer, recalled from its start
    if kinds != ():
        result = await recall_service.recall(deps, scope, query, thread_id=thread, options=SearchOptions(kinds=kinds))
        if flags.summaries and flags.recent and flags.cross_thread:
            return result.context
        summary, recent, hits = result.summary, result.recent, result.memories
    else:
        summary = await deps.summaries.get(scope, thread) if flags.summaries else None
        recent = await recall_service.recent_messages(deps, scope, thread) if flags.recent else []
        hits = []
    if not flags.cross_thread:
        hits = [h for h in hits if h.memory.thread_id == thread]
    # Re-rendered from the sections kept: neighbouring turns of the hits are not brought along.
    text, _, _ = render_context(
        summary=summary if flags.summaries else None,
        recent=recent if flags.recent else [],
        pieces=[ContextPiece(h.memory, rank) for rank, h in enumerate(hits)],
        budget=deps.settings.context_token_budget,
        count=deps.tokenizer.count,
        truncate=deps.tokenizer.truncate,
    )
    return text


def system_update(session: SessionConfig, messages: list[BaseMessage], context: str | None) -> list[Any]:
    """Messages update that puts the system prompt (with ``context``) first, replacing an older one."""
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


async def persist_turns(memory: AsyncMemory, session: SessionConfig, messages: list[BaseMessage],
                        persisted: set[str] | None = None) -> list[str]:
    """Write the new turns of ``messages`` to the session's thread; returns the ids written. The
    message ids are the log's idempotency keys, so writing a turn twice stores it once."""
    turns = turns_to_persist(messages, persisted or set())
    if not turns:
        return []
    await memory.add(
        session.user_id, session.thread_id, turns, tenant_id=session.tenant_id, agent_id=session.agent_id
    )
    return [t["id"] for t in turns]


def load_memory_node(
    memory: AsyncMemory | Memory, session: SessionConfig, flags: MemoryFlags | None = None, *, recall: bool = True
) -> RunnableLambda:
    """A node that injects the system prompt and the recalled memory as one system message.

    Reads ``messages`` (the latest user message is the recall query); writes ``messages``,
    ``memory_context`` and, on failure, ``memory_errors``. With ``recall=False`` it injects the
    system prompt alone.
    """
    chosen = flags or MemoryFlags()

    def core(inner: AsyncMemory) -> Callable[[MemoryState], Awaitable[dict[str, Any]]]:
        async def load(state: MemoryState) -> dict[str, Any]:
            messages = list(state.get("messages") or [])
            query = latest_user_text(messages)
            context, errors = "", []
            if recall and query:
                try:
                    context = await load_context(inner, session, query, chosen)
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


def persist_memory_node(memory: AsyncMemory | Memory, session: SessionConfig) -> RunnableLambda:
    """A node that writes the run's user turns and assistant answers to the session's thread.

    Writes ``memory_persisted`` (ids written) and, on failure, ``memory_errors``; never
    ``messages``. Extraction, indexing and summaries follow in the background worker.
    """

    def core(inner: AsyncMemory) -> Callable[[MemoryState], Awaitable[dict[str, Any]]]:
        async def persist(state: MemoryState) -> dict[str, Any]:
            try:
                written = await persist_turns(
                    inner, session, list(state.get("messages") or []), set(state.get("memory_persisted") or [])
                )
            except Exception as exc:
                log.warning("persist_memory failed; the answer stands, the turns are not stored", exc_info=True)
                return {"memory_errors": [f"persist_memory: {type(exc).__name__}: {exc}"]}
            return {"memory_persisted": written} if written else {}

        return persist

    return memory_node(memory, core, "persist_memory")


def memory_node(
    memory: AsyncMemory | Memory,
    core: Callable[[AsyncMemory], Callable[[Any], Coroutine[Any, Any, dict[str, Any]]]],
    name: str,
) -> RunnableLambda:
    """A node running ``core`` on the memory's event loop: with a sync :class:`Memory` the graph
    may run sync (``invoke``) or async; with an :class:`AsyncMemory`, async only."""
    runner = getattr(memory, "_runner", None)
    inner: AsyncMemory = memory._inner if runner is not None else memory  # type: ignore[union-attr,assignment]
    node = core(inner)

    async def afunc(state: Any) -> dict[str, Any]:
        if runner is None:
            return await node(state)
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(node(state), runner.loop))

    def func(state: Any) -> dict[str, Any]:
        if runner is None:
            raise ConfigurationError(f"{name} needs ainvoke with an AsyncMemory (or use a sync Memory)")
        return runner.run(node(state))

    return RunnableLambda(func, afunc=afunc, name=name)
