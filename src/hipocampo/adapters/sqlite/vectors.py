"""Exact cosine search over a user's own vectors with numpy; vectors stored as float32 BLOBs.

Each user's matrix is cached in memory and kept fresh through ``vector_epochs``: one cheap read
per search tells whether anything changed (in this process or another); appends are loaded
incrementally, deletions and rewrites reload the user's matrix.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...domain.errors import DimensionMismatch, IndexUnavailable
from ...domain.model import Scope
from ...ports import VectorHit
from ..sql.vectors import SqlVectorIndex, batch_dimension, unit
from ..sql.where import scope_filter
from .db import SqliteDatabase
from .dialect import SQLITE, placeholders
from .memories import bump_epoch

REINDEX_HINT = "run `hipocampo reindex` to rebuild the vectors with the configured embedder"


@dataclass
class _UserMatrix:
    epoch: int
    rewrites: int
    max_rid: int
    ids: list[str]
    threads: list[str | None]
    agents: list[str | None]
    matrix: np.ndarray  # (n, dim) float32, rows L2-normalised


class SqliteVectorIndex(SqlVectorIndex):
    _db: SqliteDatabase

    def __init__(self, db: SqliteDatabase, max_cached_users: int = 256) -> None:
        super().__init__(db, SQLITE)
        self._cache: OrderedDict[tuple[str, str], _UserMatrix] = OrderedDict()
        self._max_cached_users = max_cached_users
        self._lock = threading.Lock()

    async def upsert(self, scope: Scope, items: Sequence[tuple[str, np.ndarray]], model: str) -> None:
        if not items:
            return
        dim = batch_dimension(items)
        blobs = [(mid, unit(v).tobytes()) for mid, v in items]

        def write(conn: sqlite3.Connection) -> None:
            _check_or_claim_model(conn, model, dim)
            ids = [mid for mid, _ in blobs]
            existing = conn.execute(
                f"SELECT count(*) FROM vectors WHERE memory_id IN ({placeholders(len(ids))})", ids
            ).fetchone()[0]
            meta = {
                r["id"]: r
                for r in conn.execute(
                    f"SELECT id, agent_id, thread_id FROM memories WHERE +tenant_id = ? AND +user_id = ?"
                    f" AND id IN ({placeholders(len(ids))})",
                    (scope.tenant_id, scope.user_id, *ids),
                )
            }
            missing = [i for i in ids if i not in meta]
            if missing:
                raise LookupError(f"memories {missing[:3]} must be stored before they are indexed")
            conn.executemany(
                "INSERT INTO vectors (memory_id, tenant_id, user_id, agent_id, thread_id, model, dim, vec)"
                " VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (memory_id) DO UPDATE SET"
                " model = excluded.model, dim = excluded.dim, vec = excluded.vec",
                [
                    (mid, scope.tenant_id, scope.user_id, meta[mid]["agent_id"], meta[mid]["thread_id"], model, dim, b)
                    for mid, b in blobs
                ],
            )
            bump_epoch(conn, scope.tenant_id, scope.user_id, rewrite=existing > 0)

        await self._db.write(write)

    async def search(
        self, scope: Scope, query: np.ndarray, k: int, *, exclude_thread: str | None = None
    ) -> list[VectorHit]:
        entry = await self._matrix(scope)
        if entry is None or not entry.ids or k <= 0:
            return []
        q = unit(query)
        if q.shape != (entry.matrix.shape[1],):
            raise DimensionMismatch(
                f"query vector has dimension {q.shape[-1]} but the index holds {entry.matrix.shape[1]}; {REINDEX_HINT}"
            )
        scores = entry.matrix @ q
        mask = _mask(entry, scope, exclude_thread)
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        k = min(k, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top])]
        # Each hit carries its row of the cached matrix (the stored vector, as `get` reads it):
        # recall's second hop starts from the candidates' vectors without reading them again.
        return [
            VectorHit(entry.ids[i], float(scores[i]), vector=entry.matrix[i].copy())
            for i in top
            if np.isfinite(scores[i])
        ]

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> None:
        if not memory_ids:
            return

        def delete(conn: sqlite3.Connection) -> None:
            conn.execute(
                "DELETE FROM vectors WHERE +tenant_id = ? AND +user_id = ?"
                f" AND memory_id IN ({placeholders(len(memory_ids))})",
                (scope.tenant_id, scope.user_id, *memory_ids),
            )
            bump_epoch(conn, scope.tenant_id, scope.user_id, rewrite=True)

        await self._db.write(delete)

    async def get(self, scope: Scope, memory_ids: Sequence[str]) -> dict[str, np.ndarray]:
        if not memory_ids:
            return {}
        ids = list(dict.fromkeys(memory_ids))

        def read(conn: sqlite3.Connection) -> dict[str, np.ndarray]:
            found: dict[str, np.ndarray] = {}
            where, params = scope_filter(SQLITE, scope, by_id=True)
            for start in range(0, len(ids), 500):  # bounded statements for long threads
                chunk = ids[start : start + 500]
                for r in conn.execute(
                    f"SELECT memory_id, dim, vec FROM vectors WHERE {where}"
                    f" AND memory_id IN ({placeholders(len(chunk))})",
                    (*params, *chunk),
                ):
                    if len(r["vec"]) == 4 * r["dim"]:  # a corrupt row is as good as absent
                        found[r["memory_id"]] = np.frombuffer(r["vec"], dtype=np.float32).copy()
            return found

        return await self._db.read(read)

    async def reset(self) -> None:
        def reset(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM vectors")
            conn.execute("DELETE FROM index_meta WHERE key IN ('vector_model', 'vector_dim')")
            conn.execute("UPDATE vector_epochs SET epoch = epoch + 1, rewrites = rewrites + 1")

        await self._db.write(reset)
        with self._lock:
            self._cache.clear()

    async def _matrix(self, scope: Scope) -> _UserMatrix | None:
        key = (scope.tenant_id, scope.user_id)
        with self._lock:
            cached = self._cache.get(key)

        def load(conn: sqlite3.Connection) -> _UserMatrix | None:
            row = conn.execute(
                "SELECT epoch, rewrites FROM vector_epochs WHERE tenant_id = ? AND user_id = ?", key
            ).fetchone()
            if row is None:
                return None
            if cached is not None and cached.epoch == row["epoch"]:
                return cached
            base = cached if cached is not None and cached.rewrites == row["rewrites"] else None
            rows = conn.execute(
                "SELECT rid, memory_id, thread_id, agent_id, dim, vec FROM vectors"
                " WHERE tenant_id = ? AND user_id = ? AND rid > ? ORDER BY rid",
                (*key, base.max_rid if base else 0),
            ).fetchall()
            return _extend(base, rows, row["epoch"], row["rewrites"])

        entry = await self._db.read(load)
        if entry is not None and entry is not cached:
            with self._lock:
                self._cache[key] = entry
                self._cache.move_to_end(key)
                while len(self._cache) > self._max_cached_users:
                    self._cache.popitem(last=False)
        return entry


def _extend(base: _UserMatrix | None, rows: list[sqlite3.Row], epoch: int, rewrites: int) -> _UserMatrix:
    try:
        new = np.stack([np.frombuffer(r["vec"], dtype=np.float32) for r in rows]) if rows else None
    except ValueError as exc:  # rows of different lengths: a corrupt or mixed index
        raise IndexUnavailable(f"the vector index is inconsistent ({exc}); {REINDEX_HINT}") from exc
    if new is not None and any(len(r["vec"]) != 4 * r["dim"] for r in rows):
        raise IndexUnavailable(f"a stored vector does not match its recorded dimension; {REINDEX_HINT}")
    if base is None:
        return _UserMatrix(
            epoch,
            rewrites,
            rows[-1]["rid"] if rows else 0,
            [r["memory_id"] for r in rows],
            [r["thread_id"] for r in rows],
            [r["agent_id"] for r in rows],
            new if new is not None else np.zeros((0, 0), dtype=np.float32),
        )
    if new is None:
        return _UserMatrix(epoch, rewrites, base.max_rid, base.ids, base.threads, base.agents, base.matrix)
    if base.matrix.size and new.shape[1] != base.matrix.shape[1]:
        raise IndexUnavailable(f"the vector index mixes dimensions; {REINDEX_HINT}")
    matrix = np.concatenate([base.matrix, new]) if base.matrix.size else new
    return _UserMatrix(
        epoch,
        rewrites,
        rows[-1]["rid"],
        base.ids + [r["memory_id"] for r in rows],
        base.threads + [r["thread_id"] for r in rows],
        base.agents + [r["agent_id"] for r in rows],
        matrix,
    )


def _mask(entry: _UserMatrix, scope: Scope, exclude_thread: str | None) -> np.ndarray | None:
    if exclude_thread is None and not (scope.agent_only and scope.agent_id):
        return None
    keep = np.ones(len(entry.ids), dtype=bool)
    if exclude_thread is not None:
        keep &= np.array([t != exclude_thread for t in entry.threads])
    if scope.agent_only and scope.agent_id:
        keep &= np.array([a is None or a == scope.agent_id for a in entry.agents])
    return keep


def _check_or_claim_model(conn: sqlite3.Connection, model: str, dim: int) -> None:
    """The first vector fixes the index's model and dimension; later ones must match."""
    rows = dict(conn.execute("SELECT key, value FROM index_meta WHERE key IN ('vector_model', 'vector_dim')"))
    if not rows:
        conn.execute(
            "INSERT INTO index_meta (key, value) VALUES ('vector_model', ?), ('vector_dim', ?)", (model, str(dim))
        )
        return
    if rows.get("vector_model") != model or int(rows.get("vector_dim", dim)) != dim:
        raise DimensionMismatch(
            f"the index holds {rows.get('vector_dim')}-dim vectors from {rows.get('vector_model')!r}, "
            f"but the embedder {model!r} gives {dim}-dim vectors; {REINDEX_HINT}"
        )
