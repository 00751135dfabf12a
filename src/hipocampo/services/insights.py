"""Memory quality metrics for administrators (memory quality metrics).

Per user: how much of the conversation is searchable (coverage), what was learned (memories by
kind and type), the silences in the conversation (temporal gaps) and whether recall uses what is
stored (retrieval). Per tenant: the same totals, summed, and the job queue's health.
Everything returned is JSON-ready (ISO-8601 times).
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any

from ..domain.errors import InvalidInput
from ..domain.model import MemoryItem, MemoryKind, Scope, check_id
from .deps import Deps

PAGE = 1000
TOP_ACCESSED = 5
PREVIEW_CHARS = 280


async def user_metrics(deps: Deps, scope: Scope, *, gap_days: int = 7) -> dict[str, Any]:
    """Quality metrics of one user's memory.

    ``coverage.ratio`` is the share of the user's messages whose turn memory has a vector (recall
    can find them); it is below 1 while indexing catches up, and ``None`` without messages.
    ``gaps`` are the periods of at least ``gap_days`` days between consecutive messages.
    """
    if isinstance(gap_days, bool) or not isinstance(gap_days, int) or gap_days < 1:
        raise InvalidInput("gap_days must be a positive integer")
    threads = await deps.log.threads(scope)
    times = await _message_times(deps, scope, threads)
    memories = await _memory_stats(deps, scope)
    return {
        "tenant_id": scope.tenant_id,
        "user_id": scope.user_id,
        "threads": len(threads),
        "messages": len(times),
        "first_activity": _iso(times[0]) if times else None,
        "last_activity": _iso(times[-1]) if times else None,
        "coverage": await _coverage(deps, scope),
        "memories": memories["memories"],
        "gaps": _gaps(times, gap_days),
        "retrieval": memories["retrieval"],
    }


async def tenant_metrics(deps: Deps, tenant_id: str) -> dict[str, Any]:
    """Totals over a tenant's users, their average coverage, and the tenant's jobs in the queue."""
    check_id("tenant_id", tenant_id)
    users = await deps.log.users(tenant_id)
    threads = messages = indexed = 0
    ratios = []
    for user_id in users:
        scope = Scope(tenant_id, user_id)
        threads += len(await deps.log.threads(scope))
        coverage = await _coverage(deps, scope)
        messages += coverage["messages"]
        indexed += coverage["indexed"]
        if coverage["ratio"] is not None:
            ratios.append(coverage["ratio"])
    jobs = await deps.jobs.stats(tenant_id)
    tenant = await deps.tenants.get_tenant(tenant_id)
    limit = tenant.quotas.max_memories if tenant is not None else None
    used = await deps.tenants.memory_usage(tenant_id)
    return {
        "tenant_id": tenant_id,
        "users": len(users),
        "threads": threads,
        "messages": messages,
        # Indexed memories: lags writes while the worker catches up. The quota counts at write
        # time (messages and saved facts), so it is reported apart, as enforced.
        "memories": await deps.memories.count_tenant(tenant_id),
        "memory_quota": {"used": used, "max_memories": limit, "left": None if limit is None else max(limit - used, 0)},
        "coverage": {
            "average": round(sum(ratios) / len(ratios), 4) if ratios else None,  # mean of the users'
            "messages": messages,
            "indexed": indexed,
            "ratio": _ratio(indexed, messages),
        },
        "jobs": jobs,
        "dead_letters": jobs.get("dead", 0),
    }


async def _coverage(deps: Deps, scope: Scope) -> dict[str, Any]:
    messages = await deps.log.count(scope)
    indexed = await deps.vectors.count(scope, kind=MemoryKind.TURN)
    return {"messages": messages, "indexed": indexed, "ratio": _ratio(indexed, messages)}


async def _message_times(deps: Deps, scope: Scope, threads: list[str]) -> list[datetime]:
    times: list[datetime] = []
    for thread_id in threads:
        after = -1
        while batch := await deps.log.list_thread(scope, thread_id, after_seq=after, limit=PAGE):
            times += [m.created_at for m in batch]
            after = batch[-1].seq
    return sorted(times)


async def _memory_stats(deps: Deps, scope: Scope) -> dict[str, Any]:
    by_kind: Counter[str] = Counter()
    by_type: Counter[str] = Counter()
    accessed = accesses = total = 0
    top: list[MemoryItem] = []
    offset = 0
    # Paged so a user with a large memory is never held whole; a memory written between two
    # pages can be counted twice or missed, which a metric can live with.
    while batch := await deps.memories.list(scope, limit=PAGE, offset=offset):
        offset += len(batch)
        for m in batch:
            total += 1
            by_kind[m.kind.value] += 1
            if m.type_name is not None:  # custom types (campaign, metric...) counted by name too
                by_type[m.type_name] += 1
            if m.access_count:
                accessed += 1
                accesses += m.access_count
        top = sorted([*top, *(m for m in batch if m.access_count)], key=_most_used)[:TOP_ACCESSED]
    return {
        "memories": {
            "total": total,
            "by_kind": dict(sorted(by_kind.items())),
            "by_type": dict(sorted(by_type.items())),
        },
        "retrieval": {
            "accessed": accessed,
            "total_accesses": accesses,
            "never_accessed_ratio": _ratio(total - accessed, total),
            "top": [
                {
                    "id": m.id,
                    "kind": m.kind.value,
                    "content": _preview(m.content),
                    "access_count": m.access_count,
                    "last_accessed": _iso(m.last_accessed) if m.last_accessed else None,
                }
                for m in top
            ],
        },
    }


def _most_used(m: MemoryItem) -> tuple[int, float, str]:
    last = m.last_accessed.timestamp() if m.last_accessed else 0.0
    return -m.access_count, -last, m.id


def _gaps(times: list[datetime], gap_days: int) -> dict[str, Any]:
    threshold = timedelta(days=gap_days)
    periods: list[dict[str, Any]] = [
        {"start": _iso(a), "end": _iso(b), "days": round((b - a) / timedelta(days=1), 1)}
        for a, b in pairwise(times)
        if b - a >= threshold
    ]
    return {
        "threshold_days": gap_days,
        "count": len(periods),
        "longest_days": max((p["days"] for p in periods), default=None),
        "periods": periods,
    }


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _preview(text: str) -> str:
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1] + "…"


def _iso(value: datetime) -> str:
    return value.isoformat()
