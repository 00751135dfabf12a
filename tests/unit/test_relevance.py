"""Calibrated relevance: the mapping, keyword coverage, and the adapters' constants reproduce."""

from __future__ import annotations

import pytest

from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.domain.retrieval.relevance import (
    DEFAULT_CALIBRATION,
    Background,
    Calibration,
    keyword_coverage,
    measure,
    query_words,
    relevance,
)


def test_the_mapping_is_a_monotone_probability_with_its_midpoint_at_one_half():
    c = Calibration(midpoint=1.5, slope=2.0)
    assert c.relevance(1.5) == pytest.approx(0.5)
    values = [c.relevance(z) for z in (-50, 0, 1, 2, 3, 50)]
    assert values == sorted(values) and 0.0 <= values[0] < 0.01 and values[-1] > 0.99
    assert c.relevance(c.closeness_for(0.6)) == pytest.approx(0.6)
    with pytest.raises(ValueError):
        Calibration(midpoint=0.0, slope=0.0)


def test_closeness_is_measured_against_the_querys_background():
    bg = Background.of([0.80, 0.82, 0.84])
    assert bg.closeness(0.82) == pytest.approx(0.0)
    assert bg.closeness(0.86) > 2
    assert Background.of([0.5, 0.5]).spread > 0  # never divides by zero


def test_keyword_coverage_counts_query_words_in_either_language():
    words = query_words("o que ele não pode comer?")
    assert len(words) == 2  # pode, comer: stopwords left out
    assert keyword_coverage(words, ["pod", "com", "amendoim"]) == 1.0
    assert keyword_coverage(words, ["com"]) == 0.5
    assert keyword_coverage([], ["x"]) == 0.0


def test_relevance_is_the_stronger_evidence_and_stays_in_range():
    bg = Background.of([0.0, 0.1, -0.1])
    assert relevance(DEFAULT_CALIBRATION, bg, None, 0.5) == 0.5
    assert relevance(DEFAULT_CALIBRATION, bg, 0.9, 0.0) > 0.99
    assert relevance(DEFAULT_CALIBRATION, None, 0.9, 0.0) == 0.0


def test_the_fake_embedders_constants_are_what_the_calibration_set_gives():
    e = FakeEmbedder()
    found = measure(e.embed_query, e.embed_documents)
    assert found.calibration.midpoint == pytest.approx(e.relevance_calibration.midpoint, abs=0.01)
    assert found.calibration.slope == pytest.approx(e.relevance_calibration.slope, abs=0.01)
    assert len(found.related) == 40 and len(found.unrelated) > 1000
