"""The learned ranker: the shipped model loads, weighs only known signals, and explains each hit
by its contributions; a fact never outranks the turn it came from."""

from __future__ import annotations

import pytest

from hipocampo.domain.retrieval import learned


def test_the_shipped_model_names_known_signals_and_ranks_a_disclosure_over_a_request() -> None:
    model = learned.default_ranker()
    assert set(model.weights) <= set(learned.FEATURES)
    alike = {"dense": 0.8, "closeness": 0.5, "about_user": 1.0}
    disclosure = alike | {"own": 1.0, "about_own": 1.0}
    request = alike | {"request": 1.0, "about_request": 1.0}
    assert model.logit(disclosure) > model.logit(request)
    parts = model.contributions(disclosure)
    assert model.logit(disclosure) == pytest.approx(model.bias + sum(parts.values()))
    assert "about_own" in parts and "request" not in parts


def test_a_model_naming_an_unknown_signal_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown ranking features"):
        learned.from_dict({"bias": 0, "weights": {"dense": 1, "vibes": 2}})
    with pytest.raises(ValueError):
        learned.from_dict({"bias": "x", "weights": {}})
