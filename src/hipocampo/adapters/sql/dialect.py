"""What differs between the SQL engines the built-in backends speak, as one small value.

The SQLite and Postgres stores run the same statements on the same tables; only a handful of
things are spelled differently. Each is one field of :class:`Dialect`, a pure function or a
word, so a shared builder asks the dialect instead of branching on the engine's name, and an
engine's folder states its differences in one place (``sqlite/dialect.py``, ``postgres/dialect.py``):

- placeholders: SQLite's ``?`` against psycopg's ``%s``. Shared statements are written with ``?``
  and :attr:`Dialect.sql` turns them into the engine's (so they hold no ``?`` operator);
- a list of ids: SQLite's ``IN (?, ?, ?)`` against Postgres's ``= ANY(%s)`` with the list as one
  array parameter. Postgres then keeps one statement text whatever the number of ids, so the
  server reuses its plan; SQLite has no arrays;
- how a time and a JSON value are written and read: SQLite stores float epochs and JSON text,
  Postgres ``timestamptz`` (psycopg hands back aware datetimes) and ``jsonb`` (decoded already);
- JSON access (``json_extract`` against ``->>``), a NULL-safe "differs from" (``IS DISTINCT
  FROM`` on Postgres), the scalar maximum (``max`` against ``greatest``), what a negative
  ``LIMIT`` means, byte-order sorting, a share lock on rows read in a transaction, and SQLite's
  unary ``+`` that keeps its planner on the id index.

The upserts are written once: both engines take ``INSERT ... ON CONFLICT (...) DO UPDATE SET c =
excluded.c`` (see :func:`~.where.upsert`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeAlias

Query: TypeAlias = tuple[str, Sequence[Any]]
"""A statement and its parameters: what a pure builder returns, and a :class:`Database` runs."""

Row: TypeAlias = Any
"""A result row read by column name (``sqlite3.Row`` or psycopg's dict row)."""


class Database(Protocol):
    """What the shared stores need of an engine's database: run a :data:`Query`, in a transaction
    or not. ``write``: the statement changes rows (SQLite runs it on its writer connection)."""

    @property
    def in_transaction(self) -> bool: ...

    def transaction(self) -> AbstractAsyncContextManager[None]: ...

    async def fetch_all(self, query: Query, *, write: bool = False) -> list[Row]: ...

    async def fetch_one(self, query: Query, *, write: bool = False) -> Row | None: ...

    async def execute(self, query: Query) -> int:
        """Run a write; how many rows it touched."""
        ...


def _as_is(what: str, value: Any) -> Any:
    return value


def _metadata_as_is(value: Any, what: str, row_id: str) -> Any:
    return value


@dataclass(frozen=True)
class Dialect:
    """One engine's spelling of what the shared SQL builders need (see the module's docstring)."""

    name: str
    sql: Callable[[str], str]
    """A statement written with ``?`` placeholders, in this engine's style."""
    in_list: Callable[[str, Sequence[Any]], tuple[str, list[Any]]]
    """``(column, values)``: the condition "``column`` is one of ``values``" (never empty), written
    with ``?``, and its parameters."""
    json_text: Callable[[str, str], str]
    """``(column, key)``: the text under ``key`` (a plain identifier) of the JSON object in ``column``."""
    distinct_from: Callable[[str], str]
    """``column``: the condition "``column`` differs from ``?``", true when the column is NULL."""
    time_in: Callable[[datetime | None], Any]
    """A datetime (or None) as the engine's time column takes it."""
    time_out: Callable[[Any], Any]
    """A time column's value as an aware UTC datetime (None stays None)."""
    json_in: Callable[[str, Any], Any]
    """``(what, value)``: a value as the engine's JSON column takes it; ``what`` names it in errors."""
    json_out: Callable[[Any], Any]
    """A JSON column's value as Python."""
    metadata_out: Callable[[Any, str, str], Any] = _metadata_as_is
    """``(value, what, row id)``: a row's metadata as Python. SQLite's repairs what older versions
    stored that no JSON answer can hold."""
    text_in: Callable[[str, Any], Any] = _as_is
    """``(what, value)``: a text as the engine stores it, or InvalidInput (Postgres refuses NUL)."""
    limit: Callable[[int], int] = int
    """A page size as the engine's ``LIMIT`` takes it: SQLite reads a negative one as "no limit"
    (what the in-memory fakes do too); Postgres refuses it, so its adapters have always sent 0."""
    pin_by_id: bool = False
    """Prefix the scope's columns with a unary ``+`` when a statement also selects by unique id
    (see :func:`~.where.scope_filter`)."""
    greatest: str = "greatest"
    """The scalar maximum of its arguments."""
    share_lock: str = ""
    """Appended to a read of rows inside a transaction, so that they stay until it commits."""
    collate_bytes: str = ""
    """Appended to a sort key so that text sorts by its bytes whatever the database's collation."""


__all__ = ["Database", "Dialect", "Query", "Row"]
