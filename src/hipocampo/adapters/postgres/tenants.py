"""Tenants and their API keys on Postgres: the shared store (:mod:`..sql.tenants`) in its dialect."""

from __future__ import annotations

from ..sql.tenants import SqlTenantStore
from .db import PostgresDatabase
from .dialect import POSTGRES


class PostgresTenantStore(SqlTenantStore):
    def __init__(self, db: PostgresDatabase) -> None:
        super().__init__(db, POSTGRES)
