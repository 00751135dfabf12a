"""The durable job queue (outbox) on SQLite: lease-based claims fair across tenants, picked on the
one writer connection; renewal, release, retries and dead letters are the shared
:class:`~..sql.jobs.SqlJobQueue`'s."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from ...domain.fairness import fair_pick
from ...domain.model import Job
from ...ports import Clock
from ..sql.jobs import SqlJobQueue
from ..sql.rows import job_from_row
from .db import SqliteDatabase
from .dialect import SQLITE, placeholders, to_epoch


def insert_jobs(conn: sqlite3.Connection, jobs: Sequence[Job], now: datetime) -> None:
    """Shared by the queue and the message log (which enqueues inside its own transaction)."""
    t = to_epoch(now)
    conn.executemany(
        "INSERT INTO jobs (kind, tenant_id, user_id, payload, status, run_after, created_at, updated_at)"
        " VALUES (?,?,?,?,'pending',?,?,?)",
        [(j.kind, j.tenant_id, j.user_id, json.dumps(j.payload), to_epoch(j.run_after) or t, t, t) for j in jobs],
    )


class SqliteJobQueue(SqlJobQueue):
    """The :class:`~hipocampo.ports.JobQueue` port on the shared SQLite database."""

    _db: SqliteDatabase

    def __init__(self, db: SqliteDatabase, clock: Clock) -> None:
        super().__init__(db, SQLITE, clock)

    async def enqueue(self, jobs: Sequence[Job]) -> None:
        now = self._clock.now()
        await self._db.write(lambda c: insert_jobs(c, jobs, now))

    async def claim(self, limit: int, lease_seconds: float, kinds: Sequence[str] | None = None) -> list[Job]:
        now = self._clock.now()
        t, until = to_epoch(now), to_epoch(now + timedelta(seconds=lease_seconds))

        def claim(conn: sqlite3.Connection) -> list[Job]:
            chosen = _choose(conn, limit, t, kinds)
            if not chosen:
                return []
            rows = conn.execute(
                "UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = ?, updated_at = ?"
                f" WHERE id IN ({placeholders(len(chosen))}) RETURNING *",
                (until, t, *chosen),
            ).fetchall()
            order = {job_id: i for i, job_id in enumerate(chosen)}
            return sorted((job_from_row(SQLITE, r) for r in rows), key=lambda j: order[j.id or 0])

        return await self._db.write(claim)

    def _held(self, jobs: Sequence[Job]) -> tuple[str, list[Any]]:
        params = [v for j in jobs for v in (j.id, j.attempts)]
        values = ", ".join("(?, ?)" for _ in jobs)
        return f"status = 'running' AND (id, attempts) IN (VALUES {values})", params


_TENANTS_WAITING = """
WITH RECURSIVE waiting(tenant) AS (
    SELECT (SELECT tenant_id FROM jobs WHERE status = 'pending' ORDER BY tenant_id LIMIT 1)
    UNION ALL
    SELECT (SELECT tenant_id FROM jobs WHERE status = 'pending' AND tenant_id > waiting.tenant
            ORDER BY tenant_id LIMIT 1)
    FROM waiting WHERE waiting.tenant IS NOT NULL
)
SELECT tenant FROM waiting WHERE tenant IS NOT NULL
"""
"""Tenants with pending jobs, one index seek each on ``jobs_tenant_queue`` (a skip scan), not
a pass over the backlog."""


def _choose(conn: sqlite3.Connection, limit: int, t: float, kinds: Sequence[str] | None) -> list[int]:
    """The ids to claim, round-robin by tenant (see :mod:`hipocampo.domain.fairness`).

    Each tenant's due pending jobs are read in id order from ``jobs_tenant_queue``, a page at a
    time; ``+run_after`` keeps SQLite on that index rather than ``jobs_ready``, which would sort
    the whole backlog. Running jobs whose lease expired (few: at most what workers held) join
    their tenant's queue.
    """
    kind_sql, kind_args = (f" AND kind IN ({placeholders(len(kinds))})", tuple(kinds)) if kinds else ("", ())
    expired: dict[str, list[int]] = {}
    for row in conn.execute(
        f"SELECT id, tenant_id FROM jobs WHERE status = 'running' AND locked_until < ?{kind_sql}", (t, *kind_args)
    ):
        expired.setdefault(row["tenant_id"], []).append(row["id"])

    def fetch(tenant: str, after: int, n: int) -> list[int]:
        return [
            r[0]
            for r in conn.execute(
                "SELECT id FROM jobs WHERE status = 'pending' AND tenant_id = ? AND id > ? AND +run_after <= ?"
                f"{kind_sql} ORDER BY id LIMIT ?",
                (tenant, after, t, *kind_args, n),
            )
        ]

    tenants = [r[0] for r in conn.execute(_TENANTS_WAITING)]
    return fair_pick(tenants, fetch, limit, extra=expired)
