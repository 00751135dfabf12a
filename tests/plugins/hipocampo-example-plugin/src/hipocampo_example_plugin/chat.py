"""A chat model plugin: the ``hipocampo.chat_models`` entry point ``example`` names :func:`build_chat_model`.

``HIPOCAMPO_LLM=example:<model>`` gets an :class:`EchoChatModel` that answers ``"<model>: <the
last message>"``: a LangChain chat model, so hipocampo's extraction path and its agent both use it.
A real plugin returns its provider's LangChain class, built from the same arguments.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult


class EchoChatModel(BaseChatModel):
    model: str
    options: dict[str, Any] = {}

    @property
    def _llm_type(self) -> str:
        return "hipocampo-example-echo"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self  # it never calls tools: the agent gets a plain answer

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
        last = messages[-1].text if messages else ""
        return ChatResult(generations=[ChatGeneration(message=AIMessage(f"{self.model}: {last}"))])


def build_chat_model(model: str, **options: Any) -> EchoChatModel:
    """The factory: hipocampo passes the model name (what follows ``example:``) and LangChain
    constructor options: ``max_retries`` (0: hipocampo retries), ``timeout``, ``temperature``,
    ``base_url`` and ``api_key`` when configured. Take what your provider's class takes."""
    return EchoChatModel(model=model, options=options)
