"""The MemoryStore port contract, part 2: fact slots, access tracking, and history."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from hipocampo.domain.model import HistoryEntry, HistoryEvent, MemoryKind, MemoryType, Scope

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")


def test_fact_fields_round_trip(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        now = s.clock.now()
        item = memory(
            "f1",
            ALICE,
            "Alice lives in Lisbon",
            kind=MemoryKind.FACT,
            memory_type=MemoryType.USER_PROFILE,
            key="home_city",
            confidence=0.9,
            mention_count=3,
            expires_at=now + timedelta(days=30),
            event_start=now - timedelta(days=2),
            event_end=now - timedelta(days=2),
        )
        await s.memories.upsert([item])
        assert await s.memories.get_many(ALICE, ["f1"]) == [item]

    run(scenario)


def test_current_by_key_skips_superseded_and_other_users(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        now = s.clock.now()
        await s.memories.upsert(
            [
                memory("old", ALICE, "lives in São Paulo", kind=MemoryKind.FACT, key="home_city", valid_to=now),
                memory(
                    "new",
                    ALICE,
                    "lives in Lisbon",
                    kind=MemoryKind.FACT,
                    key="home_city",
                    created_at=now + timedelta(seconds=1),
                ),
                memory("bob", BOB, "lives in Rome", kind=MemoryKind.FACT, key="home_city"),
                memory("other", ALICE, "likes jazz", kind=MemoryKind.FACT, key="likes:jazz"),
            ]
        )
        assert [m.id for m in await s.memories.current_by_key(ALICE, "home_city")] == ["new"]
        assert [m.id for m in await s.memories.current_by_key(BOB, "home_city")] == ["bob"]
        assert await s.memories.current_by_key(ALICE, "nope") == []

    run(scenario)


def test_touch_counts_accesses_in_scope_only(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await s.memories.upsert([memory("a", ALICE, "x"), memory("b", BOB, "y")])
        when = s.clock.now() + timedelta(hours=1)
        await s.memories.touch(ALICE, ["a", "b"], when)
        await s.memories.touch(ALICE, ["a"], when)
        (a,) = await s.memories.get_many(ALICE, ["a"])
        (b,) = await s.memories.get_many(BOB, ["b"])
        assert (a.access_count, a.last_accessed) == (2, when)
        assert (b.access_count, b.last_accessed) == (0, None)
        # an upsert never resets the counters
        await s.memories.upsert([memory("a", ALICE, "x edited")])
        (a,) = await s.memories.get_many(ALICE, ["a"])
        assert a.access_count == 2 and a.content == "x edited"

    run(scenario)


def test_history_is_ordered_scoped_and_deleted_with_the_memory(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        t = s.clock.now()
        await s.memories.upsert([memory("f", ALICE, "likes tea"), memory("g", BOB, "likes coffee")])
        entries = [
            HistoryEntry("f", HistoryEvent.ADD, t, None, "likes tea", "heuristic", "stated", None),
            HistoryEntry("f", HistoryEvent.MENTION, t + timedelta(days=1), None, None, "heuristic"),
            HistoryEntry(
                "f", HistoryEvent.UPDATE, t + timedelta(days=2), "likes tea", "likes mate", "api", "corrected", "f2"
            ),
        ]
        await s.memories.add_history(ALICE, entries)
        await s.memories.add_history(BOB, [HistoryEntry("g", HistoryEvent.ADD, t, None, "likes coffee")])
        assert await s.memories.history(ALICE, "f") == entries
        assert await s.memories.history(BOB, "f") == []
        assert await s.memories.history(ALICE, "g") == []
        await s.memories.delete(ALICE, ["f"])
        assert await s.memories.history(ALICE, "f") == []
        assert len(await s.memories.history(BOB, "g")) == 1

    run(scenario)
