"""hipocampo for LangGraph (``pip install 'hipocampo[langgraph]'``).

- :func:`build_agent_graph`: the ready agent, memory loaded before the model and persisted after;
- :func:`load_memory_node`, :func:`persist_memory_node` and :class:`MemoryFlags`: the same memory
  steps for your own graph;
- :class:`HipocampoStore`: a LangGraph ``BaseStore`` kept in hipocampo.
"""

from .graph import AgentState, build_agent_graph
from .nodes import MemoryFlags, MemoryState, load_memory_node, persist_memory_node
from .store import HipocampoStore

__all__ = [
    "AgentState",
    "HipocampoStore",
    "MemoryFlags",
    "MemoryState",
    "build_agent_graph",
    "load_memory_node",
    "persist_memory_node",
]
