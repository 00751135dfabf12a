"""The tenant's operations page (admin keys): job queue, dead letters with a retry button, index
coverage, quotas, and recall latency over time.

Latency over time comes from the data the service already keeps: the Prometheus histogram of
recall latency (``hipocampo_recall_duration_seconds``). It only accumulates, so
:class:`LatencySampler` reads it every ``interval`` seconds and keeps the last ``keep`` readings;
each bar of the chart is the calls between two readings. It is this server process's recall, every
tenant's together (the same figures ``/metrics`` publishes), and it starts empty at each start.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from fastapi import APIRouter, Request
from starlette.responses import Response

from ..metrics import Metrics
from .charts import latency_chart
from .core import Form, Looker, link, redirect, ui_of

router = APIRouter()


@dataclass
class Reading:
    at: float  # wall-clock seconds
    count: float
    total: float  # seconds
    buckets: list[tuple[float, float]]  # (upper bound in seconds, cumulative count)


class LatencySampler:
    def __init__(self, metrics: Metrics, interval: float = 30.0, keep: int = 240) -> None:
        self.metrics = metrics
        self.interval = interval
        self.readings: deque[Reading] = deque(maxlen=keep)

    def read(self) -> Reading:
        """Every operation's calls together (recall, search, context)."""
        count = total = 0.0
        buckets: dict[float, float] = {}
        for family in self.metrics.recall.collect():
            for s in family.samples:
                if s.name.endswith("_count"):
                    count += s.value
                elif s.name.endswith("_sum"):
                    total += s.value
                elif s.name.endswith("_bucket"):
                    le = float(s.labels["le"])
                    buckets[le] = buckets.get(le, 0.0) + s.value
        return Reading(time.time(), count, total, sorted(buckets.items()))

    def sample(self) -> None:
        self.readings.append(self.read())

    def points(self) -> list[dict[str, Any]]:
        """Per interval with calls: when it ended, the calls, their mean and p95 (interpolated
        within the histogram's buckets, as Prometheus's ``histogram_quantile`` does)."""
        readings = [*self.readings, self.read()]
        out = []
        for a, b in zip(readings, readings[1:], strict=False):
            calls = b.count - a.count
            if calls <= 0:
                continue
            before = dict(a.buckets)  # a label never observed before has no buckets yet
            deltas = [(le, n - before.get(le, 0.0)) for le, n in b.buckets]
            out.append(
                {
                    "at": datetime.fromtimestamp(b.at, timezone.utc).strftime("%H:%M:%S"),
                    "count": int(calls),
                    "mean_ms": 1000 * (b.total - a.total) / calls,
                    "p95_ms": round(1000 * _quantile(0.95, deltas, (b.total - a.total) / calls), 3),
                }
            )
        return out

    async def run(self) -> None:
        while True:
            self.sample()
            await asyncio.sleep(self.interval)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        task = asyncio.get_running_loop().create_task(self.run())
        try:
            yield
        finally:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass


def _quantile(q: float, buckets: list[tuple[float, float]], fallback: float) -> float:
    """The ``q`` quantile of cumulative ``(upper bound, count)`` buckets, linear within its bucket;
    past the last finite bound, that bound."""
    total = buckets[-1][1] if buckets else 0.0
    if total <= 0:
        return fallback
    target, lower, below = q * total, 0.0, 0.0
    for le, cumulative in buckets:
        if cumulative >= target:
            if math.isinf(le):
                return lower
            inside = cumulative - below
            return lower + (le - lower) * ((target - below) / inside if inside else 1.0)
        lower, below = le, cumulative
    return fallback


@router.get("/operations", name="operations")
async def operations(request: Request, viewer: Looker) -> Response:
    viewer.require_admin()
    metrics = await viewer.mem.tenant_metrics(viewer.tenant_id)
    dead = await viewer.mem.dead_letters(viewer.tenant_id)
    sampler: LatencySampler = request.app.state.sampler
    points = sampler.points()
    jobs = metrics["jobs"]
    return ui_of(request).page(
        request,
        "operations.html",
        m=metrics,
        dead=dead,
        tenant=viewer.principal.tenant,
        outbox=jobs.get("pending", 0) + jobs.get("running", 0),
        chart=latency_chart(points),
        calls=sum(p["count"] for p in points),
        interval=sampler.interval,
    )


@router.post("/operations/retry-dead", name="retry_dead")
async def retry_dead(request: Request, viewer: Looker, form: Form) -> Response:
    """Queue the tenant's dead jobs again (never another tenant's)."""
    viewer.require_admin()
    n = await viewer.mem.retry_dead_of(viewer.tenant_id)
    viewer.session.flash(f"{n} dead job{'s' if n != 1 else ''} queued again.")
    return redirect(link(request, "operations"))
