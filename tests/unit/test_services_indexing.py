"""services.indexing over the in-memory adapters: the worker round, embedding texts, retries,
dead letters, poison-job isolation, and forgetting while a batch is being indexed."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import numpy as np

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.domain.model import MemoryKind, Scope, turn_memory_id
from hipocampo.ports import Embedder, MessageLog
from hipocampo.services.admin import forget
from hipocampo.services.curation import remember
from hipocampo.services.deps import Deps
from hipocampo.services.indexing import embedding_texts, process_jobs, turn_memory
from hipocampo.services.ingest import INDEX_JOB, add_messages
from hipocampo.services.worker import run_once
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

ALICE = Scope("acme", "alice")
BACKOFF = 2.0
MAX_ATTEMPTS = 3

ENGINE_ONLY = {"embedder": "fake", "tokenizer": "chars", "extraction": False, "summaries": False}
"""The write/index/recall engine alone: no fact extraction or summaries in these tests."""


def make_deps(embedder: Embedder | None = None, **settings: Any) -> Deps:
    settings = {"job_backoff_seconds": BACKOFF, "job_max_attempts": MAX_ATTEMPTS, **settings}
    return build_memory_deps(
        Settings(**(ENGINE_ONLY | settings)),
        embedder=embedder,
        clock=FakeClock(),
    )


def run(scenario: Callable[[Deps], Awaitable[None]], deps: Deps | None = None) -> None:
    asyncio.run(scenario(deps or make_deps()))


def advance(deps: Deps, seconds: float) -> None:
    deps.clock.advance(seconds)  # type: ignore[attr-defined]


class PoisonEmbedder:
    """Embeds like FakeEmbedder, but raises on any batch holding a text with ``poison`` in it;
    ``poison=""`` makes every batch fail. ``cure()`` stops the failures."""

    def __init__(self, poison: str = "") -> None:
        self._inner = FakeEmbedder()
        self.name, self.dim = self._inner.name, self._inner.dim
        self.poison: str | None = poison
        self.batches: list[list[str]] = []

    def cure(self) -> None:
        self.poison = None

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.batches.append(list(texts))
        if self.poison is not None and any(self.poison in t for t in texts):
            raise ValueError(f"cannot embed {self.poison!r}")
        return self._inner.embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self._inner.embed_query(text)


async def keyword_ids(deps: Deps, query: str) -> list[str]:
    return [h.memory_id for h in await deps.keywords.search(ALICE, query, 10)]


def test_run_once_indexes_new_messages_and_completes_the_job() -> None:
    async def scenario(deps: Deps) -> None:
        stored = await add_messages(deps, ALICE, "t1", ["my sister lives in Lisbon", "the garden has roses"])
        assert await run_once(deps) == 1
        assert await run_once(deps) == 0  # nothing left
        ids = [turn_memory_id(m.id) for m in stored]
        turns = await deps.memories.get_many(ALICE, ids)
        assert [(t.kind, t.content, t.seq, t.source_message_ids) for t in turns] == [
            (MemoryKind.TURN, "my sister lives in Lisbon", 0, [stored[0].id]),
            (MemoryKind.TURN, "the garden has roses", 1, [stored[1].id]),
        ]
        assert await keyword_ids(deps, "Lisbon") == [ids[0]]
        hits = await deps.vectors.search(ALICE, deps.embedder.embed_query("the garden has roses"), 1)
        assert hits[0].memory_id == ids[1]
        assert (await deps.vectors.info())["models"] == {deps.embedder.name: deps.embedder.dim}
        stats = await deps.jobs.stats()
        assert (stats["pending"], stats["running"], stats["dead"]) == (0, 0, 0)

    run(scenario)


def test_saved_facts_are_indexed_too() -> None:
    async def scenario(deps: Deps) -> None:
        fact = await remember(deps, ALICE, "Alice is allergic to peanuts", memory_type="critical_info")
        assert await run_once(deps) == 1
        assert await keyword_ids(deps, "peanuts") == [fact.id]
        assert (await deps.vectors.info())["vectors"] == 1

    run(scenario)


def test_indexing_the_same_messages_twice_does_not_duplicate_them() -> None:
    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ALICE, "t1", ["hello there"])
        (job,) = await deps.jobs.claim(10, 1)
        advance(deps, 2)  # the first worker died holding the job: its lease ran out
        assert await run_once(deps) == 1
        assert job.attempts == 1
        assert await deps.memories.count(ALICE) == 1
        assert (await deps.vectors.info())["vectors"] == 1

    run(scenario)


def test_embedding_texts_prefix_a_reply_with_the_turn_it_answers() -> None:
    async def scenario(deps: Deps) -> None:
        stored = await add_messages(
            deps,
            ALICE,
            "t1",
            [
                {"role": "user", "name": "Ana", "content": "Where did you go last Saturday?"},
                {"role": "assistant", "name": "Bot", "content": "To the beach!"},
                {"role": "assistant", "name": "Bot", "content": "Also, I bought a kite."},
            ],
        )
        turns = [turn_memory(m) for m in stored]
        first, reply, same_speaker = await embedding_texts(deps, turns)
        assert first == turns[0].index_text  # nothing before it
        assert reply == f"Ana: Where did you go last Saturday?\n{turns[1].index_text}"
        assert same_speaker == turns[2].index_text  # the same speaker again: not a reply, no prefix

        # A turn whose previous turn is not in the batch finds it in the log.
        (alone,) = await embedding_texts(deps, [turns[1]])
        assert alone == reply

    run(scenario)


def test_the_prefix_is_the_start_of_a_long_previous_turn() -> None:
    async def scenario(deps: Deps) -> None:
        long = "word " * 100
        stored = await add_messages(deps, ALICE, "t1", [long, {"role": "assistant", "content": "ok"}])
        _, reply = await embedding_texts(deps, [turn_memory(m) for m in stored])
        prefix, _ = reply.split("\n", 1)
        assert prefix == f"user: {long[:200]}"

    run(scenario)


def test_a_failing_embedder_is_retried_with_backoff_then_dead_lettered() -> None:
    embedder = PoisonEmbedder()  # every batch fails
    deps = make_deps(embedder)

    async def scenario(deps: Deps) -> None:
        (message,) = await add_messages(deps, ALICE, "t1", ["never embedded"])
        assert await run_once(deps) == 1  # attempt 1 fails: retry in BACKOFF
        (stats, dead) = (await deps.jobs.stats(), await deps.jobs.dead())
        assert (stats["pending"], stats["running"], stats["dead"], dead) == (1, 0, 0, [])

        assert await run_once(deps) == 0  # not due yet
        advance(deps, BACKOFF - 0.5)
        assert await run_once(deps) == 0
        advance(deps, 0.5)
        assert await run_once(deps) == 1  # attempt 2 fails: retry in 2 * BACKOFF

        advance(deps, 2 * BACKOFF - 0.5)
        assert await run_once(deps) == 0
        advance(deps, 0.5)
        assert await run_once(deps) == 1  # attempt 3 is the last
        advance(deps, 3600)
        assert await run_once(deps) == 0  # dead letters are never claimed
        stats = await deps.jobs.stats()
        assert (stats["pending"], stats["running"], stats["dead"]) == (0, 0, 1)
        (job,) = await deps.jobs.dead()
        assert job.attempts == MAX_ATTEMPTS
        assert job.last_error == "ValueError: cannot embed ''"
        assert job.payload == {"message_ids": [message.id]}
        assert len(embedder.batches) == MAX_ATTEMPTS
        assert await deps.memories.count() == 0  # a failed batch writes nothing

        # Once the embedder works again, requeued dead letters are indexed.
        embedder.cure()
        assert await deps.jobs.requeue_dead() == 1
        assert await run_once(deps) == 1
        assert await keyword_ids(deps, "embedded") == [turn_memory_id(message.id)]
        assert (await deps.jobs.stats())["dead"] == 0

    run(scenario, deps)


def test_one_poison_job_does_not_block_the_others_in_its_batch() -> None:
    embedder = PoisonEmbedder("POISON")
    deps = make_deps(embedder)

    async def scenario(deps: Deps) -> None:
        (before,) = await add_messages(deps, ALICE, "t1", ["tea before"])
        (bad,) = await add_messages(deps, ALICE, "t2", ["POISON pill"])
        (after,) = await add_messages(deps, ALICE, "t3", ["coffee after"])
        assert await run_once(deps) == 3  # one batch of three jobs
        assert len(embedder.batches[0]) == 3  # tried together first, then one by one

        assert await keyword_ids(deps, "tea") == [turn_memory_id(before.id)]
        assert await keyword_ids(deps, "coffee") == [turn_memory_id(after.id)]
        assert await deps.memories.get_many(ALICE, [turn_memory_id(bad.id)]) == []
        stats = await deps.jobs.stats()
        # Only the poison job waits for a retry.
        assert (stats["pending"], stats["running"], stats["dead"]) == (1, 0, 0)

        advance(deps, BACKOFF)
        assert await run_once(deps) == 1  # retried alone
        assert (await deps.jobs.stats())["pending"] == 1

    run(scenario, deps)


class ForgetsAfterLoading:
    """A message log through which the worker's first read is followed, at once, by the user
    forgetting the thread: what a concurrent ``forget`` looks like to the worker."""

    def __init__(self, inner: MessageLog, thread_id: str) -> None:
        self._inner = inner
        self._thread_id = thread_id
        self.deps: Deps | None = None
        self.forgotten = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def get_many(self, scope: Scope, message_ids: Sequence[str]) -> list:
        loaded = await self._inner.get_many(scope, message_ids)
        if not self.forgotten and self.deps is not None:
            self.forgotten = True
            await forget(self.deps, scope, self._thread_id)
        return loaded


def test_messages_forgotten_while_being_indexed_are_not_resurrected() -> None:
    plain = make_deps()
    log = ForgetsAfterLoading(plain.log, "secret")
    deps = dataclasses.replace(plain, log=log)
    log.deps = deps

    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ALICE, "secret", ["my password is swordfish"])
        await add_messages(deps, ALICE, "kept", ["the sky is blue"])
        assert await run_once(deps) == 2
        assert log.forgotten
        assert await deps.log.count(ALICE) == 1
        assert [m.content for m in await deps.memories.list(ALICE)] == ["the sky is blue"]
        assert await keyword_ids(deps, "swordfish") == []
        assert (await deps.vectors.info())["vectors"] == 1
        stats = await deps.jobs.stats()
        # Both jobs are done.
        assert (stats["pending"], stats["running"], stats["dead"]) == (0, 0, 0)

    run(scenario, deps)


def test_a_fact_deleted_before_its_job_runs_is_skipped() -> None:
    async def scenario(deps: Deps) -> None:
        fact = await remember(deps, ALICE, "short-lived fact")
        assert await deps.memories.delete(ALICE, [fact.id]) == 1
        assert await run_once(deps) == 1
        assert await deps.memories.count() == 0
        assert (await deps.vectors.info())["vectors"] == 0
        assert (await deps.jobs.stats())["pending"] == 0

    run(scenario)


def test_a_worker_that_lost_its_claim_writes_nothing() -> None:
    """A worker stalled past its lease while another claimed the same job: the first must not
    index it too (the second does), nor complete the other's claim."""

    async def scenario(deps: Deps) -> None:
        (message,) = await add_messages(deps, ALICE, "t1", ["Ana moved to Lisbon"])
        lease = deps.settings.job_lease_seconds
        (stalled,) = [j for j in await deps.jobs.claim(10, lease) if j.kind == INDEX_JOB]
        advance(deps, lease + 1)  # its lease ran out unrenewed
        (current,) = [j for j in await deps.jobs.claim(10, lease) if j.kind == INDEX_JOB]
        assert current.id == stalled.id and current.attempts == stalled.attempts + 1

        await process_jobs(deps, [stalled])
        memory_id = turn_memory_id(message.id)
        assert await deps.vectors.get(ALICE, [memory_id]) == {}  # not written by the stalled worker
        assert (await deps.jobs.stats()).get("running") == 1  # the other's claim stands

        await process_jobs(deps, [current])
        assert memory_id in await deps.vectors.get(ALICE, [memory_id])
        assert (await deps.jobs.stats()).get("running", 0) == 0

    run(scenario)
