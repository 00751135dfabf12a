"""The MemoryStore port contract: upsert, reads in scope, filters, deletion with index entries."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import timedelta

from hipocampo.domain.model import CUSTOM_TYPE_KEY, MemoryItem, MemoryKind, MemoryType, Role, Scope

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
ALICE_GLOBEX = Scope("globex", "alice")


def test_upsert_then_get_many_round_trips_every_field(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        item = memory(
            "fact-1",
            ALICE,
            "Alice é alérgica a amendoim",
            kind=MemoryKind.FACT,
            thread_id="t1",
            memory_type=MemoryType.CRITICAL_INFO,
            importance=0.9,
            source_message_ids=["msg_1", "msg_2"],
            metadata={"confidence": 0.8, "tags": ["saúde"]},
            name="Alice",
            updated_at=s.clock.now() + timedelta(days=1),
        )
        await s.memories.upsert([item])
        assert await s.memories.get_many(ALICE, ["fact-1"]) == [item]

    run(scenario)


def test_get_many_follows_the_requested_order_and_drops_what_it_cannot_see(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await s.memories.upsert([memory(f"m{i}", ALICE, f"memory {i}") for i in range(4)])
        await s.memories.upsert([memory("bob-1", BOB, "bob's"), memory("globex-1", ALICE_GLOBEX, "other tenant")])
        got = await s.memories.get_many(ALICE, ["m3", "nope", "m0", "bob-1", "globex-1", "m2"])
        assert [m.id for m in got] == ["m3", "m0", "m2"]
        assert await s.memories.get_many(BOB, ["m0", "m1"]) == []
        assert await s.memories.get_many(ALICE, []) == []

    run(scenario)


def test_upsert_of_an_existing_id_updates_it(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await s.memories.upsert([memory("f", ALICE, "likes tea", kind=MemoryKind.FACT, importance=0.5)])
        later = s.clock.now() + timedelta(days=2)
        await s.memories.upsert(
            [
                memory(
                    "f",
                    ALICE,
                    "likes coffee",
                    kind=MemoryKind.FACT,
                    importance=0.7,
                    updated_at=later,
                )
            ]
        )
        (got,) = await s.memories.get_many(ALICE, ["f"])
        assert (got.content, got.importance, got.updated_at) == ("likes coffee", 0.7, later)
        assert await s.memories.count(ALICE) == 1

    run(scenario)


def test_an_upsert_from_another_scope_never_takes_over_a_memory(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        original = memory("same-id", ALICE, "alice's secret")
        await s.memories.upsert([original])
        for intruder in (ALICE_GLOBEX, BOB):
            # Refusing loudly (NotFound is a LookupError) is fine too; changing alice's row is not.
            with contextlib.suppress(LookupError):
                await s.memories.upsert([memory("same-id", intruder, "overwritten!")])
            assert await s.memories.get_many(intruder, ["same-id"]) == []
            assert await s.memories.count(intruder) == 0
        assert await s.memories.get_many(ALICE, ["same-id"]) == [original]
        assert await s.memories.scopes() == [("acme", "alice")]

    run(scenario)


def test_list_is_newest_first_with_limit_and_offset(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        t0 = s.clock.now()
        await s.memories.upsert(
            [memory(f"m{i}", ALICE, f"memory {i}", created_at=t0 + timedelta(hours=i)) for i in (2, 0, 4, 1, 3)]
        )
        await s.memories.upsert([memory("bob", BOB, "bob's", created_at=t0 + timedelta(hours=9))])
        assert [m.id for m in await s.memories.list(ALICE)] == ["m4", "m3", "m2", "m1", "m0"]
        assert [m.id for m in await s.memories.list(ALICE, limit=2)] == ["m4", "m3"]
        assert [m.id for m in await s.memories.list(ALICE, limit=2, offset=2)] == ["m2", "m1"]
        assert await s.memories.list(ALICE, offset=5) == []

    run(scenario)


def test_list_filters_by_kind_thread_and_time(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        t0 = s.clock.now()
        day = timedelta(days=1)
        await s.memories.upsert(
            [
                memory("turn-a", ALICE, "a", thread_id="t1", seq=0, created_at=t0),
                memory("turn-b", ALICE, "b", thread_id="t2", seq=0, created_at=t0 + day),
                memory(
                    "fact-c",
                    ALICE,
                    "c",
                    kind=MemoryKind.FACT,
                    thread_id="t1",
                    created_at=t0 + 2 * day,
                ),
                memory(
                    "summary-d",
                    ALICE,
                    "d",
                    kind=MemoryKind.SUMMARY,
                    thread_id=None,
                    created_at=t0 + 3 * day,
                ),
            ]
        )

        def ids(items: list[MemoryItem]) -> list[str]:
            return [m.id for m in items]

        assert ids(await s.memories.list(ALICE, kind=MemoryKind.TURN)) == ["turn-b", "turn-a"]
        assert ids(await s.memories.list(ALICE, kind=MemoryKind.FACT)) == ["fact-c"]
        assert ids(await s.memories.list(ALICE, kind=MemoryKind.EPISODE)) == []
        assert ids(await s.memories.list(ALICE, thread_id="t1")) == ["fact-c", "turn-a"]
        assert ids(await s.memories.list(ALICE, kind=MemoryKind.TURN, thread_id="t1")) == ["turn-a"]
        assert ids(await s.memories.list(ALICE, since=t0 + day)) == [
            "summary-d",
            "fact-c",
            "turn-b",
        ]
        assert ids(await s.memories.list(ALICE, until=t0 + 2 * day)) == ["turn-b", "turn-a"]
        assert ids(await s.memories.list(ALICE, since=t0 + day, until=t0 + 3 * day)) == [
            "fact-c",
            "turn-b",
        ]

    run(scenario)


def test_list_filters_by_memory_type_and_keeps_only_current_ones_before_paging(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        t0 = s.clock.now()
        minute = timedelta(minutes=1)
        old = memory("old", ALICE, "lives in Rome", kind=MemoryKind.FACT, created_at=t0 + 3 * minute)
        old.memory_type, old.valid_to = MemoryType.USER_PROFILE, t0
        gone = memory("gone", ALICE, "in hospital", kind=MemoryKind.FACT, created_at=t0 + 2 * minute)
        gone.memory_type, gone.expires_at = MemoryType.CRITICAL_INFO, t0 + 10 * minute
        now = memory("now", ALICE, "lives in Porto", kind=MemoryKind.FACT, created_at=t0 + minute)
        now.memory_type = MemoryType.USER_PROFILE
        likes = memory("likes", ALICE, "likes jazz", kind=MemoryKind.FACT, created_at=t0)
        likes.memory_type = MemoryType.PREFERENCE
        await s.memories.upsert([old, gone, now, likes])

        def ids(items: list[MemoryItem]) -> list[str]:
            return [m.id for m in items]

        assert ids(await s.memories.list(ALICE, memory_type=MemoryType.USER_PROFILE)) == ["old", "now"]
        assert ids(await s.memories.list(ALICE, current_at=t0 + minute, limit=2)) == ["gone", "now"]
        assert ids(await s.memories.list(ALICE, current_at=t0 + 20 * minute, limit=1)) == ["now"]
        assert ids(await s.memories.list(ALICE, current_at=t0 + 20 * minute, offset=1)) == ["likes"]

    run(scenario)


def test_list_filters_by_a_custom_memory_type_kept_in_the_metadata(run: Callable, memory: Callable) -> None:
    """A deployment's own types (campaign, metric...) live in the metadata of untyped facts; the
    filter reads them there, in the query, so paging stays exact."""

    async def scenario(s) -> None:
        t0 = s.clock.now()
        minute = timedelta(minutes=1)
        facts = [
            memory(
                f"c{i}",
                ALICE,
                f"campaign {i}",
                kind=MemoryKind.FACT,
                created_at=t0 + i * minute,
                metadata={CUSTOM_TYPE_KEY: "campaign"},
            )
            for i in range(3)
        ]
        metric = memory("cpl", ALICE, "CPL is R$ 25", kind=MemoryKind.FACT, metadata={CUSTOM_TYPE_KEY: "metric"})
        typed = memory("typed", ALICE, "likes jazz", kind=MemoryKind.FACT, metadata={CUSTOM_TYPE_KEY: "campaign"})
        typed.memory_type = MemoryType.PREFERENCE  # a built-in type wins over a stray metadata key
        turn = memory("turn", ALICE, "a turn", metadata={CUSTOM_TYPE_KEY: "campaign"})  # not a fact
        bob = memory("bob", BOB, "bob's campaign", kind=MemoryKind.FACT, metadata={CUSTOM_TYPE_KEY: "campaign"})
        await s.memories.upsert([*facts, metric, typed, turn, bob])

        got = await s.memories.list(ALICE, memory_type="campaign")
        assert [m.id for m in got] == ["c2", "c1", "c0"] and {m.type_name for m in got} == {"campaign"}
        assert [m.id for m in await s.memories.list(ALICE, memory_type="campaign", limit=1, offset=1)] == ["c1"]
        assert [m.id for m in await s.memories.list(ALICE, memory_type="metric")] == ["cpl"]
        assert [m.id for m in await s.memories.list(ALICE, memory_type=MemoryType.PREFERENCE)] == ["typed"]
        assert await s.memories.list(ALICE, memory_type="insight") == []

    run(scenario)


def test_neighbours_returns_turns_of_the_thread_at_those_positions(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await s.memories.upsert([memory(f"t1-{i}", ALICE, f"turn {i}", thread_id="t1", seq=i) for i in range(5)])
        await s.memories.upsert(
            [
                memory("t2-1", ALICE, "other thread", thread_id="t2", seq=1),
                memory("fact", ALICE, "not a turn", kind=MemoryKind.FACT, thread_id="t1", seq=2),
                memory("bob-1", BOB, "bob's", thread_id="t1", seq=1),
            ]
        )
        got = await s.memories.neighbours(ALICE, "t1", [3, 1, 99])
        assert [m.id for m in got] == ["t1-1", "t1-3"]
        assert await s.memories.neighbours(ALICE, "t1", []) == []
        assert [m.id for m in await s.memories.neighbours(BOB, "t1", [0, 1, 2])] == ["bob-1"]

    run(scenario)


def test_delete_removes_the_memory_and_its_index_entries(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        keep = memory("keep", ALICE, "the garden has roses", seq=0)
        gone = memory("gone", ALICE, "the garden has tulips", seq=1)
        await s.memories.upsert([keep, gone])
        await s.keywords.upsert(ALICE, [(keep.id, keep.content), (gone.id, gone.content)])
        await s.vectors.upsert(ALICE, [("keep", vec(1, 0)), ("gone", vec(0, 1))], "fake/2")

        assert await s.memories.delete(BOB, ["gone"]) == 0
        assert await s.memories.delete(ALICE, ["gone", "never-existed"]) == 1
        assert await s.memories.get_many(ALICE, ["keep", "gone"]) == [keep]
        assert [h.memory_id for h in await s.keywords.search(ALICE, "garden", 10)] == ["keep"]
        assert [h.memory_id for h in await s.vectors.search(ALICE, vec(0, 1), 10)] == ["keep"]
        assert await s.memories.delete(ALICE, []) == 0

    run(scenario)


def test_delete_thread_is_limited_to_the_thread_and_the_user(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        await s.memories.upsert(
            [
                memory("a1", ALICE, "apple pie", thread_id="t1", seq=0),
                memory("a2", ALICE, "apple juice", thread_id="t1", seq=1),
                memory("a3", ALICE, "apple tree", thread_id="t2", seq=0),
                memory("b1", BOB, "apple cake", thread_id="t1", seq=0),
            ]
        )
        await s.keywords.upsert(ALICE, [("a1", "apple pie"), ("a2", "apple juice"), ("a3", "apple tree")])
        await s.keywords.upsert(BOB, [("b1", "apple cake")])
        await s.vectors.upsert(ALICE, [("a1", vec(1, 0)), ("a2", vec(1, 1)), ("a3", vec(0, 1))], "fake/2")

        assert await s.memories.delete_thread(ALICE, "t1") == 2
        assert [m.id for m in await s.memories.list(ALICE)] == ["a3"]
        assert [h.memory_id for h in await s.keywords.search(ALICE, "apple", 10)] == ["a3"]
        assert [h.memory_id for h in await s.vectors.search(ALICE, vec(1, 0), 10)] == ["a3"]
        assert [h.memory_id for h in await s.keywords.search(BOB, "apple", 10)] == ["b1"]
        assert await s.memories.count(BOB) == 1

    run(scenario)


def test_delete_user_is_limited_to_the_user(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await s.memories.upsert(
            [
                memory("a1", ALICE, "apple", thread_id="t1"),
                memory("a2", ALICE, "apple", thread_id=None, kind=MemoryKind.FACT),
                memory("b1", BOB, "apple"),
                memory("g1", ALICE_GLOBEX, "apple"),
            ]
        )
        await s.keywords.upsert(ALICE, [("a1", "apple"), ("a2", "apple")])
        await s.keywords.upsert(ALICE_GLOBEX, [("g1", "apple")])
        assert await s.memories.delete_user(ALICE) == 2
        assert await s.memories.count(ALICE) == 0
        assert await s.keywords.search(ALICE, "apple", 10) == []
        assert [h.memory_id for h in await s.keywords.search(ALICE_GLOBEX, "apple", 10)] == ["g1"]
        assert await s.memories.count() == 2
        assert await s.memories.scopes() == [("acme", "bob"), ("globex", "alice")]

    run(scenario)


def test_count_and_scopes(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        assert await s.memories.count() == 0
        assert await s.memories.scopes() == []
        await s.memories.upsert([memory("a1", ALICE), memory("a2", ALICE), memory("b1", BOB)])
        await s.memories.upsert([memory("g1", ALICE_GLOBEX)])
        assert await s.memories.count(ALICE) == 2
        assert await s.memories.count(BOB) == 1
        assert await s.memories.count() == 4
        assert await s.memories.scopes() == [
            ("acme", "alice"),
            ("acme", "bob"),
            ("globex", "alice"),
        ]

    run(scenario)


def test_agent_only_scopes_see_their_own_and_shared_memories(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        sales = Scope("acme", "alice", agent_id="sales")
        support = Scope("acme", "alice", agent_id="support")
        sales_only = Scope("acme", "alice", agent_id="sales", agent_only=True)
        await s.memories.upsert(
            [
                memory("shared", ALICE, "shared", seq=0),
                memory("sales", sales, "sales", seq=1),
                memory("support", support, "support", seq=2),
            ]
        )
        assert [m.id for m in await s.memories.get_many(sales_only, ["shared", "sales", "support"])] == [
            "shared",
            "sales",
        ]
        assert sorted(m.id for m in await s.memories.list(sales_only)) == ["sales", "shared"]
        assert [m.id for m in await s.memories.neighbours(sales_only, "t1", [0, 1, 2])] == [
            "shared",
            "sales",
        ]
        assert await s.memories.count(sales_only) == 2
        assert await s.memories.delete(sales_only, ["support"]) == 0
        assert await s.memories.count(ALICE) == 3

    run(scenario)


def test_turn_fields_survive(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        turn = memory(
            "turn_msg_1",
            ALICE,
            "hi",
            thread_id="t1",
            seq=7,
            name="Alice",
            source_message_ids=["msg_1"],
        )
        await s.memories.upsert([turn])
        (got,) = await s.memories.get_many(ALICE, ["turn_msg_1"])
        assert (got.kind, got.role, got.seq, got.thread_id, got.name) == (
            MemoryKind.TURN,
            Role.USER,
            7,
            "t1",
            "Alice",
        )
        assert got.scope == ALICE

    run(scenario)
