"""Fair claims: round-robin by tenant, read a page at a time (domain.fairness)."""

from __future__ import annotations

import random

from hipocampo.domain.fairness import fair_pick, round_robin


def _pick(queues: dict[str, list[int]], limit: int, extra: dict[str, list[int]] | None = None) -> tuple[list[int], int]:
    read = 0

    def fetch(tenant: str, after: int, n: int) -> list[int]:
        nonlocal read
        page = [i for i in queues.get(tenant, []) if i > after][:n]
        read += len(page)
        return page

    return fair_pick(queues, fetch, limit, extra=extra), read


def test_round_robin_takes_each_tenants_oldest_first() -> None:
    queues = {"a": [1, 2, 3, 4], "b": [5, 6], "c": [7]}
    assert round_robin(queues, 4) == [1, 5, 7, 2]
    assert round_robin(queues, 10) == [1, 5, 7, 2, 6, 3, 4]
    assert round_robin(queues, 0) == []


def test_fair_pick_matches_round_robin_over_everything() -> None:
    rng = random.Random(7)
    for _ in range(300):
        ids = iter(range(1, 10_000))
        queues: dict[str, list[int]] = {f"t{i}": [] for i in range(rng.randint(1, 12))}
        for _ in range(rng.randint(0, 200)):
            queues[rng.choice(list(queues))].append(next(ids))
        expired = {t: sorted(rng.sample(range(1, 50), rng.randint(0, 2))) for t in queues if rng.random() < 0.2}
        for tenant, old in expired.items():  # expired leases are jobs the tenant's queue does not list
            queues[tenant] = [i for i in queues[tenant] if i not in old]
        limit = rng.randint(1, 80)
        merged = {t: sorted([*queues[t], *expired.get(t, [])]) for t in queues}
        assert _pick(queues, limit, expired)[0] == round_robin(merged, limit)


def test_a_claim_reads_a_few_rows_per_tenant_not_the_backlog() -> None:
    ids = iter(range(1, 1_000_000))
    queues = {"hostile": [next(ids) for _ in range(100_000)]}
    queues |= {f"victim{i}": [next(ids) for _ in range(3)] for i in range(20)}
    chosen, read = _pick(queues, 64)
    assert len(chosen) == 64 and set(chosen) & set(queues["victim7"])
    assert read < 200
