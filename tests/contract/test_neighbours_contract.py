"""``MemoryStore.neighbours_of``: several threads' neighbours in one call, answered as
:meth:`neighbours` answers each thread (recall's neighbour expansion reads them this way)."""

from __future__ import annotations

from collections.abc import Callable

from hipocampo.domain.model import MemoryKind, Scope

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
ALICE_SALES = Scope("acme", "alice", "sales", agent_only=True)


def test_neighbours_of_several_threads_matches_neighbours_per_thread(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await s.memories.upsert([memory(f"t1-{i}", ALICE, f"turn {i}", thread_id="t1", seq=i) for i in range(5)])
        await s.memories.upsert([memory(f"t2-{i}", ALICE, f"other {i}", thread_id="t2", seq=i) for i in range(3)])
        await s.memories.upsert(
            [
                memory("fact", ALICE, "not a turn", kind=MemoryKind.FACT, thread_id="t1", seq=2),
                memory("bob-1", BOB, "bob's", thread_id="t1", seq=1),
            ]
        )
        positions = {"t2": [0, 2, 7], "t1": [3, 1, 99, 1]}
        got = await s.memories.neighbours_of(ALICE, positions)
        assert [m.id for m in got] == ["t1-1", "t1-3", "t2-0", "t2-2"]
        each = [m for t in sorted(positions) for m in await s.memories.neighbours(ALICE, t, positions[t])]
        assert got == each
        assert await s.memories.neighbours_of(ALICE, {}) == []
        assert await s.memories.neighbours_of(ALICE, {"t1": []}) == []
        assert [m.id for m in await s.memories.neighbours_of(BOB, {"t1": [0, 1, 2], "t2": [0]})] == ["bob-1"]

    run(scenario)


def test_neighbours_of_keeps_an_agent_to_its_own_and_shared_turns(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await s.memories.upsert(
            [
                memory("shared", Scope("acme", "alice"), "shared turn", thread_id="t1", seq=0),
                memory("sales", Scope("acme", "alice", "sales"), "sales turn", thread_id="t1", seq=1),
                memory("support", Scope("acme", "alice", "support"), "support turn", thread_id="t1", seq=2),
            ]
        )
        got = await s.memories.neighbours_of(ALICE_SALES, {"t1": [0, 1, 2]})
        assert [m.id for m in got] == ["shared", "sales"]

    run(scenario)
