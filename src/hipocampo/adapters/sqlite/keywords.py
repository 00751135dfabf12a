"""Keyword search with SQLite FTS5 over language-analysed terms (see domain.text), ranked by BM25
with the searching user's own statistics (see :mod:`hipocampo.domain.retrieval.bm25`).

FTS5 finds the documents (its index, its query syntax), but its ``bm25()`` takes the document
count, average length and term frequencies over the whole table, every tenant's. So the user's
statistics are kept here, in ``keyword_corpus`` (documents, total length) and ``keyword_df``
(documents per term), updated in the transaction that indexes or removes a document: a search
reads them by key, whatever the user's size, instead of counting the user's documents (at
100,000 memories that count alone took ~20 ms). Knowing every IDF up front, a search reads only
the documents :func:`~hipocampo.domain.retrieval.bm25.candidate_clauses` plans, at most ``budget`` of
them, each with its terms from the ``content`` shadow table (reading it directly costs about
half of what the same read through the FTS5 table costs; ``memory_fts_content (id, c0)`` is part
of FTS5's documented on-disk format). A document's length is its number of terms.

Every write path that removes index rows goes through :func:`unindex`, so the statistics stay
the index's.
"""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from ...domain.model import Scope
from ...domain.retrieval import bm25
from ...ports import KeywordHit
from ..sql.keywords import SqlKeywordIndex, analysed
from ..sql.where import scope_filter, searchable
from .db import SqliteDatabase
from .dialect import SQLITE, placeholders
from .schema import FTS_TABLE

_Key = tuple[str, str]  # (tenant_id, user_id)
CHUNK = 500
"""Ids per statement: a reindex may hand over more than SQLite takes as parameters at once."""


def _chunks(values: Sequence[Any]) -> list[Sequence[Any]]:
    return [values[i : i + CHUNK] for i in range(0, len(values), CHUNK)]


def _quoted(terms: Iterable[str]) -> list[str]:
    return [f'"{t}"' for t in terms]  # quoted: a term is never query syntax


def match_expression(terms: Sequence[str], unless: Sequence[str] = ()) -> str:
    """An FTS5 query for any of ``terms`` and none of ``unless``."""
    return clause_expression(bm25.Clause(tuple((t,) for t in terms), tuple((t,) for t in unless)))


def clause_expression(clause: bm25.Clause) -> str:
    """An FTS5 query for the documents of ``clause``."""

    def any_of(conjunctions: Sequence[tuple[str, ...]]) -> str:
        return " OR ".join(f"({' AND '.join(_quoted(c))})" if len(c) > 1 else _quoted(c)[0] for c in conjunctions)

    match = any_of(clause.any_of)
    return f"({match}) NOT ({any_of(clause.none_of)})" if clause.none_of else match


def candidates_query(scope: Scope, match: str, limit: int, exclude_thread: str | None) -> tuple[str, list[Any]]:
    """The documents matching ``match`` that the searcher may see (the user's, current, their
    agent's or shared, not in the excluded thread): at most ``limit``, newest first, with their
    terms. (The statistics count every document of the user; the budget, only those shown.)"""
    visible, params = searchable(SQLITE, scope, exclude_thread, "m")
    return (
        "SELECT m.rid, m.id, c.c0 AS terms FROM memory_fts f"
        " CROSS JOIN memories m ON m.rid = f.rowid CROSS JOIN memory_fts_content c ON c.id = f.rowid"
        f" WHERE memory_fts MATCH ? AND {visible} ORDER BY f.rowid DESC LIMIT ?",
        [match, *params, limit],
    )


def _adjust(conn: sqlite3.Connection, key: _Key, docs: int, length: int, df: Counter[str]) -> None:
    """Add to a user's statistics (negative numbers remove); terms no document holds are dropped."""
    conn.execute(
        "INSERT INTO keyword_corpus (tenant_id, user_id, docs, total) VALUES (?, ?, ?, ?) ON CONFLICT"
        " (tenant_id, user_id) DO UPDATE SET docs = docs + excluded.docs, total = total + excluded.total",
        (*key, docs, length),
    )
    changed = [(*key, term, n) for term, n in sorted(df.items()) if n]
    conn.executemany(
        "INSERT INTO keyword_df (tenant_id, user_id, term, df) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (tenant_id, user_id, term) DO UPDATE SET df = df + excluded.df",
        changed,
    )
    gone = [(*key, term) for *_, term, n in changed if n < 0]
    if gone:
        conn.executemany("DELETE FROM keyword_df WHERE tenant_id = ? AND user_id = ? AND term = ? AND df <= 0", gone)


def unindex(conn: sqlite3.Connection, rids: Sequence[int]) -> None:
    """Remove the index rows of memories ``rids`` (still stored: their scope is read from them),
    and their share of their users' statistics."""
    for key, change in sorted(_removal(conn, rids).items()):
        _adjust(conn, key, *change)
    _delete_rows(conn, rids)


def _removal(conn: sqlite3.Connection, rids: Sequence[int]) -> dict[_Key, list[Any]]:
    """What removing the index rows of ``rids`` takes from each user's statistics."""
    removed: dict[_Key, list[Any]] = defaultdict(lambda: [0, 0, Counter()])
    for chunk in _chunks(rids):
        for tenant_id, user_id, text in conn.execute(
            "SELECT m.tenant_id, m.user_id, c.c0 FROM memory_fts_content c CROSS JOIN memories m ON m.rid = c.id"
            f" WHERE c.id IN ({placeholders(len(chunk))})",
            list(chunk),
        ):
            _count_in(removed[(tenant_id, user_id)], text.split(), -1)
    return removed


def _delete_rows(conn: sqlite3.Connection, rids: Sequence[int]) -> None:
    for chunk in _chunks(rids):
        conn.execute(f"DELETE FROM memory_fts WHERE rowid IN ({placeholders(len(chunk))})", list(chunk))


def _count_in(change: list[Any], terms: list[str], sign: int) -> None:
    """Add a document of ``terms`` to ``change`` ([docs, length, df]), or take it out (``sign`` -1)."""
    change[0] += sign
    change[1] += sign * len(terms)
    change[2].update(dict.fromkeys(terms, sign))


class SqliteKeywordIndex(SqlKeywordIndex):
    """The :class:`~hipocampo.ports.KeywordIndex` port with SQLite FTS5; ``budget``: see
    :class:`~..sql.keywords.SqlKeywordIndex`."""

    _db: SqliteDatabase

    async def upsert(self, scope: Scope, items: Sequence[tuple[str, str]]) -> None:
        docs = analysed(items)
        if not docs:
            return
        key = (scope.tenant_id, scope.user_id)

        def write(conn: sqlite3.Connection) -> None:
            ids = list(docs)
            rids: dict[str, int] = {}
            for chunk in _chunks(ids):
                rids.update(
                    conn.execute(
                        f"SELECT id, rid FROM memories WHERE id IN ({placeholders(len(chunk))}) AND +tenant_id = ?"
                        " AND +user_id = ?",
                        (*chunk, *key),
                    ).fetchall()
                )
            missing = [memory_id for memory_id in ids if memory_id not in rids]
            if missing:
                raise LookupError(f"memory {missing[0]} must be stored before it is indexed")
            replaced = list(rids.values())
            change = _removal(conn, replaced)[key]  # what these documents held until now, if anything
            for terms in docs.values():
                _count_in(change, terms, 1)
            _delete_rows(conn, replaced)
            conn.executemany(
                "INSERT INTO memory_fts (rowid, terms) VALUES (?, ?)",
                [(rids[memory_id], " ".join(terms)) for memory_id, terms in docs.items()],
            )
            _adjust(conn, key, *change)

        await self._db.write(write)

    async def _search(self, scope: Scope, terms: list[str], k: int, exclude_thread: str | None) -> list[KeywordHit]:
        wanted = set(terms)
        key = (scope.tenant_id, scope.user_id)

        def read(conn: sqlite3.Connection) -> list[KeywordHit]:
            corpus = conn.execute(
                "SELECT docs, total FROM keyword_corpus WHERE tenant_id = ? AND user_id = ?", key
            ).fetchone()
            counted = conn.execute(
                "SELECT term, df FROM keyword_df WHERE tenant_id = ? AND user_id = ?"
                f" AND term IN ({placeholders(len(terms))})",
                (*key, *terms),
            ).fetchall()
            if corpus is None or not counted:
                return []
            df = dict.fromkeys(terms, 0) | {term: n for term, n in counted}
            cursor = conn.cursor()
            cursor.row_factory = None  # plain tuples (rid, id, terms): hundreds of rows per search
            rows: list[tuple[int, str, str]] = []
            for clause in bm25.candidate_clauses(df, self._budget):
                if len(rows) >= self._budget:
                    break
                query = candidates_query(scope, clause_expression(clause), self._budget - len(rows), exclude_thread)
                rows += cursor.execute(*query).fetchall()
            rows.sort()  # by rid: ties rank in write order
            stats = bm25.ScopeStats(corpus["docs"], corpus["total"], df)
            ranked = bm25.rank(((memory_id, *_tf(text, wanted)) for _, memory_id, text in rows), stats, k)
            return [KeywordHit(memory_id, score, matched) for memory_id, score, matched in ranked]

        return await self._db.read(read)

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> None:
        if not memory_ids:
            return
        where, params = scope_filter(SQLITE, scope, by_id=True)

        def delete(conn: sqlite3.Connection) -> None:
            rids = [
                r[0]
                for chunk in _chunks(list(memory_ids))
                for r in conn.execute(
                    f"SELECT rid FROM memories WHERE {where} AND id IN ({placeholders(len(chunk))})",
                    (*params, *chunk),
                )
            ]
            unindex(conn, rids)

        await self._db.write(delete)

    async def lengths(self, scope: Scope, memory_ids: Sequence[str]) -> dict[str, int]:
        where, params = scope_filter(SQLITE, scope, "m", by_id=True)

        def read(conn: sqlite3.Connection) -> dict[str, int]:
            found: dict[str, int] = {}
            for chunk in _chunks(list(memory_ids)):
                rows = conn.execute(
                    "SELECT m.id, c.c0 FROM memories m JOIN memory_fts_content c ON c.id = m.rid"
                    f" WHERE {where} AND m.id IN ({placeholders(len(chunk))})",
                    (*params, *chunk),
                )
                found.update((memory_id, len(text.split())) for memory_id, text in rows)
            return found

        return await self._db.read(read)

    async def reset(self) -> None:
        """Drop and recreate the FTS table and its statistics: this also heals a damaged or
        missing index."""

        def reset(conn: sqlite3.Connection) -> None:
            conn.execute("DROP TABLE IF EXISTS memory_fts")
            conn.execute(FTS_TABLE)
            conn.execute("DELETE FROM keyword_corpus")
            conn.execute("DELETE FROM keyword_df")

        await self._db.write(reset)


def _tf(text: str, wanted: set[str]) -> tuple[dict[str, int], int]:
    """A document's frequencies of the query's terms, and its length."""
    terms = text.split()
    tf: dict[str, int] = {}
    for term in terms:
        if term in wanted:
            tf[term] = tf.get(term, 0) + 1
    return tf, len(terms)
