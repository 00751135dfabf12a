"""The :class:`~hipocampo.ports.RateLimiter` port in process (or on any storage of the ``limits``
library), and the moving-window hit that the Redis adapter shares.

``limits`` does the counting: a moving window of one minute, so a burst at the edge of two
clock minutes cannot pass twice the quota, as it could with fixed windows.
"""

from __future__ import annotations

import time

from limits import RateLimitItemPerMinute
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import ConfigurationError as LimitsConfigurationError
from limits.storage import storage_from_string

from ..domain.errors import ConfigurationError


async def moving_window_hit(limiter: MovingWindowRateLimiter, key: str, per_minute: int) -> float | None:
    """Count one request of ``key``; None when allowed, else seconds until a slot frees up."""
    item = RateLimitItemPerMinute(per_minute)
    if await limiter.hit(item, key):
        return None
    stats = await limiter.get_window_stats(item, key)
    return max(0.0, stats.reset_time - time.time())


class LimitsRateLimiter:
    """Counts in ``storage_uri``: ``memory://`` (this process only, the default) or another
    storage ``limits`` knows (``memcached://``...). Redis has its own adapter
    (:class:`~hipocampo.adapters.redis.RedisRateLimiter`), which survives an outage.

    Build it inside the event loop that uses it (``limits``' async storages bind to it).
    """

    fallbacks = 0  # errors of a non-memory storage propagate; nothing is let through silently

    def __init__(self, storage_uri: str = "memory://") -> None:
        uri = storage_uri if storage_uri.startswith("async+") else f"async+{storage_uri}"
        try:
            self._limiter = MovingWindowRateLimiter(storage_from_string(uri))
        except (LimitsConfigurationError, NotImplementedError, ValueError) as exc:
            raise ConfigurationError(f"cannot count requests in {storage_uri!r}: {exc}") from exc

    async def hit(self, key: str, per_minute: int) -> float | None:
        return await moving_window_hit(self._limiter, key, per_minute)

    async def check(self) -> str | None:
        return None
