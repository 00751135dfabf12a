"""The Postgres vector path's cost model: which user sizes HNSW serves, by table size and k."""

from __future__ import annotations

from hipocampo.adapters.postgres.vector_plan import (
    LearnedCosts,
    PathCosts,
    ef_for,
    hnsw_from,
    hnsw_is_cheaper,
    hnsw_tuples,
)


def test_a_rarer_user_makes_the_index_scan_longer() -> None:
    assert hnsw_tuples(10_000, 100_000, 60, 100) == 600  # a tenth of the table: k / share
    assert hnsw_tuples(50_000, 100_000, 60, 100) == 120
    assert hnsw_tuples(100_000, 100_000, 60, 100) == 100  # at least the candidate list
    assert hnsw_tuples(0, 100_000, 60, 100) == float("inf")


def test_large_shares_go_through_the_index_and_small_ones_stay_exact() -> None:
    edge = hnsw_from(100_000, 60, 100, floor=1_000, max_scan_tuples=20_000)
    assert 1_000 < edge < 10_000
    assert hnsw_is_cheaper(10_000, 100_000, 60, 100, max_scan_tuples=20_000)
    assert not hnsw_is_cheaper(1_000, 100_000, 60, 100, max_scan_tuples=20_000)
    assert not hnsw_is_cheaper(edge - 1, 100_000, 60, 100, max_scan_tuples=20_000)
    assert hnsw_is_cheaper(edge, 100_000, 60, 100, max_scan_tuples=20_000)


def test_the_same_user_is_rarer_in_a_larger_table() -> None:
    small = hnsw_from(100_000, 60, 100, floor=0, max_scan_tuples=20_000)
    large = hnsw_from(1_000_000, 60, 100, floor=0, max_scan_tuples=20_000)
    assert small < large


def test_the_floor_and_the_scan_limit_keep_users_exact() -> None:
    assert hnsw_from(100_000, 60, 100, floor=50_000, max_scan_tuples=20_000) > 50_000
    # A scan that would have to visit more than max_scan_tuples / margin is never chosen, however cheap.
    cheap = PathCosts(exact_row_us=1000.0)
    assert not hnsw_is_cheaper(100, 1_000_000, 60, 100, max_scan_tuples=20_000, costs=cheap)
    assert hnsw_is_cheaper(100_000, 1_000_000, 60, 100, max_scan_tuples=20_000, costs=cheap)


def test_no_user_of_a_tiny_table_takes_the_index_when_none_would_gain() -> None:
    assert hnsw_from(500, 60, 100, floor=0, max_scan_tuples=20_000) == 501


def test_the_candidate_list_is_sized_to_hold_k_of_the_users_vectors() -> None:
    assert ef_for(10_000, 100_000, 60, 100) == 400  # k / share = 600, held to the cap
    assert ef_for(50_000, 100_000, 60, 100) == 120
    assert ef_for(100_000, 100_000, 60, 100) == 100  # never below the setting
    assert ef_for(100_000, 100_000, 200, 100) == 200  # nor below k
    assert ef_for(1_000, 100_000, 600, 100) == 600  # nor capped below k


def test_learned_costs_follow_what_searches_take_a_step_at_a_time() -> None:
    learned = LearnedCosts(PathCosts(exact_row_us=3.0, hnsw_tuple_us=7.0, hnsw_fixed_us=1000.0))
    for _ in range(30):  # this heap's rows are scattered: 30 us a row, seen over and over
        learned.saw_exact(10_000, 300_000.0)
    assert 25 < learned.exact_row_us <= 30
    before = learned.exact_row_us
    learned.saw_exact(10, 1e9)  # a handful of rows says nothing
    learned.saw_hnsw(600, 1e9)  # one stalled search moves the estimate, by a bounded step
    assert learned.exact_row_us == before
    assert learned.hnsw_tuple_us <= 7.0 * (0.8 + 0.2 * 4)
    # so the same user, in the same table, goes through the index once exact proves dear
    fresh = hnsw_from(100_000, 60, 100, floor=0, max_scan_tuples=20_000, costs=PathCosts())
    assert hnsw_from(100_000, 60, 100, floor=0, max_scan_tuples=20_000, costs=learned.now()) < fresh


def test_a_user_the_learned_costs_send_exact_still_tries_the_index_now_and_then() -> None:
    """Once HNSW proved dear the index is measured only when used: one search in EXPLORE_EVERY
    of a user the seed costs would send through it takes it, so the estimate can come back."""
    from hipocampo.adapters.postgres.vectors import EXPLORE_EVERY, PostgresVectorIndex, _Sized
    from hipocampo.settings import Settings

    index = PostgresVectorIndex(None, Settings())  # type: ignore[arg-type]  # deciding needs no database
    user = _Sized(dim=384, total=100_000, n=10_000, cap=20_000, at=0.0)
    assert index._takes_hnsw(user, 60, explore=True)  # the seed costs: a tenth of the table goes HNSW
    for _ in range(20):
        index._costs.saw_hnsw(600, 100_000.0)  # 100 ms a search: the index is dear on this machine
    taken = [index._takes_hnsw(user, 60, explore=True) for _ in range(EXPLORE_EVERY * 2)]
    assert sum(taken) == 2
    assert not index._takes_hnsw(user, 60)  # what path_for reports: exact
