"""Keyword search with SQLite FTS5 (BM25) over language-analysed terms (see domain.text)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from ...domain.model import Scope
from ...domain.text import analyze, query_terms
from ...ports import KeywordHit
from .db import SqliteDatabase
from .rows import placeholders, scope_filter
from .schema import FTS_TABLE


class SqliteKeywordIndex:
    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def upsert(self, scope: Scope, items: Sequence[tuple[str, str]]) -> None:
        analysed = [(memory_id, " ".join(analyze(text))) for memory_id, text in items]
        if not analysed:
            return

        def write(conn: sqlite3.Connection) -> None:
            for memory_id, terms in analysed:
                row = conn.execute(
                    "SELECT rid FROM memories WHERE id = ? AND +tenant_id = ? AND +user_id = ?",
                    (memory_id, scope.tenant_id, scope.user_id),
                ).fetchone()
                if row is None:
                    raise LookupError(f"memory {memory_id} must be stored before it is indexed")
                conn.execute("DELETE FROM memory_fts WHERE rowid = ?", (row["rid"],))
                conn.execute("INSERT INTO memory_fts (rowid, terms) VALUES (?, ?)", (row["rid"], terms))

        await self._db.write(write)

    async def search(
        self, scope: Scope, query: str, k: int, *, exclude_thread: str | None = None
    ) -> list[KeywordHit]:
        terms = query_terms(query)
        if not terms or k <= 0:
            return []
        match = " OR ".join(f'"{t}"' for t in terms)
        where, params = scope_filter(scope, "m")
        if exclude_thread is not None:
            where += " AND (m.thread_id IS NULL OR m.thread_id != ?)"
            params.append(exclude_thread)
        sql = (
            "SELECT m.id, -bm25(memory_fts) AS score, memory_fts.terms AS terms FROM memory_fts"
            " JOIN memories m ON m.rid = memory_fts.rowid"
            f" WHERE memory_fts MATCH ? AND {where} AND (m.valid_to IS NULL)"
            " ORDER BY bm25(memory_fts) LIMIT ?"
        )
        rows = await self._db.read(lambda c: c.execute(sql, (match, *params, k)).fetchall())
        wanted = set(terms)
        return [
            KeywordHit(r["id"], float(r["score"]), tuple(sorted(wanted.intersection(r["terms"].split()))))
            for r in rows
        ]

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> None:
        if not memory_ids:
            return
        where, params = scope_filter(scope, by_id=True)
        await self._db.write(
            lambda c: c.execute(
                f"DELETE FROM memory_fts WHERE rowid IN (SELECT rid FROM memories WHERE {where}"
                f" AND id IN ({placeholders(len(memory_ids))}))",
                (*params, *memory_ids),
            )
        )

    async def reset(self) -> None:
        """Drop and recreate the FTS table: this also heals a damaged or missing index."""

        def reset(conn: sqlite3.Connection) -> None:
            conn.execute("DROP TABLE IF EXISTS memory_fts")
            conn.execute(FTS_TABLE)

        await self._db.write(reset)
