"""The durable job queue (outbox) on SQLite: lease-based claims, retries, dead letters."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime, timedelta

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
        kind_sql = f" AND kind IN ({placeholders(len(kinds))})" if kinds else ""

        def claim(conn: sqlite3.Connection) -> list[Job]:
            # A running job whose lease expired was held by a worker that died: take it over.
            rows = conn.execute(
                "UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = ?, updated_at = ?"
                " WHERE id IN (SELECT id FROM jobs WHERE"
                " ((status = 'pending' AND run_after <= ?) OR (status = 'running' AND locked_until < ?))"
                f"{kind_sql} ORDER BY id LIMIT ?) RETURNING *",
                (until, t, t, t, *(kinds or ()), limit),
            ).fetchall()
            return sorted((_job_from_row(r) for r in rows), key=lambda j: j.id or 0)

        return await self._db.write(claim)

    async def complete(self, job_ids: Sequence[int]) -> None:
        if job_ids:
            await self._db.write(
                lambda c: c.execute(f"DELETE FROM jobs WHERE id IN ({placeholders(len(job_ids))})", tuple(job_ids))
            )

    async def fail(self, job_id: int, error: str, *, retry_at: datetime | None) -> None:
        t = to_epoch(self._clock.now())
        if retry_at is None:
            sql = "UPDATE jobs SET status = 'dead', last_error = ?, updated_at = ? WHERE id = ?"
            args = (error, t, job_id)
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

    async def dead(self, limit: int = 50) -> list[Job]:
        rows = await self._db.read(
            lambda c: c.execute("SELECT * FROM jobs WHERE status = 'dead' ORDER BY id LIMIT ?", (limit,)).fetchall()
        )
        return [_job_from_row(r) for r in rows]

    async def requeue_dead(self) -> int:
        t = to_epoch(self._clock.now())
        return await self._db.write(
            lambda c: c.execute(
                "UPDATE jobs SET status = 'pending', attempts = 0, run_after = ?, updated_at = ? WHERE status = 'dead'",
                (t, t),
            ).rowcount
        )
