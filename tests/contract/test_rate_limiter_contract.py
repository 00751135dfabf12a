"""The RateLimiter port contract, run against the in-process limiter and against Redis.

``limits`` counts over a moving window of one real minute, so these tests never wait for a
window to pass: they check what is allowed, what is refused and how long the wait is said to be.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import pytest

from hipocampo.adapters.rate_limits import LimitsRateLimiter
from hipocampo.domain.errors import ConfigurationError
from hipocampo.ports import RateLimiter

LimiterFactory = Callable[[], AbstractAsyncContextManager[RateLimiter]]


@pytest.fixture(params=["memory", "redis"])
def open_limiter(request: pytest.FixtureRequest) -> Iterator[LimiterFactory]:
    """Opens a fresh limiter of each adapter inside the test's event loop."""
    if request.param == "memory":

        @asynccontextmanager
        async def memory() -> AsyncIterator[RateLimiter]:
            yield LimitsRateLimiter()

        yield memory
        return

    from hipocampo.adapters.redis import RedisLink, RedisRateLimiter

    url = request.getfixturevalue("redis_db_url")

    @asynccontextmanager
    async def redis() -> AsyncIterator[RateLimiter]:
        link = RedisLink(url, prefix="contract:")
        try:
            yield RedisRateLimiter(link)
        finally:
            await link.close()

    yield redis


def run(open_limiter: LimiterFactory, scenario: Callable[[RateLimiter], Awaitable[None]]) -> None:
    async def main() -> None:
        async with open_limiter() as limiter:
            await scenario(limiter)
            assert limiter.fallbacks == 0 and await limiter.check() is None

    asyncio.run(main())


def test_allows_per_minute_then_says_how_long_to_wait(open_limiter: LimiterFactory) -> None:
    async def scenario(limiter: RateLimiter) -> None:
        for _ in range(3):
            assert await limiter.hit("tenant:acme", 3) is None
        wait = await limiter.hit("tenant:acme", 3)
        assert wait is not None and 0 < wait <= 60
        again = await limiter.hit("tenant:acme", 3)  # a refused request is not counted...
        assert again is not None and again <= wait  # ...so the wait does not grow

    run(open_limiter, scenario)


def test_keys_are_counted_apart(open_limiter: LimiterFactory) -> None:
    async def scenario(limiter: RateLimiter) -> None:
        assert await limiter.hit("tenant:acme", 1) is None
        assert await limiter.hit("tenant:acme", 1) is not None
        assert await limiter.hit("tenant:globex", 1) is None  # another key: its own count
        assert await limiter.hit("tenant:acme:2", 1) is None  # no prefix matching between keys
        assert await limiter.hit("tenant:globex", 1) is not None

    run(open_limiter, scenario)


def test_a_changed_limit_counts_afresh(open_limiter: LimiterFactory) -> None:
    async def scenario(limiter: RateLimiter) -> None:
        assert await limiter.hit("tenant:acme", 1) is None
        assert await limiter.hit("tenant:acme", 1) is not None
        for _ in range(2):  # the tenant's plan went up: the new quota starts with a fresh count
            assert await limiter.hit("tenant:acme", 2) is None
        assert await limiter.hit("tenant:acme", 2) is not None

    run(open_limiter, scenario)


def test_concurrent_hits_never_pass_more_than_the_limit(open_limiter: LimiterFactory) -> None:
    async def scenario(limiter: RateLimiter) -> None:
        answers = await asyncio.gather(*(limiter.hit("tenant:burst", 10) for _ in range(25)))
        assert sum(a is None for a in answers) == 10

    run(open_limiter, scenario)


def test_two_limiters_on_one_redis_share_the_count(redis_db_url: str) -> None:
    """What the Redis adapter is for: two server processes hold one quota between them."""
    from hipocampo.adapters.redis import RedisLink, RedisRateLimiter

    async def main() -> None:
        first, second = RedisLink(redis_db_url, prefix="fleet:"), RedisLink(redis_db_url, prefix="fleet:")
        other = RedisLink(redis_db_url, prefix="elsewhere:")  # another deployment on the same Redis
        try:
            a, b, c = RedisRateLimiter(first), RedisRateLimiter(second), RedisRateLimiter(other)
            assert await a.hit("tenant:acme", 2) is None
            assert await b.hit("tenant:acme", 2) is None
            assert await a.hit("tenant:acme", 2) is not None
            assert await b.hit("tenant:acme", 2) is not None
            assert await c.hit("tenant:acme", 2) is None
        finally:
            for link in (first, second, other):
                await link.close()

    asyncio.run(main())


def test_refuses_storage_it_cannot_use() -> None:
    with pytest.raises(ConfigurationError, match="cannot count requests"):
        LimitsRateLimiter("nosuch://x")
