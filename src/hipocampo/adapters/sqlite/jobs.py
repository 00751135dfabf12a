"""The durable job queue (outbox) on SQLite: lease-based claims fair across tenants, lease
renewal and release, retries, dead letters."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime, timedelta

from ...domain.fairness import fair_pick
from ...domain.model import Job, JobStatus
from ...ports import Clock
from .db import SqliteDatabase
from .rows import from_epoch, placeholders, to_epoch


def insert_jobs(conn: sqlite3.Connection, jobs: Sequence[Job], now: datetime) -> None:
    """Shared by the queue and the message log (which enqueues inside its own transaction)."""
    t = to_epoch(now)
    conn.executemany(
        "INSERT INTO jobs (kind, tenant_id, user_id, payload, status, run_after, created_at, updated_at)"
        " VALUES (?,?,?,?,'pending',?,?,?)",
        [(j.kind, j.tenant_id, j.user_id, json.dumps(j.payload), to_epoch(j.run_after) or t, t, t) for j in jobs],
    )


def _job_from_row(row: sqlite3.Row) -> Job:
    return Job(
        id=row["id"],
        kind=row["kind"],
        payload=json.loads(row["payload"]),
        tenant_id=row["tenant_id"],
        user_id=row["user_id"],
        status=JobStatus(row["status"]),
        attempts=row["attempts"],
        last_error=row["last_error"],
        run_after=from_epoch(row["run_after"]),
    )


class SqliteJobQueue:
    def __init__(self, db: SqliteDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

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
            return sorted((_job_from_row(r) for r in rows), key=lambda j: order[j.id or 0])

        return await self._db.write(claim)

    async def extend(self, jobs: Sequence[Job], lease_seconds: float) -> list[int]:
        if not jobs:
            return []
        now = self._clock.now()
        until, t = to_epoch(now + timedelta(seconds=lease_seconds)), to_epoch(now)
        held, params = _held(jobs)
        return await self._db.write(
            lambda c: [
                r[0]
                for r in c.execute(
                    f"UPDATE jobs SET locked_until = ?, updated_at = ? WHERE {held} RETURNING id", (until, t, *params)
                )
            ]
        )

    async def release(self, jobs: Sequence[Job]) -> int:
        if not jobs:
            return 0
        t = to_epoch(self._clock.now())
        held, params = _held(jobs)
        return await self._db.write(
            lambda c: (
                c.execute(
                    "UPDATE jobs SET status = 'pending', attempts = max(attempts - 1, 0), locked_until = NULL,"
                    f" updated_at = ? WHERE {held}",
                    (t, *params),
                ).rowcount
            )
        )

    async def complete(self, job_ids: Sequence[int]) -> None:
        if job_ids:
            await self._db.write(
                lambda c: c.execute(f"DELETE FROM jobs WHERE id IN ({placeholders(len(job_ids))})", tuple(job_ids))
            )

    async def fail(self, job_id: int, error: str, *, retry_at: datetime | None) -> None:
        t = to_epoch(self._clock.now())
        if retry_at is None:
            sql = "UPDATE jobs SET status = 'dead', last_error = ?, updated_at = ? WHERE id = ?"
            args: tuple[object, ...] = (error, t, job_id)
        else:
            sql = (
                "UPDATE jobs SET status = 'pending', last_error = ?, run_after = ?, locked_until = NULL,"
                " updated_at = ? WHERE id = ?"
            )
            args = (error, to_epoch(retry_at), t, job_id)
        await self._db.write(lambda c: c.execute(sql, args))

    async def stats(self, tenant_id: str | None = None) -> dict[str, int]:
        where, params = ("WHERE tenant_id = ?", (tenant_id,)) if tenant_id is not None else ("", ())
        rows = await self._db.read(
            lambda c: c.execute(
                "SELECT status, count(*) AS n, sum(status = 'pending' AND last_error IS NOT NULL) AS failed"
                f" FROM jobs {where} GROUP BY status",
                params,
            ).fetchall()
        )
        counts = {s.value: 0 for s in JobStatus if s is not JobStatus.DONE}
        counts.update({r["status"]: r["n"] for r in rows})
        counts["retrying"] = sum(r["failed"] or 0 for r in rows)
        return counts

    async def dead(self, limit: int = 50, tenant_id: str | None = None) -> list[Job]:
        where, params = ("AND tenant_id = ?", (tenant_id,)) if tenant_id is not None else ("", ())
        rows = await self._db.read(
            lambda c: c.execute(
                f"SELECT * FROM jobs WHERE status = 'dead' {where} ORDER BY id LIMIT ?", (*params, limit)
            ).fetchall()
        )
        return [_job_from_row(r) for r in rows]

    async def requeue_dead(self, tenant_id: str | None = None) -> int:
        t = to_epoch(self._clock.now())
        where, params = ("AND tenant_id = ?", (tenant_id,)) if tenant_id is not None else ("", ())
        return await self._db.write(
            lambda c: (
                c.execute(
                    "UPDATE jobs SET status = 'pending', attempts = 0, run_after = ?, updated_at = ?"
                    f" WHERE status = 'dead' {where}",
                    (t, t, *params),
                ).rowcount
            )
        )


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


def _held(jobs: Sequence[Job]) -> tuple[str, list[int | None]]:
    """A WHERE clause matching the claims ``jobs`` hold: running, with the attempts they were
    claimed with (a later claim of the same job counted another attempt)."""
    params = [v for j in jobs for v in (j.id, j.attempts)]
    values = ", ".join("(?, ?)" for _ in jobs)
    return f"status = 'running' AND (id, attempts) IN (VALUES {values})", params
