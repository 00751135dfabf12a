"""Row <-> domain conversions and the scope filter shared by the SQLite stores."""

from __future__ import annotations

import json
import logging
import sqlite3
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any, overload

from ...domain.model import MemoryItem, MemoryKind, MemoryType, Message, Role, Scope, as_utc
from ...domain.values import repaired

log = logging.getLogger("hipocampo.store")


@overload
def to_epoch(value: datetime) -> float: ...
@overload
def to_epoch(value: None) -> None: ...
def to_epoch(value: datetime | None) -> float | None:
    return None if value is None else as_utc(value).timestamp()


def from_epoch(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, tz=timezone.utc)


def scope_filter(scope: Scope, alias: str = "", *, by_id: bool = False) -> tuple[str, list[Any]]:
    """SQL condition restricting rows to the scope. Agent-only scopes also see shared rows.

    ``by_id``: the query also selects by unique id. The unary ``+`` keeps SQLite from walking the
    user's whole scope index instead of the id index (60 ms instead of 0.1 at 100k memories).
    """
    p = ("+" if by_id else "") + (f"{alias}." if alias else "")
    sql = f"{p}tenant_id = ? AND {p}user_id = ?"
    params: list[Any] = [scope.tenant_id, scope.user_id]
    if scope.agent_only and scope.agent_id is not None:
        sql += f" AND ({p}agent_id = ? OR {p}agent_id IS NULL)"
        params.append(scope.agent_id)
    return sql, params


@lru_cache(maxsize=4096)
def _scope(tenant_id: str, user_id: str, agent_id: str | None) -> Scope:
    # Rows hold ids that were validated on the way in; re-validating them per row showed in profiles.
    return Scope(tenant_id, user_id, agent_id)


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


def message_from_row(row: sqlite3.Row) -> Message:
    return Message(
        id=row["id"],
        scope=_scope(row["tenant_id"], row["user_id"], row["agent_id"]),
        thread_id=row["thread_id"],
        role=Role(row["role"]),
        content=row["content"],
        created_at=from_epoch(row["created_at"]),  # type: ignore[arg-type]
        seq=row["seq"],
        name=row["name"],
        metadata=_metadata(row["metadata"], "message", row["id"]),
        external_id=row["external_id"],
    )


def memory_from_row(row: sqlite3.Row) -> MemoryItem:
    return MemoryItem(
        id=row["id"],
        scope=_scope(row["tenant_id"], row["user_id"], row["agent_id"]),
        kind=MemoryKind(row["kind"]),
        content=row["content"],
        created_at=from_epoch(row["created_at"]),  # type: ignore[arg-type]
        thread_id=row["thread_id"],
        memory_type=MemoryType(row["memory_type"]) if row["memory_type"] else None,
        importance=row["importance"],
        source_message_ids=_json(row["source_ids"]),
        metadata=_metadata(row["metadata"], "memory", row["id"]),
        name=row["name"],
        role=Role(row["role"]) if row["role"] else None,
        seq=row["seq"],
        updated_at=from_epoch(row["updated_at"]),
        valid_to=from_epoch(row["valid_to"]),
        key=row["key"],
        confidence=row["confidence"],
        mention_count=row["mention_count"],
        access_count=row["access_count"],
        last_accessed=from_epoch(row["last_accessed"]),
        expires_at=from_epoch(row["expires_at"]),
        event_start=from_epoch(row["event_start"]),
        event_end=from_epoch(row["event_end"]),
    )


def placeholders(n: int) -> str:
    return ",".join("?" * n)
