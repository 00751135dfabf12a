"""A vector index plugin: the ``hipocampo.vector_indexes`` entry point ``example`` names
:func:`open_vector_index`, so ``HIPOCAMPO_VECTORS=example://name`` keeps vectors here.

An in-process index (numpy, exact cosine): ``example://name`` is shared by every open of that name
in the process, as a server's index is shared by its clients; ``example://`` is a fresh one.
:class:`~hipocampo.adapters.external_vectors.ExternalVectorIndex` does the port's common work
(validation, the memories' thread/agent/kind, running off the event loop); an engine implements
the ``_sync`` methods over its client.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hipocampo.adapters.external_vectors import SHARED, ExternalVectorIndex, VectorRow, refuse_model, refuse_query
from hipocampo.domain.model import Scope
from hipocampo.ports import MemoryStore


@dataclass
class _Engine:
    rows: dict[str, VectorRow] = field(default_factory=dict)
    model: tuple[str, int] | None = None  # one model and dimension at a time, until reset
    lock: threading.Lock = field(default_factory=threading.Lock)


_NAMED: dict[str, _Engine] = {}


class ExampleVectorIndex(ExternalVectorIndex):
    def __init__(self, engine: _Engine, memories: MemoryStore) -> None:
        super().__init__(memories)
        self._engine = engine

    def _in_scope(self, scope: Scope, thread_id: str | None = None, kind: str | None = None) -> list[VectorRow]:
        def visible(r: VectorRow) -> bool:
            if (r.tenant_id, r.user_id) != (scope.tenant_id, scope.user_id):
                return False
            if scope.agent_only and scope.agent_id is not None and r.agent_id not in (scope.agent_id, SHARED):
                return False
            return (thread_id is None or r.thread_id == thread_id) and (kind is None or r.kind == kind)

        return [r for r in self._engine.rows.values() if visible(r)]

    def _upsert_sync(self, rows: list[VectorRow], model: str, dim: int) -> None:
        with self._engine.lock:
            if self._engine.model is not None:
                refuse_model(self._engine.model, model, dim)
            self._engine.model = (model, dim)
            self._engine.rows.update((r.memory_id, r) for r in rows)

    def _search_sync(
        self, scope: Scope, query: np.ndarray, k: int, exclude_thread: str | None
    ) -> list[tuple[str, float]]:
        with self._engine.lock:
            if self._engine.model is None:
                return []
            refuse_query(query, self._engine.model[1])
            rows = [r for r in self._in_scope(scope) if exclude_thread is None or r.thread_id != exclude_thread]
        scored = sorted(((r.memory_id, float(r.vec @ query)) for r in rows), key=lambda hit: -hit[1])
        return scored[:k]

    def _delete_sync(self, scope: Scope, memory_ids: list[str] | None, thread_id: str | None) -> None:
        with self._engine.lock:
            for r in self._in_scope(scope, thread_id):
                if memory_ids is None or r.memory_id in memory_ids:
                    del self._engine.rows[r.memory_id]

    def _get_sync(self, scope: Scope, memory_ids: list[str]) -> dict[str, np.ndarray]:
        with self._engine.lock:
            # Copies: a caller that writes into a vector must not change the index.
            return {r.memory_id: r.vec.copy() for r in self._in_scope(scope) if r.memory_id in memory_ids}

    def _info_sync(self) -> dict[str, Any]:
        with self._engine.lock:
            model = self._engine.model
            return {"models": dict([model]) if model and self._engine.rows else {}, "vectors": len(self._engine.rows)}

    def _count_sync(self, scope: Scope, kind: str | None) -> int:
        with self._engine.lock:
            return len(self._in_scope(scope, kind=kind))

    def _reset_sync(self) -> None:
        with self._engine.lock:
            self._engine.rows.clear()
            self._engine.model = None


def open_vector_index(url: str, *, memories: MemoryStore) -> ExampleVectorIndex:
    """The factory: hipocampo passes the ``HIPOCAMPO_VECTORS`` URL and the memory store (where a
    vector's thread, agent and kind come from), from a worker thread: connecting may block."""
    name = url.split("://", 1)[1].strip("/")
    engine = _NAMED.setdefault(name, _Engine()) if name else _Engine()
    return ExampleVectorIndex(engine, memories)
