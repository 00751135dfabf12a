"""Dense vectors on pgvector: cosine distance, exact for small users and HNSW for large ones.

One model and dimension for the whole index (the ``vector_model`` row), fixed by the first
vector and released by :meth:`PostgresVectorIndex.reset`, as on SQLite: a vector or query of
another dimension or model is refused with a hint to reindex.

The column is an untyped ``vector``; HNSW needs a fixed dimension, so the claim of a dimension
creates a partial expression index for it (``(embedding::vector(384)) vector_cosine_ops WHERE
dim = 384``; ``halfvec`` up to 4,000 dimensions, above that search stays exact) and queries use
the same expression.

Why two paths, and which. HNSW walks one graph of every user's vectors and filters by user as
it goes: for a user holding a tiny share of the table, even pgvector 0.8's iterative scans read
many vectors of others per vector of theirs (and give up at ``hnsw.max_scan_tuples``). The exact
path reads the user's own rows through the (tenant, user) index and sorts them by distance:
perfect recall, cost linear in the user's size. :mod:`.vector_plan` weighs the two per search
from the user's size and the table's (``pg_class.reltuples``): users of at most
``pg_exact_search_threshold`` vectors always go exact. A user's size is counted only as far as
the decision needs (a bounded count) and remembered for :data:`SIZE_TTL_S` per process, so the
next recalls skip it. An HNSW answer that comes back short
(fewer than ``k``: the scan gave up, or filters left too few) is replaced by the exact answer in
the same statement, so no search returns short.

Round trips: one statement per search once the user's size is known; HNSW's settings travel in
the same round trip (a pipeline: ``set_config`` local to the implicit transaction that ends at
its sync, so nothing outlives the search). The statement hands back each hit's stored vector and
memory row too (:mod:`.vector_sql`), which recall would otherwise read in two more.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
import psycopg

from ...domain.errors import DimensionMismatch
from ...domain.model import Scope
from ...ports import VectorHit
from ...settings import StorageSettings
from ..sql.dialect import Query
from ..sql.rows import memory_from_row
from ..sql.vectors import SqlVectorIndex, batch_dimension, unit
from ..sql.where import scope_filter
from .db import PostgresDatabase
from .dialect import POSTGRES
from .vector_plan import DEFAULT_COSTS, LearnedCosts, PathCosts, ef_for, hnsw_fits, hnsw_from
from .vector_sql import BINARY, ann_expression, ann_index_ddl, exact_search, hnsw_search, rows_index_ddl

__all__ = ["PostgresVectorIndex", "ann_expression", "ann_index_ddl", "exact_search", "hnsw_search", "rows_index_ddl"]

REINDEX_HINT = "run `hipocampo reindex` to rebuild the vectors with the configured embedder"
"""The same words as the other backends use."""

MAX_SCAN_TUPLES = 20_000
"""How far an iterative HNSW scan may go looking for a user's vectors before it stops short (and
the exact answer is given instead); pgvector's default. :mod:`.vector_plan` sends HNSW only
searches expected to stay well inside it."""

JIT_SAFE_ROWS = 20_000
"""Up to this many rows the exact path's plan costs too little for Postgres to JIT-compile it."""

SIZE_TTL_S = 60.0
"""How long a process trusts a user's counted size, and the table's, for choosing the path.
A stale size only costs speed (an HNSW answer that comes back short is replaced by the exact
one), never results."""

SIZE_CACHE_USERS = 10_000
"""Users whose size a process remembers at most (the oldest are forgotten first)."""

EXPLORE_EVERY = 32
"""Of the searches sent exact where the index could serve (its pessimistic scan fits), one in
this many takes the index, so that its cost is measured (again)."""

EXPLORE_FIRST = 4
EXPLORE_FIRST_SEARCHES = 3
"""A band with fewer than EXPLORE_FIRST_SEARCHES searches through the index is tried one search
in EXPLORE_FIRST: its first searches find cold pages, so one is not enough to judge it."""

EXPLORE_REACH = 3.0
"""A band whose learned HNSW time is more than this many times the exact path's is no longer
tried: the index is not coming back within reach, and each try costs the difference."""

COUNT_CAP = 20_000
"""How far a user is counted at least (further when the pessimistic edge lies further): every
user up to it is sized, so their path follows what their share band's searches took here."""

Path = Literal["auto", "exact", "hnsw"]


@dataclass(frozen=True)
class _Sized:
    """What a search needs to choose its path: the index's dimension, the table's rows, and the
    user's vectors counted up to ``cap`` (``n > cap`` means "more than ``cap``")."""

    dim: int | None
    total: int
    n: int
    cap: int
    at: float
    fresh_check: bool = True
    """Whether ``dim`` was read just now (not remembered)."""
    short: bool = False
    """An HNSW search of this user came back short lately: exact until the size is counted again."""


def _array(value: Any) -> np.ndarray:
    """A stored vector as our own float32 array (pgvector hands a ``Vector``, older ones numpy)."""
    return np.array(value.to_numpy() if hasattr(value, "to_numpy") else value, dtype=np.float32)


def _hit(row: dict[str, Any]) -> VectorHit:
    """A search's row (:mod:`.vector_sql`): the hit, its stored vector and its memory's row."""
    memory = memory_from_row(POSTGRES, row) if row["id"] is not None else None
    return VectorHit(row["hit_id"], float(row["hit_score"]), vector=_array(row["hit_vector"]), memory=memory)


class PostgresVectorIndex(SqlVectorIndex):
    """The :class:`~hipocampo.ports.VectorIndex` port on a :class:`PostgresDatabase`.

    ``path``: ``"auto"`` (the product: chosen per search, see :mod:`.vector_plan`), or one path
    forced (benchmarks and tests); ``fallback=False`` lets a forced HNSW answer come back short
    (to measure the index alone). ``costs`` seeds the unit costs; with ``learn`` they then follow
    what this index's searches take."""

    _db: PostgresDatabase

    def __init__(
        self,
        db: PostgresDatabase,
        settings: StorageSettings,
        *,
        path: Path = "auto",
        fallback: bool = True,
        costs: PathCosts = DEFAULT_COSTS,
        learn: bool = True,
        max_scan_tuples: int = MAX_SCAN_TUPLES,
    ) -> None:
        super().__init__(db, POSTGRES)
        self._ef_search = settings.pg_ef_search
        self._exact_below = settings.pg_exact_search_threshold
        self._path = path
        self._fallback = fallback
        self._costs = LearnedCosts(costs)
        self._learn = learn
        self._explored = 0
        self._max_scan = max_scan_tuples
        self._sizes: OrderedDict[tuple[str, str], _Sized] = OrderedDict()
        self._total: tuple[int, float] | None = None  # the table's rows, and when they were read

    async def upsert(self, scope: Scope, items: Sequence[tuple[str, np.ndarray]], model: str) -> None:
        if not items:
            return
        dim = batch_dimension(items)
        vectors = {memory_id: unit(v) for memory_id, v in items}  # the last vector of an id wins
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
        q = unit(query)
        sized = await self._sized(scope, k, q.shape[-1])
        if sized.dim is None:
            return []
        known = sized.n <= sized.cap  # else counted only as far as the choice needed
        started = time.perf_counter()
        if self._takes_hnsw(sized, k, explore=self._learn):
            if self._path == "hnsw":  # forced (benchmarks): the candidate list asked for
                ef = min(max(self._ef_search, k), 1000)
            else:
                ef = ef_for(sized.n, sized.total, k, self._ef_search)
            rows = await self._with_settings(
                hnsw_search(scope, q, k, exclude_thread, fallback=self._fallback), self._hnsw_settings(ef)
            )
            if rows and rows[0]["hit_exact"]:  # the index came back short: this user goes exact for a while
                self._remember(scope, replace(sized, at=time.monotonic(), short=True))
            if self._learn and known:  # a short answer's time too: its band learns what the index costs it
                self._costs.saw_hnsw(sized.n, sized.total, (time.perf_counter() - started) * 1e6)
        else:
            exact = exact_search(scope, q, k, exclude_thread)
            # A plan over this many rows may cost past the JIT threshold; a scan and a top-k sort
            # gain nothing from compiling (100+ ms).
            big = not known or sized.n > JIT_SAFE_ROWS
            rows = await (self._with_settings(exact, {"jit": "off"}) if big else self._fetch(exact))
            if self._learn and known and sized.n * 2 >= self._cap(sized.total, k):  # near the edge
                self._costs.saw_exact(sized.n, (time.perf_counter() - started) * 1e6)
        if not rows and not sized.fresh_check:
            # Nothing found: was the remembered dimension stale (the index reset by another process)?
            self._sizes.pop((scope.tenant_id, scope.user_id), None)
            await self._sized(scope, k, q.shape[-1])
        return [_hit(r) for r in rows if np.isfinite(r["hit_score"])]

    async def path_for(self, scope: Scope, k: int) -> Literal["exact", "hnsw"]:
        """The path a search of ``scope`` for ``k`` hits would take now (before any fallback):
        what tests and plan readers ask."""
        return "hnsw" if self._takes_hnsw(await self._sized(scope, k, None), k) else "exact"

    def _takes_hnsw(self, sized: _Sized, k: int, *, explore: bool = False) -> bool:
        if sized.dim is None or ann_expression(sized.dim) is None or self._path == "exact" or sized.short:
            return False
        if self._path == "hnsw" or sized.n > sized.cap:  # counted only so far: larger than any edge
            return True
        n, total = sized.n, sized.total
        if n <= self._exact_below or not hnsw_fits(n, total, k, self._ef_search, max_scan_tuples=self._max_scan):
            return False
        exact = self._costs.seed.round_trip_us + self._costs.exact_us(n)
        learned = self._costs.hnsw_us(n, total)
        if learned is None and n > self._cap(total, k):  # never measured: the pessimistic estimate says the index
            return True
        if learned is not None and learned < exact:
            return True
        # The estimate says exact. Pessimistic (never measured) or close (within EXPLORE_REACH):
        # now and then the index is tried, or the estimate would never learn what this data's
        # crowding saves, nor follow the machine back (a load that eased, a cache that warmed).
        if explore and (learned is None or learned < exact * EXPLORE_REACH):
            self._explored += 1
            every = EXPLORE_FIRST if self._costs.seen(n, total) < EXPLORE_FIRST_SEARCHES else EXPLORE_EVERY
            return self._explored % every == 0
        return False

    def _cap(self, total: int, k: int, costs: PathCosts | None = None) -> int:
        """Users above this size take HNSW (see :func:`~.vector_plan.hnsw_from`), by the
        learned costs unless ``costs`` are given."""
        costs = costs or self._costs.now()
        return (
            hnsw_from(total, k, self._ef_search, floor=self._exact_below, max_scan_tuples=self._max_scan, costs=costs)
            - 1
        )

    async def _sized(self, scope: Scope, k: int, query_dim: int | None) -> _Sized:
        """The user's size as far as the path choice needs it: remembered, or counted now (with
        the index's dimension and the table's rows, in one statement). A query of another
        dimension than the index's is refused (``query_dim`` None: not checked)."""
        now = time.monotonic()
        key = (scope.tenant_id, scope.user_id)
        held = self._sizes.get(key)
        total = self._total[0] if self._total and now - self._total[1] < SIZE_TTL_S else None
        if held is not None and now - held.at < SIZE_TTL_S and query_dim in (None, held.dim) and total is not None:
            if held.n <= held.cap or held.cap >= self._cap(total, k):
                return _Sized(held.dim, total, held.n, held.cap, held.at, fresh_check=False, short=held.short)
        cap = COUNT_CAP if total is None else max(self._cap(total, k), COUNT_CAP)
        cap = max(cap, self._exact_below, JIT_SAFE_ROWS if self._path == "exact" else 0)
        row = await self._db.fetch_one(
            (
                "SELECT (SELECT dim FROM vector_model) AS dim,"
                " (SELECT reltuples::bigint FROM pg_class WHERE oid = 'vectors'::regclass) AS total,"
                " (SELECT count(*) FROM (SELECT 1 FROM vectors WHERE tenant_id = %s AND user_id = %s LIMIT %s) mine)"
                " AS n",
                (scope.tenant_id, scope.user_id, cap + 1),
            ),
        )
        dim = None if row is None or row["dim"] is None else int(row["dim"])
        if dim is not None and query_dim is not None and query_dim != dim:
            raise DimensionMismatch(f"query vector has dimension {query_dim} but the index holds {dim}; {REINDEX_HINT}")
        n = int(row["n"]) if row else 0
        total = max(int(row["total"]) if row and row["total"] is not None else 0, n)
        self._total = (total, now)
        sized = _Sized(dim if n else None, total, n, cap, now)
        if n:
            self._remember(scope, sized)
        return sized

    def _remember(self, scope: Scope, sized: _Sized) -> None:
        key = (scope.tenant_id, scope.user_id)
        self._sizes[key] = sized
        self._sizes.move_to_end(key)
        while len(self._sizes) > SIZE_CACHE_USERS:
            self._sizes.popitem(last=False)

    def _hnsw_settings(self, ef: int) -> dict[str, str]:
        # Without a sort, the only plan left is the index's order: for a user near the edge the
        # planner would often read their rows by the scope index and sort them instead, the
        # exact path under another name. Disabling sorts inflates the plan's cost estimate past
        # the JIT threshold, and compiling it costs 100+ ms: no JIT either.
        return {
            "hnsw.ef_search": str(ef),
            "hnsw.iterative_scan": "relaxed_order",
            "hnsw.max_scan_tuples": str(self._max_scan),
            "enable_sort": "off",
            "jit": "off",
        }

    async def _with_settings(self, query: Query, settings: dict[str, str]) -> list[dict[str, Any]]:
        """Run ``query`` with ``settings``, none of which outlive it.

        Outside a transaction: one round trip, a pipeline of ``set_config(..., true)`` and the
        query, which run in one implicit transaction ended by the pipeline's sync (and the
        settings with it). Inside the caller's transaction: in a savepoint that is then rolled
        back (the search reads only), taking the settings along."""
        assignments = "SELECT " + ", ".join("set_config(%s, %s, true)" for _ in settings)
        values = [v for item in settings.items() for v in item]
        if not self._db.in_transaction:
            async with self._db.connection() as conn:
                async with conn.pipeline():
                    await conn.execute(assignments, values)
                    cur = await conn.execute(*query, binary=BINARY)
                    rows = await cur.fetchall()
                return rows
        async with self._db.connection() as conn, conn.transaction() as tx:
            await conn.execute(assignments, values)
            cur = await conn.execute(*query, binary=BINARY)
            rows = await cur.fetchall()
            raise psycopg.Rollback(tx)
        return rows

    async def _fetch(self, query: Query) -> list[dict[str, Any]]:
        """Every row of ``query``, in binary (vectors parse a few hundred times faster)."""
        async with self._db.connection() as conn:
            cur = await conn.execute(*query, binary=BINARY)
            return await cur.fetchall()

    async def delete(self, scope: Scope, memory_ids: Sequence[str]) -> None:
        if memory_ids:
            await self._db.execute(
                (
                    "DELETE FROM vectors WHERE memory_id = ANY(%s) AND tenant_id = %s AND user_id = %s",
                    (list(memory_ids), scope.tenant_id, scope.user_id),
                ),
            )

    async def get(self, scope: Scope, memory_ids: Sequence[str]) -> dict[str, np.ndarray]:
        if not memory_ids:
            return {}
        where, params = scope_filter(POSTGRES, scope)
        rows = await self._fetch(
            (
                f"SELECT memory_id, embedding FROM vectors WHERE memory_id = ANY(%s) AND {where}",
                (list(dict.fromkeys(memory_ids)), *params),
            )
        )
        return {r["memory_id"]: _array(r["embedding"]) for r in rows}

    async def reset(self) -> None:
        """Empty the index and release its model; the HNSW and covering indexes go too (a new
        claim makes the ones its dimension needs)."""
        self._sizes.clear()
        async with self._db.transaction(), self._db.connection() as conn:
            await conn.execute("TRUNCATE vectors")
            await conn.execute("DELETE FROM vector_model")
            cur = await conn.execute(
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'vectors'"
                " AND (indexname LIKE 'vectors\\_hnsw\\_%%' OR indexname LIKE 'vectors\\_rows\\_%%')"
            )
            for row in await cur.fetchall():
                await conn.execute(f'DROP INDEX IF EXISTS "{row["indexname"]}"')

    async def _check_or_claim(self, conn: Any, model: str, dim: int) -> None:
        """The first vector fixes the index's model and dimension (and builds its HNSW and
        covering indexes, while the table holds none of that dimension: at once); later ones must
        match."""
        cur = await conn.execute("SELECT model, dim FROM vector_model")
        held = await cur.fetchone()
        if held is None:
            cur = await conn.execute(
                "INSERT INTO vector_model (model, dim) VALUES (%s, %s) ON CONFLICT DO NOTHING RETURNING dim",
                (model, dim),
            )
            if await cur.fetchone() is not None:
                for ddl in (ann_index_ddl(dim), rows_index_ddl(dim)):
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
