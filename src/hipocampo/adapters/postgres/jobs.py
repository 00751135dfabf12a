"""The durable job queue (outbox) on Postgres, claimed by many workers on many machines.

A claim is one statement: choose the ready jobs round-robin by tenant (see
:mod:`hipocampo.domain.fairness`), lock them with ``FOR UPDATE SKIP LOCKED`` and lease them. A job
another worker is claiming at that moment is skipped, not waited for, so workers never queue
behind each other; its rank goes to the next ready job. Leases are times in the rows: a worker
that dies simply stops renewing, and its jobs are ready again once ``locked_until`` passes.

Choosing fairly without sorting the whole backlog: the waiting tenants are found by a skip scan
of the partial index ``jobs_live (tenant_id, id)`` (one index probe per tenant), and each one's
queue is read from the same index only ``ceil(limit / tenants)`` deep. Taking every job of rank
below that depth is exactly the head of the round-robin order; when that is fewer than asked (a
tenant had fewer ready jobs than its share), the rest is claimed by a second round, whose order
continues the first one's exactly (the remaining tenants' ranks all moved by the same depth).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from ...domain.model import Job
from ...ports import Clock
from ..sql.dialect import Query
from ..sql.jobs import SqlJobQueue
from ..sql.rows import job_from_row
from .db import PostgresDatabase
from .dialect import POSTGRES, to_json

MAX_ROUNDS = 4
"""Claim rounds per call: the second completes a fair answer; more only happen when racing
workers took jobs under this one (each round takes at least one job or ends the claim)."""

_READY = "((status = 'pending' AND run_after <= %(now)s) OR (status = 'running' AND locked_until < %(now)s))"
"""Ready to claim: pending and due, or running with an expired lease (its worker died)."""


def insert_jobs_query(jobs: Sequence[Job], now: datetime) -> Query:
    """Enqueue ``jobs`` in one statement, in order (ids follow it)."""
    kinds, tenants, users, payloads, run_after = [], [], [], [], []
    for j in jobs:
        kinds.append(j.kind)
        tenants.append(j.tenant_id)
        users.append(j.user_id)
        payloads.append(to_json("a job's payload", j.payload))
        run_after.append(j.run_after or now)
    return (
        "INSERT INTO jobs (kind, tenant_id, user_id, payload, status, run_after, created_at, updated_at)"
        " SELECT j.kind, j.tenant_id, j.user_id, j.payload::jsonb, 'pending', j.run_after, %s, %s"
        " FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::timestamptz[])"
        " WITH ORDINALITY AS j (kind, tenant_id, user_id, payload, run_after, n) ORDER BY j.n",
        (now, now, kinds, tenants, users, payloads, run_after),
    )


async def insert_jobs(conn: Any, jobs: Sequence[Job], now: datetime) -> None:
    """Shared by the queue and the message log (which enqueues inside its own transaction)."""
    if jobs:
        await conn.execute(*insert_jobs_query(jobs, now))


def claim_query(limit: int, now: datetime, until: datetime, kinds: Sequence[str] | None, depth: int | None) -> Query:
    """Lease up to ``limit`` ready jobs, round-robin by tenant; rows carry their ``rank``.

    ``depth``: how many ready jobs of each tenant to consider; ``None``: the tenant's fair share,
    ``ceil(limit / waiting tenants)``.
    """
    kind_sql = " AND kind = ANY(%(kinds)s)" if kinds else ""
    sql = f"""
WITH RECURSIVE waiting(tenant) AS (
    SELECT min(tenant_id) FROM jobs WHERE status IN ('pending', 'running')
    UNION ALL
    SELECT (SELECT min(tenant_id) FROM jobs WHERE status IN ('pending', 'running') AND tenant_id > w.tenant)
    FROM waiting w WHERE w.tenant IS NOT NULL
),
share AS (
    SELECT coalesce(%(depth)s::int, ceil(%(limit)s::numeric / greatest(count(*), 1))::int) AS depth
    FROM waiting WHERE tenant IS NOT NULL
),
candidates AS (
    SELECT q.id, row_number() OVER (PARTITION BY w.tenant ORDER BY q.id) AS rank
    FROM waiting w CROSS JOIN share CROSS JOIN LATERAL (
        SELECT id FROM jobs
        WHERE tenant_id = w.tenant AND status IN ('pending', 'running') AND {_READY}{kind_sql}
        ORDER BY id LIMIT share.depth
    ) q
    WHERE w.tenant IS NOT NULL
),
locked AS (
    SELECT id FROM jobs WHERE id = ANY(ARRAY(SELECT id FROM candidates)) AND {_READY}{kind_sql}
    FOR UPDATE SKIP LOCKED
),
picked AS (
    SELECT c.id, c.rank FROM candidates c JOIN locked USING (id) ORDER BY c.rank, c.id LIMIT %(limit)s
)
UPDATE jobs SET status = 'running', attempts = jobs.attempts + 1, locked_until = %(until)s, updated_at = %(now)s
FROM picked WHERE jobs.id = picked.id
RETURNING jobs.*, picked.rank"""
    params = {"now": now, "until": until, "limit": limit, "depth": depth, "kinds": list(kinds or ())}
    return sql, params  # type: ignore[return-value]


class PostgresJobQueue(SqlJobQueue):
    """The :class:`~hipocampo.ports.JobQueue` port on the shared Postgres database."""

    _db: PostgresDatabase

    def __init__(self, db: PostgresDatabase, clock: Clock) -> None:
        super().__init__(db, POSTGRES, clock)

    async def enqueue(self, jobs: Sequence[Job]) -> None:
        if jobs:
            await self._db.execute(insert_jobs_query(jobs, self._clock.now()))

    async def claim(self, limit: int, lease_seconds: float, kinds: Sequence[str] | None = None) -> list[Job]:
        now = self._clock.now()
        until = now + timedelta(seconds=lease_seconds)
        claimed: list[Job] = []
        depth: int | None = None
        for _ in range(MAX_ROUNDS):
            wanted = limit - len(claimed)
            if wanted <= 0:
                break
            rows = await self._db.fetch_all(claim_query(wanted, now, until, kinds, depth))
            if not rows:
                break
            rows.sort(key=lambda r: (r["rank"], r["id"]))
            claimed += [job_from_row(POSTGRES, r) for r in rows]
            depth = wanted  # what is left sits with tenants deeper than their share: read them whole
        return claimed

    def _held(self, jobs: Sequence[Job]) -> tuple[str, list[Any]]:
        return (
            "status = 'running' AND (id, attempts) IN (SELECT * FROM unnest(%s::bigint[], %s::int[]))",
            [[j.id for j in jobs], [j.attempts for j in jobs]],
        )
