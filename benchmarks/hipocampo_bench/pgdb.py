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


class RoundTrips:
    """Counts the round trips this process makes to Postgres while it is active (a benchmark's
    instrument, never the product's): each statement sent outside a pipeline is one, and a
    pipeline (however many statements it carries, answered at its sync) is one.

    It wraps psycopg's async cursor and pipeline methods for the block's duration, so it counts
    every statement of every connection of the process, background writes included (a recall's
    access count, for one)."""

    def __init__(self) -> None:
        self.count = 0
        self._saved: list[tuple[type, str, object]] = []

    def __enter__(self) -> RoundTrips:
        import psycopg

        counter = self

        def wrap(cls: type, name: str, counts: object) -> None:
            original = getattr(cls, name)
            self._saved.append((cls, name, original))

            async def counted(obj: object, *args: object, **kwargs: object) -> object:
                if counts(obj):  # type: ignore[operator]
                    counter.count += 1
                return await original(obj, *args, **kwargs)

            setattr(cls, name, counted)

        def outside_pipeline(cur: object) -> bool:
            return getattr(cur.connection, "_pipeline", None) is None  # type: ignore[attr-defined]

        wrap(psycopg.AsyncCursor, "execute", outside_pipeline)
        wrap(psycopg.AsyncCursor, "executemany", outside_pipeline)
        wrap(psycopg.AsyncPipeline, "__aenter__", lambda p: p.level == 0)
        return self

    def __exit__(self, *exc: object) -> None:
        for cls, name, original in reversed(self._saved):
            setattr(cls, name, original)
        self._saved.clear()
