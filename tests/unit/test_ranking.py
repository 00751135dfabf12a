"""domain.ranking: fusion, neighbour support, boosts and adaptive k."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from hipocampo.domain.retrieval import ranking
from hipocampo.domain.retrieval.ranking import (
    NEIGHBOUR_WEIGHT,
    RRF_K,
    adaptive_k,
    importance_boost,
    neighbour_support,
    person_boost,
    recency_boost,
    rrf,
    topic_boost,
)
from hipocampo.domain.retrieval.recall import RecencyMode

NOW = datetime(2024, 6, 1, tzinfo=timezone.utc)


def days_ago(days: float) -> datetime:
    return NOW - timedelta(days=days)


class TestRrf:
    def test_values(self) -> None:
        scores = rrf([["a", "b"], ["b", "c"]])
        assert scores == pytest.approx({"a": 1 / 61, "b": 1 / 62 + 1 / 61, "c": 1 / 62})
        assert RRF_K == 60

    def test_items_in_both_lists_beat_items_in_one(self) -> None:
        scores = rrf([["a", "b", "c"], ["c", "b", "d"]])
        order = sorted(scores, key=scores.get, reverse=True)
        assert order == ["c", "b", "a", "d"]  # first + third edges out second + second
        assert scores["c"] == pytest.approx(1 / 63 + 1 / 61)
        assert scores["b"] == pytest.approx(2 / 62)

    def test_weights_scale_each_list(self) -> None:
        scores = rrf([["a"], ["b"]], weights=[2.0, 0.5])
        assert scores == pytest.approx({"a": 2 / 61, "b": 0.5 / 61})
        assert scores["a"] > scores["b"]

    def test_empty_rankings(self) -> None:
        assert rrf([]) == {}
        assert rrf([[], []]) == {}

    def test_accepts_any_iterable_of_rankings(self) -> None:
        assert rrf(r for r in (["a"], ["a"])) == pytest.approx({"a": 2 / 61})


class TestNeighbourSupport:
    def test_lends_half_the_best_adjacent_score(self) -> None:
        fused = {"q": 0.8, "a": 0.2, "far": 0.9}
        positions = {"q": ("t1", 4), "a": ("t1", 5), "before": ("t1", 3), "far": ("t1", 9)}
        support = neighbour_support(fused, positions)
        assert support["a"] == pytest.approx(NEIGHBOUR_WEIGHT * 0.8)
        assert support["before"] == pytest.approx(NEIGHBOUR_WEIGHT * 0.8)
        assert support["q"] == pytest.approx(NEIGHBOUR_WEIGHT * 0.2)
        assert support["far"] == 0.0

    def test_takes_the_better_of_both_sides(self) -> None:
        fused = {"prev": 0.3, "next": 0.6}
        positions = {"prev": ("t", 0), "mid": ("t", 1), "next": ("t", 2)}
        assert neighbour_support(fused, positions)["mid"] == pytest.approx(0.3)

    def test_other_threads_are_not_neighbours(self) -> None:
        fused = {"x": 1.0}
        positions = {"x": ("t1", 1), "y": ("t2", 2), "z": ("t2", 0)}
        support = neighbour_support(fused, positions)
        assert support == {"x": 0.0, "y": 0.0, "z": 0.0}

    def test_unscored_neighbours_lend_nothing(self) -> None:
        assert neighbour_support({}, {"a": ("t", 0), "b": ("t", 1)}) == {"a": 0.0, "b": 0.0}
        assert neighbour_support({"a": 1.0}, {}) == {}


class TestRecencyBoost:
    @pytest.mark.parametrize(
        ("age", "expected"),
        [(0, 1.5), (7, 1.5), (8, 1.2), (30, 1.2), (31, 1.0), (90, 1.0), (91, 0.7), (3650, 0.7)],
    )
    def test_recent_focused(self, age: float, expected: float) -> None:
        assert recency_boost(days_ago(age), NOW, RecencyMode.RECENT_FOCUSED) == expected

    @pytest.mark.parametrize(("age", "expected"), [(0, 1.2), (30, 1.2), (31, 1.0), (90, 1.0), (91, 0.9)])
    def test_balanced(self, age: float, expected: float) -> None:
        assert recency_boost(days_ago(age), NOW, RecencyMode.BALANCED) == expected

    @pytest.mark.parametrize(("age", "expected"), [(0, 1.0), (30, 1.0), (31, 1.1), (90, 1.1), (91, 1.3)])
    def test_archeological_favours_the_old(self, age: float, expected: float) -> None:
        assert recency_boost(days_ago(age), NOW, RecencyMode.ARCHEOLOGICAL) == expected

    @pytest.mark.parametrize("mode", list(RecencyMode))
    def test_stays_in_range_and_treats_the_future_as_now(self, mode: RecencyMode) -> None:
        for age in (-5, 0, 1, 7.5, 29.99, 60, 89, 120, 10_000):
            assert 0.7 <= recency_boost(days_ago(age), NOW, mode) <= 1.5
        assert recency_boost(NOW + timedelta(days=3), NOW, mode) == recency_boost(NOW, NOW, mode)


class TestPersonBoost:
    def test_no_names_no_boost(self) -> None:
        assert person_boost(set(), "Alice", "Alice said hi") == (1.0, [])

    def test_the_speaker_counts_most(self) -> None:
        assert person_boost({"Alice"}, "Alice", "I went home") == (1.5, ["Alice"])

    def test_a_mention_counts_less(self) -> None:
        assert person_boost({"Alice", "Bob"}, "Carol", "I saw Bob and alice yesterday") == (
            1.05,
            ["Alice", "Bob"],
        )

    def test_accents_and_case_are_folded(self) -> None:
        assert person_boost({"João"}, "joao", "oi") == (1.5, ["joao"])
        assert person_boost({"Joao"}, None, "Falei com o JOÃO ontem") == (1.05, ["Joao"])

    def test_unrelated_memories_get_nothing(self) -> None:
        assert person_boost({"Alice"}, "Bob", "the weather is nice") == (1.0, [])
        assert person_boost({"Alice"}, None, "the weather is nice") == (1.0, [])

    @pytest.mark.parametrize(
        ("name", "content"),
        [("Ana", "vamos na próxima semana"), ("Rui", "o filme foi ruim"), ("Ed", "I need it")],
    )
    def test_a_name_inside_another_word_is_not_a_mention(self, name: str, content: str) -> None:
        assert person_boost({name}, None, content) == (1.0, [])


class TestTopicBoost:
    def test_no_query_terms_is_neutral(self) -> None:
        assert topic_boost([], []) == 1.0
        assert topic_boost(["x"], []) == 1.0

    def test_grows_with_matched_terms_up_to_1_2(self) -> None:
        query = [
            "a",
            "b",
            "c",
            "d",
            "e",
            "f",
        ]  # query terms hold stems of two languages: half is "all"
        values = [topic_boost(query[:n], query) for n in range(7)]
        assert values[0] == 1.0
        assert values == sorted(values)
        assert values[1] == pytest.approx(1.0 + 0.2 / 3)
        assert values[3] == pytest.approx(1.2)
        assert values[6] == pytest.approx(1.2)

    def test_short_queries(self) -> None:
        assert topic_boost(["run"], ["run"]) == pytest.approx(1.2)
        assert topic_boost(["run"], ["run", "running"]) == pytest.approx(1.2)
        assert topic_boost([], ["run", "running"]) == 1.0

    def test_repeated_terms_count_once(self) -> None:
        assert topic_boost(["a", "a", "a"], ["a", "b", "c", "d", "e", "f"]) == pytest.approx(1.0 + 0.2 / 3)


class TestImportanceBoost:
    @pytest.mark.parametrize(("importance", "expected"), [(0.0, 0.9), (0.5, 1.0), (1.0, 1.1), (-3, 0.9), (7, 1.1)])
    def test_maps_and_clamps(self, importance: float, expected: float) -> None:
        assert importance_boost(importance) == pytest.approx(expected)


class TestAdaptiveK:
    def test_empty(self) -> None:
        assert adaptive_k([]) == 0

    def test_fewer_hits_than_low_keeps_them_all(self) -> None:
        assert adaptive_k([0.9]) == 1
        assert adaptive_k([0.9, 0.01]) == 2

    def test_never_below_low_when_there_are_enough_hits(self) -> None:
        assert adaptive_k([1.0, 0.1, 0.1, 0.1, 0.1]) == 3

    def test_keeps_hits_within_the_ratio_of_the_best(self) -> None:
        assert adaptive_k([1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.49, 0.1]) == 6

    def test_never_above_high(self) -> None:
        assert adaptive_k([1.0] * 50) == 12
        assert adaptive_k([1.0] * 50, high=20) == 20

    def test_custom_bounds_and_ratio(self) -> None:
        scores = [1.0, 0.95, 0.9, 0.5, 0.2]
        assert adaptive_k(scores, low=1, ratio=0.9) == 3
        assert adaptive_k(scores, low=1, ratio=0.1) == 5
        assert adaptive_k(scores, low=4, ratio=0.9) == 4

    def test_equal_scores_are_all_kept(self) -> None:
        assert adaptive_k([0.3] * 5) == 5

    def test_result_is_within_bounds(self) -> None:
        for n in range(30):
            scores = [1.0 / (i + 1) for i in range(n)]
            k = adaptive_k(scores)
            assert k <= n
            assert k == n if n < 3 else 3 <= k <= 12


def test_filler_turns_are_halved_but_dated_answers_and_statements_are_not() -> None:
    assert ranking.salience_boost("turn", "Anotado!", dated=False) == ranking.FILLER_BOOST
    assert ranking.salience_boost("turn", "Sounds fun!", dated=False) == ranking.FILLER_BOOST
    assert ranking.salience_boost("turn", "Yes, last Saturday!", dated=True) == 1.0  # answers a "when"
    assert ranking.salience_boost("turn", "Sou alérgico a amendoim.", dated=False) == 1.0
    assert ranking.salience_boost("fact", "ok", dated=False) == 1.0  # only turns are judged


class TestAdaptiveKFromTheQuery:
    def test_nothing_cleared_gives_nothing(self) -> None:
        assert adaptive_k([], facets=3) == 0
        assert adaptive_k([], anchored=False) == 0

    def test_each_facet_brings_its_own_slots(self) -> None:
        scores = [1.0, 0.9] + [0.1] * 8
        assert adaptive_k(scores) == 3
        assert adaptive_k(scores, facets=2) == 6  # the second subject's memories rank below the first's
        assert adaptive_k(scores, facets=3) == 9

    def test_the_ratio_loosens_with_facets(self) -> None:
        scores = [1.0, 0.9, 0.8, 0.45, 0.4, 0.35, 0.3, 0.05]
        assert adaptive_k(scores, low=1) == 3
        assert adaptive_k(scores, low=1, facets=2) == 7  # 0.5 ** 2 of the best

    def test_facets_raise_the_ceiling_up_to_max_k(self) -> None:
        assert adaptive_k([1.0] * 50, facets=2) == ranking.MAX_K
        assert adaptive_k([1.0] * 50, facets=4) == ranking.MAX_K
        assert adaptive_k([1.0] * 50, facets=0) == 12  # no facet counts as one
        assert adaptive_k([1.0] * 50, high=30, facets=2) == 30  # a ceiling above MAX_K is kept

    def test_unanchored_hits_keep_one_per_facet(self) -> None:
        scores = [1.0, 0.99, 0.98, 0.97]
        assert adaptive_k(scores, anchored=False) == 1
        assert adaptive_k(scores, anchored=False, facets=2) == 2
        assert adaptive_k([0.5], anchored=False, facets=3) == 1


class TestRelevanceFloor:
    def test_the_floor_holds_when_nothing_stands_out(self) -> None:
        assert ranking.relevance_floor([0.7, 0.6, 0.55], 0.5) == 0.5
        assert ranking.relevance_floor([], 0.5) == 0.5

    def test_it_rises_below_a_memory_that_matches_outright(self) -> None:
        assert ranking.relevance_floor([1.0, 0.95, 0.62], 0.5) == pytest.approx(1.0 - ranking.RELEVANCE_CLIFF)

    def test_it_never_falls_below_the_floor_given(self) -> None:
        assert ranking.relevance_floor([0.3], 0.6) == 0.6
