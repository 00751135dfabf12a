"""Keyword search in process memory: BM25 over language-analysed terms (see domain.text).

For tests and single-process experiments; the index is lost when the process exits.
Scores are SQLite FTS5's ``bm25()`` negated, so both backends rank and score alike: k1 = 1.2,
b = 0.75, and document counts and lengths taken over the whole index (every tenant), as FTS5
takes them over its whole table. Each search scans every entry: fine for the sizes this is for.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from ...domain.model import Scope
from ...domain.text import analyze, query_terms
from ...ports import KeywordHit
from .rows import KeywordDoc
from .state import InMemoryDatabase, State, visible

K1 = 1.2
B = 0.75
MIN_IDF = 1e-6  # FTS5 floors the IDF of terms found in half the documents or more


class InMemoryKeywordIndex:
    """The :class:`~hipocampo.ports.KeywordIndex` port over an :class:`InMemoryDatabase`.

    For tests and single-process experiments; behaves as ``SqliteKeywordIndex`` does."""

    def __init__(self, db: InMemoryDatabase) -> None:
        self._db = db

    async def upsert(self, scope: Scope, items: Sequence[tuple[str, str]]) -> None:
        analysed = [(memory_id, analyze(text)) for memory_id, text in items]
        if not analysed:
            return

        def write(st: State) -> None:
            for memory_id, _ in analysed:
                row = st.memories.get(memory_id)
                if row is None or (row.tenant_id, row.user_id) != (scope.tenant_id, scope.user_id):
                    raise LookupError(f"memory {memory_id} must be stored before it is indexed")
            for memory_id, terms in analysed:
                st.keywords[memory_id] = KeywordDoc(dict(Counter(terms)), len(terms))

        await self._db.write(write)

    async def search(
        self, scope: Scope, query: str, k: int, *, exclude_thread: str | None = None
    ) -> list[KeywordHit]:
        terms = query_terms(query)
        if not terms or k <= 0:
            return []
        st = self._db.view()
        total_terms = 0
        found = dict.fromkeys(terms, 0)  # term -> documents holding it, over the whole index
        matches: list[tuple[str, KeywordDoc, list[str]]] = []
        for memory_id, doc in st.keywords.items():
            total_terms += doc.length
            matched = [t for t in terms if t in doc.freqs]
            if matched:
                for t in matched:
                    found[t] += 1
                matches.append((memory_id, doc, matched))
        if not matches:
            return []
        n = len(st.keywords)
        idf = {
            t: max(math.log((n - hits + 0.5) / (hits + 0.5)), 0.0) or MIN_IDF
            for t, hits in found.items()
        }
        avgdl = total_terms / n
        scored = []
        for memory_id, doc, matched in matches:
            m = st.memories.get(memory_id)
            if (
                m is None
                or not visible(scope, m.tenant_id, m.user_id, m.agent_id)
                or (exclude_thread is not None and m.thread_id == exclude_thread)
                or m.valid_to is not None  # superseded memories are not found
            ):
                continue
            norm = K1 * (1 - B + B * doc.length / avgdl)
            score = sum(idf[t] * doc.freqs[t] * (K1 + 1) / (doc.freqs[t] + norm) for t in matched)
            scored.append((-score, m.rid, memory_id, tuple(sorted(matched))))
        scored.sort()
        return [KeywordHit(memory_id, -neg, matched) for neg, _, memory_id, matched in scored[:k]]

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> None:
        if not memory_ids:
            return

        def write(st: State) -> None:
            for memory_id in set(memory_ids):
                m = st.memories.get(memory_id)
                if m is not None and visible(scope, m.tenant_id, m.user_id, m.agent_id):
                    st.keywords.pop(memory_id, None)

        await self._db.write(write)

    async def reset(self) -> None:
        await self._db.write(lambda st: st.keywords.clear())
