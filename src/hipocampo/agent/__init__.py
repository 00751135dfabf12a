"""Hipocampo for agents: session configuration, memory tools, and framework integrations.

``session`` and ``tools`` need nothing beyond the core; ``langchain_tools`` needs
``hipocampo[langchain]``, ``langgraph`` needs ``hipocampo[langgraph]``.
"""

from .session import SessionConfig
from .tools import GetMemoryResult, MemoryRecord, MemoryTools, WriteResult

__all__ = ["GetMemoryResult", "MemoryRecord", "MemoryTools", "SessionConfig", "WriteResult"]
