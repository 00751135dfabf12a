"""The JobQueue port contract: claims with leases, retries, dead letters."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from hipocampo.domain.model import Job, JobStatus

LEASE = 30.0


def job(kind: str = "index", n: int = 0, **kw) -> Job:
    return Job(kind=kind, payload={"n": n}, tenant_id="acme", user_id="alice", **kw)


def test_enqueue_claim_complete(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([job(n=1), job(n=2)])
        claimed = await s.jobs.claim(10, LEASE)
        assert [j.payload for j in claimed] == [{"n": 1}, {"n": 2}]
        assert all(j.id is not None for j in claimed)
        assert all(j.status is JobStatus.RUNNING and j.attempts == 1 for j in claimed)
        assert (claimed[0].kind, claimed[0].tenant_id, claimed[0].user_id) == (
            "index",
            "acme",
            "alice",
        )
        assert (await s.jobs.stats())["running"] == 2
        await s.jobs.complete([j.id for j in claimed])
        assert await s.jobs.claim(10, LEASE) == []
        stats = await s.jobs.stats()
        assert (stats["pending"], stats["running"], stats["dead"]) == (0, 0, 0)
        s.clock.advance(10 * LEASE)
        assert await s.jobs.claim(10, LEASE) == []  # completed jobs never come back
        await s.jobs.complete([])

    run(scenario)


def test_claim_respects_the_limit_in_enqueue_order(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([job(n=i) for i in range(5)])
        first = await s.jobs.claim(2, LEASE)
        second = await s.jobs.claim(2, LEASE)
        third = await s.jobs.claim(2, LEASE)
        assert [[j.payload["n"] for j in batch] for batch in (first, second, third)] == [
            [0, 1],
            [2, 3],
            [4],
        ]
        assert await s.jobs.claim(0, LEASE) == []

    run(scenario)


def test_claim_can_be_limited_to_some_kinds(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([job("index", 1), job("summarize", 2), job("extract", 3), job("index", 4)])
        assert [j.payload["n"] for j in await s.jobs.claim(10, LEASE, kinds=["summarize", "extract"])] == [2, 3]
        assert [j.payload["n"] for j in await s.jobs.claim(10, LEASE, kinds=["summarize"])] == []
        assert [j.payload["n"] for j in await s.jobs.claim(10, LEASE, kinds=["index"])] == [1, 4]

    run(scenario)


def test_a_claimed_job_comes_back_only_after_its_lease_expires(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([job()])
        (first,) = await s.jobs.claim(10, LEASE)
        assert await s.jobs.claim(10, LEASE) == []
        s.clock.advance(LEASE - 1)
        assert await s.jobs.claim(10, LEASE) == []
        s.clock.advance(2)  # the worker died: its lease ran out
        (again,) = await s.jobs.claim(10, LEASE)
        assert again.id == first.id
        assert again.attempts == 2
        assert await s.jobs.claim(10, LEASE) == []  # the new lease holds
        stats = await s.jobs.stats()
        assert (stats["pending"], stats["running"]) == (0, 1)

    run(scenario)


def test_a_job_failed_with_a_retry_time_waits_for_it(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([job()])
        (claimed,) = await s.jobs.claim(10, LEASE)
        retry_at = s.clock.now() + timedelta(minutes=5)
        await s.jobs.fail(claimed.id, "embedder timed out", retry_at=retry_at)
        stats = await s.jobs.stats()
        assert (stats["pending"], stats["retrying"]) == (1, 1)
        s.clock.advance(60)
        assert await s.jobs.claim(10, LEASE) == []
        s.clock.advance(240)
        (retried,) = await s.jobs.claim(10, LEASE)
        assert retried.id == claimed.id
        assert retried.attempts == 2
        assert retried.last_error == "embedder timed out"

    run(scenario)


def test_enqueue_honours_run_after(run: Callable) -> None:
    async def scenario(s) -> None:
        later = s.clock.now() + timedelta(hours=1)
        await s.jobs.enqueue([job(n=1, run_after=later), job(n=2)])
        (now,) = await s.jobs.claim(10, LEASE)
        assert now.payload["n"] == 2
        await s.jobs.complete([now.id])
        s.clock.advance(3599)
        assert await s.jobs.claim(10, LEASE) == []
        s.clock.advance(1)
        assert [j.payload["n"] for j in await s.jobs.claim(10, LEASE)] == [1]

    run(scenario)


def test_a_job_failed_without_retry_is_dead(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([job(n=1), job(n=2)])
        doomed, fine = await s.jobs.claim(10, LEASE)
        await s.jobs.fail(doomed.id, "ValueError: bad payload", retry_at=None)
        await s.jobs.complete([fine.id])
        s.clock.advance(10 * LEASE)
        assert await s.jobs.claim(10, LEASE) == []  # dead jobs are never claimed
        stats = await s.jobs.stats()
        assert (stats["pending"], stats["running"], stats["dead"]) == (0, 0, 1)
        (dead,) = await s.jobs.dead()
        assert dead.id == doomed.id
        assert dead.status is JobStatus.DEAD
        assert dead.last_error == "ValueError: bad payload"
        assert dead.payload == {"n": 1}

    run(scenario)


def test_dead_lists_oldest_first_up_to_the_limit(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([job(n=i) for i in range(4)])
        for j in await s.jobs.claim(10, LEASE):
            await s.jobs.fail(j.id, f"error {j.payload['n']}", retry_at=None)
        assert [j.payload["n"] for j in await s.jobs.dead()] == [0, 1, 2, 3]
        assert [j.payload["n"] for j in await s.jobs.dead(limit=2)] == [0, 1]

    run(scenario)


def test_requeue_dead_makes_dead_jobs_claimable_again(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([job(n=1), job(n=2)])
        first, second = await s.jobs.claim(10, LEASE)
        await s.jobs.fail(first.id, "boom", retry_at=None)
        await s.jobs.fail(second.id, "boom", retry_at=None)
        assert await s.jobs.requeue_dead() == 2
        assert await s.jobs.dead() == []
        stats = await s.jobs.stats()
        assert (stats["pending"], stats["dead"]) == (2, 0)
        again = await s.jobs.claim(10, LEASE)
        assert sorted(j.id for j in again) == sorted([first.id, second.id])
        assert all(j.attempts == 1 for j in again)  # a fresh start
        assert await s.jobs.requeue_dead() == 0

    run(scenario)


def test_dead_letters_of_one_tenant(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([job(n=1), Job(kind="index", payload={"n": 2}, tenant_id="beta", user_id="bob")])
        for j in await s.jobs.claim(10, LEASE):
            await s.jobs.fail(j.id, "boom", retry_at=None)
        assert [j.payload["n"] for j in await s.jobs.dead(tenant_id="beta")] == [2]
        assert await s.jobs.requeue_dead(tenant_id="beta") == 1  # acme's dead letter stays dead
        assert [j.tenant_id for j in await s.jobs.dead()] == ["acme"]
        assert (await s.jobs.stats("beta"))["pending"] == 1

    run(scenario)


def test_stats_counts_each_status(run: Callable) -> None:
    async def scenario(s) -> None:
        stats = await s.jobs.stats()
        assert {"pending", "running", "dead"} <= set(stats)
        assert all(v == 0 for v in stats.values())
        await s.jobs.enqueue([job(n=i) for i in range(4)])
        failed, _ = await s.jobs.claim(2, LEASE)
        await s.jobs.fail(failed.id, "boom", retry_at=None)
        stats = await s.jobs.stats()
        assert (stats["pending"], stats["running"], stats["dead"]) == (2, 1, 1)

    run(scenario)


def test_a_queue_on_another_connection_sees_the_same_jobs(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([job(n=1)])
        async with s.another_connection() as other:
            (claimed,) = await other.jobs.claim(10, LEASE)
            assert await s.jobs.claim(10, LEASE) == []  # leased by the other worker
            await other.jobs.complete([claimed.id])
        s.clock.advance(10 * LEASE)
        assert await s.jobs.claim(10, LEASE) == []

    run(scenario)


def test_stats_can_be_limited_to_one_tenant(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([job(n=1), job(n=2)])
        (claimed, _) = await s.jobs.claim(2, LEASE)
        await s.jobs.enqueue([Job("index", {"n": 3}, "globex", "bob")])
        await s.jobs.fail(claimed.id, "boom", retry_at=s.clock.now())
        acme, globex, everyone = await s.jobs.stats("acme"), await s.jobs.stats("globex"), await s.jobs.stats()
        assert (acme["pending"], acme["running"], acme["retrying"]) == (1, 1, 1)
        assert (globex["pending"], globex["running"], globex["retrying"]) == (1, 0, 0)
        assert (everyone["pending"], everyone["running"], everyone["retrying"]) == (2, 1, 1)
        assert (await s.jobs.stats("initech"))["pending"] == 0

    run(scenario)


def tenant_job(tenant: str, n: int, kind: str = "index") -> Job:
    return Job(kind=kind, payload={"n": n}, tenant_id=tenant, user_id="u")


def test_one_tenants_backlog_does_not_starve_another(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([tenant_job("acme", i) for i in range(1000)])
        await s.jobs.enqueue([tenant_job("globex", 1000)])  # enqueued after the whole backlog
        claimed = await s.jobs.claim(10, LEASE)
        assert len(claimed) == 10
        assert "globex" in {j.tenant_id for j in claimed}
        acme = [j.payload["n"] for j in claimed if j.tenant_id == "acme"]
        assert acme == list(range(9))  # within a tenant, still oldest first
        assert (await s.jobs.stats("globex"))["running"] == 1

    run(scenario)


def test_claims_go_round_robin_across_tenants(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([tenant_job("acme", i) for i in range(4)])
        await s.jobs.enqueue([tenant_job("globex", 10 + i) for i in range(2)])
        await s.jobs.enqueue([tenant_job("initech", 20)])
        first = await s.jobs.claim(3, LEASE)
        assert [(j.tenant_id, j.payload["n"]) for j in first] == [("acme", 0), ("globex", 10), ("initech", 20)]
        second = await s.jobs.claim(3, LEASE)
        assert [(j.tenant_id, j.payload["n"]) for j in second] == [("acme", 1), ("globex", 11), ("acme", 2)]
        assert [j.payload["n"] for j in await s.jobs.claim(3, LEASE)] == [3]

    run(scenario)


def test_fair_claims_honour_kinds_run_after_and_expired_leases(run: Callable) -> None:
    async def scenario(s) -> None:
        later = s.clock.now() + timedelta(hours=1)
        await s.jobs.enqueue([tenant_job("acme", i) for i in range(3)])
        await s.jobs.enqueue([tenant_job("globex", 10, kind="summarize"), tenant_job("globex", 11)])
        await s.jobs.enqueue([Job("index", {"n": 20}, "initech", "u", run_after=later)])
        (held,) = await s.jobs.claim(1, LEASE)
        assert (held.tenant_id, held.payload["n"]) == ("acme", 0)
        s.clock.advance(LEASE + 1)  # acme's first claim expired: it is ready again, first in line
        claimed = await s.jobs.claim(10, LEASE, kinds=["index"])
        assert [(j.tenant_id, j.payload["n"]) for j in claimed] == [
            ("acme", 0),
            ("globex", 11),
            ("acme", 1),
            ("acme", 2),
        ]
        assert claimed[0].attempts == 2

    run(scenario)


def test_extend_keeps_a_long_batch_leased(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([job(n=1), job(n=2)])
        claimed = await s.jobs.claim(10, LEASE)
        for _ in range(5):  # a batch running five leases long, renewed as it goes
            s.clock.advance(LEASE - 5)
            assert sorted(await s.jobs.extend(claimed, LEASE)) == sorted(j.id for j in claimed)
            assert await s.jobs.claim(10, LEASE) == []  # nobody else can take them
        await s.jobs.complete([claimed[0].id])
        assert await s.jobs.extend(claimed, LEASE) == [claimed[1].id]  # completed: not renewed
        assert await s.jobs.extend([], LEASE) == []
        s.clock.advance(LEASE + 1)
        (again,) = await s.jobs.claim(10, LEASE)  # unrenewed, the lease expires as before
        assert again.id == claimed[1].id and again.attempts == 2
        assert await s.jobs.extend([claimed[1]], LEASE) == []  # the stale claim renews nothing
        s.clock.advance(LEASE - 1)
        assert await s.jobs.claim(10, LEASE) == []  # ...and the new holder's lease is intact
        assert await s.jobs.extend([again], LEASE) == [again.id]

    run(scenario)


def test_release_makes_jobs_claimable_at_once_without_counting_an_attempt(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([job(n=1), job(n=2), job(n=3)])
        first, second, third = await s.jobs.claim(10, LEASE)
        await s.jobs.fail(third.id, "boom", retry_at=s.clock.now())
        assert await s.jobs.release([first, second, third]) == 2  # the failed one is not held
        stats = await s.jobs.stats()
        assert (stats["pending"], stats["running"], stats["retrying"]) == (3, 0, 1)
        again = await s.jobs.claim(10, LEASE)
        assert [j.payload["n"] for j in again] == [1, 2, 3]
        assert [j.attempts for j in again] == [1, 1, 2]  # releases counted nothing
        await s.jobs.complete([again[0].id])
        assert await s.jobs.release([again[0]]) == 0  # completed: nothing to give back
        assert (await s.jobs.stats())["running"] == 2
        assert await s.jobs.release([]) == 0

    run(scenario)


def test_a_job_retried_after_failure_keeps_its_error_when_released(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.jobs.enqueue([job()])
        (claimed,) = await s.jobs.claim(10, LEASE)
        await s.jobs.fail(claimed.id, "embedder timed out", retry_at=s.clock.now())
        (retried,) = await s.jobs.claim(10, LEASE)
        assert await s.jobs.release([retried]) == 1
        (again,) = await s.jobs.claim(10, LEASE)
        assert (again.attempts, again.last_error) == (2, "embedder timed out")

    run(scenario)
