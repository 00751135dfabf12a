"""Keyword scores are a user's own business: BM25 statistics come from the searching user's
entries only, so no other tenant (or other user) can move them by writing or deleting."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hipocampo.domain.model import Scope

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
GLOBEX = Scope("globex", "mallory")

ALICE_DOCS = {
    "a1": "my sister lives in Lisbon",
    "a2": "Lisbon, Lisbon: the sister city of my sister",
    "a3": "the weather in Lisbon was cloudy all week",
    "a4": "we talked about the new office downtown",
    "a5": "o almoço de domingo foi ótimo",
}
QUERIES = ["sister Lisbon", "office weather", "almoço", "sister"]


async def scores(s, scope: Scope) -> dict[str, dict[str, float]]:
    return {q: {h.memory_id: h.score for h in await s.keywords.search(scope, q, 10)} for q in QUERIES}


async def index(s, memory: Callable, scope: Scope, docs: dict[str, str]) -> None:
    await s.memories.upsert([memory(mid, scope, text) for mid, text in docs.items()])
    await s.keywords.upsert(scope, list(docs.items()))


def test_other_tenants_and_users_cannot_move_a_users_scores(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await index(s, memory, ALICE, ALICE_DOCS)
        before = await scores(s, ALICE)
        assert all(before.values())  # every query finds something, so there are scores to move

        # Another tenant writes a large corpus skewed on the very terms alice searches, with long
        # and short documents: with statistics over the whole index, every number above would move.
        skewed = {
            f"g{i}": "sister " * (i % 7 + 1) + "Lisbon office " * (i % 3) + f"filler words {i}" for i in range(60)
        }
        await index(s, memory, GLOBEX, skewed)
        await index(s, memory, BOB, {"b1": "sister sister sister", "b2": "weather weather office"})
        assert_same(await scores(s, ALICE), before)

        # ...and deletes it again, in part and wholly.
        await s.keywords.delete(GLOBEX, [f"g{i}" for i in range(0, 60, 2)])
        assert_same(await scores(s, ALICE), before)
        await s.memories.delete_user(GLOBEX)
        await s.memories.delete_user(BOB)
        assert_same(await scores(s, ALICE), before)

    run(scenario)


def test_a_users_own_entries_do_move_their_scores(run: Callable, memory: Callable) -> None:
    """The statistics are the user's: the isolation above is not scores frozen for everyone."""

    async def scenario(s) -> None:
        await index(s, memory, ALICE, ALICE_DOCS)
        before = await scores(s, ALICE)
        await index(s, memory, ALICE, {f"more-{i}": f"my sister {i} called" for i in range(10)})
        after = await scores(s, ALICE)
        assert after["sister Lisbon"]["a1"] != pytest.approx(before["sister Lisbon"]["a1"], rel=1e-6)
        assert after["almoço"]["a5"] != pytest.approx(before["almoço"]["a5"], rel=1e-6)  # N and avgdl moved

    run(scenario)


def test_other_tenants_entries_do_not_change_which_memories_match(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await index(s, memory, ALICE, ALICE_DOCS)
        await index(s, memory, GLOBEX, {f"g{i}": "sister Lisbon sister" for i in range(30)})
        for query, hits in (await scores(s, ALICE)).items():
            assert set(hits) <= set(ALICE_DOCS), query
        hits = await s.keywords.search(GLOBEX, "sister", 50)
        assert {h.memory_id for h in hits} == {f"g{i}" for i in range(30)}
        assert len({round(h.score, 9) for h in hits}) == 1  # identical documents score alike

    run(scenario)


def assert_same(got: dict[str, dict[str, float]], expected: dict[str, dict[str, float]]) -> None:
    assert got.keys() == expected.keys()
    for query in expected:
        assert list(got[query]) == list(expected[query]), query  # same memories, same order
        assert got[query] == pytest.approx(expected[query], rel=1e-9, abs=1e-12), query
