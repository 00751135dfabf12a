"""How Postgres spells what the shared SQL core asks (:class:`~..sql.dialect.Dialect`).

Times are ``timestamptz``: microsecond precision, like Python's datetimes, so a time goes in and
comes back exactly (SQLite's float epochs round to about a microsecond). Every connection runs
with ``TimeZone = UTC`` (see :mod:`.db`), so psycopg hands back aware datetimes in UTC, which is
what the domain expects. JSON is ``jsonb``, decoded by psycopg as it is read.

A list of ids travels as one array parameter (``= ANY(%s)``): the statement's text does not change
with the number of ids, so the server reuses its plan.

Postgres text cannot hold a NUL character (SQLite's can). Rather than let such a value fail deep
in the driver as an opaque error, writes check for it first and refuse it as invalid input.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ...domain.errors import InvalidInput
from ...domain.model import as_utc
from ..sql.dialect import Dialect

_JSON_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")
"""``\\u0000`` in JSON text that is an escaped NUL (not an escaped backslash followed by u0000)."""


def utc(value: datetime | None) -> datetime | None:
    """An aware UTC datetime (naive ones are taken as UTC, as everywhere in the domain)."""
    return None if value is None else as_utc(value)


def check_text(what: str, value: str | None) -> str | None:
    """``value`` unchanged, or :class:`InvalidInput` if it holds a NUL character."""
    if value is not None and "\x00" in value:
        raise InvalidInput(f"{what} must not contain NUL characters (\\u0000)")
    return value


def to_json(what: str, value: Any) -> str:
    """``value`` as JSON text for a ``json``/``jsonb`` column. Raises ``TypeError``/``ValueError``
    for what JSON cannot hold (before anything is written) and :class:`InvalidInput` for NUL."""
    text = json.dumps(value, ensure_ascii=False)
    if "\\u0000" in text and _JSON_NUL.search(text):
        raise InvalidInput(f"{what} must not contain NUL characters (\\u0000)")
    return text


def _pyformat(text: str) -> str:
    return text.replace("?", "%s")


def _any(column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
    return f"{column} = ANY(?)", [list(values)]


def _same(value: Any) -> Any:
    return value


POSTGRES = Dialect(
    name="postgresql",
    sql=_pyformat,
    in_list=_any,
    json_text=lambda column, key: f"{column}->>'{key}'",
    distinct_from=lambda column: f"{column} IS DISTINCT FROM ?",
    time_in=utc,
    time_out=_same,
    json_in=to_json,
    json_out=_same,
    text_in=check_text,
    limit=lambda n: max(n, 0),
    share_lock=" FOR SHARE",
    collate_bytes=' COLLATE "C"',
)
