"""An in-process LRU in front of any embedder, so each distinct text is embedded once."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from ...ports import Embedder


class CachingEmbedder:
    """Wraps ``inner``; same ``name`` and ``dim``, so cached and fresh vectors are interchangeable.

    Entries are keyed by the SHA-256 of the text (bounded key size) and by whether it was embedded
    as a document or a query, since models like E5 embed the two differently. Duplicates inside
    one batch are embedded once. Thread-safe: the lock guards the table only, never the (slow)
    inner call, so two threads missing on the same text at once may both embed it.
    """

    def __init__(self, inner: Embedder, max_entries: int = 50_000) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.max_entries = max_entries
        self._entries: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def _key(kind: bytes, text: str) -> bytes:
        return kind + hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()

    def _lookup(self, key: bytes) -> np.ndarray | None:
        with self._lock:
            vector = self._entries.get(key)
            if vector is not None:
                self._entries.move_to_end(key)
            return vector

    def _store(self, key: bytes, vector: np.ndarray) -> None:
        frozen = np.array(vector, dtype=np.float32)  # own copy, read-only: callers get copies
        frozen.setflags(write=False)
        with self._lock:
            self._entries[key] = frozen
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Shape ``(len(texts), dim)``; only texts not seen before reach the inner embedder."""
        keys = [self._key(b"d", text) for text in texts]
        found: dict[bytes, np.ndarray] = {}
        missing: dict[bytes, str] = {}  # insertion-ordered, so each distinct miss appears once
        for key, text in zip(keys, texts, strict=True):
            if key in found or key in missing:
                continue
            vector = self._lookup(key)
            if vector is None:
                missing[key] = text
            else:
                found[key] = vector
        if missing:
            fresh = self.inner.embed_documents(list(missing.values()))
            for key, vector in zip(missing, fresh, strict=True):
                self._store(key, vector)
                found[key] = vector
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for row, key in enumerate(keys):
            out[row] = found[key]
        return out

    def embed_query(self, text: str) -> np.ndarray:
        """Shape ``(dim,)``; cached separately from documents."""
        key = self._key(b"q", text)
        vector = self._lookup(key)
        if vector is None:
            vector = self.inner.embed_query(text)
            self._store(key, vector)
        return np.array(vector, dtype=np.float32)

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)
