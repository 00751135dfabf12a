"""Prometheus metrics of one app, in a registry of its own (two apps in a process never clash).

Request latency is labelled by route *template* (``/v1/users/{user_id}/recall``), never by the
raw path, so user ids cannot blow up the number of series. Queue gauges are read from the job
queue when Prometheus scrapes, not kept up to date on every write.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

if TYPE_CHECKING:
    from ...client import AsyncMemory


_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """The app's collectors."""

    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Histogram(
            "hipocampo_http_request_duration_seconds",
            "HTTP request latency by method, route template and status.",
            ["method", "route", "status"],
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.recall = Histogram(
            "hipocampo_recall_duration_seconds",
            "Latency of recall and search inside the service.",
            ["operation"],
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.outbox = Gauge(
            "hipocampo_outbox_depth", "Jobs waiting or running in the durable queue.", registry=self.registry
        )
        self.dead = Gauge("hipocampo_jobs_dead", "Jobs that failed for good (dead letters).", registry=self.registry)
        self.jobs = Gauge("hipocampo_jobs", "Jobs in the queue by status.", ["status"], registry=self.registry)
        self.retrying = Gauge(
            "hipocampo_jobs_retrying",
            "Pending jobs that failed at least once and wait for a retry.",
            registry=self.registry,
        )
        self.rejected = Counter(
            "hipocampo_http_rejected",
            "Requests refused by authentication or quotas.",
            ["reason"],
            registry=self.registry,
        )
        self.fallbacks = Counter(
            "hipocampo_cache_fallbacks",
            "Calls answered without Redis because it was unreachable: cache reads served from the log, "
            "writes skipped (component=cache), requests let through unlimited (component=rate_limit).",
            ["component"],
            registry=self.registry,
        )
        self._fallbacks_seen: dict[str, int] = {}

    async def render(self, memory: AsyncMemory) -> bytes:
        """The text exposition, after reading the queue's current state."""
        stats = await memory.queue_stats()
        for status in ("pending", "running", "dead"):
            self.jobs.labels(status).set(stats.get(status, 0))
        self.outbox.set(stats.get("pending", 0) + stats.get("running", 0))
        self.dead.set(stats.get("dead", 0))
        self.retrying.set(stats.get("retrying", 0))
        # The adapters count; the counter catches up with them at scrape time (a count below the
        # last one seen is a store opened again, counting from zero).
        for component, now in memory.fallbacks().items():
            seen = self._fallbacks_seen.get(component, 0)
            self.fallbacks.labels(component).inc(now - seen if now >= seen else now)
            self._fallbacks_seen[component] = now
        return generate_latest(self.registry)


def route_template(scope: Scope) -> str:
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "<unmatched>"


class RequestTimer:
    """ASGI middleware observing every request's latency once its response has started."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def recording_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, recording_send)
        finally:
            elapsed = time.perf_counter() - start
            self.metrics.requests.labels(scope["method"], route_template(scope), str(status)).observe(elapsed)
