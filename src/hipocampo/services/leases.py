"""The jobs a worker round holds: leases renewed while it runs, the unfinished given back at its end.

Why renew rather than size batches to fit the lease: how long a job takes is not known when it
is claimed (embedding speed depends on the machine and on what else runs; an LLM extraction may
retry for minutes). A batch that outlived its 60 s lease (one ran 13 minutes) let a second worker
claim the same jobs and do them twice. Renewing every third of the lease keeps a live worker's
jobs its own however long they take, while a dead worker's lease still runs out within one
lease. Giving back (``JobQueue.release``) what a round did not start makes those jobs claimable
at once, without counting an attempt: for a shutdown, and for a round that ends early so the next
fair claim can serve another tenant.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterable

from ..domain.errors import StorageUnavailable
from ..domain.model import Job
from .deps import Deps

log = logging.getLogger(__name__)


class Held:
    """The claims a round still holds, by job id."""

    def __init__(self, jobs: Iterable[Job]) -> None:
        self.open: dict[int, Job] = {j.id: j for j in jobs if j.id is not None}
        self.closing = False  # the round is over: the renewer must stop, even if its cancel was lost

    def finished(self, jobs: Iterable[Job]) -> None:
        """These jobs were completed or failed: nothing left to renew or give back."""
        for job in jobs:
            if job.id is not None:
                self.open.pop(job.id, None)


async def _renew(deps: Deps, held: Held, lease: float) -> None:
    """Renew every third of the lease until the round closes.

    Why the ``closing`` checks besides the cancel: on Python 3.11, ``asyncio.wait_for`` (which
    psycopg_pool uses while a caller waits for a pooled connection) swallows a cancellation that
    arrives in the loop iteration where the awaited connection is handed over. The round's last
    job returns its connection, the pool hands it to this renewer, and the round's end cancels
    the renewer in that same iteration: the cancel was lost, the renewer looped forever with
    nothing to renew, and the round waited on it forever. A worker started after a kill -9 then
    claimed nothing for minutes (seen in CI under load)."""
    while not held.closing:
        await asyncio.sleep(lease / 3)
        jobs = list(held.open.values())
        if held.closing:
            return
        if not jobs:
            continue
        try:
            renewed = set(await deps.jobs.extend(jobs, lease))
        except Exception:  # the store is briefly unavailable: the lease has two more thirds to run
            log.warning("could not renew the leases of %d jobs", len(jobs), exc_info=True)
            continue
        lost = [j for j in jobs if j.id not in renewed and j.id in held.open]
        if lost:  # completed meanwhile, or claimed by another worker after we stalled past the lease
            held.finished(lost)
            log.debug("%d jobs no longer held by this round: %s", len(lost), [j.id for j in lost])


@contextlib.asynccontextmanager
async def holding(deps: Deps, jobs: Iterable[Job]) -> AsyncIterator[Held]:
    """Hold ``jobs`` for the block: renew their leases every third of ``job_lease_seconds``, and
    on the way out (normally, on error or when cancelled) release those not marked finished."""
    held = Held(jobs)
    renewer = asyncio.create_task(_renew(deps, held, deps.settings.job_lease_seconds))
    try:
        yield held
    finally:
        held.closing = True
        renewer.cancel()
        await asyncio.wait({renewer})  # unlike ``await renewer``, never mistakes its cancel for ours
        if held.open:
            left = list(held.open.values())
            released = await _release(deps, left)
            log.info("gave back %d unfinished jobs (%d still held)", len(left), released)


RELEASE_TRIES = 3
"""Attempts to give jobs back when the store fails (a Postgres restart breaks the pooled
connections; the next try gets a fresh one). After the last, the jobs wait out their lease:
indexing then stalled for the whole ``job_lease_seconds`` (54 s measured) after a restart."""


async def _release(deps: Deps, jobs: list[Job]) -> int:
    for attempt in range(1, RELEASE_TRIES + 1):
        try:
            return await deps.jobs.release(jobs)
        except StorageUnavailable:
            if attempt == RELEASE_TRIES:
                log.warning("could not give back %d jobs: they are claimable again when their lease ends", len(jobs))
                return 0
            await asyncio.sleep(0.2 * attempt)
    return 0
