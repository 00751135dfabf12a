"""Reference retrievers over a fixed list of texts, to put hipocampo's numbers in context.

Each baseline indexes the same texts the product indexes (``MemoryItem.index_text``: the day,
the speaker and the turn) and answers ``search(query, k)`` with corpus positions, best first:

* ``retrieval.bm25``: the ``bm25s`` package with its own tokeniser (lowercase, English stopwords); documents
  that share no term with the query are not returned;
* ``dense``: the product's embedder, cosine similarity, exact top-k;
* ``rrf``: the two lists fused with reciprocal rank fusion (k = 60).

They hold no state beyond the corpus and never touch the product's stores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from hipocampo.domain.retrieval.ranking import rrf
from hipocampo.ports import Embedder

RRF_DEPTH = 100
"""How deep each list goes into the fusion."""


class Retriever(Protocol):
    def search(self, query: str, k: int) -> list[int]:
        """Positions in the corpus of the ``k`` best texts for ``query``, best first."""
        ...


class Bm25Baseline:
    def __init__(self, texts: Sequence[str]) -> None:
        import bm25s

        self._bm25s = bm25s
        self._size = len(texts)
        self._model = bm25s.BM25()
        self._model.index(self._tokens(list(texts)), show_progress=False)

    def _tokens(self, texts: list[str]) -> list[list[str]]:
        return self._bm25s.tokenize(texts, lower=True, stopwords="en", return_ids=False, show_progress=False)

    def search(self, query: str, k: int) -> list[int]:
        k = min(k, self._size)
        if k <= 0:
            return []
        docs, scores = self._model.retrieve(self._tokens([query]), k=k, show_progress=False, n_threads=1)
        return [int(d) for d, s in zip(docs[0], scores[0], strict=True) if s > 0]


class DenseBaseline:
    def __init__(self, embedder: Embedder, texts: Sequence[str]) -> None:
        self._embedder = embedder
        self._matrix = embedder.embed_documents(list(texts)) if texts else np.zeros((0, embedder.dim), np.float32)

    def search(self, query: str, k: int) -> list[int]:
        k = min(k, len(self._matrix))
        if k <= 0:
            return []
        scores = self._matrix @ self._embedder.embed_query(query)
        top = np.argpartition(-scores, k - 1)[:k]
        return [int(i) for i in top[np.argsort(-scores[top], kind="stable")]]


class RrfBaseline:
    def __init__(self, parts: Sequence[Retriever], depth: int = RRF_DEPTH) -> None:
        self._parts = list(parts)
        self._depth = depth

    def search(self, query: str, k: int) -> list[int]:
        scores = rrf([part.search(query, self._depth) for part in self._parts])
        return sorted(scores, key=lambda d: (-scores[d], d))[:k]


def build_baselines(texts: Sequence[str], embedder: Embedder) -> dict[str, Retriever]:
    bm25 = Bm25Baseline(texts)
    dense = DenseBaseline(embedder, texts)
    return {"bm25": bm25, "dense": dense, "rrf": RrfBaseline([bm25, dense])}
