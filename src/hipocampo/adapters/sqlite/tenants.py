"""Tenants and their API keys on SQLite. Keys are stored as the SHA-256 of their secret only."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from ...domain.errors import Conflict, NotFound
from ...domain.tenancy import ApiKey, KeyRole, Quotas, Tenant
from .db import SqliteDatabase
from .rows import from_epoch, to_epoch


def _tenant(row: sqlite3.Row) -> Tenant:
    return Tenant(
        id=row["id"],
        name=row["name"],
        plan=row["plan"],
        quotas=Quotas(requests_per_minute=row["requests_per_minute"], max_memories=row["max_memories"]),
        created_at=from_epoch(row["created_at"]),  # type: ignore[arg-type]
        disabled=bool(row["disabled"]),
    )


def _key(row: sqlite3.Row) -> ApiKey:
    return ApiKey(
        id=row["id"],
        tenant_id=row["tenant_id"],
        role=KeyRole(row["role"]),
        secret_hash=row["secret_hash"],
        name=row["name"],
        created_at=from_epoch(row["created_at"]),  # type: ignore[arg-type]
        revoked_at=from_epoch(row["revoked_at"]),
        last_used_at=from_epoch(row["last_used_at"]),
    )


class SqliteTenantStore:
    """The :class:`~hipocampo.ports.TenantStore` port on the shared SQLite database."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def create_tenant(self, tenant: Tenant) -> None:
        t = tenant

        def write(conn: sqlite3.Connection) -> None:
            try:
                conn.execute(
                    "INSERT INTO tenants (id, name, plan, requests_per_minute, max_memories, disabled, created_at)"
                    " VALUES (?,?,?,?,?,?,?)",
                    (
                        t.id,
                        t.name,
                        t.plan,
                        t.quotas.requests_per_minute,
                        t.quotas.max_memories,
                        int(t.disabled),
                        to_epoch(t.created_at),
                    ),
                )
            except sqlite3.IntegrityError as exc:
                raise Conflict(f"tenant {t.id!r} already exists") from exc

        await self._db.write(write)

    async def get_tenant(self, tenant_id: str) -> Tenant | None:
        row = await self._db.read(lambda c: c.execute("SELECT * FROM tenants WHERE id = ?", (tenant_id,)).fetchone())
        return None if row is None else _tenant(row)

    async def list_tenants(self) -> list[Tenant]:
        rows = await self._db.read(lambda c: c.execute("SELECT * FROM tenants ORDER BY id").fetchall())
        return [_tenant(r) for r in rows]

    async def update_tenant(self, tenant: Tenant) -> None:
        t = tenant
        changed = await self._db.write(
            lambda c: (
                c.execute(
                    "UPDATE tenants SET name = ?, plan = ?, requests_per_minute = ?, max_memories = ?, disabled = ?"
                    " WHERE id = ?",
                    (t.name, t.plan, t.quotas.requests_per_minute, t.quotas.max_memories, int(t.disabled), t.id),
                ).rowcount
            )
        )
        if not changed:
            raise NotFound(f"no tenant {t.id!r}")

    async def add_key(self, key: ApiKey) -> None:
        k = key

        def write(conn: sqlite3.Connection) -> None:
            try:
                conn.execute(
                    "INSERT INTO api_keys (id, tenant_id, role, secret_hash, name, created_at, revoked_at,"
                    " last_used_at) VALUES (?,?,?,?,?,?,?,?)",
                    (
                        k.id,
                        k.tenant_id,
                        k.role.value,
                        k.secret_hash,
                        k.name,
                        to_epoch(k.created_at),
                        to_epoch(k.revoked_at),
                        to_epoch(k.last_used_at),
                    ),
                )
            except sqlite3.IntegrityError as exc:
                if conn.execute("SELECT 1 FROM api_keys WHERE id = ?", (k.id,)).fetchone():
                    raise Conflict(f"API key id {k.id!r} already exists") from exc
                raise NotFound(f"no tenant {k.tenant_id!r}") from exc

        await self._db.write(write)

    async def get_key(self, key_id: str) -> ApiKey | None:
        row = await self._db.read(lambda c: c.execute("SELECT * FROM api_keys WHERE id = ?", (key_id,)).fetchone())
        return None if row is None else _key(row)

    async def list_keys(self, tenant_id: str | None = None) -> list[ApiKey]:
        params: tuple[str, ...]
        if tenant_id is None:
            sql, params = "SELECT * FROM api_keys ORDER BY created_at, id", ()
        else:
            sql, params = "SELECT * FROM api_keys WHERE tenant_id = ? ORDER BY created_at, id", (tenant_id,)
        rows = await self._db.read(lambda c: c.execute(sql, params).fetchall())
        return [_key(r) for r in rows]

    async def revoke_key(self, key_id: str, when: datetime) -> bool:
        changed = await self._db.write(
            lambda c: (
                c.execute(
                    "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", (to_epoch(when), key_id)
                ).rowcount
            )
        )
        return bool(changed)

    async def touch_key(self, key_id: str, when: datetime) -> None:
        await self._db.write(
            lambda c: c.execute("UPDATE api_keys SET last_used_at = ? WHERE id = ?", (to_epoch(when), key_id))
        )

    async def memory_usage(self, tenant_id: str) -> int:
        # Kept exact by triggers on messages and memories (migration 4), in the writer's transaction.
        row = await self._db.read(
            lambda c: c.execute("SELECT memories FROM tenant_usage WHERE tenant_id = ?", (tenant_id,)).fetchone()
        )
        return 0 if row is None else int(row[0])
