"""Dense vectors on pgvector: cosine distance, exact for small users and HNSW for large ones.

One model and dimension for the whole index (the ``vector_model`` row), fixed by the first
vector and released by :meth:`PostgresVectorIndex.reset`, as on SQLite: a vector or query of
another dimension or model is refused with a hint to reindex.

The column is an untyped ``vector``; HNSW needs a fixed dimension, so the claim of a dimension
creates a partial expression index for it (``(embedding::vector(384)) vector_cosine_ops WHERE
dim = 384``; ``halfvec`` up to 4,000 dimensions, above that search stays exact) and queries use
the same expression.

Why two paths. HNSW walks one graph of every user's vectors and filters by user afterwards: for
a user holding a tiny share of the table, even pgvector 0.8's iterative scans read many vectors
of others per vector of theirs (and give up at ``hnsw.max_scan_tuples``). The exact path reads
the user's own rows through the (tenant, user) index and sorts them by distance: perfect recall,
cost linear in the user's size. A bounded count of the user's vectors (it stops at the
threshold, so it costs at most that many index entries) picks: up to
``pg_exact_search_threshold`` vectors exact, above it HNSW with ``hnsw.iterative_scan =
relaxed_order`` and ``hnsw.ef_search = pg_ef_search``; ``benchmarks/pg_vectors.py`` measures
where the two cross.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import psycopg

from ...domain.errors import DimensionMismatch
from ...domain.model import MemoryKind, Scope
from ...ports import VectorHit
from ...settings import Settings
from .db import PostgresDatabase
from .sql import Query, execute, fetch_all, fetch_one, scope_filter

REINDEX_HINT = "run `hipocampo reindex` to rebuild the vectors with the configured embedder"
"""The same words as the other backends use."""

MAX_SCAN_TUPLES = 100_000
"""How far an iterative HNSW scan may go looking for a user's vectors before it stops short."""

JIT_SAFE_ROWS = 20_000
"""Up to this many rows the exact path's plan costs too little for Postgres to JIT-compile it."""


def ann_expression(dim: int) -> tuple[str, str, str] | None:
    """``(expression, cast, operator class)`` of the HNSW index for ``dim``, or None (too wide)."""
    if dim <= 2000:
        return f"(embedding::vector({dim}))", f"vector({dim})", "vector_cosine_ops"
    if dim <= 4000:
        return f"(embedding::halfvec({dim}))", f"halfvec({dim})", "halfvec_cosine_ops"
    return None


def ann_index_ddl(dim: int) -> str | None:
    found = ann_expression(dim)
    if found is None:
        return None
    expression, _, opclass = found
    return (
        f"CREATE INDEX IF NOT EXISTS vectors_hnsw_{dim} ON vectors USING hnsw ({expression} {opclass})"
        f" WHERE dim = {dim}"
    )


def _filters(scope: Scope, exclude_thread: str | None) -> tuple[str, list[Any]]:
    where, params = scope_filter(scope)
    params = list(params)
    if exclude_thread is not None:
        where += " AND thread_id IS DISTINCT FROM %s"
        params.append(exclude_thread)
    return where, params


def exact_search(scope: Scope, query: np.ndarray, k: int, exclude_thread: str | None) -> Query:
    """Every vector of the user, ordered by distance (the untyped column: no index can serve it)."""
    where, params = _filters(scope, exclude_thread)
    return (
        f"SELECT memory_id, 1 - (embedding <=> %s) AS score FROM vectors WHERE dim = %s AND {where}"
        " ORDER BY embedding <=> %s, memory_id LIMIT %s",
        (query, len(query), *params, query, k),
    )


def hnsw_search(scope: Scope, query: np.ndarray, k: int, exclude_thread: str | None) -> Query:
    """The nearest ``k`` through the dimension's HNSW index, re-sorted by exact score (the index
    may hand them slightly out of order under ``relaxed_order``, and ``halfvec`` rounds)."""
    expression, cast, _ = ann_expression(len(query))  # type: ignore[misc]
    where, params = _filters(scope, exclude_thread)
    return (
        "SELECT memory_id, 1 - (embedding <=> %s) AS score FROM ("
        f" SELECT memory_id, embedding FROM vectors WHERE dim = %s AND {where}"
        f" ORDER BY {expression} <=> %s::{cast} LIMIT %s) hits ORDER BY score DESC, memory_id",
        (query, len(query), *params, query, k),
    )


def _unit(vector: np.ndarray) -> np.ndarray:
    """Cosine needs unit vectors; embedders should give them, but we do not rely on it."""
    v = np.asarray(vector, dtype=np.float32).reshape(-1)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def _array(value: Any) -> np.ndarray:
    """A stored vector as our own float32 array (pgvector hands a ``Vector``, older ones numpy)."""
    return np.array(value.to_numpy() if hasattr(value, "to_numpy") else value, dtype=np.float32)


class PostgresVectorIndex:
    """The :class:`~hipocampo.ports.VectorIndex` port on a :class:`PostgresDatabase`."""

    def __init__(self, db: PostgresDatabase, settings: Settings) -> None:
        self._db = db
        self._ef_search = settings.pg_ef_search
        self._exact_below = settings.pg_exact_search_threshold

    async def upsert(self, scope: Scope, items: Sequence[tuple[str, np.ndarray]], model: str) -> None:
        if not items:
            return
        dims = {int(np.asarray(v).shape[-1]) for _, v in items}
        if len(dims) != 1:
            raise DimensionMismatch(f"one batch mixes vector dimensions {sorted(dims)}")
        (dim,) = dims
        vectors = {memory_id: _unit(v) for memory_id, v in items}  # the last vector of an id wins
        ids = list(vectors)
        async with self._db.transaction(), self._db.connection() as conn:
            cur = await conn.execute(
                "SELECT id FROM memories WHERE id = ANY(%s) AND tenant_id = %s AND user_id = %s",
                (ids, scope.tenant_id, scope.user_id),
            )
            missing = set(ids) - {r["id"] for r in await cur.fetchall()}
            if missing:
                raise LookupError(f"memories {sorted(missing)[:3]} must be stored before they are indexed")
            await self._check_or_claim(conn, model, dim)
            await conn.execute(
                "INSERT INTO vectors (memory_id, tenant_id, user_id, agent_id, thread_id, model, dim, embedding)"
                " SELECT m.id, m.tenant_id, m.user_id, m.agent_id, m.thread_id, %s, %s, v.embedding"
                " FROM unnest(%s::text[], %s::vector[]) AS v (memory_id, embedding)"
                " JOIN memories m ON m.id = v.memory_id"
                " ON CONFLICT (memory_id) DO UPDATE SET"
                " model = excluded.model, dim = excluded.dim, embedding = excluded.embedding"
                " WHERE vectors.tenant_id = excluded.tenant_id AND vectors.user_id = excluded.user_id",
                (model, dim, ids, [vectors[i] for i in ids]),
            )

    async def search(
        self, scope: Scope, query: np.ndarray, k: int, *, exclude_thread: str | None = None
    ) -> list[VectorHit]:
        if k <= 0:
            return []
        q = _unit(query)
        size = await fetch_one(
            self._db,
            (
                "SELECT (SELECT dim FROM vector_model) AS dim, (SELECT count(*) FROM (SELECT 1 FROM vectors"
                " WHERE tenant_id = %s AND user_id = %s LIMIT %s) mine) AS n",
                (scope.tenant_id, scope.user_id, self._exact_below + 1),
            ),
        )
        if size is None or size["dim"] is None or not size["n"]:
            return []
        if q.shape != (size["dim"],):
            raise DimensionMismatch(
                f"query vector has dimension {q.shape[-1]} but the index holds {size['dim']}; {REINDEX_HINT}"
            )
        if size["n"] <= self._exact_below or ann_expression(size["dim"]) is None:
            exact = exact_search(scope, q, k, exclude_thread)
            # A plan over this many rows may cost past the JIT threshold; a scan and a top-k sort
            # gain nothing from compiling (100+ ms).
            rows = await (
                fetch_all(self._db, exact) if size["n"] <= JIT_SAFE_ROWS else self._with_settings(exact, {"jit": "off"})
            )
        else:
            rows = await self._hnsw(hnsw_search(scope, q, k, exclude_thread), k)
        return [VectorHit(r["memory_id"], float(r["score"])) for r in rows if np.isfinite(r["score"])]

    async def _hnsw(self, query: Query, k: int) -> list[dict[str, Any]]:
        # Without a sort, the only plan left is the index's order: for a user just above the
        # threshold the planner would often read their rows by the scope index and sort them
        # instead, the exact path under another name. Disabling sorts inflates the plan's cost
        # estimate past the JIT threshold, and compiling it costs 100+ ms: no JIT either.
        return await self._with_settings(
            query,
            {
                "hnsw.ef_search": str(min(max(self._ef_search, k), 1000)),
                "hnsw.iterative_scan": "relaxed_order",
                "hnsw.max_scan_tuples": str(MAX_SCAN_TUPLES),
                "enable_sort": "off",
                "jit": "off",
            },
        )

    async def _with_settings(self, query: Query, settings: dict[str, str]) -> list[dict[str, Any]]:
        """Run ``query`` with ``settings``, in a transaction of its own (a savepoint inside the
        caller's) that is then rolled back: the search reads only, and the rollback takes the
        settings along, so they never reach the caller's later statements."""
        async with self._db.connection() as conn, conn.transaction() as tx:
            await conn.execute(
                "SELECT " + ", ".join("set_config(%s, %s, true)" for _ in settings),
                [v for item in settings.items() for v in item],
            )
            cur = await conn.execute(*query)
            rows = await cur.fetchall()
            raise psycopg.Rollback(tx)
        return rows

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> None:
        if memory_ids:
            await execute(
                self._db,
                (
                    "DELETE FROM vectors WHERE memory_id = ANY(%s) AND tenant_id = %s AND user_id = %s",
                    (list(memory_ids), scope.tenant_id, scope.user_id),
                ),
            )

    async def get(self, scope: Scope, memory_ids: Sequence[str]) -> dict[str, np.ndarray]:
        if not memory_ids:
            return {}
        where, params = scope_filter(scope)
        rows = await fetch_all(
            self._db,
            (
                f"SELECT memory_id, embedding FROM vectors WHERE memory_id = ANY(%s) AND {where}",
                (list(dict.fromkeys(memory_ids)), *params),
            ),
        )
        return {r["memory_id"]: _array(r["embedding"]) for r in rows}

    async def info(self) -> dict[str, Any]:
        rows = await fetch_all(self._db, ("SELECT model, dim, count(*) AS n FROM vectors GROUP BY model, dim", ()))
        return {"models": {r["model"]: r["dim"] for r in rows}, "vectors": sum(int(r["n"]) for r in rows)}

    async def count(self, scope: Scope, *, kind: MemoryKind | None = None) -> int:
        where, params = scope_filter(scope, "v")
        if kind is None:
            query: Query = (f"SELECT count(*) AS n FROM vectors v WHERE {where}", params)
        else:
            query = (
                f"SELECT count(*) AS n FROM vectors v JOIN memories m ON m.id = v.memory_id"
                f" WHERE {where} AND m.kind = %s",
                (*params, kind.value),
            )
        row = await fetch_one(self._db, query)
        return int(row["n"]) if row else 0

    async def reset(self) -> None:
        """Empty the index and release its model; the HNSW indexes go too (a new claim makes
        the one its dimension needs)."""
        async with self._db.transaction(), self._db.connection() as conn:
            await conn.execute("TRUNCATE vectors")
            await conn.execute("DELETE FROM vector_model")
            cur = await conn.execute(
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'vectors'"
                " AND indexname LIKE 'vectors\\_hnsw\\_%%'"
            )
            for row in await cur.fetchall():
                await conn.execute(f'DROP INDEX IF EXISTS "{row["indexname"]}"')

    async def _check_or_claim(self, conn: Any, model: str, dim: int) -> None:
        """The first vector fixes the index's model and dimension (and builds its HNSW index,
        while the table holds none of that dimension: at once); later ones must match."""
        cur = await conn.execute("SELECT model, dim FROM vector_model")
        held = await cur.fetchone()
        if held is None:
            cur = await conn.execute(
                "INSERT INTO vector_model (model, dim) VALUES (%s, %s) ON CONFLICT DO NOTHING RETURNING dim",
                (model, dim),
            )
            if await cur.fetchone() is not None:
                ddl = ann_index_ddl(dim)
                if ddl is not None:
                    await conn.execute(ddl)
                return
            cur = await conn.execute("SELECT model, dim FROM vector_model")  # another writer claimed it first
            held = await cur.fetchone()
        if (held["model"], held["dim"]) != (model, dim):
            raise DimensionMismatch(
                f"the index holds {held['dim']}-dim vectors from {held['model']!r}, "
                f"but the embedder {model!r} gives {dim}-dim vectors; {REINDEX_HINT}"
            )
