"""The half of :func:`~hipocampo.agent.chat.run_chat` that has a chat model: the agent graph run,
and its trace made JSON-ready. Needs ``hipocampo[langgraph]``; the no-model half does not."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..domain.errors import ConfigurationError, LLMError
from .chat import ChatReply
from .context import MemoryFlags
from .session import SessionConfig

try:
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage, convert_to_openai_messages

    from .langgraph.graph import build_agent_graph
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ConfigurationError("The chat agent needs langgraph: pip install 'hipocampo[langgraph]'") from exc

if TYPE_CHECKING:
    from ..client import AsyncMemory
    from ..client_sync import Memory
    from .backend import AgentMemory


async def answer_with_model(
    memory: AsyncMemory | Memory | AgentMemory,
    session: SessionConfig,
    message: str,
    chat_model: Any,
    flags: MemoryFlags | None,
) -> ChatReply:
    graph = build_agent_graph(memory, session, chat_model, flags=flags)
    try:
        state = await graph.ainvoke({"messages": [HumanMessage(content=message)]})
    except Exception as exc:
        raise LLMError(f"the chat model failed: {type(exc).__name__}: {exc}") from exc
    messages: list[BaseMessage] = state["messages"]
    last = messages[-1] if messages else None
    return ChatReply(
        answer=last.text if isinstance(last, AIMessage) else None,
        llm_configured=True,
        memory_context=state.get("memory_context", ""),
        system_prompt=messages[0].text if messages and messages[0].type == "system" else "",
        messages=trace(messages),
        tool_calls=tool_calls(messages),
        memory_errors=list(state.get("memory_errors") or []),
    )


def trace(messages: list[BaseMessage]) -> list[dict[str, Any]]:
    """The messages as JSON-ready dicts in OpenAI's chat format."""
    return list(convert_to_openai_messages(messages))


def tool_calls(messages: list[BaseMessage]) -> list[dict[str, Any]]:
    """Every tool call of the trace with its result (the tool's structured output)."""
    results = {m.tool_call_id: m for m in messages if isinstance(m, ToolMessage)}
    out = []
    for m in messages:
        if not isinstance(m, AIMessage):
            continue
        for call in m.tool_calls:
            reply = results.get(call["id"] or "")
            out.append({"id": call["id"], "name": call["name"], "args": call["args"], "result": _result(reply)})
    return out


def _result(reply: ToolMessage | None) -> Any:
    if reply is None:
        return None
    if reply.artifact is not None:
        return reply.artifact
    try:
        return json.loads(reply.text)
    except ValueError:
        return reply.text
