"""An in-process LRU in front of any embedder, so each distinct text is embedded once, and the
one place where texts are cut to what is embedded."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from ...domain.model import EMBED_MAX_CHARS
from ...ports import BaseEmbedder, Embedder


class _Table:
    """The LRU entries and their lock; shared by the wrappers of one model's instances."""

    def __init__(self, max_entries: int) -> None:
        self.max_entries = max_entries
        self.entries: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self.lock = threading.Lock()


class CachingEmbedder(BaseEmbedder):
    """Wraps ``inner``; same ``name`` and ``dim``, so cached and fresh vectors are interchangeable.

    Every text is cut to its first ``max_chars`` characters before anything else: bootstrap
    wraps every embedder in this class, so every embedder, built in or plugged in, embeds at most
    that much, whatever the length of the stored text (which stays whole in the log, the memory
    and the keyword index). Two texts that share their first ``max_chars`` characters share a
    vector.

    Entries are keyed by the SHA-256 of the cut text (bounded key size) and by whether it was
    embedded as a document or a query, since models like E5 embed the two differently. Duplicates
    inside one batch are embedded once. Thread-safe: the lock guards the table only, never the
    (slow) inner call, so two threads missing on the same text at once may both embed it.
    :meth:`sharing` wraps another instance of the same model over the same table (the worker's
    own instance), so the two never hold two copies of one vector.
    """

    def __init__(self, inner: Embedder, max_entries: int = 50_000, *, max_chars: int = EMBED_MAX_CHARS) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        if max_chars < 1:
            raise ValueError("max_chars must be at least 1")
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        # What the model declares travels with it (the port's capabilities). Read once here, with the
        # port's defaults, because a plugin's embedder may predate them: every caller reads attributes.
        self.relevance_calibration = getattr(inner, "relevance_calibration", BaseEmbedder.relevance_calibration)
        self.concurrent_calls = getattr(inner, "concurrent_calls", BaseEmbedder.concurrent_calls)
        self.max_entries = max_entries
        self.max_chars = max_chars
        self._table = _Table(max_entries)

    def sharing(self, inner: Embedder) -> CachingEmbedder:
        """A wrapper of ``inner`` (another instance of the same model) over this one's table."""
        if (inner.name, inner.dim) != (self.name, self.dim):
            raise ValueError(f"{inner.name} ({inner.dim}) is not {self.name} ({self.dim}); it cannot share a cache")
        twin = CachingEmbedder(inner, self.max_entries, max_chars=self.max_chars)
        twin._table = self._table
        return twin

    @staticmethod
    def _key(kind: bytes, text: str) -> bytes:
        return kind + hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()

    def _lookup(self, key: bytes) -> np.ndarray | None:
        table = self._table
        with table.lock:
            vector = table.entries.get(key)
            if vector is not None:
                table.entries.move_to_end(key)
            return vector

    def _store(self, key: bytes, vector: np.ndarray) -> None:
        frozen = np.array(vector, dtype=np.float32)  # own copy, read-only: callers get copies
        frozen.setflags(write=False)
        table = self._table
        with table.lock:
            table.entries[key] = frozen
            table.entries.move_to_end(key)
            while len(table.entries) > table.max_entries:
                table.entries.popitem(last=False)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Shape ``(len(texts), dim)``; only texts not seen before reach the inner embedder."""
        texts = [text[: self.max_chars] for text in texts]
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
        text = text[: self.max_chars]
        key = self._key(b"q", text)
        vector = self._lookup(key)
        if vector is None:
            vector = self.inner.embed_query(text)
            self._store(key, vector)
        return np.array(vector, dtype=np.float32)

    def __len__(self) -> int:
        with self._table.lock:
            return len(self._table.entries)
