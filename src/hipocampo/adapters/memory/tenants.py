"""Tenants and API keys in process memory.

For tests and single-process experiments; tenants and keys are lost when the process exits.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from ...domain.errors import Conflict, NotFound
from ...domain.model import as_utc
from ...domain.tenancy import ApiKey, Tenant
from .state import InMemoryDatabase, State


def _tenant(t: Tenant) -> Tenant:
    return replace(t, created_at=as_utc(t.created_at))


def _key(k: ApiKey) -> ApiKey:
    return replace(
        k,
        created_at=as_utc(k.created_at),
        revoked_at=as_utc(k.revoked_at) if k.revoked_at else None,
        last_used_at=as_utc(k.last_used_at) if k.last_used_at else None,
    )


class InMemoryTenantStore:
    """The :class:`~hipocampo.ports.TenantStore` port over an :class:`InMemoryDatabase`.

    For tests and single-process experiments; behaves as ``SqliteTenantStore`` does."""

    def __init__(self, db: InMemoryDatabase) -> None:
        self._db = db

    async def create_tenant(self, tenant: Tenant) -> None:
        row = _tenant(tenant)

        def write(st: State) -> None:
            if row.id in st.tenants:
                raise Conflict(f"tenant {row.id!r} already exists")
            st.tenants[row.id] = row

        await self._db.write(write)

    async def get_tenant(self, tenant_id: str) -> Tenant | None:
        row = self._db.view().tenants.get(tenant_id)
        return None if row is None else replace(row)

    async def list_tenants(self) -> list[Tenant]:
        return [replace(t) for _, t in sorted(self._db.view().tenants.items())]

    async def update_tenant(self, tenant: Tenant) -> None:
        def write(st: State) -> None:
            old = st.tenants.get(tenant.id)
            if old is None:
                raise NotFound(f"no tenant {tenant.id!r}")
            st.tenants[tenant.id] = replace(
                old, name=tenant.name, plan=tenant.plan, quotas=tenant.quotas, disabled=tenant.disabled
            )

        await self._db.write(write)

    async def add_key(self, key: ApiKey) -> None:
        row = _key(key)

        def write(st: State) -> None:
            if row.id in st.api_keys:
                raise Conflict(f"API key id {row.id!r} already exists")
            if row.tenant_id not in st.tenants:
                raise NotFound(f"no tenant {row.tenant_id!r}")
            st.api_keys[row.id] = row

        await self._db.write(write)

    async def get_key(self, key_id: str) -> ApiKey | None:
        row = self._db.view().api_keys.get(key_id)
        return None if row is None else replace(row)

    async def list_keys(self, tenant_id: str | None = None) -> list[ApiKey]:
        rows = [k for k in self._db.view().api_keys.values() if tenant_id is None or k.tenant_id == tenant_id]
        return [replace(k) for k in sorted(rows, key=lambda k: (k.created_at, k.id))]

    async def revoke_key(self, key_id: str, when: datetime) -> bool:
        at = as_utc(when)

        def write(st: State) -> bool:
            old = st.api_keys.get(key_id)
            if old is None or old.revoked_at is not None:
                return False
            st.api_keys[key_id] = replace(old, revoked_at=at)
            return True

        return await self._db.write(write)

    async def touch_key(self, key_id: str, when: datetime) -> None:
        at = as_utc(when)

        def write(st: State) -> None:
            old = st.api_keys.get(key_id)
            if old is not None:
                st.api_keys[key_id] = replace(old, last_used_at=at)

        await self._db.write(write)

    async def memory_usage(self, tenant_id: str) -> int:
        # Counted from the rows, as SQLite's triggers count them: messages plus direct facts.
        st = self._db.view()
        messages = sum(1 for m in st.messages.values() if m.tenant_id == tenant_id)
        facts = sum(
            1 for m in st.memories.values() if m.tenant_id == tenant_id and m.kind == "fact" and m.source_ids == "[]"
        )
        return messages + facts
