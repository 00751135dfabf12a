"""The :class:`~hipocampo.ports.RateLimiter` port on Redis: quotas that hold across every server
process, counted by the ``limits`` library over the link's own connection pool (same timeouts,
same breaker).

When Redis is down the limiter fails open: the request is let through, counted in
:attr:`RedisRateLimiter.fallbacks`, and a warning is logged once per outage. Refusing every
request because a counter is unreachable would turn a cache outage into a service outage; the
price is that quotas are not enforced until Redis answers again (docs/service.md says so).
"""

from __future__ import annotations

import logging

from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter

from ..rate_limits import moving_window_hit
from .link import RedisLink, RedisUnavailable

log = logging.getLogger(__name__)


class RedisRateLimiter:
    """Requests per minute per key, in Redis under ``<prefix>limits:``."""

    def __init__(self, link: RedisLink) -> None:
        self._link = link
        # The URI only selects plain (not cluster or sentinel) Redis: the pool decides where.
        storage = RedisStorage(
            "async+redis://",
            implementation="redispy",
            key_prefix=link.key("limits"),
            connection_pool=link.client.connection_pool,  # type: ignore[arg-type]
        )
        self._limiter = MovingWindowRateLimiter(storage)
        self._open = False  # letting requests through: warned once per outage
        self.fallbacks = 0

    async def hit(self, key: str, per_minute: int) -> float | None:
        try:
            wait = await self._link.run(lambda: moving_window_hit(self._limiter, key, per_minute))
        except RedisUnavailable as exc:
            self.fallbacks += 1
            if not self._open:
                self._open = True
                log.warning("Redis is unreachable (%s): rate limits let every request through", exc)
            return None
        self._open = False
        return wait

    async def check(self) -> str | None:
        return await self._link.check()
