"""Redis adapters when Redis cannot be reached: fallbacks, the circuit breaker, fail-open limits.

No Redis server is needed: a port nobody listens on refuses at once, and a socket that listens
but never answers stands for a Redis that hangs. Recovery against a real server is in
``tests/integration/test_redis.py``.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator

import pytest

from hipocampo.adapters.redis import RedisCache, RedisLink, RedisRateLimiter


@pytest.fixture
def refused_url() -> str:
    with socket.socket() as s:  # a port that was free a moment ago: connections are refused
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


@pytest.fixture
def silent_url() -> Iterator[str]:
    """A listener that accepts (the kernel does, through the backlog) and never answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(16)
        yield f"redis://127.0.0.1:{s.getsockname()[1]}/0"


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_refused_redis_falls_back_at_once(refused_url: str) -> None:
    async def main() -> None:
        link = RedisLink(refused_url, pause_seconds=60)
        cache, limiter = RedisCache(link), RedisRateLimiter(link)
        try:
            start = time.perf_counter()
            assert await cache.get("k", ttl_seconds=10) is None
            await cache.set("k", {"v": 1}, 10)  # writes do not raise: the log is the truth
            await cache.delete("k")
            assert await limiter.hit("tenant:acme", 1) is None  # fails open
            assert await limiter.hit("tenant:acme", 1) is None
            assert time.perf_counter() - start < 0.5
            assert (cache.fallbacks, limiter.fallbacks) == (3, 2)
            problem = await cache.check()
            assert problem is not None and "ConnectionError" in problem
            assert await limiter.check() == problem  # one link, one breaker
        finally:
            await link.close()

    asyncio.run(main())


def test_the_breaker_spares_a_hanging_redis_and_tries_again_after_the_pause(silent_url: str) -> None:
    async def main() -> None:
        clock = Clock()
        link = RedisLink(silent_url, timeout_seconds=0.2, pause_seconds=2.0, clock=clock)
        cache = RedisCache(link)
        try:
            start = time.perf_counter()
            assert await cache.get("k") is None  # waits out the timeout (and its one retry)
            first = time.perf_counter() - start
            assert 0.2 <= first < 2.0
            start = time.perf_counter()
            for _ in range(100):  # breaker open: no call touches the network
                assert await cache.get("k") is None
            await cache.set("k", 1, 10)
            assert time.perf_counter() - start < 0.05
            assert cache.fallbacks == 102
            assert "Timeout" in (await cache.check() or "")

            clock.now += 2.0  # the pause is over: the next call tries Redis again (half-open)
            start = time.perf_counter()
            assert await cache.get("k") is None
            assert time.perf_counter() - start >= 0.2
            assert cache.fallbacks == 103
        finally:
            await link.close()

    asyncio.run(main())
