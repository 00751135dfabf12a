"""The memory tools as LangChain tools (``hipocampo[langchain]`` or ``hipocampo[langgraph]``).

>>> tools = langchain_tools(memory, SessionConfig(user_id="ana", thread_id="t1"))
>>> model.bind_tools(tools)

Tools return JSON strings (what chat models read back); the structured result is the tool's
``artifact``. With an :class:`~hipocampo.client.AsyncMemory` or an
:class:`~hipocampo.agent.backend.AgentMemory` (e.g. a remote service's) the tools are async
(``ainvoke``); with a sync :class:`~hipocampo.Memory` both ``invoke`` and ``ainvoke`` work.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from ..domain.errors import ConfigurationError
from .backend import AgentMemory, BoundMemory, bind_memory
from .session import SessionConfig

if TYPE_CHECKING:
    from ..client import AsyncMemory
    from ..client_sync import Memory

try:
    from langchain_core.tools import StructuredTool
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ConfigurationError("LangChain tools need langchain-core: pip install 'hipocampo[langgraph]'") from exc


class GetMemoryArgs(BaseModel):
    mode: Literal["semantic", "chronological"] = Field(
        "semantic", description="semantic: rank memories against the query; chronological: newest first."
    )
    query: str | None = Field(None, description="What to look for (required in semantic mode).")
    memory_type: str | None = Field(
        None, description="Only this type (user_profile, preference, goal, constraint, critical_info, entity)."
    )


class SaveMemoryArgs(BaseModel):
    content: str = Field(description="One self-contained fact about the user, in a full sentence.")
    memory_type: str = Field(description="One of the memory types listed in the system prompt.")


class UpdateMemoryArgs(BaseModel):
    memory_id: str = Field(description="The memory_id returned by get_memory or save_memory.")
    new_content: str = Field(description="The corrected fact, replacing the old text.")


class DeleteMemoryArgs(BaseModel):
    memory_id: str = Field(description="The memory_id of the memory to delete.")


DESCRIPTIONS = {
    "get_memory": "Look up what you remember about the user: semantically for a question, or the newest memories.",
    "save_memory": "Save a durable fact about the user (profile, preference, goal, constraint, critical info).",
    "update_memory": "Correct a saved memory when the user says it changed or was wrong.",
    "delete_memory": "Delete a memory the user asks you to forget or that is no longer true.",
}
ARGS: dict[str, type[BaseModel]] = {
    "get_memory": GetMemoryArgs,
    "save_memory": SaveMemoryArgs,
    "update_memory": UpdateMemoryArgs,
    "delete_memory": DeleteMemoryArgs,
}


def langchain_tools(memory: AsyncMemory | Memory | AgentMemory, session: SessionConfig) -> list[StructuredTool]:
    """``get_memory``, ``save_memory``, ``update_memory`` and ``delete_memory`` bound to ``session``."""
    bound = bind_memory(memory)
    tools = bound.backend.tools(session)
    return [_tool(name, getattr(tools, name), bound) for name in ARGS]


def _tool(name: str, call: Callable[..., Coroutine[Any, Any, BaseModel]], bound: BoundMemory) -> StructuredTool:
    async def coroutine(**kwargs: Any) -> tuple[str, dict[str, Any]]:
        result = await bound.arun(lambda: call(**kwargs))
        return result.model_dump_json(), result.model_dump(mode="json")

    def func(**kwargs: Any) -> tuple[str, dict[str, Any]]:
        result = bound.run(name, lambda: call(**kwargs))
        return result.model_dump_json(), result.model_dump(mode="json")

    return StructuredTool.from_function(
        func=func,
        coroutine=coroutine,
        name=name,
        description=DESCRIPTIONS[name],
        args_schema=ARGS[name],
        response_format="content_and_artifact",
    )
