"""SQL building shared by the Postgres stores, kept apart from executing it.

Builders are pure functions returning ``(sql, params)`` (a :data:`Query`), so what a store sends
can be read and tested without a database; the few ``fetch_*``/``execute`` helpers below are the
only place that talks to a connection. Placeholders are psycopg's ``%s``; lists travel as one
array parameter (``= ANY(%s)``, ``unnest(%s::text[])``) so a statement's text does not change with
the number of ids, and the server can reuse its plan.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

from ...domain.model import Scope
from .db import PostgresDatabase

Query: TypeAlias = tuple[str, Sequence[Any]]
"""A statement and its parameters."""


def scope_filter(scope: Scope, alias: str = "") -> Query:
    """The condition restricting rows to ``scope``: its tenant and user, and with ``agent_only``
    the agent's own rows plus the shared ones (no agent). The SQLite stores' semantics exactly."""
    p = f"{alias}." if alias else ""
    sql = f"{p}tenant_id = %s AND {p}user_id = %s"
    params: list[Any] = [scope.tenant_id, scope.user_id]
    if scope.agent_only and scope.agent_id is not None:
        sql += f" AND ({p}agent_id = %s OR {p}agent_id IS NULL)"
        params.append(scope.agent_id)
    return sql, params


async def fetch_all(db: PostgresDatabase, query: Query) -> list[dict[str, Any]]:
    """Every row of ``query``, as dicts, on the open transaction's connection or a pooled one."""
    sql, params = query
    async with db.connection() as conn:
        cur = await conn.execute(sql, params)
        return await cur.fetchall()


async def fetch_one(db: PostgresDatabase, query: Query) -> dict[str, Any] | None:
    sql, params = query
    async with db.connection() as conn:
        cur = await conn.execute(sql, params)
        return await cur.fetchone()


async def execute(db: PostgresDatabase, query: Query) -> int:
    """Run a write; returns how many rows it touched."""
    sql, params = query
    async with db.connection() as conn:
        cur = await conn.execute(sql, params)
        return cur.rowcount
