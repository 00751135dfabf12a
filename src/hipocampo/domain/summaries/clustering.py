"""Grouping memories by meaning: clusters for consolidation, near-duplicates for merging. Pure numpy.

Both functions read the rows of ``vectors`` in the order given, and the consolidation job gives
them oldest first. That order is what makes the results stable from one nightly run to the next:
memories said since the last run come last, so they can join the clusters formed before them but
never reshuffle them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np


def _unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (zero rows stay zero, so they resemble nothing)."""
    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.ndim != 2:
        raise ValueError(f"expected a 2-D array of vectors, got shape {matrix.shape}")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


def centre(vectors: np.ndarray) -> np.ndarray:
    """Subtract the set's mean vector. Sentence embedders put every text in a narrow cone (e5:
    mean pairwise cosine 0.90 over one LoCoMo conversation), so raw cosine thresholds lump
    everything together; centred, the same pairs average 0.0 and a threshold means something."""
    matrix = np.asarray(vectors, dtype=np.float32)
    return matrix - matrix.mean(axis=0, keepdims=True) if len(matrix) > 1 else matrix


def cluster(vectors: np.ndarray, *, threshold: float = 0.75, min_size: int = 2) -> list[list[int]]:
    """Single-pass greedy clustering by cosine similarity to cluster centroids.

    Each row, in order, joins the cluster whose centroid (the normalised mean of its members) is
    most similar to it, if that similarity is at least ``threshold``; otherwise it starts a new
    cluster. Ties go to the older cluster. Deterministic for a given input order.

    Returns the row indices of every cluster with at least ``min_size`` members, each list in
    ascending order, clusters ordered by their first row.
    """
    if min_size < 1:
        raise ValueError("min_size must be at least 1")
    rows = _unit_rows(vectors)
    n, dim = rows.shape
    sums = np.zeros((n, dim), dtype=np.float32)  # at most one cluster per row
    centroids = np.zeros((n, dim), dtype=np.float32)
    members: list[list[int]] = []
    for i in range(n):
        k = len(members)
        best = int(np.argmax(centroids[:k] @ rows[i])) if k else -1
        if best < 0 or float(centroids[best] @ rows[i]) < threshold:
            best = k
            members.append([])
        members[best].append(i)
        sums[best] += rows[i]
        norm = float(np.linalg.norm(sums[best]))
        centroids[best] = sums[best] / norm if norm > 0 else 0.0
    return [m for m in members if len(m) >= min_size]


def near_duplicates(vectors: np.ndarray, keys: Sequence[Hashable], *, threshold: float = 0.95) -> list[tuple[int, int]]:
    """Pairs ``(older, newer)`` of rows whose cosine similarity is at least ``threshold``.

    Only rows with equal ``keys`` are compared (``None`` equals ``None``): the caller passes each
    fact's slot, so "likes jazz" never merges into "likes rock" however alike they read. Each
    newer row is paired with the earliest row it duplicates that is not itself paired as a newer
    one, so merging every pair leaves one survivor per group and never merges into a row that is
    merged away. Rows are taken to be oldest first; pairs come ordered by the newer row.
    """
    rows = _unit_rows(vectors)
    if len(keys) != len(rows):
        raise ValueError(f"{len(rows)} vectors but {len(keys)} keys")
    survivors: dict[Hashable, list[int]] = {}
    pairs: list[tuple[int, int]] = []
    for j, key in enumerate(keys):
        earlier = survivors.setdefault(key, [])
        if earlier:
            similar = np.flatnonzero(rows[earlier] @ rows[j] >= threshold)
            if similar.size:
                pairs.append((earlier[int(similar[0])], j))
                continue
        earlier.append(j)
    return pairs


def coherent(
    clusters: Sequence[Sequence[int]],
    vectors: np.ndarray,
    terms: Sequence[frozenset[str]],
    *,
    min_similarity: float,
    min_size: int = 2,
) -> list[list[int]]:
    """Clusters made topic-coherent: no two unrelated topics in one.

    Embedding clusters alone lump topics together when the embedder puts every text of a user
    in a narrow cone (work and fitness turns of one person are all "about Marcos"). So each
    cluster is split into the groups of members linked by a shared salient term (``terms[i]``:
    row ``i``'s; the caller leaves out filler, stopwords and words every memory uses), and each
    group sheds, one at a time, the member least similar to the centroid of the others while
    that similarity is below ``min_similarity``. Groups of at least ``min_size`` members are
    returned, each in ascending order, ordered by their first row.
    """
    rows = _unit_rows(vectors)
    if len(terms) != len(rows):
        raise ValueError(f"{len(rows)} vectors but {len(terms)} term sets")
    found: list[list[int]] = []
    for members in clusters:
        for group in _linked(list(members), terms):
            group = _tighten(group, rows, min_similarity)
            if len(group) >= min_size:
                found.append(sorted(group))
    return sorted(found, key=lambda g: g[0])


def _linked(members: list[int], terms: Sequence[frozenset[str]]) -> list[list[int]]:
    """Connected components of ``members``, two being linked when they share a term."""
    parent = {m: m for m in members}

    def root(m: int) -> int:
        while parent[m] != m:
            parent[m] = parent[parent[m]]
            m = parent[m]
        return m

    owner: dict[str, int] = {}
    for m in members:
        for t in terms[m]:
            if t in owner:
                parent[root(m)] = root(owner[t])
            else:
                owner[t] = m
    groups: dict[int, list[int]] = {}
    for m in members:
        groups.setdefault(root(m), []).append(m)
    return list(groups.values())


def _tighten(group: list[int], rows: np.ndarray, min_similarity: float) -> list[int]:
    group = list(group)
    while len(group) > 1:
        total = rows[group].sum(axis=0)
        similarity = []
        for m in group:
            rest = total - rows[m]
            norm = float(np.linalg.norm(rest))
            similarity.append(float(rows[m] @ rest) / norm if norm > 0 else 0.0)
        worst = int(np.argmin(similarity))
        if similarity[worst] >= min_similarity:
            break
        group.pop(worst)
    return group
