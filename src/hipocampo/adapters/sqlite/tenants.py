"""Tenants and their API keys on SQLite: the shared store (:mod:`..sql.tenants`) in its dialect."""

from __future__ import annotations

from ..sql.tenants import SqlTenantStore
from .db import SqliteDatabase
from .dialect import SQLITE


class SqliteTenantStore(SqlTenantStore):
    def __init__(self, db: SqliteDatabase) -> None:
        super().__init__(db, SQLITE)
