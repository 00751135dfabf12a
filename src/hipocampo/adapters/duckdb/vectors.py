"""The vector index in one DuckDB file, searched through the ``vss`` extension's HNSW index.

One table holds every vector (``FLOAT[dim]``) with its ``tenant_id``, ``user_id``, ``agent_id``,
``thread_id`` and ``kind``; every query filters on tenant and user. DuckDB lets one process open
a file for writing: a second process (a separate ``hipocampo worker``, a CLI command while the
service runs) is refused with a clear error, so run the worker in process
(``HIPOCAMPO_WORKER=inprocess``, the default) and stop the service before ``hipocampo reindex``.

HNSW and a selective filter: DuckDB's HNSW scan takes the nearest ``LIMIT`` rows of the whole
table and filters them afterwards, so a user with a small share of the table gets fewer than
``k`` hits (often none). So a scope of at most :data:`EXACT_SCOPE_LIMIT` vectors is searched
exactly (its own rows, sorted by distance: what the built-in index does); a larger scope goes
through HNSW fetching ``k`` times the table's share of the scope, twice over, and falls back to
the exact scan when that still leaves fewer than ``k`` hits.

Writes are not checkpointed one by one: every checkpoint writes the whole HNSW index again, and
the file grew to 7 GB while 100k vectors were written in batches of 1,000 with a checkpoint
after each (83 MB instead of 26 MB at 8k). DuckDB checkpoints by itself (every 16 MB of
write-ahead log, and on close). The ``vss`` extension does not replay HNSW changes from the
write-ahead log reliably after a crash: after an unclean stop, ``hipocampo reindex`` rebuilds it.
"""

from __future__ import annotations

import json
import logging
import math
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np

from ...domain.errors import ConfigurationError, IndexUnavailable
from ...domain.model import Scope
from ...ports import MemoryStore
from ..external_vectors import SHARED, ExternalVectorIndex, VectorRow, refuse_model, refuse_query

log = logging.getLogger(__name__)

try:
    import duckdb
    import duckdb_extension_vss
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError(f"{exc}; pip install 'hipocampo[duckdb]'") from exc

EXACT_SCOPE_LIMIT = 10_000
"""Scopes up to this many vectors are searched exactly (perfect recall, a few ms at this size)."""

MAX_OVERFETCH = 4_000
"""Above this many HNSW rows to filter, the exact scan of the scope is cheaper and complete."""

TABLE = "hipocampo_vectors"
CONFIG: dict[str, str | bool | int | float | list[str]] = {
    "autoinstall_known_extensions": "false",
    "autoload_known_extensions": "false",
}
"""Never download an extension; identical for every connection so one process shares one instance."""


def vss_extension() -> str:
    """The ``vss`` binary shipped by the ``duckdb-extension-vss`` package: ``INSTALL vss`` would
    download it, which fails offline."""
    root = Path(duckdb_extension_vss.__path__[0])
    found = sorted(root.glob(f"extensions/v{duckdb.__version__}/vss.duckdb_extension"))
    if not found:
        raise ConfigurationError(
            f"duckdb-extension-vss has no vss build for duckdb {duckdb.__version__}; "
            "pip install 'hipocampo[duckdb]' (it pins matching versions)"
        )
    return str(found[0])


def duckdb_path(url: str) -> str:
    """The file of a ``duckdb://`` URL, by SQLAlchemy's rule for SQLite URLs (which ``sqlite:///``
    and ``chroma:///`` follow here too): three slashes, then the path, so ``duckdb:///rel/f.duckdb``
    is relative to the working directory and ``duckdb:////abs/f.duckdb`` is absolute; ``~`` is
    the home folder. A query (``?...``) is ignored."""
    path = os.path.expanduser(url.split("://", 1)[1].removeprefix("/").partition("?")[0])
    if not path:
        raise ConfigurationError(
            "duckdb:///path/to/file.duckdb needs a file (duckdb:////abs/path/file.duckdb for an absolute path)"
        )
    return path


def open_vector_index(url: str, *, memories: MemoryStore) -> DuckDbVectorIndex:
    """``duckdb:///rel/path/file.duckdb``, ``duckdb:////abs/path/file.duckdb`` (:func:`duckdb_path`)."""
    path = duckdb_path(url)
    log.info("DuckDB vector index: %s", os.path.abspath(path))  # where a relative path went
    if os.path.dirname(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        conn = duckdb.connect(path, config=CONFIG)
    except duckdb.IOException as exc:
        if "lock" in str(exc).lower():
            raise ConfigurationError(
                f"the DuckDB vector index {path} is open in another process (DuckDB allows one process per "
                "file): stop it, or run the worker in that process (HIPOCAMPO_WORKER=inprocess)"
            ) from exc
        raise
    conn.execute(f"LOAD '{vss_extension()}'")
    # HNSW in a file, not only in memory; GLOBAL: every cursor is a connection of its own.
    conn.execute("SET GLOBAL hnsw_enable_experimental_persistence = true")
    conn.execute("CREATE TABLE IF NOT EXISTS hipocampo_index_meta (key VARCHAR PRIMARY KEY, value VARCHAR)")
    return DuckDbVectorIndex(conn, memories)


class DuckDbVectorIndex(ExternalVectorIndex):
    def __init__(self, conn: Any, memories: MemoryStore) -> None:
        super().__init__(memories)
        self._conn = conn
        self._write = threading.Lock()  # one writer at a time: DuckDB aborts conflicting transactions

    def _cursor(self) -> Any:
        """A connection of its own for this thread: one DuckDB connection is not for two threads."""
        return self._conn.cursor()

    def _upsert_sync(self, rows: list[VectorRow], model: str, dim: int) -> None:
        with self._write, self._cursor() as cur:
            held = _held(cur)
            if held is None:
                _claim(cur, model, dim)
            else:
                refuse_model(held, model, dim)
            for start in range(0, len(rows), 1000):
                _insert(cur, rows[start : start + 1000], dim)

    def _search_sync(
        self, scope: Scope, query: np.ndarray, k: int, exclude_thread: str | None
    ) -> list[tuple[str, float]]:
        try:
            with self._cursor() as cur:
                held = _held(cur)
                if held is None:
                    return []
                dim = held[1]
                refuse_query(query, dim)
                where, params = _where(scope, exclude_thread=exclude_thread)
                q = _literal(query)
                in_scope = cur.execute(
                    f"SELECT count(*) FROM {TABLE} WHERE tenant_id = ? AND user_id = ?",
                    [scope.tenant_id, scope.user_id],
                ).fetchone()[0]
                if in_scope == 0:
                    return []
                total = cur.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0]
                fetch = k * math.ceil(total / in_scope) * 2
                if in_scope > EXACT_SCOPE_LIMIT and fetch <= MAX_OVERFETCH:
                    hits = cur.execute(
                        f"SELECT memory_id, d FROM (SELECT *, array_cosine_distance(vec, {q}::FLOAT[{dim}]) AS d"
                        f" FROM {TABLE} ORDER BY d LIMIT {int(fetch)}) WHERE {where} ORDER BY d LIMIT {int(k)}",
                        params,
                    ).fetchall()
                    if len(hits) >= k:
                        return [(mid, 1.0 - float(d)) for mid, d in hits]
                # ``+ 0`` keeps the optimizer from turning this into an HNSW scan, which would
                # filter the nearest rows of the whole table and lose the scope's own.
                hits = cur.execute(
                    f"SELECT memory_id, array_cosine_distance(vec, {q}::FLOAT[{dim}]) AS d FROM {TABLE}"
                    f" WHERE {where} ORDER BY d + 0 LIMIT {int(k)}",
                    params,
                ).fetchall()
                return [(mid, 1.0 - float(d)) for mid, d in hits]
        except duckdb.Error as exc:
            raise IndexUnavailable(f"DuckDB could not search the vector index ({exc})") from exc

    def _delete_sync(self, scope: Scope, memory_ids: list[str] | None, thread_id: str | None) -> None:
        where, params = _where(scope, thread_id=thread_id)
        with self._write, self._cursor() as cur:
            if _held(cur) is None:
                return
            if memory_ids is None:
                cur.execute(f"DELETE FROM {TABLE} WHERE {where}", params)
            else:
                cur.execute(f"DELETE FROM {TABLE} WHERE {where} AND list_contains(?, memory_id)", [*params, memory_ids])

    def _get_sync(self, scope: Scope, memory_ids: list[str]) -> dict[str, np.ndarray]:
        where, params = _where(scope)
        with self._cursor() as cur:
            if _held(cur) is None:
                return {}
            rows = cur.execute(
                f"SELECT memory_id, vec FROM {TABLE} WHERE {where} AND list_contains(?, memory_id)",
                [*params, memory_ids],
            ).fetchall()
        return {mid: np.asarray(vec, dtype=np.float32) for mid, vec in rows}

    def _info_sync(self) -> dict[str, Any]:
        with self._cursor() as cur:
            held = _held(cur)
            n = 0 if held is None else cur.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0]
        return {"models": {held[0]: held[1]} if held and n else {}, "vectors": n}

    def _count_sync(self, scope: Scope, kind: str | None) -> int:
        where, params = _where(scope)
        if kind is not None:
            where, params = f"{where} AND kind = ?", [*params, kind]
        with self._cursor() as cur:
            if _held(cur) is None:
                return 0
            return int(cur.execute(f"SELECT count(*) FROM {TABLE} WHERE {where}", params).fetchone()[0])

    def _reset_sync(self) -> None:
        with self._write, self._cursor() as cur:
            cur.execute(f"DROP TABLE IF EXISTS {TABLE}")  # takes its HNSW index along
            cur.execute("DELETE FROM hipocampo_index_meta WHERE key IN ('vector_model', 'vector_dim')")
            cur.execute("CHECKPOINT")

    def _close_sync(self) -> None:
        self._conn.close()


def _insert(cur: Any, rows: list[VectorRow], dim: int) -> None:
    """One statement per batch, with nothing converted value by value in Python.

    Binding Python lists of floats as parameters costs about 0.1 ms per float in the DuckDB
    client (1,000 vectors took minutes), and JSON-encoded vectors cost seconds per thousand. So
    DuckDB scans the vectors straight from a numpy array named in the statement (a 2-D array is
    read as one column per first-axis row: column0 holds each row's position, the others its
    vector), and the strings come in one JSON parameter, picked by that position: a row's id and
    vector can never be paired with another row's, whatever order the scan runs in.
    """
    n = len(rows)
    _hipocampo_batch = np.ascontiguousarray(  # noqa: F841 - read by the statement below
        np.vstack([np.arange(n, dtype=np.float32)[None, :], np.stack([r.vec for r in rows]).T]), dtype=np.float32
    )
    meta = json.dumps(
        {
            "id": [r.memory_id for r in rows],
            "tenant": [r.tenant_id for r in rows],
            "user": [r.user_id for r in rows],
            "agent": [r.agent_id for r in rows],
            "thread": [r.thread_id for r in rows],
            "kind": [r.kind for r in rows],
        }
    )
    shape = json.dumps({k: ["VARCHAR"] for k in ("id", "tenant", "user", "agent", "thread", "kind")})
    at = "column0::INTEGER + 1"
    vector = ", ".join(f"column{i + 1}" for i in range(dim))
    cur.execute(
        f"INSERT OR REPLACE INTO {TABLE} SELECT j.id[{at}], j.tenant[{at}], j.user[{at}], j.agent[{at}],"
        f" j.thread[{at}], j.kind[{at}], [{vector}]::FLOAT[{int(dim)}]"
        f" FROM _hipocampo_batch, (SELECT json_transform(?, '{shape}') AS j)",
        [meta],
    )


def _literal(query: np.ndarray) -> str:
    """The query vector as a SQL literal: only finite floats, so nothing but numbers gets into the
    statement, and DuckDB parses it far faster than it binds a list parameter."""
    if not np.all(np.isfinite(query)):
        raise ValueError("the query vector holds a NaN or an infinity")
    return "'[" + ",".join(map(repr, query.astype(np.float32).tolist())) + "]'"


def _held(cur: Any) -> tuple[str, int] | None:
    meta = dict(cur.execute("SELECT key, value FROM hipocampo_index_meta").fetchall())
    if "vector_model" not in meta:
        return None
    return meta["vector_model"], int(meta["vector_dim"])


def _claim(cur: Any, model: str, dim: int) -> None:
    """The first vector fixes the model and dimension: the table's column is ``FLOAT[dim]``."""
    cur.execute("BEGIN")
    try:
        cur.execute(
            f"CREATE TABLE IF NOT EXISTS {TABLE} (memory_id VARCHAR PRIMARY KEY, tenant_id VARCHAR NOT NULL,"
            " user_id VARCHAR NOT NULL, agent_id VARCHAR NOT NULL, thread_id VARCHAR NOT NULL,"
            f" kind VARCHAR NOT NULL, vec FLOAT[{int(dim)}] NOT NULL)"
        )
        cur.execute(f"CREATE INDEX IF NOT EXISTS {TABLE}_hnsw ON {TABLE} USING HNSW (vec) WITH (metric = 'cosine')")
        cur.execute("INSERT INTO hipocampo_index_meta VALUES ('vector_model', ?), ('vector_dim', ?)", [model, str(dim)])
        cur.execute("COMMIT")
    except BaseException:
        cur.execute("ROLLBACK")
        raise


def _where(scope: Scope, *, exclude_thread: str | None = None, thread_id: str | None = None) -> tuple[str, list[Any]]:
    """The scope's rows: tenant and user always; agent-only scopes also see shared rows."""
    sql = "tenant_id = ? AND user_id = ?"
    params: list[Any] = [scope.tenant_id, scope.user_id]
    if scope.agent_only and scope.agent_id is not None:
        sql += " AND agent_id IN (?, ?)"
        params += [scope.agent_id, SHARED]
    if exclude_thread is not None:
        sql += " AND thread_id <> ?"
        params.append(exclude_thread)
    if thread_id is not None:
        sql += " AND thread_id = ?"
        params.append(thread_id)
    return sql, params
