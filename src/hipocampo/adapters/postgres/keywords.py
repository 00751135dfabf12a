"""Keyword search on Postgres: our analysed terms in a ``tsvector`` (GIN), ranked by BM25 with
the searching user's own statistics (see :mod:`hipocampo.domain.retrieval.bm25`).

Terms are ``domain.text``'s Snowball stems (PT+EN, accents folded), written into the ``tsvector``
verbatim (a literal, never through a text search dictionary) with one position per occurrence,
so Postgres matches exactly the terms SQLite's FTS5 matches and a term's frequency is its number
of positions (Postgres keeps 256 at most). A query is an OR of its stems, as on SQLite.

A search reads the user's statistics by key (``keyword_corpus``, ``keyword_df``: kept by
triggers, see :mod:`.schema_keywords`), then, in one statement, the documents
``bm25.candidate_clauses`` plans, at most ``budget`` of them, however many documents hold the
query's words: every document of the rarest terms, then those holding the most of the common ones
together. Candidates are ranked without joining their memories; one more statement then asks, of
the top of the ranking only, which ones the searcher may see (current, their agent's or shared,
not in the excluded thread), as SQLite's join filters them, and reads their rows, which the hits
carry to recall. Three round trips in all.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...domain.model import Scope
from ...domain.retrieval import bm25
from ...ports import KeywordHit
from ..sql.dialect import Query
from ..sql.keywords import SqlKeywordIndex, analysed
from ..sql.rows import memory_from_row
from ..sql.where import scope_filter, searchable
from .db import PostgresDatabase
from .dialect import POSTGRES

MAX_POSITIONS = 256
"""Positions Postgres keeps per lexeme: the largest term frequency it can hold."""
VISIBILITY_SLACK = 20
"""Candidates asked about beyond ``k`` at once, for the few the searcher may not see."""
MAX_LEXEME_BYTES = 2046
"""Postgres refuses longer lexemes; such a "word" is no search term anyway."""


def _quote(term: str) -> str:
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


def tsvector_literal(terms: Sequence[str]) -> str:
    """The ``tsvector`` of a document's terms: each distinct term once, with one position per
    occurrence (1, 2, ...), so its frequency survives without any dictionary."""
    counts = Counter(t for t in terms if t and len(t.encode()) <= MAX_LEXEME_BYTES)
    return " ".join(
        f"{_quote(term)}:{','.join(map(str, range(1, min(n, MAX_POSITIONS) + 1)))}" for term, n in counts.items()
    )


def tsquery_literal(terms: Sequence[str]) -> str:
    """Any of ``terms``, verbatim."""
    return " | ".join(_quote(t) for t in terms)


def clause_tsquery(conjunctions: Sequence[tuple[str, ...]]) -> str:
    """Documents holding every term of at least one of ``conjunctions``."""
    return " | ".join("(" + " & ".join(_quote(t) for t in c) + ")" for c in conjunctions)


def stats_query(scope: Scope, terms: Sequence[str]) -> Query:
    """The user's document count and total length, with the document frequency of each of
    ``terms`` any document holds (one row per such term; one with a null term if none)."""
    return (
        "SELECT c.docs, c.total, d.term, d.df FROM keyword_corpus c LEFT JOIN keyword_df d"
        " ON d.tenant_id = c.tenant_id AND d.user_id = c.user_id AND d.term = ANY(%s)"
        " WHERE c.tenant_id = %s AND c.user_id = %s",
        (list(terms), scope.tenant_id, scope.user_id),
    )


def candidates_query(scope: Scope, clauses: Sequence[bm25.Clause], terms: Sequence[str], limit: int) -> Query:
    """The user's documents of ``clauses``, the first clause's first, at most ``limit`` in all,
    each with its length and its ``terms`` (``tf``: a ``tsvector`` of the query terms alone, as
    text). One statement for every clause: ``UNION ALL`` reads its branches in order and the outer
    ``LIMIT`` stops it once ``limit`` rows are read, so a later clause runs only when the earlier
    ones left room (what a statement per clause did, in one round trip).

    The frequencies are cut out by C functions (mark the query's lexemes, keep the marked ones)
    rather than by unnesting every document: a third of the time for a couple of thousand rows.
    """
    branches: list[str] = []
    params: list[Any] = [list(terms)]
    for clause in clauses:
        found = "tenant_id = %s AND user_id = %s AND terms @@ %s::tsquery"
        params += [scope.tenant_id, scope.user_id, clause_tsquery(clause.any_of)]
        if clause.none_of:
            found += " AND NOT terms @@ %s::tsquery"
            params.append(clause_tsquery(clause.none_of))
        branches.append(f"(SELECT memory_id, terms, length FROM keywords WHERE {found} LIMIT %s)")
        params.append(limit)
    return (
        "SELECT f.memory_id, f.length, ts_filter(setweight(f.terms, 'A', %s), '{a}')::text AS tf"
        f" FROM ({' UNION ALL '.join(branches)}) f LIMIT %s",
        (*params, limit),
    )


def visibility_query(scope: Scope, memory_ids: Sequence[str], exclude_thread: str | None) -> Query:
    """Which of ``memory_ids`` the searcher may see (current, in scope, not in the excluded
    thread): their whole rows, which recall reads next (so it need not ask again), with their
    write order (``rid``) for ties."""
    where, params = searchable(POSTGRES, scope, exclude_thread)
    return (f"SELECT * FROM memories WHERE id = ANY(%s) AND {where}", (list(memory_ids), *params))


class PostgresKeywordIndex(SqlKeywordIndex):
    """The :class:`~hipocampo.ports.KeywordIndex` port on a :class:`PostgresDatabase`.

    ``budget``: documents scored per search at most (see :mod:`hipocampo.domain.retrieval.bm25`)."""

    _db: PostgresDatabase

    async def upsert(self, scope: Scope, items: Sequence[tuple[str, str]]) -> None:
        docs = analysed(items)
        if not docs:
            return
        ids = list(docs)
        async with self._db.transaction():
            found = await self._db.fetch_all(
                (
                    "SELECT id FROM memories WHERE id = ANY(%s) AND tenant_id = %s AND user_id = %s",
                    (ids, scope.tenant_id, scope.user_id),
                ),
            )
            missing = set(ids) - {r["id"] for r in found}
            if missing:
                raise LookupError(f"memories {sorted(missing)[:3]} must be stored before they are indexed")
            await self._db.execute(
                (
                    "INSERT INTO keywords (memory_id, tenant_id, user_id, terms, length)"
                    " SELECT k.memory_id, %s, %s, k.terms::tsvector, k.length"
                    " FROM unnest(%s::text[], %s::text[], %s::integer[]) AS k (memory_id, terms, length)"
                    " ON CONFLICT (memory_id) DO UPDATE SET terms = excluded.terms, length = excluded.length"
                    " WHERE keywords.tenant_id = excluded.tenant_id AND keywords.user_id = excluded.user_id",
                    (
                        scope.tenant_id,
                        scope.user_id,
                        ids,
                        [tsvector_literal(docs[i]) for i in ids],
                        [len(docs[i]) for i in ids],
                    ),
                ),
            )

    async def _search(self, scope: Scope, terms: list[str], k: int, exclude_thread: str | None) -> list[KeywordHit]:
        budget = self._budget
        stats = await self._db.fetch_all(stats_query(scope, terms))
        df = dict.fromkeys(terms, 0) | {r["term"]: int(r["df"]) for r in stats if r["term"] is not None}
        if not any(df.values()):
            return []
        clauses = bm25.candidate_clauses(df, budget)
        rows = await self._db.fetch_all(candidates_query(scope, clauses, terms, budget)) if clauses else []
        corpus = bm25.ScopeStats(int(stats[0]["docs"]), int(stats[0]["total"]), df)
        ranked = bm25.ranked(((r["memory_id"], _tf(r), r["length"]) for r in rows), corpus)
        return await self._visible(scope, ranked, k, exclude_thread)

    async def _visible(
        self, scope: Scope, ranked: list[tuple[str, float, tuple[str, ...]]], k: int, exclude_thread: str | None
    ) -> list[KeywordHit]:
        """The ``k`` best the searcher may see, asked in slices from the top (nearly all usually
        are, so one slice of a little more than ``k`` does), ties broken by write order."""
        hits: list[tuple[float, int, KeywordHit]] = []
        start = 0
        while start < len(ranked) and len(hits) < k:
            end = min(start + k + VISIBILITY_SLACK, len(ranked))
            while end < len(ranked) and ranked[end][1] == ranked[end - 1][1]:
                end += 1  # a slice never splits a tie
            chunk = ranked[start:end]
            seen = {
                r["id"]: r
                for r in await self._db.fetch_all(
                    visibility_query(scope, [memory_id for memory_id, _, _ in chunk], exclude_thread)
                )
            }
            hits += [
                (
                    -score,
                    seen[memory_id]["rid"],
                    KeywordHit(memory_id, score, matched, memory_from_row(POSTGRES, seen[memory_id])),
                )
                for memory_id, score, matched in chunk
                if memory_id in seen
            ]
            start = end
        hits.sort(key=lambda h: (h[0], h[1]))
        return [hit for _, _, hit in hits[:k]]

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> None:
        if not memory_ids:
            return
        where, params = scope_filter(POSTGRES, scope, "m")
        await self._db.execute(
            (
                f"DELETE FROM keywords k USING memories m WHERE k.memory_id = ANY(%s) AND m.id = k.memory_id"
                f" AND {where}",
                (list(memory_ids), *params),
            ),
        )

    async def lengths(self, scope: Scope, memory_ids: Sequence[str]) -> dict[str, int]:
        if not memory_ids:
            return {}
        rows = await self._db.fetch_all(
            (
                "SELECT memory_id, length FROM keywords WHERE memory_id = ANY(%s) AND tenant_id = %s AND user_id = %s",
                (list(memory_ids), scope.tenant_id, scope.user_id),
            ),
        )
        return {r["memory_id"]: int(r["length"]) for r in rows}

    async def reset(self) -> None:
        await self._db.execute(("TRUNCATE keywords", ()))


_LEXEME = re.compile(r"'((?:[^']|'')*)'(?::(\S+))?")


def _tf(row: dict[str, Any]) -> dict[str, int]:
    """Term frequencies from a ``tsvector``'s text (``'ana':1A,2A 'lisbon':5A``): positions per lexeme."""
    return {
        lexeme.replace("''", "'").replace("\\\\", "\\"): positions.count(",") + 1 if positions else 1
        for lexeme, positions in _LEXEME.findall(row["tf"] or "")
    }
