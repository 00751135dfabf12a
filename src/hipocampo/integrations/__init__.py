"""Memory for the chat client you already use, in two lines.

::

    from openai import OpenAI
    from hipocampo.integrations import with_memory

    client = with_memory(OpenAI(), user_id="ana")
    client.chat.completions.create(model="gpt-4o-mini", messages=[...], thread_id="t1")

:func:`with_memory` wraps an OpenAI-style client (sync or async, streaming included);
:class:`MemoryChatModel` wraps a LangChain chat model (it needs ``langchain-core``, imported on
first use). Both recall the user's memory into the system prompt before each call and store the
new turns after it; a memory failure never breaks the call. See ``docs/integrations.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._core import MEMORY_HEADER, ChatMemory
from .openai_client import AsyncMemoryClient, MemoryClient
from .wrap import with_memory

if TYPE_CHECKING:
    from .langchain_model import MemoryChatModel

__all__ = ["MEMORY_HEADER", "AsyncMemoryClient", "ChatMemory", "MemoryChatModel", "MemoryClient", "with_memory"]


def __getattr__(name: str) -> Any:
    # LangChain is an extra: importing this package must not need it.
    if name == "MemoryChatModel":
        from .langchain_model import MemoryChatModel

        return MemoryChatModel
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
