"""One connection to Redis for the shared cache and rate limits, behind a brief circuit breaker.

Redis is an accelerator here, never the truth (the log is), so an outage must cost the service
milliseconds, not requests:

* short socket and connect timeouts, and one immediate retry without backoff (redis-py's default
  backs off for seconds): the retry is what reconnects a pooled connection that a Redis restart
  closed, so the first call after a restart does not fail;
* after a failure the breaker opens for ``pause_seconds``: calls fail at once, without touching
  the network, so a dead Redis is not tried on every request. Then a single call goes through
  (half-open) while the others keep failing fast; its success closes the breaker. That is how
  Redis coming back is noticed without a restart.

The adapters turn :class:`RedisUnavailable` into their fallback (a cache miss, a request let
through) and count it; :attr:`problem` is what readiness reports.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

T = TypeVar("T")

PAUSE_SECONDS = 2.0
"""How long a failed Redis is left alone before one call tries it again."""


class RedisUnavailable(Exception):
    """Redis did not answer (or the breaker is open); the caller falls back."""


class RedisLink:
    """A redis-py asyncio client with the breaker; keys of this deployment start with ``prefix``.

    Build it inside the event loop that uses it; :meth:`close` releases the connections.
    """

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "hipocampo:",
        timeout_seconds: float = 0.25,
        pause_seconds: float = PAUSE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.prefix = prefix
        self.client: Redis = Redis.from_url(
            url,
            socket_timeout=timeout_seconds,
            socket_connect_timeout=timeout_seconds,
            retry=Retry(NoBackoff(), 1),
        )
        self._pause = pause_seconds
        self._clock = clock
        self._retry_at = 0.0
        self._probing = False
        self.problem: str | None = None
        """Why Redis is considered down, or None while it answers."""

    def key(self, name: str) -> str:
        return self.prefix + name

    async def run(self, call: Callable[[], Awaitable[T]]) -> T:
        """``await call()``, or :class:`RedisUnavailable` when it fails for any Redis or network
        reason, or at once while the breaker is open."""
        probing = self.problem is not None  # half-open: this call is the one that tries again
        if probing:
            if self._probing or self._clock() < self._retry_at:
                raise RedisUnavailable(self.problem)
            self._probing = True
        try:
            result = await call()
        except (RedisError, OSError) as exc:
            self._failed(exc)
            raise RedisUnavailable(self.problem) from exc
        finally:
            if probing:
                self._probing = False
        if self.problem is not None:
            log.warning("Redis answers again: shared cache and rate limits are back in use")
            self.problem = None
        return result

    def _failed(self, exc: BaseException) -> None:
        if self.problem is None:
            log.warning(
                "Redis is unreachable (%s: %s): recent windows are read from the log and rate limits "
                "let requests through until it answers again",
                type(exc).__name__,
                exc,
            )
        self.problem = f"{type(exc).__name__}: {exc}"
        self._retry_at = self._clock() + self._pause

    async def check(self) -> str | None:
        """None when Redis answers a PING now; else why not. While the breaker is open this
        answers from the last failure without touching the network."""
        try:
            await self.run(self.client.ping)
        except RedisUnavailable:
            pass
        return self.problem

    async def close(self) -> None:
        await self.client.aclose()
