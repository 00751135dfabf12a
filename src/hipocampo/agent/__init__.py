"""Hipocampo for agents: session configuration, memory tools, and framework integrations.

``session``, ``tools``, ``retrieval.context`` and ``backend`` need nothing beyond the core;
``langchain_tools`` needs ``hipocampo[langchain]``, ``langgraph`` needs ``hipocampo[langgraph]``,
and ``remote`` (:class:`~hipocampo.agent.remote.RemoteAgentMemory`, an agent's memory in a
hipocampo service) needs httpx, which ``hipocampo[langgraph]`` brings.
"""

from .backend import AgentMemory, AgentTools, LocalAgentMemory
from .context import MemoryFlags
from .session import SessionConfig
from .tools import GetMemoryResult, MemoryRecord, MemoryTools, WriteResult

__all__ = [
    "AgentMemory",
    "AgentTools",
    "GetMemoryResult",
    "LocalAgentMemory",
    "MemoryFlags",
    "MemoryRecord",
    "MemoryTools",
    "SessionConfig",
    "WriteResult",
]
