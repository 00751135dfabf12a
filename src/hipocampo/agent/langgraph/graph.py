"""The ready agent: a LangGraph graph with memory before and after the model.

::

    START -> load_memory -> agent --(tool calls)--> tools -> agent ...
                              \\--(answer)--> persist_memory -> END

``load_memory`` (or, without proactive retrieval, ``system_prompt``) puts the session's system
prompt and the recalled memory first; the agent answers or calls the four memory tools, at most
``max_tool_rounds`` times per user message; ``persist_memory`` writes the exchange to the log.
The final state's ``messages`` is the full trace: system prompt, user turn, tool calls, tool
results and the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from ...domain.errors import ConfigurationError
from ..langchain_tools import langchain_tools
from ..session import SessionConfig
from .nodes import MemoryFlags, MemoryState, load_memory_node, persist_memory_node

try:
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
    from langchain_core.runnables import RunnableLambda
    from langgraph.graph import END, START, StateGraph
    from langgraph.prebuilt import ToolNode
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ConfigurationError("The LangGraph integration needs langgraph: pip install 'hipocampo[langgraph]'") from exc

if TYPE_CHECKING:
    from ...client import AsyncMemory
    from ...client_sync import Memory
    from ..backend import AgentMemory


class AgentState(MemoryState, total=False):
    """``messages`` (add_messages reducer), ``memory_context``, ``memory_errors``, ``memory_persisted``."""


def build_agent_graph(
    memory: AsyncMemory | Memory | AgentMemory,
    session: SessionConfig,
    chat_model: Any,
    *,
    flags: MemoryFlags | None = None,
    proactive_retrieval: bool = True,
    max_tool_rounds: int = 5,
) -> Any:
    """The compiled agent graph for one session. Run it with ``{"messages": [HumanMessage(...)]}``.

    ``chat_model`` is a LangChain chat model that supports ``bind_tools``. Memory is recalled up
    front when both ``proactive_retrieval`` and ``session.use_pre_memory_load`` are on; ``flags``
    choose the layers. Past ``max_tool_rounds`` tool rounds for one user message, the model is
    asked once more without tools, for an answer. Compile options (a checkpointer...) are not
    needed: the thread's history comes from hipocampo's log; pass ``MemoryFlags(recent=False)``
    if you add a checkpointer that keeps it in the state.

    ``memory`` is the engine in process, or any :class:`~hipocampo.agent.backend.AgentMemory`:
    :class:`~hipocampo.agent.remote.RemoteAgentMemory` runs the same agent on a hipocampo service.
    Works with ``ainvoke``; with a sync :class:`~hipocampo.Memory`, ``invoke`` works too.
    """
    if max_tool_rounds < 0:
        raise ConfigurationError("max_tool_rounds must not be negative")
    tools = langchain_tools(memory, session)
    with_tools = chat_model.bind_tools(tools)

    def model_for(messages: Sequence[BaseMessage]) -> Any:
        return with_tools if tool_rounds(messages) < max_tool_rounds else chat_model

    async def acall(state: AgentState) -> dict[str, Any]:
        messages = list(state.get("messages") or [])
        return {"messages": [await model_for(messages).ainvoke(messages)]}

    def call(state: AgentState) -> dict[str, Any]:
        messages = list(state.get("messages") or [])
        return {"messages": [model_for(messages).invoke(messages)]}

    def route(state: AgentState) -> Literal["tools", "persist_memory"]:
        messages = list(state.get("messages") or [])
        last = messages[-1] if messages else None
        if isinstance(last, AIMessage) and last.tool_calls and tool_rounds(messages) <= max_tool_rounds:
            return "tools"
        return "persist_memory"

    recall = proactive_retrieval and session.use_pre_memory_load
    first = "load_memory" if recall else "system_prompt"
    graph = StateGraph(AgentState)
    graph.add_node(first, load_memory_node(memory, session, flags, recall=recall))
    graph.add_node("agent", RunnableLambda(call, afunc=acall, name="agent"))
    graph.add_node("tools", ToolNode(tools))
    graph.add_node("persist_memory", persist_memory_node(memory, session))
    graph.add_edge(START, first)
    graph.add_edge(first, "agent")
    graph.add_conditional_edges("agent", route, ["tools", "persist_memory"])
    graph.add_edge("tools", "agent")
    graph.add_edge("persist_memory", END)
    return graph.compile()


def tool_rounds(messages: Sequence[BaseMessage]) -> int:
    """Model turns that asked for tools since the latest user message."""
    rounds = 0
    for m in reversed(messages):
        if isinstance(m, HumanMessage):
            break
        if isinstance(m, AIMessage) and m.tool_calls:
            rounds += 1
    return rounds
