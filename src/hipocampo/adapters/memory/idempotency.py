"""Answers of idempotent writes in process memory.

For tests and single-process experiments; the answers are lost when the process exits.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime

from ...domain.model import as_utc
from ...ports import StoredResponse
from .state import InMemoryDatabase, State


def _row(r: StoredResponse) -> StoredResponse:
    # Kept as JSON text, as SQLite keeps it: a body that cannot be stored fails here, before the
    # write, and every read decodes a fresh copy.
    body = None if r.body is None else json.dumps(r.body, ensure_ascii=False)
    return StoredResponse(r.request_hash, r.status_code, body, as_utc(r.created_at))


class InMemoryIdempotencyStore:
    """The :class:`~hipocampo.ports.IdempotencyStore` port over an :class:`InMemoryDatabase`.

    For tests and single-process experiments; behaves as ``SqliteIdempotencyStore`` does."""

    def __init__(self, db: InMemoryDatabase) -> None:
        self._db = db

    async def get(self, tenant_id: str, key: str) -> StoredResponse | None:
        row = self._db.view().idempotency.get((tenant_id, key))
        if row is None:
            return None
        return replace(row, body=None if row.body is None else json.loads(row.body))

    async def put(
        self, tenant_id: str, key: str, response: StoredResponse, *, replace_before: datetime | None = None
    ) -> bool:
        row = _row(response)
        cutoff = as_utc(replace_before) if replace_before is not None else None

        def write(st: State) -> bool:
            old = st.idempotency.get((tenant_id, key))
            if old is not None and (cutoff is None or old.created_at >= cutoff):
                return False
            st.idempotency[(tenant_id, key)] = row
            return True

        return await self._db.write(write)

    async def replace(self, tenant_id: str, key: str, response: StoredResponse) -> None:
        row = _row(response)

        def write(st: State) -> None:
            st.idempotency[(tenant_id, key)] = row

        await self._db.write(write)

    async def delete(self, tenant_id: str, key: str) -> None:
        await self._db.write(lambda st: st.idempotency.pop((tenant_id, key), None))

    async def purge(self, before: datetime) -> int:
        cutoff = as_utc(before)

        def write(st: State) -> int:
            old = [k for k, r in st.idempotency.items() if r.created_at < cutoff]
            for k in old:
                del st.idempotency[k]
            return len(old)

        return await self._db.write(write)
