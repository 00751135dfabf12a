"""How SQLite spells what the shared SQL core asks (:class:`~..sql.dialect.Dialect`).

Times are float epochs (UTC seconds; they round to about a microsecond), JSON is text. Lists of
ids are spelled out as ``IN (?, ?, ?)``: SQLite has no arrays, and plans every statement anyway.
Metadata written by older versions may hold values no JSON answer can (``NaN``, lone
surrogates): it is repaired as it is read, here, the one engine whose rows can hold it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any, overload

from ...domain.model import as_utc
from ...domain.values import repaired
from ..sql.dialect import Dialect

log = logging.getLogger("hipocampo.store")


@overload
def to_epoch(value: datetime) -> float: ...
@overload
def to_epoch(value: None) -> None: ...
def to_epoch(value: datetime | None) -> float | None:
    return None if value is None else as_utc(value).timestamp()


def from_epoch(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, tz=timezone.utc)


def placeholders(n: int) -> str:
    return ",".join("?" * n)


def _json(text: str) -> Any:
    # Most rows carry no metadata: skip the decoder for the empty cases (it showed in profiles).
    if text == "{}":
        return {}
    if text == "[]":
        return []
    return json.loads(text)


_SUSPECT = ("NaN", "Infinity", "\\ud")
"""What a row written before :mod:`~hipocampo.domain.values`' rule may hold and no answer can: the
cheap test that spares the rows written since (nearly all) a walk through their metadata."""


def _metadata(text: str, what: str, row_id: str) -> Any:
    """A row's metadata, repaired if it holds values JSON answers cannot (``NaN``, ``Infinity``,
    lone surrogates): an older version stored them, and one such row took every read of its user
    down. The warning names the row, never its content."""
    value = _json(text)
    if len(text) > 2 and any(s in text for s in _SUSPECT):
        value, changed = repaired(value)
        if changed:
            log.warning(
                "repaired the stored metadata of %s %s as it was read (NaN, Infinity or a lone surrogate)", what, row_id
            )
    return value


def _json_in(what: str, value: Any) -> str:
    # ASCII escapes: a lone surrogate in a value is stored escaped (UTF-8 text cannot hold it).
    return json.dumps(value)


def _in_list(column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
    return f"{column} IN ({placeholders(len(values))})", list(values)


def _same(text: str) -> str:
    return text


SQLITE = Dialect(
    name="sqlite",
    sql=_same,
    in_list=_in_list,
    json_text=lambda column, key: f"json_extract({column}, '$.{key}')",
    distinct_from=lambda column: f"({column} IS NULL OR {column} != ?)",
    time_in=to_epoch,
    time_out=from_epoch,
    json_in=_json_in,
    json_out=_json,
    metadata_out=_metadata,
    pin_by_id=True,
    greatest="max",
)
