"""An embedder built on its first call: for an instance a process may never need."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np

from ...ports import BaseEmbedder, Embedder


class LazyEmbedder(BaseEmbedder):
    """Stands for ``build()``'s embedder, with its ``name`` and ``dim`` given up front; builds it
    on the first embedding call (once, even when two threads call at once).

    Bootstrap uses it for the worker's own instance: a process whose worker never embeds (a
    CLI command, a service whose queue is empty) never loads a second model.
    """

    def __init__(self, build: Callable[[], Embedder], name: str, dim: int) -> None:
        self._build = build
        self._inner: Embedder | None = None
        self._lock = threading.Lock()
        self.name = name
        self.dim = dim

    def _get(self) -> Embedder:
        if self._inner is None:
            with self._lock:
                if self._inner is None:
                    inner = self._build()
                    if (inner.name, inner.dim) != (self.name, self.dim):
                        raise ValueError(f"built {inner.name} ({inner.dim}), expected {self.name} ({self.dim})")
                    self._inner = inner
        return self._inner

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._get().embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self._get().embed_query(text)
