"""Which way a Postgres vector search goes, chosen per search by estimated cost.

Two ways find a user's nearest vectors:

- **exact**: read every one of the user's ``n`` vectors (through the scope index, from pages
  spread over the heap, since users write interleaved) and sort them by distance. Perfect
  recall; the cost grows with ``n``: about ``n x exact_row_us``.
- **HNSW**: walk the one graph of everyone's vectors with ``hnsw.iterative_scan =
  relaxed_order``, which filters by user as it goes and keeps scanning until ``k`` of the user's
  are found (or ``hnsw.max_scan_tuples`` are visited). The tuples it visits to find ``k`` of the
  user's grow with how rare the user is in the table: about ``max(ef_search, k / share)``, with
  ``share = n / rows in the table``, if the user's vectors are spread like everyone's. That is a
  pessimistic bound: real users' vectors crowd around their own queries, so fewer are visited.
  Cost about ``hnsw_fixed_us + tuples x hnsw_tuple_us``.

HNSW is taken when it is estimated cheaper *and* its expected scan stays well inside
``max_scan_tuples`` (so it finds ``k`` rather than giving up: recall holds). Both conditions only
get truer as a user grows, so they reduce to one size per table size and ``k``:
:func:`hnsw_from`, the smallest user that HNSW serves. The adapter counts a user's vectors only
up to that size (a bounded count costs at most that many index entries), and an HNSW answer
that still comes back short is replaced by the exact one in the same statement.

The constants are measured, not guessed: ``benchmarks/pg_vectors.py`` and ``benchmarks/pg_scale.py``
time both paths per user size (docs/benchmarks.md, "Postgres: which path a vector search takes").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class PathCosts:
    """What each path costs, in microseconds, on the machine the figures came from. Only their
    ratios matter for the choice."""

    exact_row_us: float = 2.0
    """Per vector of the user on the exact path (heap read, distance, top-k sort)."""
    hnsw_tuple_us: float = 6.0
    """Per index tuple an HNSW scan visits (its neighbours' distances, the heap read that checks
    the user)."""
    hnsw_fixed_us: float = 1500.0
    """Per HNSW search, whatever it visits (entering the graph, the settings it needs)."""
    scan_margin: float = 4.0
    """HNSW is considered only while its expected scan is this many times inside
    ``max_scan_tuples``: a user rarer than that risks a short answer (then searched twice)."""


DEFAULT_COSTS = PathCosts()


def hnsw_tuples(n: int, total: int, k: int, ef_search: int) -> float:
    """Index tuples an iterative HNSW scan visits to find ``k`` of a user's ``n`` vectors in a
    table of ``total``, if they are spread like everyone's."""
    share = n / max(total, n, 1)
    return max(float(ef_search), k / share) if share > 0 else float("inf")


def hnsw_is_cheaper(
    n: int, total: int, k: int, ef_search: int, *, max_scan_tuples: int, costs: PathCosts = DEFAULT_COSTS
) -> bool:
    """Whether HNSW should serve a user of ``n`` vectors (see the module's docstring)."""
    tuples = hnsw_tuples(n, total, k, ef_search)
    if tuples * costs.scan_margin > max_scan_tuples:
        return False
    return costs.hnsw_fixed_us + tuples * costs.hnsw_tuple_us < n * costs.exact_row_us


@lru_cache(maxsize=4096)
def hnsw_from(
    total: int, k: int, ef_search: int, *, floor: int, max_scan_tuples: int, costs: PathCosts = DEFAULT_COSTS
) -> int:
    """The smallest user size that HNSW serves in a table of ``total`` vectors, at ``k`` hits:
    users of fewer vectors (and of at most ``floor``) are searched exactly. ``total + 1`` when no
    user of this table would take HNSW. The condition only gets truer as ``n`` grows (the exact
    cost rises, the HNSW scan shrinks), so a bisection finds the edge."""
    low, high = max(floor, 0) + 1, max(total, 0)
    if low > high or not hnsw_is_cheaper(high, total, k, ef_search, max_scan_tuples=max_scan_tuples, costs=costs):
        return max(low, high + 1)
    while low < high:
        mid = (low + high) // 2
        if hnsw_is_cheaper(mid, total, k, ef_search, max_scan_tuples=max_scan_tuples, costs=costs):
            high = mid
        else:
            low = mid + 1
    return low
