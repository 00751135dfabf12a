"""A persistent embedding cache for benchmark runs.

A LoCoMo run embeds about 6,000 texts per layer; with the default local model on two cores that
is minutes of every run, and ranking experiments change nothing about the vectors. With
``HIPOCAMPO_BENCH_EMBED_CACHE=path.sqlite`` (or ``--embed-cache``) every text is embedded once
per model and read back on later runs. Quality figures are unchanged (the same model gives the
same vectors); timings that include embedding are then meaningless, so results record that the
cache was on. The product never uses this: its embedding cache lives in memory
(:class:`~hipocampo.adapters.embedders.cached.CachingEmbedder`).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hipocampo.ports import Embedder

ENV = "HIPOCAMPO_BENCH_EMBED_CACHE"


class DiskCachedEmbedder:
    """Wraps ``inner`` with the same ``name``, ``dim`` and calibration; vectors live in one SQLite
    file keyed by model name, query/passage role and text."""

    def __init__(self, inner: Embedder, path: str | Path) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.relevance_calibration = getattr(inner, "relevance_calibration", None)
        # Several benchmark processes may share one cache file: WAL and a patient lock.
        self._db = sqlite3.connect(str(path), check_same_thread=False, timeout=60)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vector BLOB NOT NULL)")
        self._db.commit()
        self._lock = threading.Lock()  # one connection shared by the worker's and the query's threads

    def _key(self, text: str, query: bool) -> bytes:
        return hashlib.sha256(f"{self.name}\0{int(query)}\0{text}".encode()).digest()

    def _lookup(self, keys: list[bytes]) -> dict[bytes, np.ndarray]:
        found: dict[bytes, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for key, blob in self._db.execute(f"SELECT key, vector FROM vectors WHERE key IN ({marks})", chunk):
                    found[key] = np.frombuffer(blob, dtype=np.float32)
        return found

    def _store(self, pairs: list[tuple[bytes, np.ndarray]]) -> None:
        with self._lock:
            self._db.executemany(
                "INSERT OR REPLACE INTO vectors VALUES (?, ?)",
                [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in pairs],
            )
            self._db.commit()

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        keys = [self._key(t, False) for t in texts]
        found = self._lookup(keys)
        missing = [i for i, k in enumerate(keys) if k not in found]
        if missing:
            fresh = self.inner.embed_documents([texts[i] for i in missing])
            self._store([(keys[i], fresh[j]) for j, i in enumerate(missing)])
            found.update((keys[i], fresh[j]) for j, i in enumerate(missing))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, k in enumerate(keys):
            out[i] = found[k]
        return out

    def embed_query(self, text: str) -> np.ndarray:
        key = self._key(text, True)
        found = self._lookup([key])
        if key in found:
            return found[key].copy()
        vector = self.inner.embed_query(text)
        self._store([(key, vector)])
        return vector

    def __getattr__(self, name: str) -> Any:  # anything else the inner model offers
        if name == "inner":  # not set yet: no recursion
            raise AttributeError(name)
        return getattr(self.inner, name)


def with_disk_cache(inner: Embedder, path: str | Path | None = None) -> Embedder:
    """``inner`` behind the disk cache when a path is given (or set in :data:`ENV`)."""
    target = path or os.environ.get(ENV)
    return DiskCachedEmbedder(inner, target) if target else inner
