"""Exact cosine search over a user's own vectors with numpy, in process memory.

For tests and single-process experiments; the vectors are lost when the process exits.
Each user's matrix is built on first search and cached until the user's vector epoch changes.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ...domain.errors import DimensionMismatch, IndexUnavailable
from ...domain.model import MemoryKind, Scope
from ...ports import VectorHit
from ..sql.vectors import batch_dimension, unit
from .rows import VectorRow
from .state import InMemoryDatabase, State, bump_vectors, visible

REINDEX_HINT = "run `hipocampo reindex` to rebuild the vectors with the configured embedder"
"""The same words as the SQLite index uses."""


@dataclass(frozen=True)
class _UserMatrix:
    epoch: int
    ids: list[str]
    threads: list[str | None]
    agents: list[str | None]
    matrix: np.ndarray  # (n, dim) float32, rows L2-normalised


class InMemoryVectorIndex:
    """The :class:`~hipocampo.ports.VectorIndex` port over an :class:`InMemoryDatabase`.

    For tests and single-process experiments; behaves as ``SqliteVectorIndex`` does: one model
    and dimension for the whole index, fixed by the first vector and released by :meth:`reset`."""

    def __init__(self, db: InMemoryDatabase, max_cached_users: int = 256) -> None:
        self._db = db
        self._cache: OrderedDict[tuple[str, str], _UserMatrix] = OrderedDict()
        self._max_cached_users = max_cached_users

    async def upsert(self, scope: Scope, items: Sequence[tuple[str, np.ndarray]], model: str) -> None:
        if not items:
            return
        dim = batch_dimension(items)
        vectors = [(memory_id, _unit(v)) for memory_id, v in items]

        def write(st: State) -> None:
            if st.vector_model is not None and st.vector_model != (model, dim):
                held_model, held_dim = st.vector_model
                raise DimensionMismatch(
                    f"the index holds {held_dim}-dim vectors from {held_model!r}, "
                    f"but the embedder {model!r} gives {dim}-dim vectors; {REINDEX_HINT}"
                )
            memories = {}
            for memory_id, _ in vectors:
                m = st.memories.get(memory_id)
                if m is not None and (m.tenant_id, m.user_id) == (scope.tenant_id, scope.user_id):
                    memories[memory_id] = m
            missing = [i for i, _ in vectors if i not in memories]
            if missing:
                raise LookupError(f"memories {missing[:3]} must be stored before they are indexed")
            st.vector_model = (model, dim)  # the first vector fixes the index's model and dimension
            for memory_id, vec in vectors:
                old = st.vectors.get(memory_id)
                if old is not None:
                    st.vectors[memory_id] = replace(old, model=model, dim=dim, vec=vec)
                else:
                    m = memories[memory_id]
                    st.vectors[memory_id] = VectorRow(
                        st.next_rid("vectors"),
                        memory_id,
                        m.tenant_id,
                        m.user_id,
                        m.agent_id,
                        m.thread_id,
                        model,
                        dim,
                        vec,
                    )
            bump_vectors(st, scope.tenant_id, scope.user_id)

        await self._db.write(write)

    async def search(
        self, scope: Scope, query: np.ndarray, k: int, *, exclude_thread: str | None = None
    ) -> list[VectorHit]:
        entry = self._matrix(scope)
        if entry is None or not entry.ids or k <= 0:
            return []
        q = _unit(query)
        held = entry.matrix.shape[1]
        if q.shape != (held,):
            raise DimensionMismatch(
                f"query vector has dimension {q.shape[-1]} but the index holds {held}; {REINDEX_HINT}"
            )
        scores = entry.matrix @ q
        keep = np.ones(len(entry.ids), dtype=bool)
        if exclude_thread is not None:
            keep &= np.array([t != exclude_thread for t in entry.threads])
        if scope.agent_only and scope.agent_id:
            keep &= np.array([a is None or a == scope.agent_id for a in entry.agents])
        scores = np.where(keep, scores, -np.inf)
        top = np.argsort(-scores, kind="stable")[:k]  # ties keep insertion order
        return [VectorHit(entry.ids[i], float(scores[i])) for i in top if np.isfinite(scores[i])]

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> None:
        if not memory_ids:
            return

        def write(st: State) -> None:
            for memory_id in set(memory_ids):
                row = st.vectors.get(memory_id)
                if row is not None and (row.tenant_id, row.user_id) == (
                    scope.tenant_id,
                    scope.user_id,
                ):
                    del st.vectors[memory_id]
            bump_vectors(st, scope.tenant_id, scope.user_id)

        await self._db.write(write)

    async def get(self, scope: Scope, memory_ids: Sequence[str]) -> dict[str, np.ndarray]:
        st = self._db.view()
        found = {}
        for memory_id in memory_ids:
            row = st.vectors.get(memory_id)
            if row is not None and visible(scope, row.tenant_id, row.user_id, row.agent_id):
                found[memory_id] = np.array(row.vec, dtype=np.float32)  # a copy: rows are shared
        return found

    async def info(self) -> dict[str, Any]:
        rows = self._db.view().vectors.values()
        return {"models": {r.model: r.dim for r in rows}, "vectors": len(rows)}

    async def count(self, scope: Scope, *, kind: MemoryKind | None = None) -> int:
        st = self._db.view()
        return sum(
            1
            for r in st.vectors.values()
            if visible(scope, r.tenant_id, r.user_id, r.agent_id)
            and (kind is None or ((m := st.memories.get(r.memory_id)) is not None and m.kind == kind.value))
        )

    async def reset(self) -> None:
        def reset(st: State) -> None:
            st.vectors.clear()
            st.vector_model = None
            for tenant, user in list(st.vector_epochs):
                bump_vectors(st, tenant, user)

        await self._db.write(reset)
        self._cache.clear()

    def _matrix(self, scope: Scope) -> _UserMatrix | None:
        key = (scope.tenant_id, scope.user_id)
        st = self._db.view()
        epoch = st.vector_epochs.get(key)
        if epoch is None:
            return None
        cached = self._cache.get(key)
        if cached is not None and cached.epoch == epoch:
            self._cache.move_to_end(key)
            return cached
        rows = [r for r in st.vectors.values() if (r.tenant_id, r.user_id) == key]  # in rid order
        try:
            matrix = np.stack([r.vec for r in rows]) if rows else np.zeros((0, 0), dtype=np.float32)
        except ValueError as exc:  # rows of different lengths: cannot happen unless the state was edited
            raise IndexUnavailable(f"the vector index is inconsistent ({exc}); {REINDEX_HINT}") from exc
        entry = _UserMatrix(
            epoch,
            [r.memory_id for r in rows],
            [r.thread_id for r in rows],
            [r.agent_id for r in rows],
            matrix,
        )
        self._cache[key] = entry
        self._cache.move_to_end(key)
        while len(self._cache) > self._max_cached_users:
            self._cache.popitem(last=False)
        return entry


def _unit(vector: np.ndarray) -> np.ndarray:
    """A unit vector the index may keep: read-only, so no caller can change what it holds."""
    v = unit(vector)
    v.setflags(write=False)
    return v
