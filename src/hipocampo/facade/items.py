"""Memories under ids the caller chooses, searched by meaning: what a key-value store built on
hipocampo (LangGraph's ``BaseStore``, :mod:`hipocampo.agent.langgraph.store`) needs."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING

from ..domain.errors import InvalidInput
from ..domain.model import MemoryItem, Scope
from ..domain.retrieval.recall import SearchResult
from ..services import keyed, retrieval

if TYPE_CHECKING:
    from ..services.deps import Deps


class ItemCalls:
    """Keyed memories: put, get, delete, renew, list, and the two searches over them."""

    _deps: Deps

    @property
    def embedding_dim(self) -> int:
        """The dimension of the memory's vectors."""
        return self._deps.embedder.dim

    async def put_keyed(
        self, item: MemoryItem, *, index: bool = True, parts: Sequence[MemoryItem] = (), drop: Sequence[str] = ()
    ) -> MemoryItem:
        """Insert or replace the memory with ``item``'s id, indexed before returning."""
        return await keyed.put_keyed(self._deps, item, index=index, parts=parts, drop=drop)

    async def get_keyed(self, scope: Scope, memory_ids: Sequence[str]) -> list[MemoryItem]:
        return await keyed.get_keyed(self._deps, scope, memory_ids)

    async def delete_keyed(self, scope: Scope, memory_ids: Sequence[str]) -> int:
        return await keyed.delete_keyed(self._deps, scope, memory_ids)

    async def renew(self, items: Sequence[MemoryItem]) -> None:
        """Write new expiries (only those: the indexes stay as they are)."""
        await keyed.renew(self._deps, items)

    def keyed_facts(self, scope: Scope, *, page: int = 500) -> AsyncIterator[MemoryItem]:
        """Every fact of the scope, one store page at a time."""
        return keyed.facts(self._deps, scope, page=page)

    async def search_scope(self, scope: Scope, query: str, options: retrieval.SearchOptions) -> SearchResult:
        """Hybrid search in ``scope`` with options the caller builds (kinds, pool, floor)."""
        return await retrieval.search(self._deps, scope, query, options)

    async def nearest(self, scope: Scope, query: str, pool: int) -> list[tuple[MemoryItem, float]]:
        """The memories of the ``pool`` nearest vectors and their cosine similarity to ``query``."""
        if len(query) > retrieval.MAX_QUERY_CHARS:
            raise InvalidInput(f"query is {len(query)} characters; the limit is {retrieval.MAX_QUERY_CHARS}")
        qvec = await asyncio.to_thread(self._deps.embedder.embed_query, query)
        hits = await self._deps.vectors.search(scope, qvec, pool)
        found = {m.id: m for m in await self._deps.memories.get_many(scope, [h.memory_id for h in hits])}
        return [(found[h.memory_id], h.score) for h in hits if h.memory_id in found]
