"""Any LangChain chat model as a :class:`~hipocampo.ports.ChatModel`.

The adapter adds what a memory engine needs around a model call: structured output that works on
hosted APIs and on local servers alike, a timeout per call, retries with exponential backoff
(also when the answer does not fit the schema), and a cap on the calls one job may make.

Structured output tries these in order until one works, and stops asking for those the server
refused (an error, rather than an answer that did not fit):

1. ``json_schema``: ``model.with_structured_output(schema, method="json_schema")`` (OpenAI, vLLM,
   Ollama, Gemini...);
2. ``json_mode``: JSON mode with the schema attached, ``response_format={"type": "json_object",
   "schema": ...}``, which llama.cpp's server turns into a grammar (it rejects ``json_schema``)
   and other OpenAI-compatible servers read as plain JSON mode;
3. ``text``: a plain call, the JSON taken from the answer (code fences and prose around it allowed).

The prompts describe the JSON shape themselves, so modes 2 and 3 still know what to write.

The adapter duck-types the model (``ainvoke``, ``with_structured_output``, ``bind``); LangChain
itself is imported only when :func:`chat_model_from_settings` builds a model (through the one
builder, :mod:`hipocampo.adapters.llm.builder`, which the agent uses too).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Literal, Protocol

from pydantic import TypeAdapter

from ...domain.errors import ConfigurationError
from ...domain.extraction.llm_schemas import LLMBudgetExceeded, LLMError, parse_structured
from .builder import build_llm

StructuredMethod = Literal["json_schema", "json_mode", "text"]
METHODS: tuple[StructuredMethod, ...] = ("json_schema", "json_mode", "text")


class LangChainChat(Protocol):
    """The parts of ``langchain_core``'s ``BaseChatModel`` this adapter uses."""

    async def ainvoke(self, input: Any) -> Any: ...

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any: ...

    def bind(self, **kwargs: Any) -> Any: ...


class _TimedOut(Exception):
    """A call ran past ``timeout_s``. Not a reason to try another structured-output method."""


class LangChainChatModel:
    """Adapts a LangChain chat model (``BaseChatModel`` or anything with the same methods).

    ``complete`` returns the answer's text, or, given a ``schema`` (a pydantic model), a validated
    instance of it. Each provider call gets ``timeout_s``; a failed attempt (error, timeout, or an
    answer that does not fit the schema) is retried ``max_retries`` times after ``backoff_s``,
    ``2 * backoff_s``, ``4 * backoff_s``... and then :class:`LLMError` is raised.

    ``max_calls_per_job`` caps the provider calls made inside one :meth:`job` block, retries and
    fallbacks included; past it :class:`LLMBudgetExceeded` is raised, without retrying. Calls made
    outside any ``job`` block are not counted.

    ``structured_output`` pins one method instead of trying them in turn (see the module docs).
    """

    def __init__(
        self,
        model: LangChainChat,
        *,
        timeout_s: float = 30.0,
        max_retries: int = 2,
        backoff_s: float = 1.0,
        max_calls_per_job: int | None = None,
        structured_output: StructuredMethod | Literal["auto"] = "auto",
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        if timeout_s <= 0 or max_retries < 0 or backoff_s < 0:
            raise ConfigurationError("timeout_s must be positive; max_retries and backoff_s not negative")
        if max_calls_per_job is not None and max_calls_per_job < 1:
            raise ConfigurationError("max_calls_per_job must be at least 1 (or None for no limit)")
        if structured_output != "auto" and structured_output not in METHODS:
            raise ConfigurationError(f"structured_output must be 'auto' or one of {METHODS}")
        self.model = model
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.max_calls_per_job = max_calls_per_job
        self._methods: tuple[StructuredMethod, ...] = METHODS if structured_output == "auto" else (structured_output,)
        self._sleep = sleep
        self._runnables: dict[tuple[str, Any], Any] = {}
        # One counter per job block; tasks started inside the block share it (contexts are copied).
        self._job_calls: ContextVar[list[int] | None] = ContextVar(f"llm_job_calls_{id(self)}", default=None)

    @property
    def structured_methods(self) -> tuple[StructuredMethod, ...]:
        """The structured-output methods still tried, in order (the first one is in use)."""
        return self._methods

    @contextmanager
    def job(self) -> Iterator[None]:
        """Count the model calls made inside the block against one job's ``max_calls_per_job``."""
        token = self._job_calls.set([0])
        try:
            yield
        finally:
            self._job_calls.reset(token)

    async def complete(self, system: str, prompt: str, *, schema: type | None = None) -> Any:
        messages = [("system", system), ("human", prompt)]
        attempts = self.max_retries + 1
        last: Exception | None = None
        for attempt in range(attempts):
            if attempt:
                await self._sleep(self.backoff_s * 2 ** (attempt - 1))
            try:
                if schema is None:
                    return _text(await self._invoke(self.model, messages))
                return await self._structured(messages, schema)
            except LLMBudgetExceeded:
                raise
            except Exception as exc:  # provider errors, timeouts, answers that do not fit
                last = exc
        raise LLMError(f"the language model failed {attempts} time(s); last error: {_describe(last)}") from last

    async def _structured(self, messages: list[tuple[str, str]], schema: type) -> Any:
        methods = self._methods
        failures: list[str] = []
        last: Exception | None = None
        rejected = 0  # leading methods the server refused (rather than answered badly)
        for i, method in enumerate(methods):
            try:
                result = await self._ask(method, messages, schema)
            except (_TimedOut, LLMBudgetExceeded):
                raise
            except Exception as exc:
                failures.append(f"{method}: {_describe(exc)}")
                last = exc
                # A ValueError is an answer that does not fit (LangChain's parser errors and
                # pydantic's are ValueErrors): the method works, this answer did not.
                if rejected == i and not isinstance(exc, ValueError):
                    rejected += 1
                continue
            if rejected:  # the server refuses these methods: stop asking it for them
                self._methods = methods[rejected:]
            return result
        raise ValueError("; ".join(failures)) from last

    async def _ask(self, method: StructuredMethod, messages: list[tuple[str, str]], schema: type) -> Any:
        if method == "json_schema":
            runnable = self._runnable(
                method, schema, lambda: self.model.with_structured_output(schema, method="json_schema")
            )
            return parse_structured(await self._invoke(runnable, messages), schema)
        if method == "json_mode":
            runnable = self._runnable(
                method,
                schema,
                lambda: self.model.bind(
                    response_format={"type": "json_object", "schema": TypeAdapter(schema).json_schema()}
                ),
            )
            return parse_structured(_text(await self._invoke(runnable, messages)), schema)
        return parse_structured(_text(await self._invoke(self.model, messages)), schema)

    def _runnable(self, method: str, schema: type, build: Callable[[], Any]) -> Any:
        key = (method, schema)
        if key not in self._runnables:
            self._runnables[key] = build()
        return self._runnables[key]

    async def _invoke(self, runnable: Any, messages: list[tuple[str, str]]) -> Any:
        self._spend()
        try:
            return await asyncio.wait_for(runnable.ainvoke(messages), self.timeout_s)
        except asyncio.TimeoutError as exc:
            raise _TimedOut(f"no answer within {self.timeout_s:g} s") from exc

    def _spend(self) -> None:
        calls = self._job_calls.get()
        if calls is None or self.max_calls_per_job is None:
            return
        if calls[0] >= self.max_calls_per_job:
            raise LLMBudgetExceeded(f"this job already made {calls[0]} language model calls (max_calls_per_job)")
        calls[0] += 1


def _text(message: Any) -> str:
    """The text of an ``AIMessage`` (a string, or content blocks as Anthropic and Gemini send)."""
    content = getattr(message, "content", message)
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part if isinstance(part, str) else str(part.get("text", ""))
            for part in content
            if isinstance(part, str) or (isinstance(part, dict) and part.get("type", "text") == "text")
        )
    return str(content)


def _describe(exc: BaseException | None) -> str:
    if exc is None:
        return "none"
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:300]}" if text else type(exc).__name__


def chat_model_from_settings(
    spec: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    temperature: float = 0.0,
    timeout_s: float = 30.0,
    max_retries: int = 2,
    backoff_s: float = 1.0,
    max_calls_per_job: int | None = None,
) -> LangChainChatModel:
    """The :class:`~hipocampo.ports.ChatModel` for ``"provider:model"``, e.g. ``"openai:gpt-4o-mini"``,
    ``"google_genai:gemini-2.0-flash"``, ``"anthropic:claude-3-5-haiku-latest"``, or
    ``"openai:<name>"`` with ``base_url`` for a local OpenAI-compatible server (Ollama, vLLM,
    llama.cpp; those ignore the key, but the client wants one: give any).

    The model comes from :func:`~hipocampo.adapters.llm.builder.build_llm` (any provider of the
    ``hipocampo.chat_models`` registry, plugins included), with its client's retries off: this
    adapter retries, with its backoff. Without ``api_key`` the provider reads its usual
    environment variable.
    """
    chat = build_llm(spec, base_url=base_url, api_key=api_key, timeout_s=timeout_s, temperature=temperature)
    return LangChainChatModel(
        chat,
        timeout_s=timeout_s,
        max_retries=max_retries,
        backoff_s=backoff_s,
        max_calls_per_job=max_calls_per_job,
    )
