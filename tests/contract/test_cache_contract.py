"""The Cache port contract, run against the in-process LRU."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import pytest

from hipocampo.adapters.clock import FakeClock, SystemClock
from hipocampo.adapters.memory_cache import InMemoryCache


def test_get_set_delete() -> None:
    async def scenario() -> None:
        cache = InMemoryCache()
        assert await cache.get("k") is None
        await cache.set("k", {"messages": [1, 2]}, ttl_seconds=60)
        assert await cache.get("k") == {"messages": [1, 2]}
        await cache.set("k", "replaced", ttl_seconds=60)
        assert await cache.get("k") == "replaced"
        await cache.delete("k")
        assert await cache.get("k") is None
        await cache.delete("never-set")  # deleting a missing key is fine

    asyncio.run(scenario())


def test_entries_expire_after_their_ttl() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        cache = InMemoryCache(clock=clock)
        await cache.set("short", 1, ttl_seconds=10)
        await cache.set("long", 2, ttl_seconds=100)
        clock.advance(9.9)
        assert await cache.get("short") == 1
        clock.advance(0.1)
        assert await cache.get("short") is None
        assert await cache.get("long") == 2
        clock.advance(100)
        assert await cache.get("long") is None
        assert len(cache) == 0

    asyncio.run(scenario())


def test_non_positive_ttl_stores_nothing() -> None:
    async def scenario() -> None:
        cache = InMemoryCache(clock=FakeClock())
        await cache.set("k", "v", ttl_seconds=0)
        assert await cache.get("k") is None
        await cache.set("k", "v", ttl_seconds=60)
        await cache.set("k", "w", ttl_seconds=-1)  # also drops the older value
        assert await cache.get("k") is None

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
