"""Chat models implementing :class:`hipocampo.ports.ChatModel`.

``builder`` is the one place a LangChain chat model is built from ``provider:model`` (through the
``hipocampo.chat_models`` registry; ``providers`` holds hipocampo's own); ``langchain`` adapts any
LangChain chat model (hosted or a local OpenAI-compatible server) and imports LangChain only in
its factory; ``scripted`` is a dependency-free fake for tests and demos.
"""

from .builder import build_llm, check_llm, llm_from_settings, parse_llm, with_retries

__all__ = ["build_llm", "check_llm", "llm_from_settings", "parse_llm", "with_retries"]
