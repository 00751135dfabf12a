"""The learned match (domain/retrieval/match.py): the shipped model applies only to the embedder it
was fitted on, its value is bounded and deterministic, and a hit's explanation shows it."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.domain.model import Scope
from hipocampo.domain.retrieval import learned, match
from hipocampo.services.ingest import add_messages
from hipocampo.services.retrieval import SearchOptions, search
from hipocampo.services.worker import run_once
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

MODEL = match.default_match()
pytestmark = pytest.mark.skipif(MODEL is None, reason="no learned match shipped")


def _unit(rng: np.random.Generator, n: int, dim: int) -> np.ndarray:
    v = rng.normal(size=(n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_the_shipped_model_applies_only_to_the_embedder_it_was_fitted_on() -> None:
    assert MODEL is not None
    assert MODEL.applies_to(MODEL.embedder, MODEL.dim)
    assert not MODEL.applies_to("fake-64", 64)
    assert not MODEL.applies_to(MODEL.embedder, MODEL.dim + 1)
    assert "learned_match" in learned.FEATURES


def test_the_value_is_bounded_deterministic_and_skips_vectors_of_another_size() -> None:
    assert MODEL is not None
    rng = np.random.default_rng(7)
    query, docs = _unit(rng, 1, MODEL.dim)[0], _unit(rng, 20, MODEL.dim)
    vectors = {f"m{i}": v for i, v in enumerate(docs)} | {"short": np.ones(3, np.float32)}
    first = match.values(MODEL, query, vectors)
    assert first == match.values(MODEL, query, vectors)
    assert set(first) == {f"m{i}" for i in range(20)}
    assert all(-1.0 < v < 1.0 for v in first.values())
    assert len({round(v, 6) for v in first.values()}) > 1  # it tells the memories apart
    w = MODEL.query_side(query)
    assert MODEL.value(w, docs[3]) == pytest.approx(first["m3"], abs=1e-5)
    assert match.values(MODEL, np.ones(5, np.float32), vectors) == {}


def test_a_model_survives_saving_and_loading(tmp_path: Path) -> None:
    assert MODEL is not None
    path = match.save(MODEL, tmp_path / "m.npz")
    again = match.load(path.read_bytes())
    assert again.embedder == MODEL.embedder and again.scale == MODEL.scale
    np.testing.assert_allclose(again.query, MODEL.query, atol=1e-3)


class _LookAlike(FakeEmbedder):
    """The fake embedder under the name of the one the model was fitted on: its vectors are not
    that model's, but the match is then computed, so the ranking's plumbing is what is tested."""

    def __init__(self, name: str, dim: int) -> None:
        super().__init__(dim)
        self.name = name


def test_every_hit_explains_its_learned_match_and_another_embedder_gets_none() -> None:
    assert MODEL is not None
    scope = Scope("acme", "lia")
    turns = [
        {"role": "user", "content": "me passa uma receita rápida pro jantar"},
        {"role": "user", "content": "comecei na Acme semana passada, entrei como analista de dados"},
        {"role": "user", "content": "primeira semana em Curitiba, tudo caro lol"},
    ]

    async def hits_with(embedder: FakeEmbedder) -> list[dict[str, float]]:
        settings = Settings(embedder="fake", tokenizer="chars", extraction=False, summaries=False)
        deps = build_memory_deps(
            settings, embedder=embedder, clock=FakeClock(datetime(2025, 3, 3, tzinfo=timezone.utc))
        )
        await add_messages(deps, scope, "t1", turns)
        while await run_once(deps):
            pass
        result = await search(deps, scope, "qual é meu cargo?", SearchOptions(k=3, min_relevance=0.0))
        assert result.hits
        for h in result.hits:
            weight = learned.default_ranker().weights.get("learned_match", 0.0)
            value = h.explanation.features["learned_match"]
            assert h.explanation.contributions.get("learned_match", 0.0) == pytest.approx(weight * value)
        return [h.explanation.features for h in result.hits]

    applied = asyncio.run(hits_with(_LookAlike(MODEL.embedder, MODEL.dim)))
    assert any(f["learned_match"] != 0.0 for f in applied)
    assert all(-1.0 < f["learned_match"] < 1.0 for f in applied)
    other = asyncio.run(hits_with(FakeEmbedder(64)))
    assert all(f["learned_match"] == 0.0 for f in other)
