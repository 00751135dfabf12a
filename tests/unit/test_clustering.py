"""domain.clustering: greedy centroid clustering and near-duplicate pairs, on hand-made vectors."""

from __future__ import annotations

import numpy as np
import pytest

from hipocampo.domain.summaries.clustering import cluster, near_duplicates


def unit(*components: float) -> np.ndarray:
    v = np.array(components, dtype=np.float32)
    return v / np.linalg.norm(v)


def around(axis: int, wobble: float, dim: int = 4) -> np.ndarray:
    """A unit vector close to ``axis``, tilted by ``wobble`` towards the next axis."""
    v = np.zeros(dim, dtype=np.float32)
    v[axis] = 1.0
    v[(axis + 1) % dim] = wobble
    return v / np.linalg.norm(v)


def test_interleaved_groups_are_separated_and_returned_in_first_row_order() -> None:
    rows = np.stack([around(0, 0.1), around(2, 0.1), around(0, 0.2), around(2, 0.0), around(0, 0.0)])
    assert cluster(rows, threshold=0.9) == [[0, 2, 4], [1, 3]]


def test_clusters_smaller_than_min_size_are_dropped() -> None:
    rows = np.stack([around(0, 0.1), around(1, 0.0), around(0, 0.0), around(3, 0.0)])
    assert cluster(rows, threshold=0.9, min_size=2) == [[0, 2]]
    assert cluster(rows, threshold=0.9, min_size=1) == [[0, 2], [1], [3]]
    assert cluster(rows, threshold=0.9, min_size=3) == []


def test_rows_join_the_most_similar_centroid_and_ties_go_to_the_older_cluster() -> None:
    a, b = unit(1, 0), unit(0, 1)
    between = unit(1, 1)  # cosine 0.707 to both
    assert cluster(np.stack([a, b, between]), threshold=0.7, min_size=1) == [[0, 2], [1]]
    closer_to_b = unit(1, 2)
    assert cluster(np.stack([a, b, closer_to_b]), threshold=0.7, min_size=1) == [[0], [1, 2]]


def test_the_centroid_moves_as_members_join() -> None:
    # At 0, 30 and 45 degrees: c is 0.71 from a, below the threshold, but 0.87 from the
    # centroid of a and b (at 15 degrees).
    a, b, c = (unit(np.cos(np.radians(d)), np.sin(np.radians(d))) for d in (0, 30, 45))
    assert cluster(np.stack([a, b, c]), threshold=0.85, min_size=1) == [[0, 1, 2]]
    assert cluster(np.stack([a, c]), threshold=0.85, min_size=1) == [[0], [1]]


def test_unnormalised_and_zero_vectors() -> None:
    rows = np.array([[3.0, 0.0], [0.0, 0.0], [5.0, 0.1], [0.0, 0.0]], dtype=np.float64)
    assert cluster(rows, threshold=0.9, min_size=1) == [[0, 2], [1], [3]]  # zeros resemble nothing


def test_deterministic_and_empty_input() -> None:
    rng = np.random.default_rng(7)
    rows = rng.normal(size=(60, 8)).astype(np.float32)
    assert cluster(rows, threshold=0.3) == cluster(rows.copy(), threshold=0.3)
    assert cluster(np.zeros((0, 8), dtype=np.float32)) == []


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="2-D"):
        cluster(np.ones(3, dtype=np.float32))
    with pytest.raises(ValueError, match="min_size"):
        cluster(np.ones((2, 3), dtype=np.float32), min_size=0)
    with pytest.raises(ValueError, match="keys"):
        near_duplicates(np.ones((2, 3), dtype=np.float32), [None])


def test_near_duplicates_pair_each_newer_row_with_the_earliest_survivor() -> None:
    x = unit(1, 0, 0)
    almost_x = unit(1, 0.05, 0)
    other = unit(0, 1, 0)
    rows = np.stack([x, other, almost_x, x])
    assert near_duplicates(rows, [None] * 4, threshold=0.95) == [(0, 2), (0, 3)]


def test_near_duplicates_compare_only_rows_with_equal_keys() -> None:
    x = unit(1, 0)
    rows = np.stack([x, x, x, x])
    keys = ["likes:jazz", "likes:rock", "likes:jazz", None]
    assert near_duplicates(rows, keys) == [(0, 2)]


def test_a_row_merged_away_never_receives_a_merge() -> None:
    # b is close to a, c is close to b but not to a: c stays, since b is merged into a.
    a, b, c = unit(1, 0), unit(1, 0.3), unit(1, 0.65)
    rows = np.stack([a, b, c])
    assert float(rows[0] @ rows[1]) > 0.95 and float(rows[1] @ rows[2]) > 0.95
    assert float(rows[0] @ rows[2]) < 0.95
    assert near_duplicates(rows, [None] * 3, threshold=0.95) == [(0, 1)]


def test_no_duplicates_below_the_threshold() -> None:
    rows = np.stack([unit(1, 0), unit(1, 1), unit(0, 1)])
    assert near_duplicates(rows, [None] * 3) == []
    assert near_duplicates(np.zeros((0, 2), dtype=np.float32), []) == []


def test_centring_separates_what_a_narrow_cone_lumps_together() -> None:
    from hipocampo.domain.summaries.clustering import centre

    rng = np.random.default_rng(7)
    common = rng.normal(size=32) * 5  # every vector shares a large common part, as e5's do
    topics = [rng.normal(size=32) for _ in range(3)]
    rows = np.stack([common + topics[i % 3] + rng.normal(size=32) * 0.2 for i in range(60)])
    assert len(cluster(rows, threshold=0.75, min_size=3)) == 1  # raw cosine: one lump
    assert len(cluster(centre(rows), threshold=0.5, min_size=3)) == 3  # centred: the three topics
