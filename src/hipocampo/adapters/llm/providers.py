"""hipocampo's own LLM providers, as the ``hipocampo.chat_models`` entry points of its ``pyproject.toml``.

Each factory takes a model name and LangChain constructor options and returns the provider's
LangChain chat model, exactly as a plugin's does (``docs/plugins.md``). The provider packages are
imported inside the factories, so a missing one is reported to whoever chooses that provider, with
the package to install. The classes are the ones LangChain's ``init_chat_model`` picks for these
names; calling them directly spares a dependency on the ``langchain`` package.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ...domain.errors import ConfigurationError

ChatFactory = Callable[..., Any]


def _provider(name: str, module: str, cls: str, install: str) -> ChatFactory:
    def factory(model: str, **options: Any) -> Any:
        try:
            chat_class = getattr(importlib.import_module(module), cls)
        except ImportError as exc:
            raise ConfigurationError(
                f"The {name} chat model needs LangChain's integration: pip install '{install}' ({exc})"
            ) from exc
        return chat_class(model=model, **options)

    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = f"``{module}.{cls}`` (``pip install '{install}'``)."
    return factory


openai = _provider("openai", "langchain_openai", "ChatOpenAI", "hipocampo[llm]")
azure_openai = _provider("azure_openai", "langchain_openai", "AzureChatOpenAI", "hipocampo[llm]")
anthropic = _provider("anthropic", "langchain_anthropic", "ChatAnthropic", "hipocampo[anthropic]")
google_genai = _provider("google_genai", "langchain_google_genai", "ChatGoogleGenerativeAI", "hipocampo[google]")
google_vertexai = _provider("google_vertexai", "langchain_google_vertexai", "ChatVertexAI", "langchain-google-vertexai")
bedrock_converse = _provider("bedrock_converse", "langchain_aws", "ChatBedrockConverse", "langchain-aws")
ollama = _provider("ollama", "langchain_ollama", "ChatOllama", "langchain-ollama")
groq = _provider("groq", "langchain_groq", "ChatGroq", "langchain-groq")
mistralai = _provider("mistralai", "langchain_mistralai", "ChatMistralAI", "langchain-mistralai")
deepseek = _provider("deepseek", "langchain_deepseek", "ChatDeepSeek", "langchain-deepseek")
xai = _provider("xai", "langchain_xai", "ChatXAI", "langchain-xai")
fireworks = _provider("fireworks", "langchain_fireworks", "ChatFireworks", "langchain-fireworks")
together = _provider("together", "langchain_together", "ChatTogether", "langchain-together")
