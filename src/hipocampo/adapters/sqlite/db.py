"""One SQLite file (WAL) shared by every SQLite store, with an async face.

Why the threads: the stdlib ``sqlite3`` module is blocking. Writes run on one dedicated writer
thread (SQLite allows one writer anyway), reads on a reader thread with its own connection so
recall never waits behind the worker's batch. A transaction opened with :meth:`transaction` is
tracked in a context variable; store calls inside it run on the writer connection and commit
together, which is what makes the outbox and the indexing step atomic.
"""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

from ...domain.errors import ConfigurationError
from .schema import migrate

T = TypeVar("T")

BUSY_TIMEOUT_MS = 30_000


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
            raise ConfigurationError(f"cannot open database {target}: {exc}") from exc
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        if writer:
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")  # durable across process crashes in WAL
                migrate(conn)
            except sqlite3.DatabaseError as exc:
                raise ConfigurationError(f"{target} is not a usable hipocampo database: {exc}") from exc
        return conn

    @property
    def in_transaction(self) -> bool:
        return self._in_tx.get()

    def _lock(self) -> asyncio.Lock:
        if self._write_lock is None:
            self._write_lock = asyncio.Lock()
        return self._write_lock

    async def write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` on the writer connection: inside the open transaction, or in its own."""
        loop = asyncio.get_running_loop()
        if self._in_tx.get():
            return await loop.run_in_executor(self._writer, fn, self._wconn)
        async with self._lock():
            return await loop.run_in_executor(self._writer, _in_own_transaction, self._wconn, fn)

    async def read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` on the reader connection (or the writer's, inside a transaction)."""
        loop = asyncio.get_running_loop()
        if self._in_tx.get():
            return await loop.run_in_executor(self._writer, fn, self._wconn)
        return await loop.run_in_executor(self._reader, fn, self._rconn)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        if self._in_tx.get():  # nested: join the outer transaction
            yield
            return
        loop = asyncio.get_running_loop()
        async with self._lock():
            await loop.run_in_executor(self._writer, _execute, self._wconn, "BEGIN IMMEDIATE")
            token = self._in_tx.set(True)
            try:
                yield
            except BaseException:
                await loop.run_in_executor(self._writer, _execute, self._wconn, "ROLLBACK")
                raise
            else:
                await loop.run_in_executor(self._writer, _execute, self._wconn, "COMMIT")
            finally:
                self._in_tx.reset(token)

    async def close(self) -> None:
        loop = asyncio.get_running_loop()
        if self._wconn is not None:  # keep the planner's statistics fresh, as SQLite recommends
            await loop.run_in_executor(self._writer, _execute, self._wconn, "PRAGMA optimize")
        for executor, conn in ((self._writer, self._wconn), (self._reader, self._rconn)):
            if conn is not None:
                await loop.run_in_executor(executor, conn.close)
            executor.shutdown(wait=True)
        self._wconn = self._rconn = None


def _execute(conn: sqlite3.Connection, sql: str) -> None:
    conn.execute(sql)


def _in_own_transaction(conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = fn(conn)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return result
