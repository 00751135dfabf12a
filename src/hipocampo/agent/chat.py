"""One chat turn with the ready agent: what ``hipocampo chat`` and ``POST /v1/chat`` run.

:func:`run_chat` answers with the configured chat model (``HIPOCAMPO_LLM``...) through the agent
graph. Without one it still does the memory half: it shows the memory that would have been
injected, stores the user's turn, and explains how to configure a model.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ..domain.errors import ConfigurationError, InvalidInput
from ..domain.model import new_id
from ..settings import Settings
from .backend import AgentMemory, BoundMemory, LocalAgentMemory, bind_memory
from .context import MemoryFlags
from .session import SessionConfig

if TYPE_CHECKING:
    from ..client import AsyncMemory
    from ..client_sync import Memory

log = logging.getLogger(__name__)

HOW_TO_CONFIGURE = (
    "To chat, set HIPOCAMPO_LLM to provider:model, e.g. HIPOCAMPO_LLM=openai:gpt-4o-mini (key in "
    "OPENAI_API_KEY or HIPOCAMPO_LLM_API_KEY), google_genai:gemini-2.0-flash or "
    "anthropic:claude-3-5-haiku-latest, and install its extra with the agent's: pip install "
    "'hipocampo[llm,langgraph]' (or [google], [anthropic] for [llm]). For a local OpenAI-compatible "
    "server (Ollama, vLLM, llama.cpp) use "
    "HIPOCAMPO_LLM=openai:<model> with HIPOCAMPO_LLM_BASE_URL=http://localhost:11434/v1."
)


class ChatReply(BaseModel):
    """The outcome of one chat turn, JSON-ready."""

    answer: str | None
    llm_configured: bool
    notice: str | None = None  # without a usable model: why, and how to configure one
    memory_context: str = ""  # the memory injected into the system prompt (or that would have been)
    system_prompt: str
    messages: list[dict[str, Any]]  # the full trace, in OpenAI's message format
    tool_calls: list[dict[str, Any]] = []  # {"id", "name", "args", "result"}
    memory_errors: list[str] = []


def chat_model_from_config(settings: Settings) -> tuple[Any | None, str | None]:
    """The agent's LangChain chat model built from ``HIPOCAMPO_LLM`` and friends, or ``(None,
    notice)`` when none is configured or it cannot be built.

    Built by the same builder as the extraction path's model, with the same retry policy
    (:mod:`hipocampo.adapters.llm.builder`); the provider's default temperature is kept, since
    an agent's answers are not parsed."""
    if not settings.llm:
        return None, "No chat model is configured (HIPOCAMPO_LLM is unset). " + HOW_TO_CONFIGURE
    try:
        from ..client import chat_model_from_settings  # the engine, only when a model is configured

        return chat_model_from_settings(settings), None
    except ConfigurationError as exc:
        return None, f"The chat model HIPOCAMPO_LLM={settings.llm} cannot be used: {exc} " + HOW_TO_CONFIGURE


async def run_chat(
    memory: AsyncMemory | Memory | AgentMemory,
    session: SessionConfig,
    message: str,
    *,
    chat_model: Any = None,
    flags: MemoryFlags | None = None,
) -> ChatReply:
    """Answer ``message`` in ``session`` with memory: recall, the model (and its memory tools), persist.

    ``memory`` is the engine or any :class:`~hipocampo.agent.backend.AgentMemory` (a remote
    service's, say). ``chat_model`` is a LangChain chat model with ``bind_tools``; by default the
    one the engine's settings configure (for a remote memory, this process's ``HIPOCAMPO_LLM``).
    Without one the reply has no answer but a ``notice``, the memory context that would have been
    injected, and the user's turn is stored all the same. Memory failures are reported in
    ``memory_errors``; a failing model raises :class:`LLMError`.
    """
    if not isinstance(message, str) or not message.strip():
        raise InvalidInput("message must not be empty")
    bound = bind_memory(memory)
    notice = None
    if chat_model is None:
        backend = bound.backend
        chat_model, notice = chat_model_from_config(
            backend.settings if isinstance(backend, LocalAgentMemory) else Settings()
        )
    if chat_model is None:
        return await _without_model(bound, session, message, flags or MemoryFlags(), notice)
    from .chat_graph import answer_with_model  # the langgraph extra, needed only with a model

    return await answer_with_model(memory, session, message, chat_model, flags)


async def _without_model(
    bound: BoundMemory, session: SessionConfig, message: str, flags: MemoryFlags, notice: str | None
) -> ChatReply:
    errors: list[str] = []
    context = ""
    if session.use_pre_memory_load:
        try:
            context = await bound.arun(bound.backend.context, session, message, flags)
        except Exception as exc:
            log.warning("recall failed", exc_info=True)
            errors.append(f"load_memory: {type(exc).__name__}: {exc}")
    try:
        turn = {"role": "user", "content": message, "id": new_id("chat")}
        await bound.arun(bound.backend.persist, session, [turn])
    except Exception as exc:
        log.warning("could not store the user's turn", exc_info=True)
        errors.append(f"persist_memory: {type(exc).__name__}: {exc}")
    system_prompt = session.render_system_prompt(context or None)
    return ChatReply(
        answer=None,
        llm_configured=False,
        notice=notice,
        memory_context=context,
        system_prompt=system_prompt,
        messages=[{"role": "system", "content": system_prompt}, {"role": "user", "content": message}],
        memory_errors=errors,
    )
