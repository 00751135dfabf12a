"""What both engines' keyword indexes share: the budget and the words.

Each engine finds candidate documents its own way (SQLite's FTS5, Postgres's ``tsvector``), but
both index the same analysed terms (:func:`~hipocampo.domain.text.analyze`), ask with the same
query terms, and score at most ``budget`` documents per search, planned by
:func:`~hipocampo.domain.retrieval.bm25.candidate_clauses`: the rule that keeps a search's cost
bounded whatever the user's size is one number, set in one place.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...domain.model import Scope
from ...domain.retrieval import bm25
from ...domain.text import analyze, query_terms
from ...ports import KeywordHit
from .dialect import Database


def analysed(items: Sequence[tuple[str, str]]) -> dict[str, list[str]]:
    """The terms to index of each memory (the last text of an id wins)."""
    return {memory_id: analyze(text) for memory_id, text in items}


class SqlKeywordIndex:
    """A keyword index with a search ``budget``: documents scored per search at most (see
    :mod:`hipocampo.domain.retrieval.bm25`). Subclasses implement :meth:`_search`."""

    def __init__(self, db: Database, *, budget: int = bm25.PLANNED_BUDGET) -> None:
        self._db = db
        self._budget = budget

    async def search(self, scope: Scope, query: str, k: int, *, exclude_thread: str | None = None) -> list[KeywordHit]:
        terms = query_terms(query)
        if not terms or k <= 0:
            return []
        return await self._search(scope, terms, k, exclude_thread)

    async def _search(
        self, scope: Scope, terms: list[str], k: int, exclude_thread: str | None
    ) -> list[KeywordHit]:  # pragma: no cover - every engine's own
        """The ``k`` best hits for ``terms`` (never empty) the searcher may see."""
        raise NotImplementedError
