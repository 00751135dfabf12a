"""services.ingest.add_messages over the in-memory adapters: validation, the outbox, the cache."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone

import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.domain.errors import InvalidInput
from hipocampo.domain.model import NewMessage, Role, Scope
from hipocampo.services.deps import Deps
from hipocampo.services.ingest import (
    INDEX_JOB,
    MAX_MESSAGES_PER_CALL,
    add_messages,
    recent_cache_key,
)
from hipocampo.services.recall import recent_messages
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

ALICE = Scope("acme", "alice")

ENGINE_ONLY = {"embedder": "fake", "tokenizer": "chars", "extraction": False, "summaries": False}
"""The write/index/recall engine alone: no fact extraction or summaries in these tests."""


def run(scenario: Callable[[Deps], Awaitable[None]], **settings: object) -> None:
    deps = build_memory_deps(Settings(**(ENGINE_ONLY | settings)), clock=FakeClock())
    asyncio.run(scenario(deps))


async def nothing_written(deps: Deps) -> None:
    assert await deps.log.count() == 0
    assert await deps.log.threads(ALICE) == []
    assert (await deps.jobs.stats())["pending"] == 0


@pytest.mark.parametrize(
    ("thread_id", "messages", "kw", "error"),
    [
        ("", ["hi"], {}, "thread_id must not be empty"),
        (None, ["hi"], {}, "thread_id is required"),
        ("t\x01", ["hi"], {}, "control or invisible characters"),
        ("t1", [], {}, "no messages"),
        ("t1", ["hi"] * (MAX_MESSAGES_PER_CALL + 1), {}, "at most"),
        ("t1", ["hi"], {"metadata": ["not", "a", "dict"]}, "metadata must be an object"),
        ("t1", ["hi"], {"at": "yesterday-ish"}, "cannot read"),
        ("t1", ["fine", "   "], {}, "must not be empty"),
        ("t1", [{"role": "robot", "content": "beep"}], {}, "role must be one of"),
        ("t1", [{"content": "hi", "colour": "red"}], {}, "unknown message field"),
        ("t1", [42], {}, "must be a dict or a string"),
    ],
)
def test_invalid_input_is_refused_and_nothing_is_written(thread_id, messages, kw, error) -> None:
    async def scenario(deps: Deps) -> None:
        with pytest.raises(InvalidInput, match=error):
            await add_messages(deps, ALICE, thread_id, messages, **kw)
        await nothing_written(deps)

    run(scenario)


def test_messages_are_parsed_and_stored_in_order() -> None:
    async def scenario(deps: Deps) -> None:
        said = datetime(2023, 5, 1, 12, 0, tzinfo=timezone.utc)
        stored = await add_messages(
            deps,
            ALICE,
            "t1",
            [
                "a bare string is a user turn",
                {
                    "role": "assistant",
                    "content": "a dict",
                    "name": "Bot",
                    "metadata": {"own": 1, "src": "mine"},
                },
                NewMessage(role=Role.USER, content="timed", created_at=said),
            ],
            at="2024-02-01T10:00:00Z",
            metadata={"src": "import", "batch": 7},
        )
        assert [(m.seq, m.role, m.content) for m in stored] == [
            (0, Role.USER, "a bare string is a user turn"),
            (1, Role.ASSISTANT, "a dict"),
            (2, Role.USER, "timed"),
        ]
        # ``at`` fills in missing times; a message's own time wins.
        assert stored[0].created_at == datetime(2024, 2, 1, 10, 0, tzinfo=timezone.utc)
        assert stored[2].created_at == said
        assert stored[1].metadata == {"src": "mine", "batch": 7, "own": 1}  # its own metadata wins
        assert stored[1].name == "Bot"
        assert [m.id for m in await deps.log.list_thread(ALICE, "t1")] == [m.id for m in stored]

    run(scenario)


def test_a_single_message_need_not_be_wrapped_in_a_list() -> None:
    async def scenario(deps: Deps) -> None:
        (stored,) = await add_messages(deps, ALICE, "t1", "just one")
        assert stored.content == "just one"
        (again,) = await add_messages(deps, ALICE, "t1", {"role": "assistant", "content": "and another"})
        assert again.seq == 1

    run(scenario)


def test_messages_without_a_time_get_the_clocks() -> None:
    async def scenario(deps: Deps) -> None:
        (stored,) = await add_messages(deps, ALICE, "t1", ["now"])
        assert stored.created_at == deps.clock.now()

    run(scenario)


def test_one_indexing_job_is_enqueued_with_the_stored_ids() -> None:
    async def scenario(deps: Deps) -> None:
        stored = await add_messages(deps, ALICE, "t1", ["one", "two", "three"])
        assert (await deps.jobs.stats())["pending"] == 1
        (job,) = await deps.jobs.claim(10, 60)
        assert job.kind == INDEX_JOB
        assert (job.tenant_id, job.user_id) == ("acme", "alice")
        assert job.payload == {"message_ids": [m.id for m in stored]}

    run(scenario)


def test_a_retried_call_enqueues_no_second_job() -> None:
    async def scenario(deps: Deps) -> None:
        first = await add_messages(deps, ALICE, "t1", [{"id": "ext-1", "content": "hello"}])
        again = await add_messages(deps, ALICE, "t1", [{"id": "ext-1", "content": "hello"}])
        assert [m.id for m in again] == [m.id for m in first]
        assert await deps.log.count(ALICE) == 1
        assert len(await deps.jobs.claim(10, 60)) == 1

    run(scenario)


def test_adding_invalidates_the_threads_cached_window() -> None:
    async def scenario(deps: Deps) -> None:
        key = recent_cache_key(ALICE, "t1")
        await add_messages(deps, ALICE, "t1", ["first"])
        assert [m.content for m in await recent_messages(deps, ALICE, "t1")] == ["first"]
        assert await deps.cache.get(key) is not None  # read through, now cached

        other = recent_cache_key(ALICE, "t2")
        await deps.cache.set(other, [], 300)
        await add_messages(deps, ALICE, "t1", ["second"])
        assert await deps.cache.get(key) is None
        assert await deps.cache.get(other) == []  # other threads' windows are untouched
        assert [m.content for m in await recent_messages(deps, ALICE, "t1")] == ["first", "second"]

    run(scenario)


def test_a_failed_call_leaves_the_cache_alone() -> None:
    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ALICE, "t1", ["first"])
        await recent_messages(deps, ALICE, "t1")
        with pytest.raises(InvalidInput):
            await add_messages(deps, ALICE, "t1", ["ok", ""])
        cached = await deps.cache.get(recent_cache_key(ALICE, "t1"))
        assert [m["content"] for m in cached["messages"]] == ["first"]

    run(scenario)


def test_scopes_and_threads_are_kept_apart() -> None:
    async def scenario(deps: Deps) -> None:
        bob = Scope("acme", "bob")
        await add_messages(deps, ALICE, "t1", ["alice's"])
        await add_messages(deps, bob, "t1", ["bob's"])
        await add_messages(deps, ALICE, "t2", ["alice's other thread"])
        assert await deps.log.threads(ALICE) == ["t1", "t2"]
        assert [m.content for m in await deps.log.list_thread(bob, "t1")] == ["bob's"]
        jobs = await deps.jobs.claim(10, 60)
        assert sorted((j.user_id, len(j.payload["message_ids"])) for j in jobs) == [
            ("alice", 1),
            ("alice", 1),
            ("bob", 1),
        ]

    run(scenario)
