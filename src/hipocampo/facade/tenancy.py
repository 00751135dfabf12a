"""Tenants, API keys, quotas and idempotent requests, as the HTTP service, the MCP server and
``hipocampo tenants``/``keys`` ask for them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..domain.tenancy import ApiKey, KeyRole, Principal, Tenant
from ..services import idempotency, tenancy

if TYPE_CHECKING:
    from ..services.deps import Deps

Limit = tenancy.Limit


class TenancyCalls:
    """Who may call, as whom, and how much."""

    _deps: Deps

    async def authenticate(self, token: str | None) -> Principal:
        """The principal of an API key (``Unauthorized`` for an unknown, wrong or revoked one)."""
        return await tenancy.authenticate(self._deps, token)

    @staticmethod
    def local_principal(tenant_id: str = "default") -> Principal:
        """The principal of a caller with no key (a service run without authentication)."""
        return tenancy.local_principal(tenant_id)

    async def count_request(self, tenant: Tenant) -> None:
        """Count one request against the tenant's rate limit (``QuotaExceeded`` past it)."""
        await tenancy.count_request(self._deps, tenant)

    async def check_memory_quota(self, tenant: Tenant, adding: int = 1) -> None:
        """Refuse (``QuotaExceeded``) before any work when ``adding`` memories would pass the quota."""
        await tenancy.check_memory_quota(self._deps, tenant, adding=adding)

    async def tenant_context(self, tenant_id: str) -> str | None:
        """The tenant's plan and quotas as one line of context, or None for a tenant with no record
        (local use: the default tenant, unlimited). An agent that knows the plan can say why a
        save was refused, or keep fewer memories near the limit."""
        tenant = await self._deps.tenants.get_tenant(tenant_id)
        if tenant is None:
            return None
        q = tenant.quotas

        def limit(value: int | None) -> str:
            return "unlimited" if value is None else str(value)

        return (
            f"Tenant {tenant.id}: plan {tenant.plan}; quotas: max_memories {limit(q.max_memories)}, "
            f"requests_per_minute {limit(q.requests_per_minute)}"
        )

    @staticmethod
    def request_hash(method: str, path: str, body: bytes) -> str:
        """Fingerprint of a request, to tell a retry from another request reusing the key."""
        return idempotency.request_hash(method, path, body)

    async def run_once(
        self,
        tenant_id: str,
        key: str,
        req_hash: str,
        work: Callable[[], Awaitable[tuple[int, Any]]],
        *,
        atomic: bool = True,
    ) -> tuple[int, Any, bool]:
        """Run ``work`` once per tenant and idempotency key (see :func:`services.idempotency.run_once`)."""
        return await idempotency.run_once(self._deps, tenant_id, key, req_hash, work, atomic=atomic)

    # -- administration ------------------------------------------------------------------------
    async def create_tenant(
        self,
        tenant_id: str,
        *,
        name: str | None = None,
        plan: str = "standard",
        requests_per_minute: Limit = ...,
        max_memories: Limit = ...,
    ) -> Tenant:
        return await tenancy.create_tenant(
            self._deps,
            tenant_id,
            name=name,
            plan=plan,
            requests_per_minute=requests_per_minute,
            max_memories=max_memories,
        )

    async def update_tenant(
        self,
        tenant_id: str,
        *,
        name: str | None = None,
        plan: str | None = None,
        disabled: bool | None = None,
        requests_per_minute: Limit = ...,
        max_memories: Limit = ...,
    ) -> Tenant:
        return await tenancy.update_tenant(
            self._deps,
            tenant_id,
            name=name,
            plan=plan,
            disabled=disabled,
            requests_per_minute=requests_per_minute,
            max_memories=max_memories,
        )

    async def get_tenant(self, tenant_id: str) -> Tenant:
        return await tenancy.get_tenant(self._deps, tenant_id)

    async def list_tenants(self) -> list[Tenant]:
        return await tenancy.list_tenants(self._deps)

    async def issue_key(self, tenant_id: str, *, role: KeyRole = KeyRole.USER, name: str = "") -> tuple[ApiKey, str]:
        """A new key and its token (shown once; only its hash is stored)."""
        return await tenancy.issue_key(self._deps, tenant_id, role=role, name=name)

    async def revoke_key(self, key_id: str) -> ApiKey:
        return await tenancy.revoke_key(self._deps, key_id)

    async def list_keys(self, tenant_id: str | None = None) -> list[ApiKey]:
        return await tenancy.list_keys(self._deps, tenant_id)
