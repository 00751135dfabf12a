"""Health, readiness and metrics: what the service's probes and ``/metrics`` ask the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..domain.errors import StorageUnavailable
from ..services import health

if TYPE_CHECKING:
    from ..services.deps import Deps

WriteProbe = health.WriteProbe


class OperationsCalls:
    """The engine's state as operators and orchestrators read it."""

    _deps: Deps

    async def queue_stats(self, tenant_id: str | None = None) -> dict[str, int]:
        """The outbox by status (pending, running, dead, retrying): every tenant's, or one's."""
        return await health.queue_stats(self._deps, tenant_id)

    async def shared_components(self) -> dict[str, str]:
        """``ok`` or ``degraded: <why>`` for the shared cache and rate limits (Redis, when used)."""
        return await health.shared_components(self._deps)

    def fallbacks(self) -> dict[str, int]:
        """Calls answered without Redis since the store opened, by component."""
        return health.fallbacks(self._deps)

    async def write_problem(self, probe: WriteProbe) -> StorageUnavailable | None:
        """``None`` when the store can commit a write now, else why not (``probe`` caches the answer)."""
        return await probe.check(self._deps.uow)
