"""services.recall over the in-memory adapters: the recent window (cached), the thread summary,
neighbour expansion, the token budget, and no turn shown twice."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.domain.errors import InvalidInput
from hipocampo.domain.model import NewMessage, Role, Scope, Summary, turn_memory_id
from hipocampo.services.deps import Deps
from hipocampo.services.ingest import add_messages, recent_cache_key
from hipocampo.services.recall import recall, recent_messages
from hipocampo.services.worker import run_once
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

ALICE = Scope("acme", "alice")
T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
RECENT = 3
MEMORIES = "## Relevant memories"

ENGINE_ONLY = {"embedder": "fake", "tokenizer": "chars", "extraction": False, "summaries": False}
"""The write/index/recall engine alone: no fact extraction or summaries in these tests."""


def run(scenario: Callable[[Deps], Awaitable[None]], **settings: Any) -> None:
    settings = {"recent_messages": RECENT, **settings}
    deps = build_memory_deps(Settings(**(ENGINE_ONLY | settings)), clock=FakeClock(T0))
    asyncio.run(scenario(deps))


async def indexed(deps: Deps) -> None:
    while await run_once(deps):
        pass


def memories_section(context: str) -> str:
    return context.split(MEMORIES, 1)[1] if MEMORIES in context else ""


def test_the_recent_window_is_read_through_the_cache() -> None:
    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ALICE, "t1", [f"message {i}" for i in range(5)])
        key = recent_cache_key(ALICE, "t1")
        assert await deps.cache.get(key) is None
        window = await recent_messages(deps, ALICE, "t1")
        assert [m.content for m in window] == [
            "message 2",
            "message 3",
            "message 4",
        ]  # oldest first
        cached = await deps.cache.get(key)
        assert cached["version"] == await deps.log.thread_version(ALICE, "t1")
        assert [m["content"] for m in cached["messages"]] == ["message 2", "message 3", "message 4"]
        again = await recent_messages(deps, ALICE, "t1")  # from the cache, the same messages
        assert [(m.id, m.content, m.seq, m.created_at) for m in again] == [
            (m.id, m.content, m.seq, m.created_at) for m in window
        ]

        # Written behind the service's back (another process): the thread's version moved, so
        # the cached window is not served, without waiting for its TTL.
        await deps.log.append(ALICE, "t1", [NewMessage(role=Role.USER, content="sneaked in")], [])
        fresh = await recent_messages(deps, ALICE, "t1")
        assert [m.content for m in fresh] == ["message 3", "message 4", "sneaked in"]
        deleted = await deps.log.delete_messages(ALICE, [fresh[-1].id])
        assert deleted == 1
        assert [m.content for m in await recent_messages(deps, ALICE, "t1")] == ["message 2", "message 3", "message 4"]

    run(scenario)


def test_recall_shows_the_recent_window() -> None:
    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ALICE, "t1", [f"message {i}" for i in range(5)])
        await indexed(deps)
        result = await recall(deps, ALICE, "anything at all", thread_id="t1")
        assert [m.content for m in result.recent] == ["message 2", "message 3", "message 4"]
        assert result.context.startswith("## Recent messages")
        assert all(f"message {i}" in result.context for i in (2, 3, 4))
        no_thread = await recall(deps, ALICE, "anything at all")
        assert no_thread.recent == [] and "## Recent messages" not in no_thread.context

    run(scenario)


def test_no_recent_window_when_it_is_switched_off() -> None:
    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ALICE, "t1", ["hello"])
        assert await recent_messages(deps, ALICE, "t1") == []
        assert await deps.cache.get(recent_cache_key(ALICE, "t1")) is None

    run(scenario, recent_messages=0)


def test_the_summary_section_appears_when_the_thread_has_one() -> None:
    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ALICE, "t1", ["we planned the trip"])
        await indexed(deps)
        without = await recall(deps, ALICE, "trip", thread_id="t1")
        assert without.summary is None and "## Summary" not in without.context

        summary = Summary(ALICE, "t1", "Ana plans a trip to Lisbon in May.", 40, 39, 9, T0)
        await deps.summaries.put(summary)
        result = await recall(deps, ALICE, "trip", thread_id="t1")
        assert result.summary == summary
        before, _ = result.context.split("Ana plans a trip to Lisbon in May.", 1)
        assert "Summary" in before  # under its heading
        other = await recall(deps, ALICE, "trip", thread_id="t2")
        assert other.summary is None  # summaries belong to their thread

    run(scenario)


def test_the_turns_around_a_hit_are_rendered_with_it() -> None:
    async def scenario(deps: Deps) -> None:
        stored = await add_messages(
            deps,
            ALICE,
            "dinner",
            [
                {"role": "user", "name": "Ana", "content": "Guess what I made yesterday"},
                {"role": "user", "name": "Ana", "content": "A risotto with saffron"},
                {"role": "assistant", "content": "Impressive, well done"},
                {"role": "user", "name": "Ana", "content": "Unrelated remark far away"},
            ],
        )
        await indexed(deps)
        # Only the hit stays findable; its neighbours can come back through expansion alone.
        others = [turn_memory_id(m.id) for m in stored if m.content != "A risotto with saffron"]
        await deps.keywords.delete(ALICE, others)
        await deps.vectors.delete(ALICE, others)

        result = await recall(deps, ALICE, "saffron risotto", thread_id="elsewhere")
        assert [h.memory.content for h in result.memories] == ["A risotto with saffron"]
        section = memories_section(result.context)
        assert "conversation dinner" in section
        shown = ["Guess what I made yesterday", "A risotto with saffron", "Impressive, well done"]
        assert all(text in section for text in shown)  # the turns before and after the hit
        assert [section.index(text) for text in shown] == sorted(section.index(text) for text in shown)
        assert "Unrelated remark far away" not in result.context  # two turns away: not a neighbour

    run(scenario)


def test_the_context_stays_within_the_token_budget() -> None:
    async def scenario(deps: Deps) -> None:
        words = ["garden", "roses", "tulips", "soil", "water", "sunlight"]
        for day in range(10):
            await add_messages(
                deps,
                ALICE,
                f"t{day}",
                [f"day {day}: the garden {w} " + "and more details " * 5 for w in words],
                at=T0 - timedelta(days=day),
            )
        await indexed(deps)
        await deps.summaries.put(Summary(ALICE, "t0", "A long summary. " * 50, 6, 5, 200, T0))
        for budget in (50, 120, 400, 2000):
            result = await recall(deps, ALICE, "garden roses", thread_id="t0", token_budget=budget)
            assert result.token_budget == budget
            assert result.context_tokens == deps.tokenizer.count(result.context) <= budget
        big = await recall(deps, ALICE, "garden roses", thread_id="t0", token_budget=2000)
        small = await recall(deps, ALICE, "garden roses", thread_id="t0", token_budget=400)
        assert len(memories_section(small.context)) < len(memories_section(big.context))

    run(scenario)


def test_the_budget_defaults_to_the_setting_and_has_a_floor() -> None:
    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ALICE, "t1", ["some words " * 100 for _ in range(20)])
        await indexed(deps)
        result = await recall(deps, ALICE, "words", thread_id="t1")
        assert result.token_budget == 300 and result.context_tokens <= 300
        with pytest.raises(InvalidInput, match="at least 50"):
            await recall(deps, ALICE, "words", token_budget=49)

    run(scenario, context_token_budget=300)


def test_turns_in_the_recent_window_are_not_repeated_among_the_memories() -> None:
    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ALICE, "old", ["the saffron came from Spain"], at=T0 - timedelta(days=3))
        await add_messages(
            deps,
            ALICE,
            "t1",
            ["filler one", "I bought saffron today", "filler two"],
            at=T0 - timedelta(hours=1),
        )
        await indexed(deps)
        result = await recall(deps, ALICE, "saffron", thread_id="t1")
        found = {h.memory.content for h in result.memories}
        assert {
            "I bought saffron today",
            "the saffron came from Spain",
        } <= found  # both are hits...
        assert result.context.count("I bought saffron today") == 1  # ...but shown once, as recent
        assert "I bought saffron today" not in memories_section(result.context)
        assert "the saffron came from Spain" in memories_section(result.context)

    run(scenario)
