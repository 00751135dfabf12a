"""In-process LRU cache with per-entry TTL, implementing the :class:`~hipocampo.ports.Cache` port.

Hand-written on ``OrderedDict`` rather than pulled from a library: it is a dozen lines, and the
injected clock makes expiry testable without sleeping.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ..ports import Clock
from .clock import SystemClock


class InMemoryCache:
    """Keeps at most ``max_entries`` keys, evicting the least recently used first.

    Values are stored as they are, not copied: callers must not mutate what they put or get.
    A ``ttl_seconds`` of zero or less means "do not cache" (and drops any previous value).
    Nothing outside the process backs it, so it never falls back and ``check`` has nothing to say.
    """

    fallbacks = 0

    def __init__(self, max_entries: int = 10_000, clock: Clock | None = None) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        self.max_entries = max_entries
        self._clock = clock or SystemClock()
        self._entries: OrderedDict[str, tuple[float, Any]] = OrderedDict()  # key -> (expires, value)
        self._lock = threading.Lock()  # the sync facade may share one cache across threads

    def _now(self) -> float:
        return self._clock.now().timestamp()

    async def get(self, key: str, *, ttl_seconds: float | None = None) -> Any | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            expires, value = entry
            now = self._now()
            if expires <= now:
                del self._entries[key]
                return None
            if ttl_seconds is not None and ttl_seconds > 0:
                self._entries[key] = (now + ttl_seconds, value)
            self._entries.move_to_end(key)
            return value

    async def set(self, key: str, value: Any, ttl_seconds: float) -> None:
        with self._lock:
            if ttl_seconds <= 0:
                self._entries.pop(key, None)
                return
            self._entries[key] = (self._now() + ttl_seconds, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    async def delete(self, key: str) -> None:
        with self._lock:
            self._entries.pop(key, None)

    async def check(self) -> str | None:
        return None

    def __len__(self) -> int:
        """Entries held, expired ones included until they are read or evicted."""
        return len(self._entries)
