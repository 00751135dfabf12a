"""BM25 with statistics of the searching scope only. Pure functions, shared by every backend.

Why per scope: a search engine's global statistics (FTS5 keeps one document count, one average
length and one document frequency per term for its whole table) let every tenant's corpus move
every other tenant's scores, which shows in explanations and leaks a little about what others
store. Here a scope (a tenant's user) is its own corpus: ``N`` is the number of the user's
indexed memories, ``avgdl`` their mean length, ``df`` the number of them holding a term. Those
are counted over all of the user's entries (superseded memories and other agents' included), so
a score does not depend on who asks or which thread is excluded, only on the user's index.

The formula is FTS5's ``bm25()``, so with one user per store (LoCoMo, most embedded uses) the
scores are the very numbers SQLite gave before: k1 = 1.2, b = 0.75, and an IDF floored at a
tiny positive value for terms found in half the documents or more.

Bounded work: a backend scores at most a budget of documents per search
(:data:`PLANNED_BUDGET`), however many of the user's documents hold the query's words. It keeps
each user's statistics (document count, total length, documents per term) as it indexes, so it
knows every IDF before reading a document, and reads only what :func:`candidate_clauses` plans:
every document of the rarest terms (the strong evidence; all of them when they fit, the usual case
of a LoCoMo-sized user), then documents holding the common terms *together* (all of them, then
all but one, ...), so a document that matches three common words is scored before one that
matches a single one. The statistics stay exact whichever documents are read; a document left out
holds only common words, whose IDF is small.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

K1 = 1.2
B = 0.75
MIN_IDF = 1e-6
"""FTS5 floors the IDF of terms found in half the documents or more at this."""

PLANNED_BUDGET = 500
"""Documents scored per search at most (recall asks for the best 60): each one costs a row read
and a parse, ~8 µs on SQLite. On the latency benchmark's 10,000-memory user (common words in
~1,500 documents) the top 10 are those of scoring every document, and 92% of the top 60."""

COMMON_TERMS = 4
"""Common query terms combined by :func:`candidate_clauses` (the rarest of them): 15 conjunctions
at most, whatever the query's length."""


@dataclass(frozen=True)
class Clause:
    """Documents holding every term of at least one of ``any_of``, and no conjunction of ``none_of``."""

    any_of: tuple[tuple[str, ...], ...]
    none_of: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class ScopeStats:
    """The scope's corpus: its documents, their total length, and ``df`` of the query's terms."""

    docs: int
    total_length: int
    df: Mapping[str, int]

    @property
    def avgdl(self) -> float:
        return self.total_length / self.docs if self.docs else 0.0


def idf(docs: int, df: int) -> float:
    value = math.log((docs - df + 0.5) / (df + 0.5)) if docs else 0.0
    return value if value > 0 else MIN_IDF


def score(tf: Mapping[str, int], length: int, stats: ScopeStats) -> float:
    """BM25 of one document holding the query terms ``tf`` (term -> occurrences)."""
    avgdl = stats.avgdl or 1.0
    norm = K1 * (1 - B + B * length / avgdl)
    return sum(idf(stats.docs, stats.df.get(term, 0)) * n * (K1 + 1) / (n + norm) for term, n in tf.items() if n > 0)


def document_frequencies(terms: Sequence[str], documents: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """``df`` of ``terms`` over ``documents`` (each a term -> occurrences map)."""
    df = dict.fromkeys(terms, 0)
    for doc in documents:
        for term in terms:
            if doc.get(term):
                df[term] += 1
    return df


def plan_candidates(df: Mapping[str, int], budget: int = PLANNED_BUDGET) -> tuple[list[str], list[str]]:
    """Split query terms into those whose every document is scored and the rest.

    Rarest first, terms are taken while all their documents fit in ``budget``; the rest (common
    terms) only contribute documents to fill what is left. Terms no document holds are dropped.
    """
    every: list[str] = []
    used = 0
    ordered = sorted((n, term) for term, n in df.items() if n > 0)
    for i, (n, term) in enumerate(ordered):
        if used + n > budget:
            return every, [t for _, t in ordered[i:]]
        every.append(term)
        used += n
    return every, []


def candidate_clauses(df: Mapping[str, int], budget: int = PLANNED_BUDGET) -> list[Clause]:
    """What to read, in order, until ``budget`` documents are read: every document of the rarest
    terms (:func:`plan_candidates`), then those of the common terms by how many of them they hold
    together, most first; each clause leaves out what an earlier one already read in full."""
    every, rest = plan_candidates(df, budget)
    clauses = [Clause(tuple((t,) for t in every))] if every else []
    common = rest[:COMMON_TERMS]
    read: tuple[tuple[str, ...], ...] = tuple((t,) for t in every)
    for size in range(len(common), 0, -1):
        level = tuple(combinations(common, size))
        clauses.append(Clause(level, read))
        read = (*((t,) for t in every), *level)  # documents with more of the terms hold these too
    return clauses


def ranked(
    candidates: Iterable[tuple[str, Mapping[str, int], int]], stats: ScopeStats
) -> list[tuple[str, float, tuple[str, ...]]]:
    """``(memory_id, score, matched terms)`` of every ``(memory_id, tf, length)`` candidate that
    holds a query term: best score first, ties in the candidates' order. (:func:`score`, with the
    IDFs and the normalisation computed once: this runs over thousands of candidates.)"""
    idfs = {term: idf(stats.docs, n) for term, n in stats.df.items()}
    per_length = K1 * B / (stats.avgdl or 1.0)
    base = K1 * (1 - B)
    scored = []
    for order, (memory_id, tf, length) in enumerate(candidates):
        norm = base + per_length * length
        total = 0.0
        for term, n in tf.items():
            if n > 0:
                total += (idfs.get(term) or idf(stats.docs, 0)) * n * (K1 + 1) / (n + norm)
        if total > 0:
            scored.append((-total, order, memory_id, tuple(sorted(t for t, n in tf.items() if n > 0))))
    scored.sort()
    return [(memory_id, -neg, matched) for neg, _, memory_id, matched in scored]


def rank(
    candidates: Iterable[tuple[str, Mapping[str, int], int]], stats: ScopeStats, k: int
) -> list[tuple[str, float, tuple[str, ...]]]:
    """The ``k`` best of :func:`ranked`."""
    return ranked(candidates, stats)[: max(k, 0)]
