"""A round's end stops its lease renewer even when the renewer's cancel is lost.

On Python 3.11, ``asyncio.wait_for`` swallows a cancellation that arrives in the loop iteration
where the awaited result is ready; psycopg_pool waits for a pooled connection with it. A worker
whose renewer was cancelled that way waited on the renewer forever and claimed nothing more. The
queue below models it: ``extend`` returns normally when cancelled, as the pool's wait then does.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence

from hipocampo.adapters.clock import FakeClock
from hipocampo.domain.model import Job, Scope
from hipocampo.services.ingest import add_messages
from hipocampo.services.leases import holding
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

LEASE_S = 0.03
"""A short lease, so the renewer wakes at once (a third of it)."""
HANG_GUARD_S = 10.0
"""Not a timing assertion: without the fix the block never ends, and the test must not hang."""


class LostCancelJobs:
    """The in-memory queue, whose ``extend`` finishes normally when cancelled mid-call."""

    def __init__(self, inner: object) -> None:
        self._inner = inner
        self.entered = asyncio.Event()
        self.release = asyncio.Event()
        self.calls = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)

    async def extend(self, jobs: Sequence[Job], lease_seconds: float) -> list[int]:
        self.calls += 1
        self.entered.set()
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            return []  # the cancel is lost, as in wait_for on 3.11 when the result was ready
        return [j.id for j in jobs if j.id is not None]


def test_the_round_ends_even_if_the_renewers_cancel_is_lost() -> None:
    async def scenario() -> None:
        deps = build_memory_deps(
            Settings(embedder="fake", tokenizer="chars", extraction=False, summaries=False, job_lease_seconds=LEASE_S),
            clock=FakeClock(),
        )
        await add_messages(deps, Scope("acme", "alice"), "t1", ["hello"])
        jobs = await deps.jobs.claim(10, LEASE_S)
        assert jobs
        queue = LostCancelJobs(deps.jobs)
        deps = dataclasses.replace(deps, jobs=queue)  # type: ignore[arg-type]

        async def round_() -> None:
            async with holding(deps, jobs) as held:
                await queue.entered.wait()  # the renewer is inside extend
                held.finished(jobs)  # the round did its work

        task = asyncio.create_task(round_())
        done, _ = await asyncio.wait({task}, timeout=HANG_GUARD_S)
        assert task in done, "the round waited on its renewer, which went on renewing nothing"
        task.result()
        assert queue.calls == 1

    asyncio.run(scenario())
