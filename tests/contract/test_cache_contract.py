"""The Cache port contract, run against the in-process LRU and against Redis (a real server).

Both adapters must behave alike for what services rely on: JSON values round-trip, a TTL expires
an entry, a read with ``ttl_seconds`` renews it, a non-positive TTL stores nothing, deletes are
idempotent, and a healthy cache reports no fallbacks. What only one adapter has (LRU eviction,
expiry under a fake clock) is tested below the contract.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime, timezone

import pytest

from hipocampo.adapters.clock import FakeClock, SystemClock
from hipocampo.adapters.memory_cache import InMemoryCache
from hipocampo.ports import Cache

CacheFactory = Callable[[], AbstractAsyncContextManager[Cache]]


@pytest.fixture(params=["memory", "redis"])
def open_cache(request: pytest.FixtureRequest) -> Iterator[CacheFactory]:
    """Opens a fresh cache of each adapter inside the test's event loop."""
    if request.param == "memory":

        @asynccontextmanager
        async def memory() -> AsyncIterator[Cache]:
            yield InMemoryCache()

        yield memory
        return

    from hipocampo.adapters.redis import RedisCache, RedisLink

    url = request.getfixturevalue("redis_db_url")  # an empty logical database of its own

    @asynccontextmanager
    async def redis() -> AsyncIterator[Cache]:
        link = RedisLink(url, prefix="contract:")
        try:
            yield RedisCache(link)
        finally:
            await link.close()

    yield redis


def run(open_cache: CacheFactory, scenario: Callable[[Cache], Awaitable[None]]) -> None:
    async def main() -> None:
        async with open_cache() as cache:
            await scenario(cache)
            assert cache.fallbacks == 0 and await cache.check() is None

    asyncio.run(main())


def test_get_set_delete(open_cache: CacheFactory) -> None:
    async def scenario(cache: Cache) -> None:
        assert await cache.get("k") is None
        await cache.set("k", {"messages": [1, 2]}, ttl_seconds=60)
        assert await cache.get("k") == {"messages": [1, 2]}
        await cache.set("k", "replaced", ttl_seconds=60)
        assert await cache.get("k") == "replaced"
        await cache.delete("k")
        assert await cache.get("k") is None
        await cache.delete("never-set")  # deleting a missing key is fine

    run(open_cache, scenario)


def test_json_values_round_trip(open_cache: CacheFactory) -> None:
    value = {"version": 7, "limit": 10, "messages": [{"content": "Olá, ação! ☃", "metadata": {}}], "ok": True}

    async def scenario(cache: Cache) -> None:
        for key, v in {"window": value, "flag": True, "n": 3, "f": 2.5, "s": "text", "list": [1, "a", None]}.items():
            await cache.set(key, v, ttl_seconds=60)
            assert await cache.get(key) == v
        await cache.set("recent:acme:alice:t1", "keys are free text", ttl_seconds=60)
        assert await cache.get("recent:acme:alice:t1") == "keys are free text"
        assert await cache.get("recent:acme:alice:t2") is None

    run(open_cache, scenario)


def test_entries_expire_after_their_ttl(open_cache: CacheFactory) -> None:
    async def scenario(cache: Cache) -> None:
        await cache.set("short", 1, ttl_seconds=0.2)
        await cache.set("long", 2, ttl_seconds=60)
        assert await cache.get("short") == 1
        await asyncio.sleep(0.35)
        assert await cache.get("short") is None
        assert await cache.get("long") == 2

    run(open_cache, scenario)


def test_a_read_with_a_ttl_renews_the_entry(open_cache: CacheFactory) -> None:
    async def scenario(cache: Cache) -> None:
        await cache.set("renewed", "r", ttl_seconds=0.4)
        await cache.set("plain", "p", ttl_seconds=0.4)
        for _ in range(3):  # 0.75 s in all: past the first TTL, kept alive by the reads
            await asyncio.sleep(0.25)
            assert await cache.get("renewed", ttl_seconds=0.4) == "r"
        assert await cache.get("plain") is None  # plain reads do not renew
        assert await cache.get("renewed", ttl_seconds=0) == "r"  # zero: left as it is
        assert await cache.get("missing", ttl_seconds=10) is None

    run(open_cache, scenario)


def test_non_positive_ttl_stores_nothing(open_cache: CacheFactory) -> None:
    async def scenario(cache: Cache) -> None:
        await cache.set("k", "v", ttl_seconds=0)
        assert await cache.get("k") is None
        await cache.set("k", "v", ttl_seconds=60)
        await cache.set("k", "w", ttl_seconds=-1)  # also drops the older value
        assert await cache.get("k") is None

    run(open_cache, scenario)


# -- the in-process LRU only ----------------------------------------------------------------------
def test_lru_entries_expire_on_the_injected_clock() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        cache = InMemoryCache(clock=clock)
        await cache.set("short", 1, ttl_seconds=10)
        await cache.set("long", 2, ttl_seconds=100)
        clock.advance(9.9)
        assert await cache.get("short") == 1
        clock.advance(0.1)
        assert await cache.get("short") is None
        assert await cache.get("long", ttl_seconds=100) == 2  # renewed: 100 s from now
        clock.advance(99)
        assert await cache.get("long") == 2
        clock.advance(1)
        assert await cache.get("long") is None
        assert len(cache) == 0

    asyncio.run(scenario())


def test_least_recently_used_is_evicted() -> None:
    async def scenario() -> None:
        cache = InMemoryCache(max_entries=2, clock=FakeClock())
        await cache.set("a", 1, 60)
        await cache.set("b", 2, 60)
        assert await cache.get("a") == 1  # a becomes most recent
        await cache.set("c", 3, 60)  # evicts b
        assert await cache.get("b") is None
        assert await cache.get("a") == 1
        assert await cache.get("c") == 3
        assert len(cache) == 2

    asyncio.run(scenario())


def test_rejects_an_empty_capacity() -> None:
    with pytest.raises(ValueError):
        InMemoryCache(max_entries=0)


def test_clocks() -> None:
    now = SystemClock().now()
    assert now.tzinfo is not None and now.utcoffset() == timezone.utc.utcoffset(now)
    start = datetime(2025, 5, 1, 12, 0, tzinfo=timezone.utc)
    clock = FakeClock(start)
    assert clock.now() == start
    assert clock.advance(90).isoformat() == "2025-05-01T12:01:30+00:00"
    with pytest.raises(ValueError):
        FakeClock(datetime(2025, 5, 1))
