"""The conditions every SQL store filters by, written once over a :class:`~.dialect.Dialect`.

Scoping and validity are what keep one user's memories from another's and a stale memory from
being shown as current; the in-memory fakes (``adapters/memory``) are the reference both SQL
engines are tested against, so the rule is written here once, not once per engine.

Builders return ``(sql, params)`` in the dialect's placeholder style and never touch a connection.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ...domain.model import CUSTOM_TYPE_KEY, MemoryKind, MemoryType, Scope
from .dialect import Dialect, Query


def scope_filter(d: Dialect, scope: Scope, alias: str = "", *, by_id: bool = False) -> tuple[str, list[Any]]:
    """The condition restricting rows to ``scope``: its tenant and user, and with ``agent_only``
    the agent's own rows plus the shared ones (no agent).

    ``by_id``: the statement also selects by unique id. On SQLite (:attr:`Dialect.pin_by_id`) the
    unary ``+`` keeps the planner from walking the user's whole scope index instead of the id
    index (60 ms instead of 0.1 at 100k memories); Postgres plans it right without.
    """
    p = ("+" if by_id and d.pin_by_id else "") + (f"{alias}." if alias else "")
    sql = f"{p}tenant_id = ? AND {p}user_id = ?"
    params: list[Any] = [scope.tenant_id, scope.user_id]
    if scope.agent_only and scope.agent_id is not None:
        sql += f" AND ({p}agent_id = ? OR {p}agent_id IS NULL)"
        params.append(scope.agent_id)
    return d.sql(sql), params


def scoped_ids(d: Dialect, scope: Scope, ids: Sequence[Any], alias: str = "") -> tuple[str, list[Any]]:
    """Rows of ``scope`` whose ``id`` is one of ``ids`` (never empty): the id index serves it on
    both engines (SQLite's scope columns are pinned, see :func:`scope_filter`)."""
    where, params = scope_filter(d, scope, alias, by_id=True)
    chosen, values = d.in_list(f"{alias}.id" if alias else "id", ids)
    return f"{where} AND {d.sql(chosen)}", [*params, *values]


def current_at(d: Dialect, at: datetime) -> tuple[str, list[Any]]:
    """Valid at ``at``: not replaced (``valid_to``) and not expired (``expires_at``) by then."""
    t = d.time_in(at)
    return d.sql(" AND (valid_to IS NULL OR valid_to > ?) AND (expires_at IS NULL OR expires_at > ?)"), [t, t]


def outside_thread(d: Dialect, thread_id: str | None, alias: str = "") -> tuple[str, list[Any]]:
    """`` AND`` not in ``thread_id`` (rows of no thread are outside every thread), or nothing
    when no thread is excluded: a search leaves out the conversation it answers in."""
    if thread_id is None:
        return "", []
    column = f"{alias}.thread_id" if alias else "thread_id"
    return " AND " + d.sql(d.distinct_from(column)), [thread_id]


def searchable(d: Dialect, scope: Scope, exclude_thread: str | None, alias: str = "") -> tuple[str, list[Any]]:
    """What a keyword search may show: the scope's memories that are current (not replaced by a
    later one: ``valid_to``), outside the excluded thread."""
    where, params = scope_filter(d, scope, alias)
    outside, thread = outside_thread(d, exclude_thread, alias)
    return f"{where} AND {alias + '.' if alias else ''}valid_to IS NULL{outside}", [*params, *thread]


def list_memories(
    d: Dialect,
    scope: Scope,
    *,
    kind: MemoryKind | None,
    thread_id: str | None,
    memory_type: MemoryType | str | None,
    since: datetime | None,
    until: datetime | None,
    current: datetime | None,
    limit: int,
    offset: int,
) -> Query:
    """A page of the scope's memories, newest first. A ``memory_type`` that is no
    :class:`MemoryType` is a custom type, kept in the fact's metadata."""
    where, params = scope_filter(d, scope)
    if memory_type is not None and not isinstance(memory_type, MemoryType):
        where += f" AND kind = 'fact' AND memory_type IS NULL AND {d.json_text('metadata', CUSTOM_TYPE_KEY)} = ?"
        params.append(memory_type)
    for column, op, value in (
        ("kind", "=", kind.value if kind else None),
        ("thread_id", "=", thread_id),
        ("memory_type", "=", memory_type.value if isinstance(memory_type, MemoryType) else None),
        ("created_at", ">=", d.time_in(since)),
        ("created_at", "<", d.time_in(until)),
    ):
        if value is not None:
            where += f" AND {column} {op} ?"
            params.append(value)
    if current is not None:
        valid, at = current_at(d, current)
        where += valid
        params += at
    return (
        d.sql(f"SELECT * FROM memories WHERE {where} ORDER BY created_at DESC, rid DESC LIMIT ? OFFSET ?"),
        [*params, d.limit(limit), d.limit(offset)],
    )


def insert(table: str, columns: Sequence[str]) -> str:
    """``INSERT INTO table (columns) VALUES (?, ...)``: one row, written with ``?``."""
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


def upsert(conflict: str, columns: tuple[str, ...], *, where: str = "") -> str:
    """``ON CONFLICT (conflict) DO UPDATE SET`` each of ``columns`` to the value offered, only
    ``where`` that holds (both engines take this spelling; an alias is the engine's own)."""
    updates = ", ".join(f"{c} = excluded.{c}" for c in columns)
    return f"ON CONFLICT ({conflict}) DO UPDATE SET {updates}" + (f" WHERE {where}" if where else "")
