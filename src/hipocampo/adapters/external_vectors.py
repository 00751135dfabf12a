"""What every vector index kept outside the database shares (ChromaDB, DuckDB).

The built-in indexes live in the same database as the memories, so they join the memories table
for a vector's thread, agent and kind, and deleting a memory deletes its vector in the same
transaction. An engine of its own cannot join: each vector carries that metadata, copied from the
memory store when it is indexed (a memory's thread, agent and kind never change), and
:class:`CascadingMemoryStore` deletes the vectors of the memories the store deletes.

The engines' clients are blocking (an embedded engine in this process, or an HTTP client), so
each call runs in a worker thread (``asyncio.to_thread``): a search must not stall the event loop
that serves other requests while the engine works.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..domain.errors import DimensionMismatch
from ..domain.model import MemoryKind, Scope
from ..ports import MemoryStore, VectorHit

REINDEX_HINT = "run `hipocampo reindex` to rebuild the vectors with the configured embedder"
"""The same words as the built-in indexes use."""

SHARED = ""
"""Stored for "no agent" and "no thread": engines' metadata cannot hold a null that a filter can
match, and ids are never empty (``check_id`` refuses them), so the empty string cannot collide."""


@dataclass(frozen=True)
class VectorRow:
    """One vector with what the engine filters on."""

    memory_id: str
    tenant_id: str
    user_id: str
    agent_id: str  # SHARED when the memory belongs to every agent
    thread_id: str  # SHARED when the memory has no thread
    kind: str
    vec: np.ndarray  # float32, unit length


class ExternalVectorIndex(ABC):
    """The :class:`~hipocampo.ports.VectorIndex` port over an engine with a blocking client.

    Subclasses implement the ``_sync`` methods; this class validates input, reads the memories'
    metadata, and runs the engine off the event loop. Like the built-in indexes it holds one
    model and dimension at a time, fixed by the first vector and released by :meth:`reset`.
    """

    def __init__(self, memories: MemoryStore) -> None:
        self._memories = memories

    async def upsert(self, scope: Scope, items: Sequence[tuple[str, np.ndarray]], model: str) -> None:
        if not items:
            return
        dims = {int(np.asarray(v).shape[-1]) for _, v in items}
        if len(dims) != 1:
            raise DimensionMismatch(f"one batch mixes vector dimensions {sorted(dims)}")
        (dim,) = dims
        ids = list(dict.fromkeys(mid for mid, _ in items))
        owner = Scope(scope.tenant_id, scope.user_id)  # every agent's memories of the user
        found = {m.id: m for m in await self._memories.get_many(owner, ids)}
        missing = [i for i in ids if i not in found]
        if missing:
            raise LookupError(f"memories {missing[:3]} must be stored before they are indexed")
        rows = [
            VectorRow(
                mid,
                scope.tenant_id,
                scope.user_id,
                found[mid].scope.agent_id or SHARED,
                found[mid].thread_id or SHARED,
                found[mid].kind.value,
                unit(v),
            )
            for mid, v in dict(items).items()
        ]
        await asyncio.to_thread(self._upsert_sync, rows, model, dim)

    async def search(
        self, scope: Scope, query: np.ndarray, k: int, *, exclude_thread: str | None = None
    ) -> list[VectorHit]:
        if k <= 0:
            return []
        hits = await asyncio.to_thread(self._search_sync, scope, unit(query), k, exclude_thread)
        return [VectorHit(mid, score) for mid, score in hits]

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> None:
        if memory_ids:
            await asyncio.to_thread(self._delete_sync, scope, list(dict.fromkeys(memory_ids)), None)

    async def delete_where(self, scope: Scope, thread_id: str | None = None) -> None:
        """Every vector of the user (or of one of their threads): what forgetting them deletes."""
        await asyncio.to_thread(self._delete_sync, Scope(scope.tenant_id, scope.user_id), None, thread_id)

    async def get(self, scope: Scope, memory_ids: Sequence[str]) -> dict[str, np.ndarray]:
        if not memory_ids:
            return {}
        return await asyncio.to_thread(self._get_sync, scope, list(dict.fromkeys(memory_ids)))

    async def info(self) -> dict[str, Any]:
        return await asyncio.to_thread(self._info_sync)

    async def count(self, scope: Scope, *, kind: MemoryKind | None = None) -> int:
        return await asyncio.to_thread(self._count_sync, scope, kind.value if kind else None)

    async def reset(self) -> None:
        await asyncio.to_thread(self._reset_sync)

    async def close(self) -> None:
        await asyncio.to_thread(self._close_sync)

    @abstractmethod
    def _upsert_sync(self, rows: list[VectorRow], model: str, dim: int) -> None: ...

    @abstractmethod
    def _search_sync(
        self, scope: Scope, query: np.ndarray, k: int, exclude_thread: str | None
    ) -> list[tuple[str, float]]: ...

    @abstractmethod
    def _delete_sync(self, scope: Scope, memory_ids: list[str] | None, thread_id: str | None) -> None:
        """Delete ``memory_ids`` in scope, or (ids None) every vector of the scope or its thread."""

    @abstractmethod
    def _get_sync(self, scope: Scope, memory_ids: list[str]) -> dict[str, np.ndarray]: ...

    @abstractmethod
    def _info_sync(self) -> dict[str, Any]: ...

    @abstractmethod
    def _count_sync(self, scope: Scope, kind: str | None) -> int: ...

    @abstractmethod
    def _reset_sync(self) -> None: ...

    def _close_sync(self) -> None:  # noqa: B027 - most clients hold nothing to release
        pass


def refuse_model(held: tuple[str, int], model: str, dim: int) -> None:
    """The index is one model for everyone: another model's vectors wait for a reindex."""
    if held != (model, dim):
        raise DimensionMismatch(
            f"the index holds {held[1]}-dim vectors from {held[0]!r}, "
            f"but the embedder {model!r} gives {dim}-dim vectors; {REINDEX_HINT}"
        )


def refuse_query(query: np.ndarray, dim: int) -> None:
    if query.shape != (dim,):
        raise DimensionMismatch(
            f"query vector has dimension {query.shape[-1]} but the index holds {dim}; {REINDEX_HINT}"
        )


def unit(vector: np.ndarray) -> np.ndarray:
    """Cosine needs unit vectors; embedders should give them, but we do not rely on it."""
    v = np.asarray(vector, dtype=np.float32).reshape(-1)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v.copy()


class CascadingMemoryStore:
    """A memory store whose deletions also delete the memories' vectors in an external index.

    The built-in indexes delete a memory's vector in the same transaction as the memory; an index
    in another engine cannot join that transaction, so its vectors are deleted right after (a
    failure there leaves vectors whose memory is gone: search results are read back through the
    memory store, which no longer has them, and ``hipocampo reindex`` drops them). Every other
    method is the wrapped store's.
    """

    def __init__(self, inner: MemoryStore, index: ExternalVectorIndex) -> None:
        self._inner = inner
        self._index = index

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> int:
        n = await self._inner.delete(scope, memory_ids)
        await self._index.delete(scope, memory_ids)
        return n

    async def delete_thread(self, scope: Scope, thread_id: str) -> int:
        n = await self._inner.delete_thread(scope, thread_id)
        await self._index.delete_where(scope, thread_id)
        return n

    async def delete_user(self, scope: Scope) -> int:
        n = await self._inner.delete_user(scope)
        await self._index.delete_where(scope)
        return n
