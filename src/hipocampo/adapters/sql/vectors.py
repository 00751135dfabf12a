"""What the built-in vector indexes share, whatever they search with.

:func:`batch_dimension` and :func:`unit` are pure numpy: the in-memory index (``adapters/memory``)
uses them too, so the three built-in indexes refuse a batch, and normalise a vector, in the same
words and the same way. The statements below are the SQL indexes' bookkeeping reads (the searches
themselves are each engine's: a numpy matrix per user on SQLite, pgvector on Postgres).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...domain.errors import DimensionMismatch
from ...domain.model import MemoryKind, Scope
from .dialect import Database, Dialect, Query, Row
from .where import scope_filter

INFO = "SELECT model, dim, count(*) AS n FROM vectors GROUP BY model, dim"
"""The models held and their vectors (one model at a time, but a reset may be under way)."""


def batch_dimension(items: Sequence[tuple[str, np.ndarray]]) -> int:
    """The one dimension of the batch's vectors, or :class:`DimensionMismatch` when it mixes
    several (an index holds one model's vectors; a mixed batch is a caller's bug)."""
    dims = {int(np.asarray(v).shape[-1]) for _, v in items}
    if len(dims) != 1:
        raise DimensionMismatch(f"one batch mixes vector dimensions {sorted(dims)}")
    (dim,) = dims
    return dim


def unit(vector: np.ndarray) -> np.ndarray:
    """Cosine needs unit vectors; embedders should give them, but we do not rely on it. Always a
    new array: callers may reuse theirs."""
    v = np.asarray(vector, dtype=np.float32).reshape(-1)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v.copy()


def info_from(rows: Sequence[Row]) -> dict[str, Any]:
    """:data:`INFO`'s rows as the port's ``info()`` answers."""
    return {"models": {r["model"]: r["dim"] for r in rows}, "vectors": sum(int(r["n"]) for r in rows)}


def count_query(d: Dialect, scope: Scope, kind: MemoryKind | None) -> Query:
    """How many vectors the scope holds (``n``), of memories of ``kind`` if given."""
    where, params = scope_filter(d, scope, "v")
    if kind is None:
        return f"SELECT count(*) AS n FROM vectors v WHERE {where}", params
    sql = f"SELECT count(*) AS n FROM vectors v JOIN memories m ON m.id = v.memory_id WHERE {where} AND m.kind = ?"
    return d.sql(sql), [*params, kind.value]


class SqlVectorIndex:
    """What both SQL engines' :class:`~hipocampo.ports.VectorIndex` share, on ``db`` in ``dialect``:
    the bookkeeping reads. Searching and writing are each engine's."""

    def __init__(self, db: Database, dialect: Dialect) -> None:
        self._db = db
        self._d = dialect

    async def info(self) -> dict[str, Any]:
        return info_from(await self._db.fetch_all((INFO, ())))

    async def count(self, scope: Scope, *, kind: MemoryKind | None = None) -> int:
        row = await self._db.fetch_one(count_query(self._d, scope, kind))
        return int(row["n"]) if row else 0
