"""Answers of idempotent writes on Postgres, keyed by tenant and the client's idempotency key.

:meth:`PostgresIdempotencyStore.put` is one ``INSERT ... ON CONFLICT`` statement: the check and
the write are atomic, and inside a transaction the key's row stays locked until commit, so a
racing request with the same key waits on it and then sees the first one's outcome. That is what
:func:`hipocampo.services.idempotency.run_once` relies on for exactly-once writes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ...ports import StoredResponse
from ..sql.dialect import Query
from ..sql.idempotency import SqlIdempotencyStore
from .db import PostgresDatabase
from .dialect import POSTGRES, to_json

_INSERT = (
    "INSERT INTO idempotency AS i (tenant_id, key, request_hash, status_code, body, created_at)"
    " VALUES (%s, %s, %s, %s, %s::json, %s)"
)


def _values(tenant_id: str, key: str, r: StoredResponse) -> tuple[Any, ...]:
    # A body that is not JSON raises here, before anything is written.
    body = None if r.body is None else to_json("a stored answer", r.body)
    return tenant_id, key, r.request_hash, r.status_code, body, r.created_at


def put_query(tenant_id: str, key: str, response: StoredResponse, replace_before: datetime | None) -> Query:
    """Insert unless present; an entry created before ``replace_before`` counts as absent.
    Returns a row exactly when this call stored its answer."""
    values = _values(tenant_id, key, response)
    if replace_before is None:
        return _INSERT + " ON CONFLICT (tenant_id, key) DO NOTHING RETURNING 1 AS stored", values
    return (
        _INSERT + " ON CONFLICT (tenant_id, key) DO UPDATE SET request_hash = excluded.request_hash,"
        " status_code = excluded.status_code, body = excluded.body, created_at = excluded.created_at"
        " WHERE i.created_at < %s RETURNING 1 AS stored",
        (*values, replace_before),
    )


class PostgresIdempotencyStore(SqlIdempotencyStore):
    """The :class:`~hipocampo.ports.IdempotencyStore` port on the shared Postgres database."""

    _db: PostgresDatabase

    def __init__(self, db: PostgresDatabase) -> None:
        super().__init__(db, POSTGRES)

    async def put(
        self, tenant_id: str, key: str, response: StoredResponse, *, replace_before: datetime | None = None
    ) -> bool:
        return await self._db.fetch_one(put_query(tenant_id, key, response, replace_before)) is not None

    async def replace(self, tenant_id: str, key: str, response: StoredResponse) -> None:
        await self._db.execute(
            (
                _INSERT + " ON CONFLICT (tenant_id, key) DO UPDATE SET request_hash = excluded.request_hash,"
                " status_code = excluded.status_code, body = excluded.body, created_at = excluded.created_at",
                _values(tenant_id, key, response),
            ),
        )
