"""A scripted LangChain chat model that calls tools: agents tested and demonstrated without a model.

Like httpx's ``MockTransport``, it ships with the package::

    model = ScriptedToolChatModel(script=[
        tool_call("save_memory", content="Ana lives in Lisbon.", memory_type="user_profile"),
        "Noted: you live in Lisbon.",
    ])
    graph = build_agent_graph(memory, session, model)

Each model call takes the next step of the script. A step is:

- text: the model answers with it;
- a tool call (:func:`tool_call`) or a list of them: the model asks for those tools;
- an ``AIMessage``: returned as is;
- an exception (instance or class): raised, to test how callers handle a failing model;
- a callable ``(messages) -> step``: called with the messages the model got, so an answer can
  depend on them (on the memory injected into the system prompt, say).

Every call is recorded in ``calls`` (the messages) and ``tools_seen`` (the names of the tools bound
for it); a call past the end of the script raises
:class:`~hipocampo.adapters.llm.scripted.ScriptExhausted`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..client import ScriptExhausted
from ..domain.errors import ConfigurationError

try:
    from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, BaseMessage, ToolCall
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from pydantic import Field, PrivateAttr
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ConfigurationError(
        "The scripted chat model needs langchain-core: pip install 'hipocampo[langgraph]'"
    ) from exc

__all__ = ["ScriptExhausted", "ScriptedToolChatModel", "tool_call"]


def tool_call(name: str, *, id: str | None = None, **args: Any) -> ToolCall:
    """A tool call for a script: ``tool_call("get_memory", mode="chronological")``."""
    return ToolCall(name=name, args=args, id=id, type="tool_call")


class ScriptedToolChatModel(BaseChatModel):
    """A LangChain chat model answering from ``script`` (see the module docs); supports ``bind_tools``."""

    script: list[Any]
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    tools_seen: list[list[str]] = Field(default_factory=list)
    _position: int = PrivateAttr(0)

    @property
    def _llm_type(self) -> str:
        return "hipocampo-scripted"

    @property
    def remaining(self) -> int:
        """Steps not used yet."""
        return len(self.script) - self._position

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | Any],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Any:
        formatted = [convert_to_openai_tool(t) for t in tools]
        if tool_choice is not None:
            kwargs["tool_choice"] = tool_choice
        return self.bind(tools=formatted, **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls.append(list(messages))
        self.tools_seen.append([t["function"]["name"] for t in kwargs.get("tools") or []])
        if self._position >= len(self.script):
            raise ScriptExhausted(
                f"ScriptedToolChatModel got call {len(self.calls)} but was scripted with {len(self.script)} step(s)"
            )
        step = self.script[self._position]
        self._position += 1
        if callable(step) and not _is_exception(step):
            step = step(list(messages))
        message = _message(step, f"call_{self._position}")
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        # No executor thread (the base class would use one): the script runs in order, in the caller.
        return self._generate(messages, stop, None, **kwargs)


def _is_exception(step: Any) -> bool:
    return isinstance(step, BaseException) or (isinstance(step, type) and issubclass(step, BaseException))


def _message(step: Any, prefix: str) -> AIMessage:
    if _is_exception(step):
        raise step
    if isinstance(step, AIMessage):
        return step
    if isinstance(step, str):
        return AIMessage(content=step)
    if isinstance(step, dict):
        step = [step]
    if isinstance(step, list) and all(isinstance(c, dict) and "name" in c for c in step):
        calls = [
            ToolCall(
                name=c["name"], args=dict(c.get("args") or {}), id=c.get("id") or f"{prefix}_{i}", type="tool_call"
            )
            for i, c in enumerate(step)
        ]
        return AIMessage(content="", tool_calls=calls)
    raise TypeError(f"a script step must be text, tool call(s), an AIMessage or an exception, got {step!r}")
