"""Whether the store takes writes: the readiness half that reading alone cannot tell.

A store whose file turned read-only, or whose disk filled up, still answers every read, so a
readiness check that only reads says "ready" while every write fails. :class:`WriteProbe` asks the
store to commit a tiny write of its own (:meth:`~hipocampo.ports.UnitOfWork.probe_write`), at most
once per ``interval`` seconds because load balancers ask every few seconds and each answer is a
real write; between probes it answers from the last one. A request that failed for the same reason
reports it (:meth:`failed`), so readiness turns at once instead of at the next probe; the next
probe after ``interval`` is how it turns back once the cause is gone, without a restart.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..domain.errors import StorageUnavailable
from ..ports import Cache, RateLimiter, UnitOfWork
from .deps import Deps

PROBE_INTERVAL_SECONDS = 5.0


class WriteProbe:
    """The cached answer to "can the store commit a write now?"."""

    def __init__(self, interval: float = PROBE_INTERVAL_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self._clock = clock
        self._checked_at: float | None = None
        self._problem: StorageUnavailable | None = None

    async def check(self, uow: UnitOfWork) -> StorageUnavailable | None:
        """``None`` when writes work, else why not. Probes ``uow`` when the last answer is older
        than ``interval``; two callers racing may both probe, which is harmless."""
        if self._checked_at is not None and self._clock() - self._checked_at < self.interval:
            return self._problem
        try:
            await uow.probe_write()
        except StorageUnavailable as exc:
            self.failed(exc)
        else:
            self._problem, self._checked_at = None, self._clock()
        return self._problem

    def failed(self, exc: StorageUnavailable) -> None:
        """A write just failed because of the store: not ready until a probe succeeds again."""
        self._problem, self._checked_at = exc, self._clock()


async def queue_stats(deps: Deps, tenant_id: str | None = None) -> dict[str, int]:
    """The outbox by status (pending, running, dead, retrying): every tenant's, or one tenant's."""
    return await deps.jobs.stats(tenant_id)


async def shared_components(deps: Deps) -> dict[str, str]:
    """``ok`` or ``degraded: <why>`` for the shared cache and rate limits (Redis, when used).

    Degraded is still ready: the log is the truth, windows are read from it and rate limits let
    requests through."""
    return {"cache": await _degraded(deps.cache), "rate_limits": await _degraded(deps.limiter)}


def fallbacks(deps: Deps) -> dict[str, int]:
    """Calls answered without Redis since the store opened, by component."""
    return {"cache": deps.cache.fallbacks, "rate_limit": deps.limiter.fallbacks}


async def _degraded(port: Cache | RateLimiter) -> str:
    try:
        problem = await port.check()
    except Exception as exc:  # a report, never a reason to fail readiness
        problem = type(exc).__name__
    return "ok" if problem is None else f"degraded: {problem}"
