"""Pure ranking rules for two-stage recall: fusion, neighbour support, boosts, adaptive k."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from datetime import datetime
from functools import lru_cache
from typing import TypeVar

from ..summaries.salience import is_filler
from ..text import fold, words
from .recall import RecencyMode

T = TypeVar("T")

RRF_K = 60
"""Reciprocal rank fusion constant (Cormack et al. 2009); 60 is the standard choice."""

NEIGHBOUR_WEIGHT = 0.5
"""Share of an adjacent turn's fused score lent to a turn: answers often span a question and its
reply, so a turn next to a strong hit is itself likely relevant."""


def rrf(rankings: Iterable[Sequence[T]], weights: Sequence[float] | None = None) -> dict[T, float]:
    """Reciprocal rank fusion (the benchmarks' baseline; recall uses :func:`score_fusion`)."""
    scores: dict[T, float] = {}
    for i, ranking in enumerate(rankings):
        w = 1.0 if weights is None else weights[i]
        for rank, item in enumerate(ranking):
            scores[item] = scores.get(item, 0.0) + w / (RRF_K + rank + 1)
    return scores


def min_max(scores: dict[str, float]) -> dict[str, float]:
    """Min-max over one query's list: 1 for its best, 0 for its worst (all 1 when they tie)."""
    if not scores:
        return {}
    lo, hi = min(scores.values()), max(scores.values())
    span = hi - lo
    return {k: (v - lo) / span if span > 0 else 1.0 for k, v in scores.items()}


def score_fusion(dense: dict[str, float], keyword: dict[str, float], dense_weight: float = 0.5) -> dict[str, float]:
    """Convex combination of min-max normalised scores; an item absent from a list scores 0 there.

    Unlike rank fusion this keeps the gaps between scores: a keyword hit far above the rest
    stays far above, which matters for names and rare words.
    """

    d, k = min_max(dense), min_max(keyword)
    return {i: dense_weight * d.get(i, 0.0) + (1 - dense_weight) * k.get(i, 0.0) for i in d.keys() | k.keys()}


def neighbour_support(fused: dict[str, float], positions: dict[str, tuple[str, int]]) -> dict[str, float]:
    """For each item, the best fused score among turns directly before or after it in its thread."""
    at: dict[tuple[str, int], str] = {pos: item for item, pos in positions.items()}
    support: dict[str, float] = {}
    for item, (thread, seq) in positions.items():
        best = 0.0
        for other in (at.get((thread, seq - 1)), at.get((thread, seq + 1))):
            if other is not None:
                best = max(best, fused.get(other, 0.0))
        support[item] = NEIGHBOUR_WEIGHT * best
    return support


def recency_boost(created_at: datetime, now: datetime, mode: RecencyMode) -> float:
    """Multiplier in [0.7, 1.5] by age."""
    days = max((now - created_at).total_seconds() / 86400, 0.0)
    if mode is RecencyMode.RECENT_FOCUSED:
        return 1.5 if days <= 7 else 1.2 if days <= 30 else 1.0 if days <= 90 else 0.7
    if mode is RecencyMode.ARCHEOLOGICAL:
        return 1.0 if days <= 30 else 1.1 if days <= 90 else 1.3
    return 1.2 if days <= 30 else 1.0 if days <= 90 else 0.9


SPEAKER_BOOST = 1.5
""":func:`person_boost` for a memory said by, or about, a person the query names."""


def person_boost(
    query_names: AbstractSet[str], speaker: str | None, content: str, people: Sequence[str] = ()
) -> tuple[float, list[str]]:
    """1.5 when a name in the query is the speaker, 1.05 when the name is
    only mentioned: in dialogue a mention is mostly the other speaker addressing that person."""
    if not query_names:
        return 1.0, []
    folded = {fold(n) for n in query_names}
    if speaker and fold(speaker) in folded:
        return SPEAKER_BOOST, [speaker]
    about = sorted(p for p in people if fold(p) in folded)
    if about:  # a fact about a person named in the query
        return SPEAKER_BOOST, about
    folded_content = fold(content)
    candidates = [n for n in query_names if fold(n) in folded_content]  # cheap substring test first
    if not candidates:
        return 1.0, []
    content_words = set(words(folded_content))
    mentioned = sorted(n for n in candidates if fold(n) in content_words)
    return (1.05, mentioned) if mentioned else (1.0, [])


def topic_boost(matched_terms: Sequence[str], query_terms: Sequence[str]) -> float:
    """Up to 1.2 as more of the query's distinct terms appear in the memory."""
    if not query_terms:
        return 1.0
    return 1.0 + 0.2 * min(len(set(matched_terms)) / max(len(set(query_terms)) / 2, 1), 1.0)


KIND_BOOSTS = {"consolidated": 1.2, "fact": 1.1}
"""Distilled memories first when relevant."""


def kind_boost(kind: str) -> float:
    return KIND_BOOSTS.get(kind, 1.0)


def temporal_boost(asks_when: bool, has_event_date: bool) -> float:
    """1.15 for memories with a resolved event date when the query asks "when": dated memories first."""
    return 1.15 if asks_when and has_event_date else 1.0


def importance_boost(importance: float) -> float:
    """0.5 (the default) is neutral; the range maps to [0.9, 1.1]."""
    return 0.9 + 0.2 * min(max(importance, 0.0), 1.0)


def adaptive_k(
    scores: Sequence[float],
    low: int = 3,
    high: int = 12,
    ratio: float = 0.5,
    *,
    facets: int = 1,
    anchored: bool = True,
) -> int:
    """How many of the ranked hits to keep, from the query and the score distribution.

    ``scores``: the hits' scores, best first (only hits that may be shown: recall passes those
    clearing its relevance floor, so nothing clearing it gives 0). Hits scoring at least ``ratio``
    of the best are kept, clamped to [``low``, ``high``]: where the scores fall off a cliff, k stops.

    ``retrieval.facets`` (:func:`~.facets.query_facets`): a query asking about several things gets ``low``
    and ``high`` per facet (up to :data:`MAX_K`) and a looser ratio (``ratio ** facets``): each
    subject's best memory matches only its part of the query, so it scores below the first one's.

    ``anchored``: False when no hit shares a word, a name or an asked subject with the query.
    Then every hit stands on dense closeness alone, which a small embedding model grants some
    memory for any question (measured: "how do I boil an egg?" reaches 0.99 calibrated relevance
    on "estava um calor enorme"); at most one hit per facet is kept.
    """
    if not scores:
        return 0
    facets = max(facets, 1)
    if not anchored:
        return min(facets, len(scores))
    low, high, ratio = low * facets, min(high * facets, max(high, MAX_K)), ratio**facets
    top = scores[0]
    n = sum(1 for s in scores if s >= ratio * top)
    return max(low, min(high, n, len(scores))) if len(scores) >= low else len(scores)


MAX_K = 20
"""The most hits adaptive k keeps for a many-faceted query: the context stays small."""


def relevance_floor(relevances: Sequence[float], floor: float) -> float:
    """The relevance a hit needs to be shown: ``floor``, raised to within :data:`RELEVANCE_CLIFF`
    of the best hit's. When some memories match the query outright (relevance near 1), ones
    that are merely "more likely related than not" are the noise around them."""
    return max(floor, max(relevances, default=0.0) - RELEVANCE_CLIFF)


RELEVANCE_CLIFF = 0.4
"""How far below the best hit's calibrated relevance a shown hit may fall."""


FILLER_BOOST = 0.5
"""A turn that says nothing worth remembering ("Anotado!", "Sounds fun!") often sits next to the
statement a question is about, and borrows its score (neighbour support) or, being short, lands
close to everything in embedding space. Halved, it stays below the statement it answered, and it
still reaches the context as that statement's neighbour."""


def salience_boost(kind: str, content: str, dated: bool) -> float:
    """:data:`FILLER_BOOST` for a filler turn; a dated one ("Yes, last Saturday!") is an answer."""
    if kind != "turn" or dated or len(content) > FILLER_MAX_CHARS:
        return 1.0
    return FILLER_BOOST if _is_filler(content) else 1.0


FILLER_RELEVANCE = 0.5
"""The most calibrated relevance a filler turn is given: "no better than chance", so a relevance
filter (agents use 0.6) leaves it out; short texts sit close to everything in embedding space."""

FILLER_MAX_CHARS = 120
"""Longer turns are never judged filler here (and the check stays cheap)."""


@lru_cache(maxsize=20_000)
def _is_filler(content: str) -> bool:
    return is_filler(content)
