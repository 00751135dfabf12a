"""hipocampo: long-term memory for LLM chat agents, offline by default.

>>> from hipocampo import Memory
>>> with Memory.open("memory.db") as mem:
...     mem.add("ana", "t1", [{"role": "user", "content": "I moved to Lisbon last year"}])
...     mem.flush()
...     print(mem.recall("ana", "t1", "where does Ana live?").context)
"""

from .client import AsyncMemory, Memory
from .domain.errors import (
    ConfigurationError,
    DimensionMismatch,
    HipocampoError,
    IndexUnavailable,
    InvalidInput,
    NotFound,
)
from .domain.model import (
    HistoryEntry,
    HistoryEvent,
    MemoryItem,
    MemoryKind,
    MemoryType,
    Message,
    NewMessage,
    Role,
    Scope,
)
from .domain.retrieval.recall import Explanation, RecallResult, RecencyMode, ScoredMemory, SearchResult
from .settings import Settings

__version__ = "0.1.0"

__all__ = [
    "AsyncMemory",
    "ConfigurationError",
    "DimensionMismatch",
    "Explanation",
    "HistoryEntry",
    "HistoryEvent",
    "HipocampoError",
    "IndexUnavailable",
    "InvalidInput",
    "Memory",
    "MemoryItem",
    "MemoryKind",
    "MemoryType",
    "Message",
    "NewMessage",
    "NotFound",
    "RecallResult",
    "RecencyMode",
    "Role",
    "Scope",
    "ScoredMemory",
    "SearchResult",
    "Settings",
    "__version__",
]
