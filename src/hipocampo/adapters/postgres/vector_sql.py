"""The statements of a Postgres vector search, kept apart from choosing and running them.

A search is one statement that returns, per hit, what recall needs next: its score, its stored
vector (the second hop moves the query towards the best hits' vectors, and weighs the
candidates by their closeness to the query) and its memory's row (the rerank reads it). Read in
one statement, they cost one round trip instead of three. The row is joined only to the ``k``
hits, after the search has chosen them, so the scan itself reads the vectors alone.

Results are asked for in binary (:data:`BINARY`): a 384-dimension vector in pgvector's text
form takes about 0.4 ms of Python to parse, in binary about a microsecond, and recall reads
dozens of them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...domain.model import Scope
from ..sql.dialect import Query
from ..sql.where import outside_thread, scope_filter
from .dialect import POSTGRES

BINARY = True
"""Vector reads ask psycopg for binary results (see the module's docstring)."""


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


ROWS_INDEX_MAX_DIM = 600
"""The widest vector the exact path's covering index holds: a B-tree entry is at most 2,704
bytes, and a ``vector`` of ``d`` dimensions takes ``4 d + 8`` of them, next to the key and the
other included columns. Wider vectors are searched exactly from the table."""


def rows_index_ddl(dim: int) -> str | None:
    """The exact path's covering index for ``dim``: a user's vectors with everything the exact
    search reads, in key order, so the search is an index-only scan of the user's entries.

    Without it the exact path reads the user's rows from the table, where a live service has
    written them interleaved with everyone's: one heap page per row. Measured at 1M vectors over
    10k users (dim 384, the pages in the OS cache but not in shared_buffers), exact k = 60: a
    10k-vector user 35 ms from the table, 14 ms from this index; 5k 19 -> 8; 20k 64 -> 24. It
    costs about 2.6 GB per million 384-dimension vectors, and it is partial (``WHERE dim = d``),
    like the HNSW index: one dimension is held at a time."""
    if dim > ROWS_INDEX_MAX_DIM:
        return None
    return (
        f"CREATE INDEX IF NOT EXISTS vectors_rows_{dim} ON vectors (tenant_id, user_id)"
        f" INCLUDE (agent_id, thread_id, memory_id, embedding) WHERE dim = {dim}"
    )


def _filters(scope: Scope, exclude_thread: str | None) -> tuple[str, list[Any]]:
    where, params = scope_filter(POSTGRES, scope)
    outside, thread = outside_thread(POSTGRES, exclude_thread)
    return where + outside, [*params, *thread]


def _with_rows(scope: Scope, hits: Query, order: str) -> Query:
    """``hits`` (``memory_id``, ``score``, ``embedding``, ``exact``; at most ``k`` rows) with
    their memories' rows in ``scope`` (a left join: a hit is never dropped for its row), ordered
    by ``order``. The hit's own columns are renamed so that none collides with a memory's."""
    sql, params = hits
    where, scope_params = scope_filter(POSTGRES, scope, "m")
    return (
        "SELECT h.memory_id AS hit_id, h.score AS hit_score, h.embedding AS hit_vector, h.exact AS hit_exact, m.*"
        f" FROM ({sql}) h LEFT JOIN memories m ON m.id = h.memory_id AND {where} ORDER BY {order}",
        (*params, *scope_params),
    )


def exact_search(scope: Scope, query: np.ndarray, k: int, exclude_thread: str | None) -> Query:
    """Every vector of the user, ordered by distance (the untyped column: no index can serve it).
    The distance is computed once per row (the sort orders by the selected column)."""
    where, params = _filters(scope, exclude_thread)
    found = (
        "SELECT memory_id, embedding <=> %s AS distance, embedding FROM vectors"
        f" WHERE dim = %s AND {where} ORDER BY distance, memory_id LIMIT %s"
    )
    return _with_rows(
        scope,
        (
            f"SELECT memory_id, 1 - distance AS score, distance, embedding, true AS exact FROM ({found}) nearest",
            (query, len(query), *params, k),
        ),
        "h.distance, h.memory_id",
    )


def hnsw_search(scope: Scope, query: np.ndarray, k: int, exclude_thread: str | None, *, fallback: bool = True) -> Query:
    """The nearest ``k`` through the dimension's HNSW index, re-sorted by exact score (the index
    may hand them slightly out of order under ``relaxed_order``, and ``halfvec`` rounds).

    With ``fallback``, when the index finds fewer than ``k`` (its scan gave up, or the filters
    leave the user fewer), the same statement answers exactly instead: the exact branch sits
    behind a one-time filter on the HNSW count, so it runs only then. ``exact`` says which
    branch answered."""
    expression, cast, _ = ann_expression(len(query))  # type: ignore[misc]
    where, params = _filters(scope, exclude_thread)
    found = (
        f"SELECT memory_id, embedding FROM vectors WHERE dim = %s AND {where}"
        f" ORDER BY {expression} <=> %s::{cast} LIMIT %s"
    )
    order = "h.score DESC, h.memory_id"
    if not fallback:
        return _with_rows(
            scope,
            (
                f"SELECT memory_id, 1 - (embedding <=> %s) AS score, embedding, false AS exact FROM ({found}) hits",
                (query, len(query), *params, query, k),
            ),
            order,
        )
    return _with_rows(
        scope,
        (
            f"WITH hits AS MATERIALIZED ({found})"
            " SELECT memory_id, 1 - (embedding <=> %s) AS score, embedding, false AS exact FROM hits"
            " WHERE (SELECT count(*) FROM hits) >= %s"
            " UNION ALL SELECT memory_id, score, embedding, true FROM ("
            " SELECT memory_id, 1 - (embedding <=> %s) AS score, embedding FROM vectors"
            f" WHERE (SELECT count(*) FROM hits) < %s AND dim = %s AND {where}"
            " ORDER BY embedding <=> %s, memory_id LIMIT %s) exact",
            (len(query), *params, query, k, query, k, query, k, len(query), *params, query, k),
        ),
        order,
    )
