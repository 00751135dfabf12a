"""Fair job claims: which ready jobs a worker takes when several tenants are waiting.

A single FIFO lets one tenant's backlog (a bulk import, a flood of long messages) hold every
other tenant's new messages behind it: a message written after 10,000 others waits for all of
them. Claims are therefore round-robin by tenant: each tenant's oldest ready job, then each
one's second oldest, and so on, ties broken by enqueue order (job id). A tenant with one ready
job is in the very next claim, however long the other queues are; within a tenant the order is
still first in, first out.

The job queues (SQLite, in-memory) share :func:`fair_pick`, which reads each tenant's queue a
page at a time, so a claim reads a few rows per waiting tenant, not the whole backlog.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence


def round_robin(queues: Mapping[str, Sequence[int]], limit: int) -> list[int]:
    """The first ``limit`` ids ordered by (rank within their tenant's queue, id).

    Each queue must be sorted oldest (smallest id) first.
    """
    ranked = sorted((rank, job_id) for ids in queues.values() for rank, job_id in enumerate(ids))
    return [job_id for _, job_id in ranked[: max(limit, 0)]]


def fair_pick(
    tenants: Iterable[str],
    fetch: Callable[[str, int, int], list[int]],
    limit: int,
    *,
    extra: Mapping[str, Sequence[int]] | None = None,
) -> list[int]:
    """Choose up to ``limit`` job ids round-robin by tenant, in the order they were chosen.

    ``fetch(tenant, after_id, n)`` returns up to ``n`` of the tenant's ready job ids greater than
    ``after_id``, ascending (an indexed range read). ``extra`` adds ready jobs already known per
    tenant (expired leases: few). Each tenant is read ``ceil(limit / tenants)`` deep first, and
    deeper only while the answer could still need its next job, so a claim of 64 jobs among 20
    waiting tenants reads about 80 rows whatever the backlog.
    """
    if limit <= 0:
        return []
    names = list(dict.fromkeys([*tenants, *(extra or {})]))
    if not names:
        return []
    fetched: dict[str, list[int]] = {t: [] for t in names}
    open_ = set(names)  # tenants whose queue may hold more than we have read
    want = {t: -(-limit // len(names)) for t in names}
    while True:
        for tenant in sorted(open_):
            already = fetched[tenant]
            page = fetch(tenant, already[-1] if already else 0, want[tenant] - len(already))
            already.extend(page)
            if len(already) < want[tenant]:
                open_.discard(tenant)
        queues = {t: sorted([*fetched[t], *((extra or {}).get(t, ()))]) for t in names}
        chosen = round_robin(queues, limit)
        # A job not read yet has a rank past everything read of its tenant: it can only matter
        # if the answer reaches that deep (or is short of ``limit``).
        deepest = _deepest_rank(queues, chosen) if len(chosen) == limit else limit
        deeper = {t for t in open_ if len(fetched[t]) <= deepest}
        if not deeper:
            return chosen
        open_ = deeper
        for tenant in deeper:
            want[tenant] = min(limit, max(2 * want[tenant], deepest + 1))


def _deepest_rank(queues: Mapping[str, Sequence[int]], chosen: Sequence[int]) -> int:
    picked = set(chosen)
    return max((rank for ids in queues.values() for rank, job_id in enumerate(ids) if job_id in picked), default=0)
