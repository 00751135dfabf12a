"""A Postgres database shared by every Postgres store: a psycopg 3 async connection pool.

Why psycopg 3 (not asyncpg): it speaks the same DB-API shape as our SQLite adapters (``%s``
parameters aside), has a maintained pool (``psycopg_pool``), first-class pgvector support
(``pgvector.psycopg``), ``LISTEN/NOTIFY`` on async connections, and server-side binding with
pipelining when we need throughput. asyncpg is faster on micro-benchmarks, but our time goes to
embedding, and psycopg keeps one driver for sync tools (migrations, data moves) and async servers.

A transaction opened with :meth:`transaction` pins one pooled connection in a context variable;
store calls inside the block use it and commit together (the outbox, the quota count and the
idempotent answer ride in the write's transaction). Outside a transaction each call borrows a
connection in autocommit mode, so a single statement is its own transaction.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime, timezone
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from ...domain.errors import ConfigurationError, StorageUnavailable
from ..sql.dialect import Query

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 2.0
"""What a client is told to wait when the database cannot be reached (a restart, a failover)."""


RECONNECT_SECONDS = 2.0
"""How long the pool retries one lost connection before giving the slot up (psycopg_pool's
``reconnect_timeout``). Its default, 5 minutes, doubles the pause between tries, so the next try
after an outage came up to the outage's length later; given up after 2 s, a slot is tried again
by :meth:`PostgresDatabase._recover` while requests wait. Measured (Postgres stopped with
``immediate``, 3 clients calling every 0.2 s): the first call succeeded 5.5-7 s after the server
was back from a 20 s outage and 10-13 s after a 45 s one before; 0.3-1.0 s after either now."""

RECOVER_POLL_SECONDS = 0.5
"""After a loss, how long a probe waits for a connection, and the pause before the pool is asked
to try again."""

_UNAVAILABLE = (psycopg.OperationalError, psycopg.errors.ReadOnlySqlTransaction, PoolTimeout)
"""Conditions of the server, not of the request: down or restarting, a standby that took over
read-only, a full disk, a statement cancelled, a deadlock or serialization failure to retry."""


def _unavailable(exc: BaseException) -> StorageUnavailable:
    return StorageUnavailable(
        f"the database is unavailable ({type(exc).__name__}); retry shortly", retry_after_seconds=RETRY_AFTER_SECONDS
    )


class PostgresDatabase:
    """Owns the pool. Create with :meth:`open`, finish with :meth:`close`."""

    def __init__(self, url: str, pool: AsyncConnectionPool) -> None:
        self.url = url
        self._pool = pool
        self._tx: contextvars.ContextVar[psycopg.AsyncConnection[Any] | None] = contextvars.ContextVar(
            f"pg-tx-{id(self)}", default=None
        )
        self._checking: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls, url: str, *, min_size: int = 1, max_size: int = 10, timeout_s: float = 10.0
    ) -> PostgresDatabase:
        async def configure(conn: psycopg.AsyncConnection[Any]) -> None:
            # Times come back as aware UTC datetimes, whatever the server's default time zone.
            await conn.execute("SET TIME ZONE 'UTC'")
            # pgvector's type is looked up per connection; before `hipocampo migrate` it is absent.
            try:
                from pgvector.psycopg import register_vector_async

                await register_vector_async(conn)
            except psycopg.ProgrammingError:
                pass

        pool = AsyncConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            open=False,
            timeout=timeout_s,
            reconnect_timeout=RECONNECT_SECONDS,
            # No server-side prepared statements (psycopg prepares a query run 5 times): after 5
            # runs of a prepared statement Postgres may switch to a generic plan, made without the
            # parameters, and for per-user queries that plan suits no user. Measured at 1M
            # memories (benchmarks/pg_scale.py): a 10k-memory user's keyword search went from 5 ms
            # to 115-370 ms from its 11th run on. Each statement is now planned for its values
            # (~0.1-0.8 ms), and poolers in transaction mode (PgBouncer) need nothing special.
            kwargs={"autocommit": True, "row_factory": dict_row, "prepare_threshold": None},
            configure=configure,
            name="hipocampo",
        )
        try:
            await pool.open(wait=True, timeout=timeout_s)
        except (PoolTimeout, psycopg.Error) as exc:
            await pool.close()
            raise ConfigurationError(f"cannot connect to Postgres at {_redact(url)}: {exc}") from exc
        return cls(url, pool)

    async def probe_write(self) -> None:
        """Commit a tiny write now, or raise :class:`StorageUnavailable`: what readiness asks.

        It rewrites the one row of the ``health`` table in its own transaction, so a server
        that cannot write (down, a read-only standby after a failover, a full disk) fails it."""
        async with self.transaction(), self.connection() as conn:
            await conn.execute(
                "INSERT INTO health (id, probed_at) VALUES (1, %s)"
                " ON CONFLICT (id) DO UPDATE SET probed_at = excluded.probed_at",
                (datetime.now(timezone.utc),),
            )

    @property
    def in_transaction(self) -> bool:
        return self._tx.get() is not None

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """The open transaction's connection, or a pooled one in autocommit mode."""
        conn = self._tx.get()
        if conn is not None:
            yield conn
            return
        try:
            async with self._pool.connection() as conn:
                yield conn
        except _UNAVAILABLE as exc:
            raise self._lost(exc) from exc

    async def fetch_all(self, query: Query, *, write: bool = False) -> list[dict[str, Any]]:
        """Every row of ``query`` (a statement and its parameters), as dicts, on the open
        transaction's connection or a pooled one. ``write`` is SQLite's concern (one writer)."""
        sql, params = query
        async with self.connection() as conn:
            cur = await conn.execute(sql, params)
            return await cur.fetchall()

    async def fetch_one(self, query: Query, *, write: bool = False) -> dict[str, Any] | None:
        sql, params = query
        async with self.connection() as conn:
            cur = await conn.execute(sql, params)
            return await cur.fetchone()

    async def execute(self, query: Query) -> int:
        """Run a write; returns how many rows it touched."""
        sql, params = query
        async with self.connection() as conn:
            cur = await conn.execute(sql, params)
            return cur.rowcount

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """Every store call inside the block joins one transaction; commit on exit. Nested: join."""
        if self._tx.get() is not None:
            yield
            return
        try:
            async with self._pool.connection() as conn, conn.transaction():
                token = self._tx.set(conn)
                try:
                    yield
                finally:
                    self._tx.reset(token)
        except _UNAVAILABLE as exc:
            raise self._lost(exc) from exc

    def _lost(self, exc: BaseException) -> StorageUnavailable:
        """The error to raise; a lost connection, or none to be had, also starts :meth:`_recover`."""
        if isinstance(exc, (psycopg.OperationalError, PoolTimeout)) and (
            self._checking is None or self._checking.done()
        ):
            self._checking = asyncio.get_running_loop().create_task(self._recover())
        return _unavailable(exc)

    async def _recover(self) -> None:
        """Check the idle connections, then keep the pool trying until it serves a working one.

        A server restart breaks every pooled connection at once, and the pool only notices a
        broken one when it is used: each would fail one more request. Measured after a restart
        with 10 pooled connections: 5-7 of the next 120 calls failed, 3 (those under way) with the
        check. And while the server is down, the pool's retries of a lost connection back off,
        then give up (see :data:`RECONNECT_SECONDS`); requests already queued for a connection
        start nothing new, so they waited until their own timeout (``timeout_s``), up to 10 s after
        the server was back. ``check()`` starts a new attempt whenever none is under way, so this
        asks again until a probe is served a connection that answers. It used to stop as soon as
        no request was waiting at that instant, which a request arriving just after could miss
        (a CI run saw writes stall for over 5 s; ``test_a_request_waiting_through_an_outage...``
        reproduces it)."""
        try:
            await self._pool.check()  # broken idle connections are replaced; an empty pool grows
            while not self._pool.closed:
                try:
                    async with self._pool.connection(timeout=RECOVER_POLL_SECONDS) as conn:
                        await conn.execute("SELECT 1")
                    return
                except _UNAVAILABLE:
                    await self._pool.check()
                    await asyncio.sleep(RECOVER_POLL_SECONDS)
        except Exception:  # the pool retries on its own; the next failure starts this again
            log.debug("recovering the connection pool failed", exc_info=True)

    async def close(self) -> None:
        if self._checking is not None and not self._checking.done():
            self._checking.cancel()
            await asyncio.gather(self._checking, return_exceptions=True)
        await self._pool.close()


def _redact(url: str) -> str:
    from ...domain.urls import redact

    return redact(url)
