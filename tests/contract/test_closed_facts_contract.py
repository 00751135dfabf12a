"""The MemoryStore port contract: a user's closed facts and what replaced them (one read per search)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from hipocampo.domain.model import MemoryKind, Scope

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
FACT = MemoryKind.FACT


def test_closed_facts_newest_closed_first_then_their_current_facts(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        t = s.clock.now()
        day = timedelta(days=1)
        await s.memories.upsert(
            [
                memory("acme", ALICE, "works at Acme", kind=FACT, key="employer", valid_to=t + 2 * day),
                memory("sp", ALICE, "lives in São Paulo", kind=FACT, key="home_city", valid_to=t + 5 * day),
                memory("veg", ALICE, "is vegetarian", kind=FACT, key="diet", valid_to=t + 3 * day),
                memory("globex", ALICE, "works at Globex", kind=FACT, key="employer", created_at=t + 2 * day),
                memory(
                    "porto",
                    ALICE,
                    "lives in Porto",
                    kind=FACT,
                    key="home_city",
                    created_at=t + 4 * day,
                    valid_to=t + 5 * day,
                ),
                memory("lisboa", ALICE, "lives in Lisboa", kind=FACT, key="home_city", created_at=t + 5 * day),
                memory("jazz", ALICE, "likes jazz", kind=FACT, key="likes:jazz"),  # never closed: not its business
                memory("turn", ALICE, "I work at Acme", valid_to=t),  # not a fact
                memory("loose", ALICE, "a note", kind=FACT, valid_to=t),  # no key: no slot to have changed
                memory("bob", BOB, "works at Initech", kind=FACT, key="employer", valid_to=t),
            ]
        )
        got = [m.id for m in await s.memories.closed_facts(ALICE, 10)]
        assert got[:4] == ["porto", "sp", "veg", "acme"]  # tie on valid_to: the later written first
        assert got[4:] == ["lisboa", "globex"]  # then what holds those keys now, newest first
        assert [m.id for m in await s.memories.closed_facts(ALICE, 1)] == ["porto", "lisboa"]
        assert [m.id for m in await s.memories.closed_facts(ALICE, 0)] == []
        assert [m.id for m in await s.memories.closed_facts(BOB, 10)] == ["bob"]
        assert await s.memories.closed_facts(Scope("acme", "nobody"), 10) == []
        full = (await s.memories.closed_facts(ALICE, 10))[0]
        assert full == (await s.memories.get_many(ALICE, ["porto"]))[0]  # every field, as stored

    run(scenario)


def test_closed_facts_of_an_agent_only_scope(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        t = s.clock.now()
        mine, theirs = Scope("acme", "alice", "bot"), Scope("acme", "alice", "other")
        await s.memories.upsert(
            [
                memory("shared", ALICE, "lives in Rome", kind=FACT, key="home_city", valid_to=t),
                memory("own", mine, "likes tea", kind=FACT, key="likes:tea", valid_to=t),
                memory("hidden", theirs, "likes coffee", kind=FACT, key="likes:coffee", valid_to=t),
            ]
        )
        only = Scope("acme", "alice", "bot", agent_only=True)
        assert sorted(m.id for m in await s.memories.closed_facts(only, 10)) == ["own", "shared"]
        assert sorted(m.id for m in await s.memories.closed_facts(ALICE, 10)) == ["hidden", "own", "shared"]

    run(scenario)
