"""Rolling thread summaries on Postgres: the shared store (:mod:`..sql.summaries`) in its dialect."""

from __future__ import annotations

from ..sql.summaries import SqlSummaryStore
from .db import PostgresDatabase
from .dialect import POSTGRES


class PostgresSummaryStore(SqlSummaryStore):
    def __init__(self, db: PostgresDatabase) -> None:
        super().__init__(db, POSTGRES)
