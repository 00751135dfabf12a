"""A scripted chat model: answers from a list (or a function), records every call. No dependencies.

For tests and demos of the LLM-backed features without a model::

    chat = ScriptedChatModel([{"facts": [...]}, LLMError("down"), "plain text"])
    await chat.complete(system, prompt, schema=FactsOut)  # -> FactsOut validated from the dict
    chat.calls  # [(system, prompt, FactsOut), ...]
"""

from __future__ import annotations

import inspect
import json
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel

from ...domain.extraction.llm_schemas import LLMError, parse_structured

Responder = Callable[[str, str, type | None], Any]


class ScriptExhausted(AssertionError):
    """The code under test made more model calls than the script has answers for."""


class ScriptedChatModel:
    """Implements :class:`hipocampo.ports.ChatModel` from scripted answers.

    ``responses`` is a list consumed one per call, or a function ``(system, prompt, schema)``
    returning (or awaiting to) a response. A response is used like a model's answer:

    - with a ``schema``: a dict, a pydantic instance or JSON text (code fences allowed) is
      validated into it; an answer that does not fit raises :class:`LLMError`, as a real adapter
      does once its retries are spent;
    - without: text is returned as is; a dict or pydantic instance as JSON text;
    - an exception (instance or class) is raised, to test how callers handle failures.

    Every call is recorded in ``calls`` as ``(system, prompt, schema)``; a call past the end of the
    list raises :class:`ScriptExhausted`.
    """

    def __init__(self, responses: Sequence[Any] | Responder) -> None:
        self.calls: list[tuple[str, str, type | None]] = []
        self._responder: Responder | None = responses if callable(responses) else None
        self._script: deque[Any] = deque() if callable(responses) else deque(responses)
        self._scripted = 0 if callable(responses) else len(self._script)

    @property
    def remaining(self) -> int:
        """Scripted answers not used yet (0 for a function)."""
        return len(self._script)

    @contextmanager
    def job(self) -> Iterator[None]:
        """Same interface as :meth:`LangChainChatModel.job`; the script sets no budget."""
        yield

    async def complete(self, system: str, prompt: str, *, schema: type | None = None) -> Any:
        self.calls.append((system, prompt, schema))
        response = await self._next(system, prompt, schema)
        if isinstance(response, BaseException) or (isinstance(response, type) and issubclass(response, BaseException)):
            raise response
        if schema is None:
            if isinstance(response, BaseModel):
                return response.model_dump_json()
            return response if isinstance(response, str) else json.dumps(response, ensure_ascii=False)
        try:
            return parse_structured(response, schema)
        except ValueError as exc:
            name = getattr(schema, "__name__", repr(schema))
            raise LLMError(f"the scripted answer does not fit {name}: {exc}") from exc

    async def _next(self, system: str, prompt: str, schema: type | None) -> Any:
        if self._responder is not None:
            response = self._responder(system, prompt, schema)
            return await response if inspect.isawaitable(response) else response
        if not self._script:
            raise ScriptExhausted(
                f"ScriptedChatModel got call {len(self.calls)} but was scripted with "
                f"{self._scripted} answer(s); the call's prompt begins {prompt[:120]!r}"
            )
        return self._script.popleft()
