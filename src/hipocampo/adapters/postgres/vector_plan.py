"""Which way a Postgres vector search goes, chosen per search by measured cost.

Two ways find a user's nearest vectors:

- **exact**: read every one of the user's ``n`` vectors (through the scope index) and sort them
  by distance. Perfect recall; the cost grows with ``n``: about ``n x exact_row_us``. How much a
  row costs depends on where the rows lie: a live service writes users interleaved, so a user's
  rows sit one per heap page, often outside shared_buffers (measured 3 to 30 us a row on one
  machine, packed against scattered rows).
- **HNSW**: walk the one graph of everyone's vectors with ``hnsw.iterative_scan =
  relaxed_order``, which filters by user as it goes and keeps scanning until ``k`` of the user's
  are found (or ``hnsw.max_scan_tuples`` are visited). If the user's vectors are spread like
  everyone's (no locality: the pessimistic case), finding ``k`` of them visits about ``k /
  share`` index tuples, ``share = n / rows in the table``; users whose vectors crowd around their
  own queries need fewer.

**Recall at the chosen ef_search.** The first pass of an HNSW scan is its best: the iterative
passes after it find the rest less reliably (measured on LoCoMo turns shared by every user, a
user holding a tenth of the table: recall@60 0.92 at ef_search 100, 0.96 at 400). So the
candidate list is sized to hold ``k`` of the user's in that first pass, ``ef = k / share``,
between ``pg_ef_search`` and :data:`EF_CAP`; the scan visits ``max(ef, k / share)`` tuples, at
about ``hnsw_tuple_us`` each.

**Measured, not assumed.** The costs start from :class:`PathCosts` and then follow what this
process observes (:class:`LearnedCosts`), so the choice adapts to the heap's layout, the cache,
the data and the machine:

- the exact path's time per row, smoothed;
- an HNSW search's whole time per *share band* (the user's share of the table, in powers of
  two). The pessimistic estimate above is only the seed: users whose vectors crowd around their
  own queries (real users, who talk about their own lives) need far fewer tuples than ``k /
  share``, and how much fewer is a property of the data (and of the cache), seen only by
  searching. Measured at 1M vectors, a 10k-vector user: 6,000 tuples expected; HNSW k = 60 took
  4-6 ms warm and 50-90 ms cold, the exact path 15 ms from its covering index.

HNSW is considered while its pessimistic scan fits ``max_scan_tuples`` (beyond, it would give up
and the exact answer would be paid on top) and taken when its estimate is cheaper. Before any
search is seen these reduce to one size per table size and ``k``: :func:`hnsw_from`, the size
up to which the adapter counts a user's vectors. A band never searched, or whose learned time is
within reach of the exact path, is still tried now and then through the index, so its time is
measured (and measured again as the machine changes). An HNSW answer that comes back short is
replaced by the exact one in the same statement, and that time counts against the band.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

EF_CAP = 400
"""The largest candidate list chosen for recall (pgvector allows 1,000): on shared LoCoMo turns
recall@60 rose from 0.93 at 200 to 0.96 at 400 and no further at 800."""


@dataclass(frozen=True)
class PathCosts:
    """What each path costs, in microseconds. Only their ratios matter for the choice; the
    defaults are a quiet 2-core machine's (``benchmarks/pg_scale.py``, docs/benchmarks.md)."""

    exact_row_us: float = 3.0
    """Per vector of the user on the exact path (heap read, distance, top-k sort)."""
    hnsw_tuple_us: float = 7.0
    """Per index tuple an HNSW scan visits (its neighbours' distances, the heap read that checks
    the user)."""
    hnsw_fixed_us: float = 1500.0
    """Per HNSW search, whatever it visits (entering the graph, the settings it needs)."""
    round_trip_us: float = 400.0
    """Per search on either path (the round trip, parsing, planning): taken off the observed
    times before they are divided into rows or tuples."""
    scan_margin: float = 1.0
    """HNSW is considered only while its pessimistic scan is this many times inside
    ``max_scan_tuples``: a user rarer than that risks a short answer (then searched twice). 1:
    the pessimistic estimate is a bound, and a band whose searches come back short learns their
    cost (:class:`LearnedCosts`)."""


DEFAULT_COSTS = PathCosts()


def ef_for(n: int, total: int, k: int, ef_search: int) -> int:
    """The candidate list that holds ``k`` of a user's ``n`` vectors in its first pass, if they
    are spread like everyone's: ``k / share``, at least ``ef_search`` and ``k``, at most
    :data:`EF_CAP` (and pgvector's 1,000)."""
    share = n / max(total, n, 1)
    wanted = math.ceil(k / share) if share > 0 else EF_CAP
    return int(min(max(wanted, ef_search, k), max(EF_CAP, ef_search, k), 1000))


def hnsw_tuples(n: int, total: int, k: int, ef_search: int) -> float:
    """Index tuples an iterative HNSW scan visits to find ``k`` of a user's ``n`` vectors in a
    table of ``total``, if they are spread like everyone's."""
    share = n / max(total, n, 1)
    return max(float(ef_for(n, total, k, ef_search)), k / share) if share > 0 else float("inf")


def hnsw_fits(
    n: int, total: int, k: int, ef_search: int, *, max_scan_tuples: int, costs: PathCosts = DEFAULT_COSTS
) -> bool:
    """Whether an HNSW scan for a user of ``n`` vectors stays inside ``max_scan_tuples`` even if
    their vectors are spread like everyone's (else it may give up, and be paid twice)."""
    return hnsw_tuples(n, total, k, ef_search) * costs.scan_margin <= max_scan_tuples


def hnsw_seed_us(n: int, total: int, k: int, ef_search: int, costs: PathCosts = DEFAULT_COSTS) -> float:
    """The pessimistic estimate of one HNSW search's time: every tuple :func:`hnsw_tuples`
    expects, at ``hnsw_tuple_us``."""
    return costs.hnsw_fixed_us + hnsw_tuples(n, total, k, ef_search) * costs.hnsw_tuple_us


def hnsw_is_cheaper(
    n: int, total: int, k: int, ef_search: int, *, max_scan_tuples: int, costs: PathCosts = DEFAULT_COSTS
) -> bool:
    """Whether HNSW should serve a user of ``n`` vectors by the pessimistic estimate (see the
    module's docstring)."""
    if not hnsw_fits(n, total, k, ef_search, max_scan_tuples=max_scan_tuples, costs=costs):
        return False
    return hnsw_seed_us(n, total, k, ef_search, costs) < n * costs.exact_row_us


def share_band(n: int, total: int) -> int:
    """The user's share of the table in powers of two: 0 for more than half, 1 for a quarter to
    a half, ... A band's HNSW searches cost alike (the same candidate list, the same crowding)."""
    return max(int(math.log2(max(total, n, 1) / max(n, 1))), 0)


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


LEARN_WEIGHT = 0.2
"""How much one observation moves a learned unit cost (exponential smoothing)."""
LEARN_WEIGHT_DOWN = 0.5
"""How much a faster HNSW search moves its band's estimate (see :meth:`LearnedCosts.saw_hnsw`)."""
LEARN_CLIP = 4.0
"""One observation counts as at most this many times the current estimate, either way: a search
stalled by the machine's load moves the estimate, it does not reset it."""
MIN_LEARN_ROWS = 1_000
"""Exact searches of fewer rows are mostly their round trip (and, on a loaded machine, the wait
for a core): they say little about the cost per row. The adapter learns only from users at
least half as large as the edge it decides, those whose path is in question."""


class LearnedCosts:
    """The costs a process has observed, starting from ``seed``: each exact search's time per
    row (smoothed), and each HNSW search's whole time per :func:`share_band` (the first one taken
    as it is, then smoothed). Both paths slow alike when the machine is loaded, so the choice
    between them holds better than either figure."""

    def __init__(self, seed: PathCosts = DEFAULT_COSTS) -> None:
        self.seed = seed
        self.exact_row_us = seed.exact_row_us
        self.hnsw_band_us: dict[int, float] = {}
        self.hnsw_band_seen: dict[int, int] = {}

    def now(self) -> PathCosts:
        """The current per-row estimate in the seed's terms, rounded to two significant digits
        (so that the edge, cached per estimate, is recomputed only when the estimate moves)."""
        return replace(self.seed, exact_row_us=_two_digits(self.exact_row_us))

    def exact_us(self, n: int) -> float:
        return n * self.exact_row_us

    def hnsw_us(self, n: int, total: int) -> float | None:
        """What an HNSW search of this user's band has taken here, or None before one was seen."""
        return self.hnsw_band_us.get(share_band(n, total))

    def saw_exact(self, rows: int, elapsed_us: float) -> None:
        if rows >= MIN_LEARN_ROWS:
            spent = max(elapsed_us - self.seed.round_trip_us, 0.0)
            self.exact_row_us = _smoothed(self.exact_row_us, spent / rows)

    def seen(self, n: int, total: int) -> int:
        """How many HNSW searches of this user's band were observed."""
        return self.hnsw_band_seen.get(share_band(n, total), 0)

    def saw_hnsw(self, n: int, total: int, elapsed_us: float) -> None:
        """One HNSW search of a band: the first taken as it is; after it, a faster search moves the
        estimate more than a slower one. A band is searched through the index only now and then
        until it proves cheaper, so its searches are the ones that find its pages cold (measured at
        1M vectors: 61 ms for the first, 4-6 ms once warm, while the exact path it is weighed
        against stays warm by being used)."""
        band = share_band(n, total)
        held = self.hnsw_band_us.get(band)
        self.hnsw_band_seen[band] = self.hnsw_band_seen.get(band, 0) + 1
        if held is None:
            self.hnsw_band_us[band] = elapsed_us
        else:
            weight = LEARN_WEIGHT_DOWN if elapsed_us < held else LEARN_WEIGHT
            self.hnsw_band_us[band] = _smoothed(held, elapsed_us, weight)


def _smoothed(current: float, observed: float, weight: float = LEARN_WEIGHT) -> float:
    observed = min(max(observed, current / LEARN_CLIP), current * LEARN_CLIP)
    return (1 - weight) * current + weight * observed


def _two_digits(x: float) -> float:
    return float(f"{x:.2g}")
