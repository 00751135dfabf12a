"""The :class:`~hipocampo.ports.Cache` port on Redis: one cache shared by every server process.

Values are stored as JSON under ``<prefix>cache:<key>`` with a time to live; a read that renews
the TTL is one ``GETEX``. When Redis is down every call falls back (a miss, or nothing stored or
deleted) and counts in :attr:`RedisCache.fallbacks`: the recent window is then read from the log,
which is the truth. A delete that failed leaves an old value behind, but the windows carry the
thread version they were built at and are checked against the log on every read
(:func:`hipocampo.services.recall.recent_messages`), so it is never served.
"""

from __future__ import annotations

import json
import logging
import math
from typing import Any

from .link import RedisLink, RedisUnavailable

log = logging.getLogger(__name__)


def _ms(seconds: float) -> int:
    return max(1, math.ceil(seconds * 1000))


class RedisCache:
    """Cache entries in Redis, shared by every process configured with the same URL and prefix."""

    def __init__(self, link: RedisLink) -> None:
        self._link = link
        self._redis = link.client
        self.fallbacks = 0

    def _key(self, key: str) -> str:
        return self._link.key("cache:" + key)

    async def get(self, key: str, *, ttl_seconds: float | None = None) -> Any | None:
        name = self._key(key)
        renew = _ms(ttl_seconds) if ttl_seconds is not None and ttl_seconds > 0 else None
        try:
            raw = await self._link.run(lambda: self._redis.getex(name, px=renew) if renew else self._redis.get(name))
        except RedisUnavailable:
            self.fallbacks += 1
            return None
        if raw is None:
            return None
        try:
            return json.loads(raw)
        except ValueError:  # not ours (another writer under this prefix): a miss, rewritten on set
            log.warning("ignoring a cache entry that is not JSON: %s", name)
            return None

    async def set(self, key: str, value: Any, ttl_seconds: float) -> None:
        name = self._key(key)
        try:
            if ttl_seconds <= 0:
                await self._link.run(lambda: self._redis.delete(name))
            else:
                data = json.dumps(value, separators=(",", ":"))
                await self._link.run(lambda: self._redis.set(name, data, px=_ms(ttl_seconds)))
        except RedisUnavailable:
            self.fallbacks += 1

    async def delete(self, key: str) -> None:
        name = self._key(key)
        try:
            await self._link.run(lambda: self._redis.delete(name))
        except RedisUnavailable:
            self.fallbacks += 1

    async def check(self) -> str | None:
        return await self._link.check()
