"""Keyword search in process memory: BM25 over language-analysed terms (see domain.text).

For tests and single-process experiments; the index is lost when the process exits.
Scores are :mod:`hipocampo.domain.retrieval.bm25`'s, with the searching user's own statistics, as the
SQLite and Postgres indexes score. Each search scans every entry, so it is always exact (no
candidate budget): fine for the sizes this is for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ...domain.model import Scope
from ...domain.retrieval import bm25
from ...domain.text import analyze, query_terms
from ...ports import KeywordHit
from .rows import KeywordDoc
from .state import InMemoryDatabase, State, visible


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

    async def search(self, scope: Scope, query: str, k: int, *, exclude_thread: str | None = None) -> list[KeywordHit]:
        terms = query_terms(query)
        if not terms or k <= 0:
            return []
        st = self._db.view()
        docs = total = 0
        found = []  # the user's documents holding a term, in write order
        for memory_id, doc in st.keywords.items():
            m = st.memories.get(memory_id)
            if m is None or (m.tenant_id, m.user_id) != (scope.tenant_id, scope.user_id):
                continue
            docs += 1
            total += doc.length
            tf = {t: doc.freqs[t] for t in terms if t in doc.freqs}
            if tf:
                found.append((m, tf, doc.length))
        stats = bm25.ScopeStats(docs, total, bm25.document_frequencies(terms, (tf for _, tf, _ in found)))
        shown = sorted(
            (
                (m.rid, m.id, tf, length)
                for m, tf, length in found
                if visible(scope, m.tenant_id, m.user_id, m.agent_id)
                and (exclude_thread is None or m.thread_id != exclude_thread)
                and m.valid_to is None  # superseded memories are not found
            ),
        )
        ranked = bm25.rank(((memory_id, tf, length) for _, memory_id, tf, length in shown), stats, k)
        return [KeywordHit(memory_id, score, matched) for memory_id, score, matched in ranked]

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> None:
        if not memory_ids:
            return

        def write(st: State) -> None:
            for memory_id in set(memory_ids):
                m = st.memories.get(memory_id)
                if m is not None and visible(scope, m.tenant_id, m.user_id, m.agent_id):
                    st.keywords.pop(memory_id, None)

        await self._db.write(write)

    async def lengths(self, scope: Scope, memory_ids: Sequence[str]) -> dict[str, int]:
        st = self._db.view()
        found: dict[str, int] = {}
        for memory_id in memory_ids:
            m, doc = st.memories.get(memory_id), st.keywords.get(memory_id)
            if m is not None and doc is not None and visible(scope, m.tenant_id, m.user_id, m.agent_id):
                found[memory_id] = doc.length
        return found

    async def reset(self) -> None:
        await self._db.write(lambda st: st.keywords.clear())
