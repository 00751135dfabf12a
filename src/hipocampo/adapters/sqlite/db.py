"""One SQLite file (WAL) shared by every SQLite store, with an async face.

Why the threads: the stdlib ``sqlite3`` module is blocking. Writes run on one dedicated writer
thread (SQLite allows one writer anyway), reads on a reader thread with its own connection so
recall never waits behind the worker's batch. A transaction opened with :meth:`transaction` is
tracked in a context variable; store calls inside it run on the writer connection and commit
together, which is what makes the outbox and the indexing step atomic.

A store that cannot take writes (read-only file, full disk, I/O error, a lock past the busy
timeout) raises :class:`~hipocampo.domain.errors.StorageUnavailable`, and recovers by itself once
the cause is gone: a writer connection that SQLite opened read-only is replaced at the next write.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from ...domain.errors import ConfigurationError
from ..sql.dialect import Query
from .errors import needs_reopen, storage_unavailable
from .schema import migrate

T = TypeVar("T")
log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 30_000
REOPEN_EVERY_SECONDS = 1.0
"""While the file stays read-only, every write would reopen the connections for nothing."""


class SqliteDatabase:
    """Owns the connections and the migrations. Create with :meth:`open`, finish with :meth:`close`."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="hipocampo-sqlite-writer")
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="hipocampo-sqlite-reader")
        self._wconn: sqlite3.Connection | None = None
        self._rconn: sqlite3.Connection | None = None
        self._write_lock: asyncio.Lock | None = None
        self._in_tx: contextvars.ContextVar[bool] = contextvars.ContextVar(f"tx-{id(self)}", default=False)
        self._reopen_writer = False  # set when the connections can only recover by reopening
        self._reopened_at = -REOPEN_EVERY_SECONDS

    @classmethod
    async def open(cls, path: str) -> SqliteDatabase:
        db = cls(path)
        if path != ":memory:":
            try:
                Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise ConfigurationError(f"cannot create the folder for {path}: {exc}") from exc
        loop = asyncio.get_running_loop()
        db._wconn = await loop.run_in_executor(db._writer, db._connect, True)
        db._rconn = await loop.run_in_executor(db._reader, db._connect, False)
        return db

    def _connect(self, writer: bool) -> sqlite3.Connection:
        if self.path == ":memory:":
            # Reader and writer must share one in-memory database: a named shared-cache URI.
            target, uri = f"file:hipocampo-{id(self)}?mode=memory&cache=shared", True
        else:
            target, uri = str(Path(self.path).expanduser()), False
        try:
            conn = sqlite3.connect(target, isolation_level=None, check_same_thread=False, uri=uri)
        except sqlite3.Error as exc:
            raise storage_unavailable(exc) or ConfigurationError(f"cannot open database {target}: {exc}") from exc
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        if writer:
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")  # durable across process crashes in WAL
                migrate(conn)
            except sqlite3.DatabaseError as exc:
                conn.close()
                unavailable = storage_unavailable(exc)
                raise unavailable or ConfigurationError(f"{target} is not a usable hipocampo database: {exc}") from exc
        return conn

    @property
    def in_transaction(self) -> bool:
        return self._in_tx.get()

    def _lock(self) -> asyncio.Lock:
        if self._write_lock is None:
            self._write_lock = asyncio.Lock()
        return self._write_lock

    async def _run(self, executor: ThreadPoolExecutor, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn`` on ``executor``'s thread; a storage failure becomes :class:`StorageUnavailable`."""
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)
        except sqlite3.Error as exc:
            unavailable = storage_unavailable(exc)
            if unavailable is None:
                raise
            if executor is self._writer and needs_reopen(exc):
                self._reopen_writer = True
            raise unavailable from exc

    async def _usable_writer(self) -> sqlite3.Connection:
        """The writer connection, reopened first if a read-only error said it must be (at most
        once per ``REOPEN_EVERY_SECONDS``). Call with the write lock held and no transaction open.

        Both connections are closed before either opens again: connections of one process share
        SQLite's WAL index, which stays read-only while any connection opened read-only is open."""
        due = time.monotonic() - self._reopened_at >= REOPEN_EVERY_SECONDS
        if self._wconn is None or (self._reopen_writer and due):
            self._reopened_at = time.monotonic()
            stale, self._wconn = self._wconn, None
            if stale is not None:
                await asyncio.get_running_loop().run_in_executor(self._writer, stale.close)
            await self._run(self._reader, self._reopen_reader)
            self._wconn = await self._run(self._writer, self._connect, True)
            self._reopen_writer = False
            log.debug("reopened the connections of %s", self.path)
        return self._wconn

    def _reopen_reader(self) -> None:
        # On the reader thread, so no read is using the connection while it is replaced.
        stale, self._rconn = self._rconn, None
        if stale is not None:
            stale.close()
        self._rconn = self._connect(False)

    def _on_reader(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        # The connection is looked up when the read runs, not when it was queued: a reopen may
        # have replaced it in between.
        if self._rconn is None:  # a reopen failed to connect: try again
            self._rconn = self._connect(False)
        return fn(self._rconn)

    async def write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` on the writer connection: inside the open transaction, or in its own."""
        if self._in_tx.get():
            return await self._run(self._writer, fn, self._wconn)
        async with self._lock():
            return await self._run(self._writer, _in_own_transaction, await self._usable_writer(), fn)

    async def read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` on the reader connection (or the writer's, inside a transaction)."""
        if self._in_tx.get():
            return await self._run(self._writer, fn, self._wconn)
        return await self._run(self._reader, self._on_reader, fn)

    async def fetch_all(self, query: Query, *, write: bool = False) -> list[sqlite3.Row]:
        """Every row of ``query`` (a statement and its parameters); ``write``: it changes rows
        (``RETURNING``), so it runs on the writer connection."""
        sql, params = query
        run = self.write if write else self.read
        return await run(lambda c: c.execute(sql, params).fetchall())

    async def fetch_one(self, query: Query, *, write: bool = False) -> sqlite3.Row | None:
        """The first row of ``query``, or None. A write's statement is run to its end (its
        cursor drained) before the transaction it runs in commits."""
        sql, params = query
        if not write:
            return await self.read(lambda c: c.execute(sql, params).fetchone())
        rows = await self.write(lambda c: c.execute(sql, params).fetchall())
        return rows[0] if rows else None

    async def execute(self, query: Query) -> int:
        """Run a write; returns how many rows it touched."""
        sql, params = query
        return await self.write(lambda c: c.execute(sql, params).rowcount)

    async def probe_write(self) -> None:
        """Commit a tiny write now, or raise :class:`StorageUnavailable`: what readiness asks.

        Part of the unit-of-work face, so that any store (a Postgres one too) can answer it. Here
        it rewrites the one row of a ``health`` table in its own transaction, and on the way
        writes and frees a page-sized row, so that a database with no room left to grow (a full
        disk) fails the probe like the writes it stands for."""
        await self.write(_touch_health)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        if self._in_tx.get():  # nested: join the outer transaction
            yield
            return
        loop = asyncio.get_running_loop()
        async with self._lock():
            conn = await self._usable_writer()
            await self._run(self._writer, _execute, conn, "BEGIN IMMEDIATE")
            token = self._in_tx.set(True)
            try:
                yield
            except BaseException:
                await loop.run_in_executor(self._writer, _rollback, conn)
                raise
            else:
                await self._run(self._writer, _commit, conn)
            finally:
                self._in_tx.reset(token)

    async def close(self) -> None:
        loop = asyncio.get_running_loop()
        if self._wconn is not None:  # keep the planner's statistics fresh, as SQLite recommends
            try:
                await loop.run_in_executor(self._writer, _execute, self._wconn, "PRAGMA optimize")
            except sqlite3.Error as exc:  # a store that cannot be written must still close
                log.warning("PRAGMA optimize failed while closing %s: %s", self.path, exc)
        for executor, conn in ((self._writer, self._wconn), (self._reader, self._rconn)):
            if conn is not None:
                await loop.run_in_executor(executor, conn.close)
            executor.shutdown(wait=True)
        self._wconn = self._rconn = None


def _execute(conn: sqlite3.Connection, sql: str) -> None:
    conn.execute(sql)


def _rollback(conn: sqlite3.Connection) -> None:
    """Undo the open transaction, if there still is one. After a full disk, an I/O error or a
    failed COMMIT SQLite may have rolled it back itself, and a second ROLLBACK would only fail
    with "no transaction is active" and bury the error that matters."""
    if not conn.in_transaction:
        return
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error as exc:
        log.warning("rollback failed: %s", exc)


def _commit(conn: sqlite3.Connection) -> None:
    try:
        conn.execute("COMMIT")
    except BaseException:
        _rollback(conn)
        raise


def _in_own_transaction(conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = fn(conn)
    except BaseException:
        _rollback(conn)
        raise
    _commit(conn)
    return result


def _touch_health(conn: sqlite3.Connection) -> None:
    # The probe's own table, made on first use: it holds no data anyone reads, so no migration.
    conn.execute("CREATE TABLE IF NOT EXISTS health (id INTEGER PRIMARY KEY, probed_at REAL NOT NULL, pad BLOB)")
    (page_size,) = conn.execute("PRAGMA page_size").fetchone()
    conn.execute("INSERT OR REPLACE INTO health (id, probed_at, pad) VALUES (2, 0, zeroblob(?))", (page_size,))
    conn.execute("DELETE FROM health WHERE id = 2")
    conn.execute(
        "INSERT INTO health (id, probed_at) VALUES (1, ?)"
        " ON CONFLICT (id) DO UPDATE SET probed_at = excluded.probed_at",
        (time.time(),),
    )
