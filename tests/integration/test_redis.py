"""Two servers sharing one SQLite file and one real Redis: the recent-window cache and the rate
limits they share, and what happens while Redis is down and when it comes back.

The outage test stops the engines' Redis (``scripts/engines.sh stop-redis``) and always starts it
again. Each test leases an empty logical database of that Redis (``redis_db_url``).
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import httpx
import redis.asyncio as aioredis
from engines import start_redis, stop_redis

from hipocampo import AsyncMemory
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.adapters.redis import RedisCache, RedisRateLimiter
from hipocampo.adapters.redis.link import PAUSE_SECONDS
from hipocampo.domain.model import Scope
from hipocampo.entrypoints.http.app import create_app
from hipocampo.services import tenancy
from hipocampo.services.ingest import recent_cache_key
from hipocampo.testing import deps_of

PREFIX = "hipo-it:"
ALICE = Scope("default", "alice")
WINDOW_KEY = PREFIX + "cache:" + recent_cache_key(ALICE, "t1")


async def open_server(db: Path, redis_url: str, **overrides: object) -> AsyncMemory:
    return await AsyncMemory.open(
        str(db), embedder=FakeEmbedder(), worker="external", redis_url=redis_url, redis_prefix=PREFIX, **overrides
    )


async def window(mem: AsyncMemory, thread: str = "t1") -> list[str]:
    return [m.content for m in (await mem.recall("alice", thread, "anything")).recent]


async def readiness(mem: AsyncMemory) -> dict:
    transport = httpx.ASGITransport(app=create_app(mem))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        response = await client.get("/readyz")
        assert response.status_code == 200, response.text  # degraded or not, the log serves
        return response.json()


async def fallback_metric(mem: AsyncMemory, component: str) -> float:
    transport = httpx.ASGITransport(app=create_app(mem))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        body = (await client.get("/metrics")).text
    found = re.search(rf'^hipocampo_cache_fallbacks_total{{component="{component}"}} (\S+)$', body, re.M)
    assert found, body
    return float(found.group(1))


def test_two_servers_share_the_window_and_see_each_others_writes_at_once(tmp_path: Path, redis_db_url: str) -> None:
    async def main() -> None:
        db = tmp_path / "shared.db"
        one, two = await open_server(db, redis_db_url), await open_server(db, redis_db_url)
        probe = aioredis.Redis.from_url(redis_db_url)
        try:
            assert isinstance(deps_of(one).cache, RedisCache) and isinstance(deps_of(one).limiter, RedisRateLimiter)
            await one.add("alice", "t1", ["one", "two"])
            assert await window(two) == ["one", "two"]
            assert await probe.exists(WINDOW_KEY)  # the window lives in Redis...
            assert 0 < await probe.pttl(WINDOW_KEY) <= 300_000
            assert await window(one) == ["one", "two"]  # ...and the other server reads it there

            await one.add("alice", "t1", "three")
            assert not await probe.exists(WINDOW_KEY)  # invalidated by the writer
            assert await window(two) == ["one", "two", "three"]
            await two.forget("alice", thread_id="t1")
            assert await window(one) == []

            # A process that cannot reach Redis (another network, a dead link) writes: its
            # invalidation never happens, yet the window held in Redis is not served stale.
            await one.add("alice", "t1", "before")
            assert await window(two) == ["before"] and await probe.exists(WINDOW_KEY)
            cut_off = await open_server(db, "redis://127.0.0.1:1/0")
            try:
                await cut_off.add("alice", "t1", "written without Redis")
                assert deps_of(cut_off).cache.fallbacks >= 1
            finally:
                await cut_off.close()
            assert await probe.exists(WINDOW_KEY)  # the old window is still there...
            assert await window(two) == ["before", "written without Redis"]  # ...and not served

            assert (await readiness(one))["cache"] == "ok"
            assert deps_of(one).cache.fallbacks == deps_of(two).cache.fallbacks == 0
            assert set(await probe.keys(PREFIX + "*")) <= {WINDOW_KEY.encode()}  # the prefix holds all
        finally:
            await probe.aclose()
            await one.close()
            await two.close()

    asyncio.run(main())


def test_rate_limits_hold_across_servers(tmp_path: Path, redis_db_url: str) -> None:
    async def main() -> None:
        db = tmp_path / "shared.db"
        one, two = await open_server(db, redis_db_url), await open_server(db, redis_db_url)
        try:
            acme = await tenancy.create_tenant(deps_of(one), "acme", requests_per_minute=2)
            await tenancy.count_request(deps_of(one), acme)
            await tenancy.count_request(deps_of(two), acme)
            for mem in (one, two):
                try:
                    await tenancy.count_request(deps_of(mem), acme)
                except tenancy.QuotaExceeded as exc:
                    assert 0 < exc.retry_after_seconds <= 60
                else:
                    raise AssertionError("the quota was exceeded across the two servers")
        finally:
            await one.close()
            await two.close()

    asyncio.run(main())


def test_redis_down_then_back_without_a_restart(tmp_path: Path, redis_db_url: str) -> None:
    async def main() -> None:
        db = tmp_path / "shared.db"
        one, two = await open_server(db, redis_db_url), await open_server(db, redis_db_url)
        probe = aioredis.Redis.from_url(redis_db_url)
        tenant = await tenancy.create_tenant(deps_of(one), "acme", requests_per_minute=1)
        try:
            await one.add("alice", "t1", "before the outage")
            assert await window(two) == ["before the outage"]
            stop_redis()
            try:
                # Writes succeed (the invalidation falls back), reads come from the log at once.
                await one.add("alice", "t1", "during the outage")
                assert await window(two) == ["before the outage", "during the outage"]
                assert await window(one) == ["before the outage", "during the outage"]
                assert deps_of(one).cache.fallbacks >= 1 and deps_of(two).cache.fallbacks >= 1
                assert await fallback_metric(two, "cache") >= 1

                ready = await readiness(two)
                assert ready["status"] == "ready"
                assert ready["cache"] == "degraded" and ready["rate_limits"] == "degraded"  # why: for admin keys

                for _ in range(3):  # rate limits fail open: over quota, yet let through
                    await tenancy.count_request(deps_of(two), tenant)
                assert deps_of(two).limiter.fallbacks == 3
                assert await fallback_metric(two, "rate_limit") == 3
            finally:
                start_redis()

            await one.add("alice", "t1", "after the outage")  # may still fall back: breaker open
            await asyncio.sleep(PAUSE_SECONDS + 0.1)  # then one call tries Redis again
            assert (await readiness(two))["cache"] == "ok"
            assert await window(two) == ["before the outage", "during the outage", "after the outage"]
            assert await probe.exists(WINDOW_KEY)  # the cache is used again, no restart needed
            fallbacks = deps_of(two).cache.fallbacks
            assert await window(one) == ["before the outage", "during the outage", "after the outage"]
            await one.add("alice", "t1", "later")
            assert await window(two) == ["before the outage", "during the outage", "after the outage", "later"]
            assert deps_of(two).cache.fallbacks == fallbacks

            await tenancy.count_request(deps_of(one), tenant)  # counted in Redis again
            try:
                await tenancy.count_request(deps_of(two), tenant)
            except tenancy.QuotaExceeded:
                pass
            else:
                raise AssertionError("rate limits are not enforced again after Redis came back")
        finally:
            start_redis()  # whatever happened above, the next tests find Redis running
            await probe.aclose()
            await one.close()
            await two.close()

    asyncio.run(main())
