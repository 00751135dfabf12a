"""The durable job queue (outbox) on a SQL engine: what happens to a claimed job, and what the
operators read of the queue, alike on both engines.

An engine's queue subclasses :class:`SqlJobQueue` and adds enqueueing and claiming (SQLite picks
on its one writer; Postgres claims in one statement with ``FOR UPDATE SKIP LOCKED`` for many
workers), and :meth:`SqlJobQueue._held`, the condition matching the claims a worker holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from ...domain.model import Job, JobStatus
from ...ports import Clock
from .dialect import Database, Dialect
from .rows import job_from_row


class SqlJobQueue:
    """What both engines' :class:`~hipocampo.ports.JobQueue` share, on ``db`` in ``dialect``."""

    def __init__(self, db: Database, dialect: Dialect, clock: Clock) -> None:
        self._db = db
        self._d = dialect
        self._clock = clock

    def _held(self, jobs: Sequence[Job]) -> tuple[str, list[Any]]:
        """A condition (in the engine's placeholders) matching the claims ``jobs`` hold: running,
        with the attempts they were claimed with (a later claim of the same job counted another)."""
        raise NotImplementedError

    def _tenant(self, tenant_id: str | None, word: str) -> tuple[str, tuple[str, ...]]:
        return (self._d.sql(f"{word} tenant_id = ?"), (tenant_id,)) if tenant_id is not None else ("", ())

    async def extend(self, jobs: Sequence[Job], lease_seconds: float) -> list[int]:
        if not jobs:
            return []
        now = self._clock.now()
        until = now + timedelta(seconds=lease_seconds)
        where, params = self._held(jobs)
        sql = self._d.sql("UPDATE jobs SET locked_until = ?, updated_at = ? WHERE ") + where + " RETURNING id"
        rows = await self._db.fetch_all((sql, (self._d.time_in(until), self._d.time_in(now), *params)), write=True)
        return [r["id"] for r in rows]

    async def release(self, jobs: Sequence[Job]) -> int:
        if not jobs:
            return 0
        where, params = self._held(jobs)
        sql = self._d.sql(
            f"UPDATE jobs SET status = 'pending', attempts = {self._d.greatest}(attempts - 1, 0), locked_until = NULL,"
            " updated_at = ? WHERE "
        )
        return await self._db.execute((sql + where, (self._d.time_in(self._clock.now()), *params)))

    async def complete(self, job_ids: Sequence[int]) -> None:
        if job_ids:
            chosen, params = self._d.in_list("id", job_ids)
            await self._db.execute((self._d.sql(f"DELETE FROM jobs WHERE {chosen}"), params))

    async def fail(self, job_id: int, error: str, *, retry_at: datetime | None) -> None:
        t = self._d.time_in
        now = t(self._clock.now())
        error = error.replace("\x00", "")  # a diagnostic text: Postgres text cannot hold NUL
        args: tuple[object, ...]
        if retry_at is None:
            sql, args = (
                "UPDATE jobs SET status = 'dead', last_error = ?, updated_at = ? WHERE id = ?",
                (error, now, job_id),
            )
        else:
            sql = (
                "UPDATE jobs SET status = 'pending', last_error = ?, run_after = ?, locked_until = NULL,"
                " updated_at = ? WHERE id = ?"
            )
            args = (error, t(retry_at), now, job_id)
        await self._db.execute((self._d.sql(sql), args))

    async def stats(self, tenant_id: str | None = None) -> dict[str, int]:
        where, params = self._tenant(tenant_id, "WHERE")
        rows = await self._db.fetch_all(
            (
                "SELECT status, count(*) AS n,"
                " sum(CASE WHEN status = 'pending' AND last_error IS NOT NULL THEN 1 ELSE 0 END) AS failed"
                f" FROM jobs {where} GROUP BY status",
                params,
            )
        )
        counts = {s.value: 0 for s in JobStatus if s is not JobStatus.DONE}
        counts.update({r["status"]: int(r["n"]) for r in rows})
        counts["retrying"] = sum(int(r["failed"] or 0) for r in rows)
        return counts

    async def dead(self, limit: int = 50, tenant_id: str | None = None) -> list[Job]:
        where, params = self._tenant(tenant_id, "AND")
        sql = self._d.sql(f"SELECT * FROM jobs WHERE status = 'dead' {where} ORDER BY id LIMIT ?")
        rows = await self._db.fetch_all((sql, (*params, self._d.limit(limit))))
        return [job_from_row(self._d, r) for r in rows]

    async def requeue_dead(self, tenant_id: str | None = None) -> int:
        now = self._d.time_in(self._clock.now())
        where, params = self._tenant(tenant_id, "AND")
        sql = self._d.sql(
            "UPDATE jobs SET status = 'pending', attempts = 0, run_after = ?, updated_at = ?"
            f" WHERE status = 'dead' {where}"
        )
        return await self._db.execute((sql, (now, now, *params)))
