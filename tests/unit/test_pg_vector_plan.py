"""The Postgres vector path's cost model: which user sizes HNSW serves, by table size and k."""

from __future__ import annotations

from hipocampo.adapters.postgres.vector_plan import (
    LearnedCosts,
    PathCosts,
    ef_for,
    hnsw_from,
    hnsw_is_cheaper,
    hnsw_tuples,
    share_band,
)
from hipocampo.adapters.postgres.vectors import (
    EXPLORE_EVERY,
    EXPLORE_FIRST,
    EXPLORE_FIRST_SEARCHES,
    PostgresVectorIndex,
    _Sized,
)
from hipocampo.settings import Settings


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
    assert learned.exact_row_us == before
    # so the same user, in the same table, goes through the index once exact proves dear
    fresh = hnsw_from(100_000, 60, 100, floor=0, max_scan_tuples=20_000, costs=PathCosts())
    assert hnsw_from(100_000, 60, 100, floor=0, max_scan_tuples=20_000, costs=learned.now()) < fresh


def test_an_hnsw_band_takes_its_first_search_whole_then_moves_a_bounded_step() -> None:
    learned = LearnedCosts()
    assert learned.hnsw_us(10_000, 1_000_000) is None  # never seen
    learned.saw_hnsw(10_000, 1_000_000, 9_000.0)
    assert learned.hnsw_us(10_000, 1_000_000) == 9_000.0
    assert learned.hnsw_us(12_000, 1_000_000) == 9_000.0  # the same share band
    assert learned.hnsw_us(100_000, 1_000_000) is None  # another band
    learned.saw_hnsw(10_000, 1_000_000, 1e9)  # one stalled search moves it, by a bounded step
    assert learned.hnsw_us(10_000, 1_000_000) <= 9_000.0 * (0.8 + 0.2 * 4)
    assert share_band(10_000, 1_000_000) == 6 and share_band(60_000, 100_000) == 0


def _index(total: int = 1_000_000) -> tuple[PostgresVectorIndex, _Sized]:
    index = PostgresVectorIndex(None, Settings())  # type: ignore[arg-type]  # deciding needs no database
    return index, _Sized(dim=384, total=total, n=10_000, cap=20_000, at=0.0)


def test_a_user_the_pessimistic_estimate_sends_exact_tries_the_index_and_keeps_it_if_it_proves_cheaper() -> None:
    """A 10k-vector user in 1M: the pessimistic scan (6,000 tuples) looks dearer than the exact
    path, but one search in EXPLORE_FIRST tries the index while its band has been searched fewer
    than EXPLORE_FIRST_SEARCHES times, then one in EXPLORE_EVERY; once its band is measured
    cheaper, the index serves them."""
    index, user = _index()
    assert not index._takes_hnsw(user, 60)
    taken = [index._takes_hnsw(user, 60, explore=True) for _ in range(EXPLORE_FIRST * EXPLORE_FIRST_SEARCHES)]
    assert sum(taken) == EXPLORE_FIRST_SEARCHES
    for _ in range(EXPLORE_FIRST_SEARCHES):
        index._costs.saw_hnsw(user.n, user.total, 60_000.0)  # 60 ms: cold pages, dearer than exact
    taken = [index._takes_hnsw(user, 60, explore=True) for _ in range(EXPLORE_EVERY)]
    assert sum(taken) == 1
    for _ in range(12):
        index._costs.saw_hnsw(user.n, user.total, 9_000.0)  # then 9 ms: warm, and the user's vectors crowd
    assert index._takes_hnsw(user, 60)


def test_a_band_the_index_serves_dearly_goes_exact_and_is_tried_no_more() -> None:
    index, user = _index(total=100_000)  # a tenth of the table: the pessimistic estimate says the index
    assert index._takes_hnsw(user, 60)
    for _ in range(20):
        index._costs.saw_hnsw(user.n, user.total, 400_000.0)  # 400 ms a search here
    taken = [index._takes_hnsw(user, 60, explore=True) for _ in range(EXPLORE_EVERY * 2)]
    assert sum(taken) == 0
    assert not index._takes_hnsw(user, 60)  # what path_for reports: exact
