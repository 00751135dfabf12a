"""An edit made while an indexing job embeds the memory it edits is kept.

The job reads the memory, embeds it (seconds, on a busy worker), then writes it with its index
entries. It wrote back the row as it had read it, so an edit committed in between (a PATCH, an
agent's update_memory) was overwritten by the old text, and the edit's own job then indexed the
old text too: the edit was lost for good. Found by tests/e2e/test_http_abuse_properties.py under load;
reproduced here without timing: the job's items are read, the memory is edited, the job runs.
"""

from __future__ import annotations

import asyncio

import pytest

from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.client import AsyncMemory
from hipocampo.services.indexing import job_items, process_jobs
from hipocampo.testing import deps_of

pytestmark = pytest.mark.backends()


def test_an_edit_made_while_the_memory_is_embedded_is_kept(db_path: str) -> None:
    async def scenario() -> tuple[str, str, list[str]]:
        async with await AsyncMemory.open(db_path, embedder=FakeEmbedder(), worker="external") as mem:
            saved = await mem.remember("ana", "Ana likes green tea")
            deps = deps_of(mem)
            jobs = await deps.jobs.claim(10, 60)
            read = [await job_items(deps, job) for job in jobs]  # what the job embeds
            await mem.update("ana", saved.id, "Ana likes black coffee")  # committed meanwhile
            await process_jobs(deps, jobs, loaded=read)
            after_job = (await mem.get("ana", saved.id)).content
            await process_jobs(deps, await deps.jobs.claim(10, 60))  # the edit's own job
            found = await mem.search("ana", "coffee")
            return after_job, (await mem.get("ana", saved.id)).content, [h.memory.content for h in found.hits]

    after_job, at_rest, hits = asyncio.run(scenario())
    assert after_job == at_rest == "Ana likes black coffee"
    assert hits == ["Ana likes black coffee"]
