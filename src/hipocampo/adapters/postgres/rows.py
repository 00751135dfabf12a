"""Row <-> domain conversions shared by the Postgres stores.

Times are ``timestamptz``: microsecond precision, like Python's datetimes, so a time goes in and
comes back exactly (SQLite's float epochs round to about a microsecond). Every connection runs
with ``TimeZone = UTC`` (see :mod:`.db`), so psycopg hands back aware datetimes in UTC, which is
what the domain expects.

Postgres text cannot hold a NUL character (SQLite's can). Rather than let such a value fail deep
in the driver as an opaque error, writes check for it first and refuse it as invalid input.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from functools import lru_cache
from typing import Any

from ...domain.errors import InvalidInput
from ...domain.model import Message, Role, Scope, as_utc

_JSON_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")
"""``\\u0000`` in JSON text that is an escaped NUL (not an escaped backslash followed by u0000)."""


def utc(value: datetime | None) -> datetime | None:
    """An aware UTC datetime (naive ones are taken as UTC, as everywhere in the domain)."""
    return None if value is None else as_utc(value)


@lru_cache(maxsize=4096)
def row_scope(tenant_id: str, user_id: str, agent_id: str | None) -> Scope:
    """The scope of a stored row. Ids were validated on the way in; re-validating them per row
    showed in the SQLite adapter's profiles, so scopes are cached."""
    return Scope(tenant_id, user_id, agent_id)


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


def message_from_row(row: dict[str, Any]) -> Message:
    return Message(
        id=row["id"],
        scope=row_scope(row["tenant_id"], row["user_id"], row["agent_id"]),
        thread_id=row["thread_id"],
        role=Role(row["role"]),
        content=row["content"],
        created_at=row["created_at"],
        seq=row["seq"],
        name=row["name"],
        metadata=row["metadata"],
        external_id=row["external_id"],
    )
