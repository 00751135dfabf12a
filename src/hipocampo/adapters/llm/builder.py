"""The one place a LangChain chat model is built from ``HIPOCAMPO_LLM`` (``provider:model``).

Used by the extraction path (:func:`~hipocampo.adapters.llm.langchain.chat_model_from_settings`
wraps the model as the :class:`~hipocampo.ports.ChatModel` port) and by the agent
(:func:`~hipocampo.agent.chat.chat_model_from_config`). The provider is looked up in the
``hipocampo.chat_models`` registry, built-ins and plugins alike (``docs/plugins.md``).

One retry policy for both: hipocampo retries, the provider's client never does. The client is
built with ``max_retries=0``; a failed call is retried ``HIPOCAMPO_LLM_MAX_RETRIES`` times with
exponential backoff from one second, by :class:`~hipocampo.adapters.llm.langchain.LangChainChatModel`
for extraction (which also retries answers that do not fit the schema) and by
:func:`with_retries` for the agent. Why: with both retrying, attempts multiply (2 client retries
x 3 adapter attempts = 9 calls per answer); and a plugin's client may retry differently or not at
all, while hipocampo's retries behave the same for every provider.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...domain.errors import ConfigurationError
from ...plugins import chat_models, check_llm, parse_llm  # noqa: F401  (the spec's rules live by the registry; named here too)

if TYPE_CHECKING:
    from ...settings import LLMSettings


def build_llm(
    spec: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout_s: float | None = None,
    temperature: float | None = 0.0,
) -> Any:
    """The LangChain chat model ``spec`` names, with its client's retries off (see the module docs).

    ``temperature=None`` leaves the provider's default. Without ``api_key`` the provider reads its
    usual environment variable. Raises :class:`ConfigurationError` for a malformed spec, an
    unknown provider (listing the installed ones), a missing package or a model the provider
    refuses to configure (a missing key, typically).
    """
    provider, model = parse_llm(spec)
    factory = chat_models.load(provider)
    options: dict[str, Any] = {"max_retries": 0}
    if temperature is not None:
        options["temperature"] = temperature
    if timeout_s is not None:
        options["timeout"] = timeout_s
    if base_url:
        options["base_url"] = base_url
    if api_key:
        options["api_key"] = api_key
    try:
        return factory(model, **options)
    except ConfigurationError:
        raise
    except ImportError as exc:
        raise ConfigurationError(f"The {provider} chat model needs its LangChain package ({exc}).") from exc
    except Exception as exc:  # pydantic or client errors, typically a missing key
        raise ConfigurationError(f"Could not configure the chat model {provider}:{model} ({exc}).") from exc


def llm_from_settings(llm: LLMSettings, *, temperature: float | None = 0.0) -> Any:
    """:func:`build_llm` with the LLM section: ``HIPOCAMPO_LLM`` and its base URL, key and timeout."""
    if not llm.spec:
        raise ConfigurationError("no chat model is configured (HIPOCAMPO_LLM is unset)")
    return build_llm(
        llm.spec, base_url=llm.base_url, api_key=llm.api_key, timeout_s=llm.timeout_seconds, temperature=temperature
    )


class RetryingChatModel:
    """A LangChain chat model whose calls, with or without tools bound, are retried.

    What the agent graph uses of a chat model is ``bind_tools``, ``invoke`` and ``ainvoke``; each
    goes through LangChain's ``with_retry`` (exponential backoff with jitter from one second).
    Everything else is the wrapped model's.
    """

    def __init__(self, model: Any, max_retries: int, *, backoff: bool = True) -> None:
        self.model = model
        self.max_retries = max_retries
        self.backoff = backoff  # False: retry at once (tests)

    def _retrying(self, runnable: Any) -> Any:
        if self.max_retries <= 0:
            return runnable
        return runnable.with_retry(stop_after_attempt=self.max_retries + 1, wait_exponential_jitter=self.backoff)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self._retrying(self.model.bind_tools(tools, **kwargs))

    def invoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        return self._retrying(self.model).invoke(input, config, **kwargs)

    async def ainvoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        return await self._retrying(self.model).ainvoke(input, config, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.model, name)


def with_retries(model: Any, max_retries: int) -> Any:
    """``model`` with hipocampo's retries, for callers that use the LangChain model directly."""
    return RetryingChatModel(model, max_retries) if max_retries > 0 else model
