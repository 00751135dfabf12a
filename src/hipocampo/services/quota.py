"""The stored-memories quota, enforced inside the write services so no entry point can forget it.

A write and its charge are one transaction: the write services call :func:`enforce_memory_quota`
inside :meth:`~hipocampo.ports.UnitOfWork.transaction`, after writing. The store keeps the
tenant's count exact in that transaction (see :meth:`~hipocampo.ports.TenantStore.memory_usage`),
so a write that takes the tenant over its plan raises :class:`QuotaExceeded` and is rolled back
with it. Racing writers of one tenant are serialised by the count itself, so the quota holds
exactly under any concurrency, across processes too.
"""

from __future__ import annotations

from ..domain.errors import QuotaExceeded
from .deps import Deps


def exhausted(tenant_id: str, used: int, limit: int) -> QuotaExceeded:
    """The refusal: no ``Retry-After``, because waiting frees nothing; deleting memories does."""
    return QuotaExceeded(
        f"tenant {tenant_id!r} stores {used} memories and its plan allows {limit}; the quota is exhausted"
        " until memories are deleted or the plan is raised"
    )


async def memory_limit(deps: Deps, tenant_id: str) -> int | None:
    """The tenant's ``max_memories``; None when unlimited or when no such tenant is registered
    (the embedded library, where nobody sets quotas)."""
    tenant = await deps.tenants.get_tenant(tenant_id)
    return None if tenant is None else tenant.quotas.max_memories


async def enforce_memory_quota(deps: Deps, tenant_id: str) -> None:
    """Call inside the write's transaction, after the write: raises (rolling the write back) when
    the tenant now stores more than its plan allows."""
    limit = await memory_limit(deps, tenant_id)
    if limit is None:
        return
    used = await deps.tenants.memory_usage(tenant_id)
    if used > limit:
        # The count includes this write, which the refusal rolls back: say "would", not "stores".
        raise QuotaExceeded(
            f"tenant {tenant_id!r}: this write would take its stored memories to {used} and its plan allows"
            f" {limit}; the quota is exhausted until memories are deleted or the plan is raised"
        )
