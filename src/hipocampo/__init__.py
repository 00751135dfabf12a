"""hipocampo: long-term memory for LLM chat agents, offline by default.

>>> from hipocampo import Memory
>>> with Memory.open("memory.db") as mem:
...     mem.add("ana", "t1", [{"role": "user", "content": "I moved to Lisbon last year"}])
...     mem.flush()
...     print(mem.recall("ana", "t1", "where does Ana live?").context)

The names below are loaded on first use (PEP 562), so that ``import hipocampo`` (and the
``hipocampo --version`` command) does not load the whole engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .client import AsyncMemory
    from .client_sync import Memory
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

_LAZY = {
    ".client": ("AsyncMemory",),
    ".client_sync": ("Memory",),
    ".domain.errors": (
        "ConfigurationError",
        "DimensionMismatch",
        "HipocampoError",
        "IndexUnavailable",
        "InvalidInput",
        "NotFound",
    ),
    ".domain.model": (
        "HistoryEntry",
        "HistoryEvent",
        "MemoryItem",
        "MemoryKind",
        "MemoryType",
        "Message",
        "NewMessage",
        "Role",
        "Scope",
    ),
    ".domain.retrieval.recall": ("Explanation", "RecallResult", "RecencyMode", "ScoredMemory", "SearchResult"),
    ".settings": ("Settings",),
}
_WHERE = {name: module for module, names in _LAZY.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value  # once loaded, a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})


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
