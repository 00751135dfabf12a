"""The storage backends, chosen by the scheme of the database URL.

``HIPOCAMPO_DB`` (``Memory.open(db)``, ``--db``) takes a URL or a plain path:

- a path or ``sqlite:///path``: the embedded default, one SQLite file;
- ``postgresql://user:pass@host/db``: Postgres with pgvector, for many servers and workers;
- ``memory://`` (or ``memory://name`` to share one store inside a process): in-process fakes.

A backend is a :class:`Backend` object that opens, migrates and identifies a store, registered
under its URL scheme as an entry point of the ``hipocampo.backends`` group
(:mod:`hipocampo.plugins`; hipocampo's own three are registered the same way, in its
``pyproject.toml``). ``hipocampo migrate``, ``move`` and ``doctor`` ask the object; none of them
knows a scheme. A plain ``open_storage(url, *, clock, settings)`` function registered there is a
backend with no schema to migrate. Packages are imported only when their scheme is used, so a
SQLite user never imports a Postgres driver.

``HIPOCAMPO_VECTORS`` (``Memory.open(vectors=...)``) moves the vector index alone to another engine
(ChromaDB, DuckDB, a plugin's; see :data:`VECTOR_INDEXES`); :func:`open_storage` swaps it in, so
every caller that opens storage gets it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import plugins
from .backend_port import Backend, OpenStorage
from .domain.errors import ConfigurationError
from .domain.urls import redact

if TYPE_CHECKING:
    from .ports import Clock, Storage
    from .settings import Settings, StorageSettings

__all__ = [
    "ALIASES",
    "BACKENDS",
    "VECTOR_INDEXES",
    "Backend",  # the port (hipocampo.ports), named here too: where backend authors look for it
    "OpenStorage",
    "backend_for",
    "local_size",
    "open_storage",
    "redact",
    "scheme_of",
    "vector_scheme_of",
    "with_vector_index",
]

BACKENDS = plugins.backends
"""URL scheme -> the ``open_storage`` that opens it (``scheme in BACKENDS``, ``BACKENDS.names()``)."""

ALIASES = {"postgres": "postgresql", "postgresql+psycopg": "postgresql"}

VECTOR_INDEXES = plugins.vector_indexes
"""``HIPOCAMPO_VECTORS`` URL scheme -> the ``open_vector_index(url, *, memories)`` that opens a vector
index in another engine: entry points of ``hipocampo.vector_indexes`` (hipocampo's chroma and
duckdb, and plugins'). Empty setting: the database's own index."""


def backend_for(target: str) -> Backend:
    """The :class:`Backend` of the scheme ``target`` names (a plain ``open_storage`` registered by
    a plugin is wrapped as one)."""
    loaded = BACKENDS.load(scheme_of(target))  # a missing extra is named: pip install 'hipocampo[postgres]'
    return loaded if isinstance(loaded, Backend) else Backend(loaded)


def scheme_of(target: str) -> str:
    """The backend a database setting names: its URL scheme, or ``sqlite`` for a plain path."""
    if "://" not in target:
        return "sqlite"
    scheme = target.split("://", 1)[0].lower()
    scheme = ALIASES.get(scheme, scheme)
    if scheme not in BACKENDS:
        raise ConfigurationError(
            f"unsupported database URL {scheme}://...; use a file path, sqlite:///path, postgresql://... or "
            f"memory:// (installed backends: {', '.join(BACKENDS.names())})"
        )
    return scheme


def local_size(target: str) -> int | None:
    """Bytes on this machine's disk for a file database; None for a server or in-memory one."""
    return backend_for(target).local_size(target)


async def open_storage(target: str, *, clock: Clock, settings: Settings | StorageSettings) -> Storage:
    """Open every storage port of the backend ``target`` names; the backend is given the storage
    section of ``settings`` only."""
    section = settings.sections.storage if hasattr(settings, "sections") else settings
    storage = await backend_for(target).open(target, clock=clock, settings=section)
    if not section.vectors:
        return storage
    try:
        return await with_vector_index(storage, section.vectors)
    except BaseException:
        await storage.close()
        raise


def vector_scheme_of(target: str) -> str:
    """The engine a ``HIPOCAMPO_VECTORS`` URL names, or a clear error."""
    scheme = target.split("://", 1)[0].lower() if "://" in target else ""
    if scheme not in VECTOR_INDEXES:
        raise ConfigurationError(
            f"unsupported vector index {target!r}; use chroma:///dir, chroma+http://host:port, "
            "duckdb:///file.duckdb, or leave it empty for the database's own index "
            f"(installed vector indexes: {', '.join(VECTOR_INDEXES.names())})"
        )
    return scheme


async def with_vector_index(storage: Storage, target: str) -> Storage:
    """``storage`` with its vectors in the engine ``target`` names instead of its own index.

    The log, memories and keywords stay where they are; the memory store is wrapped so that
    deleting memories (one, a thread, a user) deletes their vectors in the other engine too.
    """
    import asyncio
    from dataclasses import replace

    from .adapters.external_vectors import CascadingMemoryStore

    scheme = vector_scheme_of(target)
    open_vector_index = VECTOR_INDEXES.load(scheme)  # a missing extra is named: pip install 'hipocampo[chroma]'
    # Clients connect (and an embedded engine opens its files) on creation: off the event loop.
    index = await asyncio.to_thread(open_vector_index, target, memories=storage.memories)
    close_storage = storage.close

    async def close() -> None:
        try:
            await index.close()
        finally:
            await close_storage()

    return replace(storage, vectors=index, memories=CascadingMemoryStore(storage.memories, index), close=close)
