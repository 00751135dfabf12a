"""The two-line entry point: :func:`with_memory` picks the wrapper for the client it is given."""

from __future__ import annotations

import sys
from typing import Any, TypeVar

from ._core import ChatMemory
from .openai_client import wrap_openai

C = TypeVar("C")


def with_memory(
    client: C,
    *,
    user_id: str | None = None,
    thread_id: str | None = None,
    memory: Any = None,
    memory_api_key: str | None = None,
    tenant_id: str = "default",
    agent_id: str | None = None,
    token_budget: int | None = None,
    memory_timeout: float = 10.0,
) -> C:
    """``client`` with long-term memory: every chat call recalls the user's memory into the system
    prompt and stores the call's new turns after the answer.

    ``client``: an OpenAI-style client (``OpenAI``, ``AsyncOpenAI``, Azure, any OpenAI-compatible
    SDK client: ``chat.completions.create`` and ``parse``, streaming included) or a LangChain chat
    model (``ChatOpenAI``, ...; see :class:`~hipocampo.integrations.MemoryChatModel`).

    ``memory``: where the memory lives (see :class:`~hipocampo.integrations.ChatMemory`): the
    embedded store of the settings by default, a path, an ``http(s)://`` hipocampo service (with
    ``memory_api_key``), or a ``Memory``/``AsyncMemory``/``RemoteAgentMemory`` you opened.
    ``token_budget`` caps the recalled context (default ``HIPOCAMPO_CONTEXT_TOKEN_BUDGET``);
    ``memory_timeout`` bounds each recall and each store, in seconds.

    Whose memory a call uses, most specific first: the call's ``user_id=``/``thread_id=`` keyword
    arguments (removed before the request goes out), the call's metadata (OpenAI ``metadata``,
    LangChain run-config ``metadata`` or ``configurable``), the ``user_id``/``thread_id`` given
    here, then (user only) the OpenAI ``user`` field. A call that names no user runs without memory.
    """
    hook = ChatMemory(
        memory,
        memory_api_key=memory_api_key,
        tenant_id=tenant_id,
        agent_id=agent_id,
        token_budget=token_budget,
        timeout=memory_timeout,
    )
    try:
        if _is_langchain_model(client):
            from .langchain_model import wrap_chat_model

            return wrap_chat_model(client, hook, user_id, thread_id)  # type: ignore[arg-type]
        return wrap_openai(client, hook, user_id, thread_id)
    except BaseException:
        hook.close()
        raise


def _is_langchain_model(client: object) -> bool:
    if "langchain_core" not in sys.modules:  # not imported: the client cannot be one of its models
        return False
    from langchain_core.language_models import BaseChatModel

    return isinstance(client, BaseChatModel)
