"""Chat models implementing :class:`hipocampo.ports.ChatModel`.

``langchain`` adapts any LangChain chat model (hosted or a local OpenAI-compatible server) and
imports LangChain only in its factory; ``scripted`` is a dependency-free fake for tests and demos.
"""
