"""Redis adapters: the recent-window cache and the rate limits shared by a fleet of servers.

Both ride one :class:`RedisLink` (one connection pool, one circuit breaker). Needs ``redis``
(redis-py, asyncio client).
"""

from .cache import RedisCache
from .limiter import RedisRateLimiter
from .link import RedisLink, RedisUnavailable

__all__ = ["RedisCache", "RedisLink", "RedisRateLimiter", "RedisUnavailable"]
