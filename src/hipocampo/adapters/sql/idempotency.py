"""Answers of idempotent writes on a SQL engine, keyed by tenant and the client's idempotency key:
the reads and deletes both engines run alike. Storing an answer is the engine's own (Postgres does
the check and the write in one statement, which a racing request waits on)."""

from __future__ import annotations

from datetime import datetime

from ...ports import StoredResponse
from .dialect import Database, Dialect
from .rows import response_from_row


class SqlIdempotencyStore:
    """What both engines' :class:`~hipocampo.ports.IdempotencyStore` share, on ``db`` in ``dialect``."""

    def __init__(self, db: Database, dialect: Dialect) -> None:
        self._db = db
        self._d = dialect

    async def get(self, tenant_id: str, key: str) -> StoredResponse | None:
        sql = self._d.sql("SELECT * FROM idempotency WHERE tenant_id = ? AND key = ?")
        row = await self._db.fetch_one((sql, (tenant_id, key)))
        return None if row is None else response_from_row(self._d, row)

    async def delete(self, tenant_id: str, key: str) -> None:
        await self._db.execute(
            (self._d.sql("DELETE FROM idempotency WHERE tenant_id = ? AND key = ?"), (tenant_id, key))
        )

    async def purge(self, before: datetime) -> int:
        sql = self._d.sql("DELETE FROM idempotency WHERE created_at < ?")
        return await self._db.execute((sql, (self._d.time_in(before),)))
