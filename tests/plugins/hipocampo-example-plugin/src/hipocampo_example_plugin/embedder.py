"""An embedder plugin: the ``hipocampo.embedders`` entry point ``example`` names :func:`build_embedder`.

Deterministic and dependency-free (character trigrams hashed into 32 buckets), so it is a good
skeleton: a real plugin loads its model in the constructor and embeds in the two methods.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np


class ExampleEmbedder:
    """Implements :class:`hipocampo.ports.Embedder`: ``name``, ``dim`` and the two methods."""

    concurrent_calls = True  # no lock inside: the worker may share this instance (see the port)

    def __init__(self, dim: int = 32) -> None:
        self.dim = dim
        self.name = f"example/trigrams-{dim}"  # stored with every vector: change it when vectors change

    def _vector(self, text: str) -> np.ndarray:
        vector = np.zeros(self.dim, dtype=np.float32)
        padded = f"  {text.lower()}  "
        for i in range(len(padded) - 2):
            digest = hashlib.blake2b(padded[i : i + 3].encode(), digest_size=4).digest()
            vector[int.from_bytes(digest, "little") % self.dim] += 1.0
        norm = float(np.linalg.norm(vector))
        return vector / norm  # a padded text always has a trigram: never a zero vector

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self._vector(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self._vector(text)


def build_embedder(settings: Any) -> ExampleEmbedder:
    """The factory: hipocampo calls it with the embedder's section of its settings
    (:class:`~hipocampo.settings.EmbedderSettings`: name, model, base URL, threads...), twice: one
    instance answers queries, one embeds in the background worker."""
    return ExampleEmbedder()
