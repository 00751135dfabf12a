"""Pure rules for a second retrieval hop: pseudo-relevance feedback from the first hits.

A question that joins facts said weeks apart ("what activities does Ana do with her family?")
matches each of them only in part: the first search finds the turns that share its words, and
ranks low the ones that share only its subject. Those first hits, though, say how this user
talks about the subject; ranking again from them lifts the rest (Rocchio 1971; relevance models,
Lavrenko and Croft 2001). The hop reuses what the first pass already holds, the stored vectors
of its candidates: no new text is embedded, and the index is not searched again.

The constants are the usual ones of the literature (a few feedback documents, the query weighted
above them), not fitted to any benchmark.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

FEEDBACK_HITS = 3
"""First-pass hits whose vectors steer the second ranking: a handful, so one off-topic hit
cannot pull the query away."""

FEEDBACK_WEIGHT = 0.5
"""Weight of the feedback centroid against the query (both unit length): the query still leads."""


def rocchio(query: np.ndarray, feedback: Sequence[np.ndarray], weight: float = FEEDBACK_WEIGHT) -> np.ndarray:
    """The query moved towards the centroid of ``feedback`` vectors, unit length.

    With no feedback the query comes back unchanged (normalised): no hop is better than a hop
    from nothing.
    """
    q = np.asarray(query, dtype=np.float32)
    if len(feedback):
        centroid = np.mean(np.stack([np.asarray(v, dtype=np.float32) for v in feedback]), axis=0)
        q = q / (np.linalg.norm(q) or 1.0) + weight * centroid / (np.linalg.norm(centroid) or 1.0)
    norm = float(np.linalg.norm(q))
    return q / norm if norm > 0 else q


def nearest(query: np.ndarray, vectors: Mapping[str, np.ndarray], k: int) -> list[tuple[str, float]]:
    """The ``k`` of ``vectors`` closest to ``query`` (unit vectors: cosine), best first, ties by
    id; a vector of another dimension is skipped."""
    ids = [i for i, v in vectors.items() if v.shape == query.shape]
    if not ids or k <= 0:
        return []
    scores = np.stack([vectors[i] for i in ids]) @ query
    ranked = sorted(zip(ids, scores.tolist(), strict=True), key=lambda pair: (-pair[1], pair[0]))[:k]
    return [(i, float(score)) for i, score in ranked]
