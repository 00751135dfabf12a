"""BM25 with a scope's own statistics: FTS5's formula, and the candidate plan of big scopes."""

from __future__ import annotations

import math

import pytest

from hipocampo.domain.retrieval import bm25


def test_score_is_fts5s_bm25() -> None:
    stats = bm25.ScopeStats(docs=10, total_length=50, df={"sister": 2, "lisbon": 6})
    # FTS5: idf = ln((N - n + 0.5) / (n + 0.5)), floored at 1e-6; k1 = 1.2, b = 0.75, avgdl = 5.
    idf = math.log((10 - 2 + 0.5) / (2 + 0.5))
    norm = 1.2 * (1 - 0.75 + 0.75 * 8 / 5)
    expected = idf * 2 * 2.2 / (2 + norm) + 1e-6 * 1 * 2.2 / (1 + norm)
    assert bm25.score({"sister": 2, "lisbon": 1}, 8, stats) == pytest.approx(expected)


def test_terms_in_half_the_documents_or_more_weigh_almost_nothing() -> None:
    assert bm25.idf(10, 5) == bm25.MIN_IDF
    assert bm25.idf(10, 10) == bm25.MIN_IDF
    assert bm25.idf(10, 4) > 0.1
    assert bm25.idf(0, 0) == bm25.MIN_IDF


def test_rank_keeps_the_best_k_ties_in_candidate_order_and_reports_matched_terms() -> None:
    stats = bm25.ScopeStats(docs=4, total_length=12, df={"a": 2, "b": 1})
    ranked = bm25.rank([("x", {"a": 1}, 3), ("y", {"a": 1, "b": 1}, 3), ("z", {"a": 1}, 3), ("none", {}, 3)], stats, 2)
    assert [(m, terms) for m, _, terms in ranked] == [("y", ("a", "b")), ("x", ("a",))]
    assert bm25.rank([("x", {"a": 1}, 3)], stats, 0) == []


def test_plan_scores_every_document_of_the_rarest_terms_first() -> None:
    assert bm25.plan_candidates({"rare": 3, "mid": 40, "common": 5000, "absent": 0}, budget=100) == (
        ["rare", "mid"],
        ["common"],
    )
    assert bm25.plan_candidates({"a": 10, "b": 20}, budget=100) == (["a", "b"], [])
    assert bm25.plan_candidates({"common": 5000}, budget=100) == ([], ["common"])


def test_document_frequencies_count_documents_not_occurrences() -> None:
    docs = [{"a": 3}, {"a": 1, "b": 2}, {"c": 1}]
    assert bm25.document_frequencies(["a", "b", "z"], docs) == {"a": 2, "b": 1, "z": 0}


def test_clauses_read_the_rarest_terms_then_common_terms_held_together_most_first() -> None:
    clauses = bm25.candidate_clauses({"rare": 3, "ana": 900, "lisbon": 800, "absent": 0}, budget=100)
    assert clauses == [
        bm25.Clause((("rare",),)),
        bm25.Clause((("lisbon", "ana"),), (("rare",),)),  # both common terms: read before either alone
        bm25.Clause((("lisbon",), ("ana",)), (("rare",), ("lisbon", "ana"))),
    ]
    assert bm25.candidate_clauses({"a": 10, "b": 20}, budget=100) == [bm25.Clause((("a",), ("b",)))]
    assert bm25.candidate_clauses({"absent": 0}, budget=100) == []


def test_clauses_combine_a_bounded_number_of_common_terms() -> None:
    df = {f"t{i}": 1000 + i for i in range(10)}
    clauses = bm25.candidate_clauses(df, budget=100)
    assert len(clauses) == bm25.COMMON_TERMS  # all four together, then three, two, one
    assert clauses[0].any_of == (("t0", "t1", "t2", "t3"),)  # the rarest of the common terms
    assert len(clauses[-1].any_of) == bm25.COMMON_TERMS
