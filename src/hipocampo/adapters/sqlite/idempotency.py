"""Answers of idempotent writes on SQLite, keyed by tenant and the client's idempotency key."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime

from ...ports import StoredResponse
from ..sql.idempotency import SqlIdempotencyStore
from .db import SqliteDatabase
from .dialect import SQLITE, to_epoch


def _values(tenant_id: str, key: str, r: StoredResponse) -> tuple[object, ...]:
    body = None if r.body is None else json.dumps(r.body, ensure_ascii=False)
    return tenant_id, key, r.request_hash, r.status_code, body, to_epoch(r.created_at)


_INSERT = "INSERT INTO idempotency (tenant_id, key, request_hash, status_code, body, created_at) VALUES (?,?,?,?,?,?)"


class SqliteIdempotencyStore(SqlIdempotencyStore):
    """The :class:`~hipocampo.ports.IdempotencyStore` port on the shared SQLite database."""

    _db: SqliteDatabase

    def __init__(self, db: SqliteDatabase) -> None:
        super().__init__(db, SQLITE)

    async def put(
        self, tenant_id: str, key: str, response: StoredResponse, *, replace_before: datetime | None = None
    ) -> bool:
        values = _values(tenant_id, key, response)  # a body that is not JSON fails before the write
        cutoff = to_epoch(replace_before)

        def write(conn: sqlite3.Connection) -> bool:
            if cutoff is not None:
                conn.execute(
                    "DELETE FROM idempotency WHERE tenant_id = ? AND key = ? AND created_at < ?",
                    (tenant_id, key, cutoff),
                )
            return conn.execute(_INSERT + " ON CONFLICT (tenant_id, key) DO NOTHING", values).rowcount == 1

        return await self._db.write(write)

    async def replace(self, tenant_id: str, key: str, response: StoredResponse) -> None:
        values = _values(tenant_id, key, response)
        await self._db.write(
            lambda c: c.execute(
                _INSERT + " ON CONFLICT (tenant_id, key) DO UPDATE SET request_hash = excluded.request_hash,"
                " status_code = excluded.status_code, body = excluded.body, created_at = excluded.created_at",
                values,
            )
        )
