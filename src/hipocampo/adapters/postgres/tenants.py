"""Tenants and their API keys on Postgres. Keys are stored as the SHA-256 of their secret only.

Conflicts are detected with ``ON CONFLICT DO NOTHING`` rather than by catching a unique
violation: inside a transaction a failed statement would abort the caller's whole transaction,
which SQLite does not do, and the port promises the same behaviour on both.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ...domain.errors import Conflict, NotFound
from ...domain.tenancy import ApiKey, KeyRole, Quotas, Tenant
from .db import PostgresDatabase
from .rows import check_text
from .sql import execute, fetch_all, fetch_one


def _tenant(row: dict[str, Any]) -> Tenant:
    return Tenant(
        id=row["id"],
        name=row["name"],
        plan=row["plan"],
        quotas=Quotas(requests_per_minute=row["requests_per_minute"], max_memories=row["max_memories"]),
        created_at=row["created_at"],
        disabled=row["disabled"],
    )


def _key(row: dict[str, Any]) -> ApiKey:
    return ApiKey(
        id=row["id"],
        tenant_id=row["tenant_id"],
        role=KeyRole(row["role"]),
        secret_hash=row["secret_hash"],
        name=row["name"],
        created_at=row["created_at"],
        revoked_at=row["revoked_at"],
        last_used_at=row["last_used_at"],
    )


class PostgresTenantStore:
    """The :class:`~hipocampo.ports.TenantStore` port on the shared Postgres database."""

    def __init__(self, db: PostgresDatabase) -> None:
        self._db = db

    async def create_tenant(self, tenant: Tenant) -> None:
        t = tenant
        row = await fetch_one(
            self._db,
            (
                "INSERT INTO tenants (id, name, plan, requests_per_minute, max_memories, disabled, created_at)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING RETURNING id",
                (
                    t.id,
                    check_text("a tenant's name", t.name),
                    t.plan,
                    t.quotas.requests_per_minute,
                    t.quotas.max_memories,
                    t.disabled,
                    t.created_at,
                ),
            ),
        )
        if row is None:
            raise Conflict(f"tenant {t.id!r} already exists")

    async def get_tenant(self, tenant_id: str) -> Tenant | None:
        row = await fetch_one(self._db, ("SELECT * FROM tenants WHERE id = %s", (tenant_id,)))
        return None if row is None else _tenant(row)

    async def list_tenants(self) -> list[Tenant]:
        return [_tenant(r) for r in await fetch_all(self._db, ("SELECT * FROM tenants ORDER BY id", ()))]

    async def update_tenant(self, tenant: Tenant) -> None:
        t = tenant
        changed = await execute(
            self._db,
            (
                "UPDATE tenants SET name = %s, plan = %s, requests_per_minute = %s, max_memories = %s, disabled = %s"
                " WHERE id = %s",
                (
                    check_text("a tenant's name", t.name),
                    t.plan,
                    t.quotas.requests_per_minute,
                    t.quotas.max_memories,
                    t.disabled,
                    t.id,
                ),
            ),
        )
        if not changed:
            raise NotFound(f"no tenant {t.id!r}")

    async def add_key(self, key: ApiKey) -> None:
        k = key
        # Inserted only when the tenant exists (the foreign key still guards it), and only once.
        row = await fetch_one(
            self._db,
            (
                "INSERT INTO api_keys (id, tenant_id, role, secret_hash, name, created_at, revoked_at, last_used_at)"
                " SELECT %s, %s, %s, %s, %s, %s, %s, %s WHERE EXISTS (SELECT 1 FROM tenants WHERE id = %s)"
                " ON CONFLICT (id) DO NOTHING RETURNING id",
                (
                    k.id,
                    k.tenant_id,
                    k.role.value,
                    k.secret_hash,
                    check_text("a key's name", k.name),
                    k.created_at,
                    k.revoked_at,
                    k.last_used_at,
                    k.tenant_id,
                ),
            ),
        )
        if row is None:
            if await self.get_key(k.id) is not None:
                raise Conflict(f"API key id {k.id!r} already exists")
            raise NotFound(f"no tenant {k.tenant_id!r}")

    async def get_key(self, key_id: str) -> ApiKey | None:
        row = await fetch_one(self._db, ("SELECT * FROM api_keys WHERE id = %s", (key_id,)))
        return None if row is None else _key(row)

    async def list_keys(self, tenant_id: str | None = None) -> list[ApiKey]:
        query: tuple[str, tuple[str, ...]]
        if tenant_id is None:
            query = ("SELECT * FROM api_keys ORDER BY created_at, id", ())
        else:
            query = ("SELECT * FROM api_keys WHERE tenant_id = %s ORDER BY created_at, id", (tenant_id,))
        return [_key(r) for r in await fetch_all(self._db, query)]

    async def revoke_key(self, key_id: str, when: datetime) -> bool:
        changed = await execute(
            self._db, ("UPDATE api_keys SET revoked_at = %s WHERE id = %s AND revoked_at IS NULL", (when, key_id))
        )
        return bool(changed)

    async def touch_key(self, key_id: str, when: datetime) -> None:
        await execute(self._db, ("UPDATE api_keys SET last_used_at = %s WHERE id = %s", (when, key_id)))

    async def memory_usage(self, tenant_id: str) -> int:
        # Kept exact by triggers on messages and memories (schema.py), in the writer's transaction;
        # a writer holds the tenant's row until it commits, so racing writers see each other's.
        row = await fetch_one(self._db, ("SELECT memories FROM tenant_usage WHERE tenant_id = %s", (tenant_id,)))
        return 0 if row is None else int(row["memories"])
