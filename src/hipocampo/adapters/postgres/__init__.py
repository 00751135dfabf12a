"""Postgres adapters: every storage port on one Postgres database with pgvector, for many
stateless servers and workers sharing it.

``HIPOCAMPO_DB=postgresql://user:pass@host/db``. The schema is applied by ``hipocampo migrate``
(:func:`.schema.migrate`), never by opening: :func:`open_storage` refuses a database whose
schema is behind, with a message naming the command to run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...ports import Clock, Storage
    from ...settings import StorageSettings


def conninfo(url: str) -> str:
    """The URL as libpq takes it: the ``postgres://`` and ``postgresql+psycopg://`` spellings the
    backend registry accepts become ``postgresql://``."""
    scheme, sep, rest = url.partition("://")
    if sep and scheme.lower() in ("postgres", "postgresql+psycopg"):
        return f"postgresql://{rest}"
    return url


async def open_storage(url: str, *, clock: Clock, settings: StorageSettings) -> Storage:
    """Every storage port over one connection pool to the database at ``url``."""
    from ...ports import Storage
    from .db import PostgresDatabase
    from .idempotency import PostgresIdempotencyStore
    from .jobs import PostgresJobQueue
    from .keywords import PostgresKeywordIndex
    from .memories import PostgresMemoryStore
    from .messages import PostgresMessageLog
    from .schema import check_schema
    from .summaries import PostgresSummaryStore
    from .tenants import PostgresTenantStore
    from .vectors import PostgresVectorIndex

    db = await PostgresDatabase.open(conninfo(url), max_size=settings.pg_pool_size)
    try:
        async with db.connection() as conn:
            await check_schema(conn, url)
    except BaseException:
        await db.close()
        raise
    return Storage(
        uow=db,
        log=PostgresMessageLog(db, clock),
        memories=PostgresMemoryStore(db),
        vectors=PostgresVectorIndex(db, settings),
        keywords=PostgresKeywordIndex(db),
        jobs=PostgresJobQueue(db, clock),
        summaries=PostgresSummaryStore(db),
        tenants=PostgresTenantStore(db),
        idempotency=PostgresIdempotencyStore(db),
        close=db.close,
        backend="postgresql",
    )
