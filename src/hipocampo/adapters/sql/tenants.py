"""Tenants and their API keys on a SQL engine. Keys are stored as the SHA-256 of their secret only.

Conflicts are detected with ``ON CONFLICT DO NOTHING ... RETURNING`` rather than by catching a
unique violation: inside a Postgres transaction a failed statement aborts the caller's whole
transaction, which SQLite does not do, and the port promises the same behaviour on both. A key is
inserted only when its tenant exists (the foreign key still guards it), so a missing tenant is
told apart from a taken key id without an error either.
"""

from __future__ import annotations

from datetime import datetime

from ...domain.errors import Conflict, NotFound
from ...domain.tenancy import ApiKey, Tenant
from .dialect import Database, Dialect, Query
from .rows import key_from_row, tenant_from_row


class SqlTenantStore:
    """The :class:`~hipocampo.ports.TenantStore` port on ``db``, spoken in ``dialect``."""

    def __init__(self, db: Database, dialect: Dialect) -> None:
        self._db = db
        self._d = dialect

    def _q(self, sql: str, *params: object) -> Query:
        return self._d.sql(sql), params

    async def create_tenant(self, tenant: Tenant) -> None:
        t, d = tenant, self._d
        row = await self._db.fetch_one(
            self._q(
                "INSERT INTO tenants (id, name, plan, requests_per_minute, max_memories, disabled, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id",
                t.id,
                d.text_in("a tenant's name", t.name),
                t.plan,
                t.quotas.requests_per_minute,
                t.quotas.max_memories,
                t.disabled,
                d.time_in(t.created_at),
            ),
            write=True,
        )
        if row is None:
            raise Conflict(f"tenant {t.id!r} already exists")

    async def get_tenant(self, tenant_id: str) -> Tenant | None:
        row = await self._db.fetch_one(self._q("SELECT * FROM tenants WHERE id = ?", tenant_id))
        return None if row is None else tenant_from_row(self._d, row)

    async def list_tenants(self) -> list[Tenant]:
        return [
            tenant_from_row(self._d, r) for r in await self._db.fetch_all(("SELECT * FROM tenants ORDER BY id", ()))
        ]

    async def update_tenant(self, tenant: Tenant) -> None:
        t = tenant
        changed = await self._db.execute(
            self._q(
                "UPDATE tenants SET name = ?, plan = ?, requests_per_minute = ?, max_memories = ?, disabled = ?"
                " WHERE id = ?",
                self._d.text_in("a tenant's name", t.name),
                t.plan,
                t.quotas.requests_per_minute,
                t.quotas.max_memories,
                t.disabled,
                t.id,
            )
        )
        if not changed:
            raise NotFound(f"no tenant {t.id!r}")

    async def add_key(self, key: ApiKey) -> None:
        k, d = key, self._d
        row = await self._db.fetch_one(
            self._q(
                "INSERT INTO api_keys (id, tenant_id, role, secret_hash, name, created_at, revoked_at, last_used_at)"
                " SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM tenants WHERE id = ?)"
                " ON CONFLICT (id) DO NOTHING RETURNING id",
                k.id,
                k.tenant_id,
                k.role.value,
                k.secret_hash,
                d.text_in("a key's name", k.name),
                d.time_in(k.created_at),
                d.time_in(k.revoked_at),
                d.time_in(k.last_used_at),
                k.tenant_id,
            ),
            write=True,
        )
        if row is None:
            if await self.get_key(k.id) is not None:
                raise Conflict(f"API key id {k.id!r} already exists")
            raise NotFound(f"no tenant {k.tenant_id!r}")

    async def get_key(self, key_id: str) -> ApiKey | None:
        row = await self._db.fetch_one(self._q("SELECT * FROM api_keys WHERE id = ?", key_id))
        return None if row is None else key_from_row(self._d, row)

    async def list_keys(self, tenant_id: str | None = None) -> list[ApiKey]:
        if tenant_id is None:
            query = self._q("SELECT * FROM api_keys ORDER BY created_at, id")
        else:
            query = self._q("SELECT * FROM api_keys WHERE tenant_id = ? ORDER BY created_at, id", tenant_id)
        return [key_from_row(self._d, r) for r in await self._db.fetch_all(query)]

    async def revoke_key(self, key_id: str, when: datetime) -> bool:
        changed = await self._db.execute(
            self._q(
                "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", self._d.time_in(when), key_id
            )
        )
        return bool(changed)

    async def touch_key(self, key_id: str, when: datetime) -> None:
        await self._db.execute(
            self._q("UPDATE api_keys SET last_used_at = ? WHERE id = ?", self._d.time_in(when), key_id)
        )

    async def memory_usage(self, tenant_id: str) -> int:
        # Kept exact by triggers on messages and memories (each engine's schema), in the writer's
        # transaction; on Postgres a writer holds the tenant's row until it commits, so racing
        # writers see each other's.
        row = await self._db.fetch_one(self._q("SELECT memories FROM tenant_usage WHERE tenant_id = ?", tenant_id))
        return 0 if row is None else int(row["memories"])
