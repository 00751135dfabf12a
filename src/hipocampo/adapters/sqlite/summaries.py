"""Rolling thread summaries on SQLite: the shared store (:mod:`..sql.summaries`) in its dialect."""

from __future__ import annotations

from ..sql.summaries import SqlSummaryStore
from .db import SqliteDatabase
from .dialect import SQLITE


class SqliteSummaryStore(SqlSummaryStore):
    def __init__(self, db: SqliteDatabase) -> None:
        super().__init__(db, SQLITE)
