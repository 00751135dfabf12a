"""The vector index in ChromaDB: one collection per embedding model and dimension, cosine space.

Each vector's metadata carries ``tenant_id``, ``user_id``, ``agent_id``, ``thread_id`` and
``kind``, and every read filters on tenant and user in Chroma's ``where``, so one user's search
never ranks another's vectors. hipocampo always passes its own embeddings: collections are
created and opened with no embedding function, because Chroma's default one downloads a model
(and fails offline); no call here ever hands Chroma a text to embed.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from typing import Any
from urllib.parse import parse_qs, urlsplit

import numpy as np

from ...domain.errors import ConfigurationError, DimensionMismatch, IndexUnavailable
from ...domain.model import Scope
from ...ports import MemoryStore
from ..external_vectors import SHARED, ExternalVectorIndex, VectorRow, refuse_model, refuse_query

try:
    import chromadb
    from chromadb.api.models.Collection import Collection
    from chromadb.errors import NotFoundError
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError(f"{exc}; pip install 'hipocampo[chroma]'") from exc

MODEL_KEY = "hipocampo_model"
DIM_KEY = "hipocampo_dim"
_PREFIX = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9._-]{0,100}$")


def open_vector_index(url: str, *, memories: MemoryStore) -> ChromaVectorIndex:
    """``chroma:///dir`` (a persistent embedded client in that directory), ``chroma+http://host:port``
    or ``chroma+https://host:port`` (a Chroma server). ``?collection=name`` prefixes the
    collections' names (default ``hipocampo``), so several deployments can share one server."""
    scheme, rest = url.split("://", 1)
    rest, _, query = rest.partition("?")
    prefix = parse_qs(query).get("collection", ["hipocampo"])[-1]
    if not _PREFIX.match(prefix):
        raise ConfigurationError(f"chroma collection name {prefix!r}: use letters, digits, '.', '_' or '-'")
    settings = chromadb.Settings(anonymized_telemetry=False)  # never phone home
    if scheme == "chroma":
        path = os.path.expanduser(rest.removeprefix("/"))
        if not path:
            raise ConfigurationError("chroma:///path/to/dir needs a directory")
        client = chromadb.PersistentClient(path=path, settings=settings)
    else:
        parts = urlsplit(f"{scheme}://{rest}")
        if not parts.hostname:
            raise ConfigurationError(f"{scheme}://host:port needs a host")
        ssl = scheme == "chroma+https"
        try:
            client = chromadb.HttpClient(
                host=parts.hostname, port=parts.port or (443 if ssl else 8000), ssl=ssl, settings=settings
            )
        except Exception as exc:  # the client checks the server on creation
            raise IndexUnavailable(f"cannot reach the Chroma server at {parts.hostname}:{parts.port}: {exc}") from exc
    return ChromaVectorIndex(client, memories, prefix=prefix)


class ChromaVectorIndex(ExternalVectorIndex):
    def __init__(self, client: Any, memories: MemoryStore, *, prefix: str = "hipocampo") -> None:
        super().__init__(memories)
        self._client = client
        self._prefix = prefix
        self._names = re.compile(rf"^{re.escape(prefix)}-\d+-[0-9a-f]{{12}}$")
        self._held: tuple[Collection, str, int] | None = None  # only a found collection is cached
        self._lock = threading.Lock()
        self._batch = int(getattr(client, "get_max_batch_size", lambda: 1000)())

    def _upsert_sync(self, rows: list[VectorRow], model: str, dim: int) -> None:
        with self._lock:  # two batches of one process must not create two collections
            held = self._collection(refresh=True)
            if held is None:
                collection = self._client.get_or_create_collection(
                    f"{self._prefix}-{dim}-{hashlib.sha1(model.encode()).hexdigest()[:12]}",
                    embedding_function=None,
                    configuration={"hnsw": {"space": "cosine"}},
                    metadata={MODEL_KEY: model, DIM_KEY: dim},
                )
                held = self._held = (collection, model, dim)
        collection, held_model, held_dim = held
        refuse_model((held_model, held_dim), model, dim)
        for start in range(0, len(rows), self._batch):
            chunk = rows[start : start + self._batch]
            collection.upsert(
                ids=[r.memory_id for r in chunk],
                embeddings=np.stack([r.vec for r in chunk]),
                metadatas=[
                    {
                        "tenant_id": r.tenant_id,
                        "user_id": r.user_id,
                        "agent_id": r.agent_id,
                        "thread_id": r.thread_id,
                        "kind": r.kind,
                    }
                    for r in chunk
                ],
            )

    def _search_sync(
        self, scope: Scope, query: np.ndarray, k: int, exclude_thread: str | None
    ) -> list[tuple[str, float]]:
        def search(collection: Collection, dim: int) -> list[tuple[str, float]]:
            refuse_query(query, dim)
            where = _where(scope, exclude_thread=exclude_thread)
            found = collection.query(query_embeddings=[query], n_results=k, where=where, include=["distances"])
            distances = found["distances"] or [[]]  # asked for in ``include``: always there
            return [(mid, 1.0 - float(d)) for mid, d in zip(found["ids"][0], distances[0], strict=True)]

        try:
            return self._on_collection(search, [])
        except (DimensionMismatch, IndexUnavailable):
            raise
        except Exception as exc:  # a server gone, a timeout: recall goes on with keyword search alone
            raise IndexUnavailable(f"Chroma did not answer the search ({type(exc).__name__}: {exc})") from exc

    def _delete_sync(self, scope: Scope, memory_ids: list[str] | None, thread_id: str | None) -> None:
        where = _where(scope, thread_id=thread_id)

        def delete(collection: Collection, _dim: int) -> None:
            if memory_ids is None:
                collection.delete(where=where)
            for start in range(0, len(memory_ids or ()), self._batch):
                collection.delete(ids=memory_ids[start : start + self._batch], where=where)  # type: ignore[index]

        self._on_collection(delete, None)

    def _get_sync(self, scope: Scope, memory_ids: list[str]) -> dict[str, np.ndarray]:
        def get(collection: Collection, _dim: int) -> dict[str, np.ndarray]:
            found: dict[str, np.ndarray] = {}
            for start in range(0, len(memory_ids), self._batch):
                got = collection.get(
                    ids=memory_ids[start : start + self._batch], where=_where(scope), include=["embeddings"]
                )
                vectors: Any = got["embeddings"]  # asked for in ``include``: always there
                for mid, vec in zip(got["ids"], vectors, strict=True):
                    found[mid] = np.array(vec, dtype=np.float32)
            return found

        return self._on_collection(get, {})

    def _info_sync(self) -> dict[str, Any]:
        models: dict[str, int] = {}
        total = 0
        for collection in self._ours():
            n = collection.count()
            if n:
                models[collection.metadata[MODEL_KEY]] = int(collection.metadata[DIM_KEY])
                total += n
        return {"models": models, "vectors": total}

    def _count_sync(self, scope: Scope, kind: str | None) -> int:
        where = _where(scope, kind=kind)
        return self._on_collection(lambda c, _dim: len(c.get(where=where, include=[])["ids"]), 0)

    def _reset_sync(self) -> None:
        with self._lock:
            for collection in self._ours():
                self._client.delete_collection(collection.name)
            self._held = None

    def _ours(self) -> list[Collection]:
        return [c for c in self._client.list_collections() if self._names.match(c.name)]

    def _collection(self, *, refresh: bool = False) -> tuple[Collection, str, int] | None:
        """The collection this index writes to, found again when another client reset it."""
        if self._held is not None and not refresh:
            return self._held
        ours = [c for c in self._ours() if (c.metadata or {}).get(MODEL_KEY)]
        if not ours:
            self._held = None
            return None
        if len(ours) > 1:  # two processes indexed with two models at once
            raise IndexUnavailable(
                f"Chroma holds {len(ours)} hipocampo collections ({', '.join(c.name for c in ours)}); "
                "run `hipocampo reindex` to keep one"
            )
        found = self._client.get_collection(ours[0].name, embedding_function=None)
        self._held = (found, str(found.metadata[MODEL_KEY]), int(found.metadata[DIM_KEY]))
        return self._held

    def _on_collection(self, fn: Any, empty: Any) -> Any:
        """``fn(collection, dim)`` on the current collection; ``empty`` when there is none. A
        collection deleted by another client (a reset elsewhere) is looked up again, once."""
        held = self._collection()
        if held is None:
            return empty
        try:
            return fn(held[0], held[2])
        except (NotFoundError, DimensionMismatch):  # the cached collection may be another client's past
            fresh = self._collection(refresh=True)
            if fresh is None:
                return empty
            if fresh[0].id == held[0].id:
                raise
            return fn(fresh[0], fresh[2])


def _where(
    scope: Scope, *, exclude_thread: str | None = None, thread_id: str | None = None, kind: str | None = None
) -> dict[str, Any]:
    """Chroma's ``where`` for the scope: tenant and user always; agent-only scopes also see the
    memories shared by every agent."""
    terms: list[dict[str, Any]] = [{"tenant_id": scope.tenant_id}, {"user_id": scope.user_id}]
    if scope.agent_only and scope.agent_id is not None:
        terms.append({"agent_id": {"$in": [scope.agent_id, SHARED]}})
    if exclude_thread is not None:
        terms.append({"thread_id": {"$ne": exclude_thread}})
    if thread_id is not None:
        terms.append({"thread_id": thread_id})
    if kind is not None:
        terms.append({"kind": kind})
    return {"$and": terms}
