"""Keyword search with SQLite FTS5 over language-analysed terms (see domain.text), ranked by BM25
with the searching user's own statistics (see :mod:`hipocampo.domain.bm25`).

FTS5 finds the documents (its index, its query syntax), but its ``bm25()`` takes the document
count, average length and term frequencies over the whole table, every tenant's. So the user's
statistics are read here: the count and total length of their documents from FTS5's ``docsize``
shadow table (token counts, one varint per row: one byte under 128 tokens), each candidate's
terms from the ``content`` shadow table (reading the shadow tables directly costs about half of
what the same reads through the FTS5 table cost). Those tables belong to FTS5's documented
on-disk format (``memory_fts_content (id, c0)``, ``memory_fts_docsize (id, sz)``).
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...domain import bm25
from ...domain.model import Scope
from ...domain.text import analyze, query_terms
from ...ports import KeywordHit
from .db import SqliteDatabase
from .rows import placeholders, scope_filter
from .schema import FTS_TABLE


def _byte(i: int) -> str:
    hex_digit = "(instr('0123456789ABCDEF', substr(hex(d.sz), {}, 1)) - 1)"
    return f"({hex_digit.format(2 * i + 1)} * 16 + {hex_digit.format(2 * i + 2)})"


DOC_LENGTH = (
    "CASE WHEN d.sz < x'80' THEN coalesce(unicode(CAST(d.sz AS TEXT)), 0)"
    f" WHEN length(d.sz) = 2 THEN ({_byte(0)} - 128) * 128 + {_byte(1)}"
    f" ELSE (({_byte(0)} - 128) * 128 + {_byte(1)} - 128) * 128 + {_byte(2)} END"
)
"""A document's token count from its ``docsize`` varint (``d.sz``): the one-byte case directly,
longer ones (128 tokens and more, rare) from their hex digits."""


def match_expression(terms: Sequence[str], unless: Sequence[str] = ()) -> str:
    """An FTS5 query for any of ``terms`` (quoted: they are never query syntax) and none of ``unless``."""
    match = " OR ".join(f'"{t}"' for t in terms)
    if unless:
        match = f"({match}) NOT ({' OR '.join(f'{chr(34)}{t}{chr(34)}' for t in unless)})"
    return match


def candidates_query(scope: Scope, match: str, limit: int, exclude_thread: str | None) -> tuple[str, list[Any]]:
    """The user's documents matching ``match`` (at most ``limit``, in write order), with their
    terms, length, and whether the searcher may see them."""
    visible, params = scope_filter(scope, "m")
    visible += " AND m.valid_to IS NULL"
    if exclude_thread is not None:
        visible += " AND (m.thread_id IS NULL OR m.thread_id != ?)"
        params.append(exclude_thread)
    return (
        f"SELECT m.rid, m.id, c.c0 AS terms, {DOC_LENGTH} AS length, ({visible}) AS visible FROM memory_fts f"
        " CROSS JOIN memories m ON m.rid = f.rowid CROSS JOIN memory_fts_content c ON c.id = f.rowid"
        " CROSS JOIN memory_fts_docsize d ON d.id = f.rowid"
        " WHERE memory_fts MATCH ? AND m.tenant_id = ? AND m.user_id = ? LIMIT ?",
        [*params, match, scope.tenant_id, scope.user_id, limit],
    )


class SqliteKeywordIndex:
    """``budget``: documents scored per search at most (see :mod:`hipocampo.domain.bm25`)."""

    def __init__(self, db: SqliteDatabase, *, budget: int = bm25.MAX_SCORED) -> None:
        self._db = db
        self._budget = budget

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
        wanted = set(terms)

        def read(conn: sqlite3.Connection) -> list[KeywordHit]:
            budget = self._budget
            first = candidates_query(scope, match_expression(terms), budget + 1, exclude_thread)
            rows = conn.execute(*first).fetchall()
            if not rows:
                return []
            if len(rows) <= budget:  # every document holding a term is here: count them exactly
                df = bm25.document_frequencies(terms, (_tf(r, wanted) for r in rows))
            else:
                df = {t: _count(conn, scope, t, budget + 1) for t in terms}
                every, rest = bm25.plan_candidates(df, budget)
                rows = conn.execute(*candidates_query(scope, match_expression(every), budget, exclude_thread)) \
                    .fetchall() if every else []
                if rest and len(rows) < budget:  # fill up with documents of the common terms only
                    more = candidates_query(scope, match_expression(rest, every), budget - len(rows), exclude_thread)
                    rows += conn.execute(*more).fetchall()
            docs, total = conn.execute(
                f"SELECT count(*), coalesce(sum({DOC_LENGTH}), 0) FROM memories m"
                " CROSS JOIN memory_fts_docsize d ON d.id = m.rid WHERE m.tenant_id = ? AND m.user_id = ?",
                (scope.tenant_id, scope.user_id),
            ).fetchone()
            stats = bm25.ScopeStats(docs, total, df)
            visible = sorted((r for r in rows if r["visible"]), key=lambda r: r["rid"])
            ranked = bm25.rank(((r["id"], _tf(r, wanted), r["length"]) for r in visible), stats, k)
            return [KeywordHit(memory_id, score, matched) for memory_id, score, matched in ranked]

        return await self._db.read(read)

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


def _tf(row: sqlite3.Row, wanted: set[str]) -> Counter[str]:
    return Counter(t for t in row["terms"].split() if t in wanted)


def _count(conn: sqlite3.Connection, scope: Scope, term: str, bound: int) -> int:
    """How many of the user's documents hold ``term``, counted up to ``bound``."""
    return conn.execute(
        "SELECT count(*) FROM (SELECT 1 FROM memory_fts f CROSS JOIN memories m ON m.rid = f.rowid"
        " WHERE memory_fts MATCH ? AND m.tenant_id = ? AND m.user_id = ? LIMIT ?)",
        (match_expression([term]), scope.tenant_id, scope.user_id, bound),
    ).fetchone()[0]
