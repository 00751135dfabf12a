"""Scratch Postgres databases for benchmarks: one fresh, migrated database per store, dropped after.

A benchmark given a ``postgresql://`` URL treats it as a *server*: every store it would have made
as a temporary SQLite file becomes a database created there (``CREATE DATABASE``, so the user
needs the ``CREATEDB`` right; pgvector must be installed on the server), migrated with
:func:`hipocampo.adapters.postgres.schema.migrate`, and dropped ``WITH (FORCE)`` at the end.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit, urlunsplit


def is_postgres(url: str | None) -> bool:
    return url is not None and url.split("://", 1)[0].lower() in ("postgres", "postgresql", "postgresql+psycopg")


def with_database(server_url: str, name: str) -> str:
    """``server_url`` with its database name replaced by ``name``."""
    return urlunsplit(urlsplit(server_url)._replace(path=f"/{name}"))


def _run(server_url: str, statement: str) -> None:
    import psycopg

    from hipocampo.adapters.postgres import conninfo

    with psycopg.connect(conninfo(server_url), autocommit=True) as conn:
        conn.execute(statement)


@asynccontextmanager
async def scratch_database(server_url: str, prefix: str = "hipocampo_bench") -> AsyncIterator[str]:
    """A fresh, migrated database on the server of ``server_url`` for the block: its URL."""
    from hipocampo.adapters.postgres.schema import migrate

    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    await asyncio.to_thread(_run, server_url, f'CREATE DATABASE "{name}"')
    try:
        url = with_database(server_url, name)
        await migrate(url)
        yield url
    finally:
        await asyncio.to_thread(_run, server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
