"""A user's keyword statistics follow every change to their index: whatever path added, replaced or
removed their entries (re-indexing, deleting entries, deleting memories, threads or the user,
resetting the index), their scores are those of a user who only ever indexed what is left."""

from __future__ import annotations

from collections.abc import Callable

from hipocampo.domain.model import Scope

ALICE = Scope("acme", "alice")
FRESH = Scope("acme", "fresh")  # indexes only what alice ends up with
BOB = Scope("acme", "bob")

DOCS = {
    "a1": ("t1", "my sister lives in Lisbon"),
    "a2": ("t1", "Lisbon, Lisbon: the sister city of my sister"),
    "a3": ("t2", "the weather in Lisbon was cloudy all week"),
    "a4": ("t2", "we talked about the new office downtown"),
    "a5": ("t3", "o almoço de domingo foi ótimo com a minha irmã"),
    "a6": ("t3", "my sister's office is in Porto"),
    "a7": ("t4", "sister sister sister"),
}
QUERIES = ["sister Lisbon", "office weather", "almoço irmã", "sister", "Porto downtown", "garden note"]


async def scores(s, scope: Scope, prefix: str) -> dict[str, dict[str, float]]:
    """Scores per query, by the memory's id without the scope's prefix."""
    return {
        q: {h.memory_id.removeprefix(prefix): round(h.score, 9) for h in await s.keywords.search(scope, q, 10)}
        for q in QUERIES
    }


async def index(s, memory: Callable, scope: Scope, prefix: str, docs: dict[str, tuple[str, str]]) -> None:
    await s.memories.upsert([memory(prefix + mid, scope, text, thread_id=t) for mid, (t, text) in docs.items()])
    await s.keywords.upsert(scope, [(prefix + mid, text) for mid, (_, text) in docs.items()])


def test_scores_after_every_kind_of_change_are_those_of_a_fresh_index(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await index(s, memory, ALICE, "", DOCS)
        await index(s, memory, BOB, "bob-", DOCS)  # another user's same words count for nothing
        final = dict(DOCS)
        final["a2"] = ("t1", "Lisbon again, and the office")  # re-indexed with other words
        await s.keywords.upsert(ALICE, [("a2", final["a2"][1])])
        await s.keywords.upsert(ALICE, [("a1", final["a1"][1])])  # re-indexed unchanged
        await s.keywords.delete(ALICE, ["a4"])  # the entry goes; the memory stays
        del final["a4"]
        await s.memories.delete(ALICE, ["a6"])  # the memory goes, and its entry with it
        del final["a6"]
        await s.memories.delete_thread(ALICE, "t4")
        del final["a7"]
        await index(s, memory, FRESH, "fresh-", final)

        assert await scores(s, ALICE, "") == await scores(s, FRESH, "fresh-")
        assert (await scores(s, ALICE, ""))["sister"]  # there is something to compare

    run(scenario)


def test_a_user_deleted_and_written_again_starts_from_nothing(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await index(s, memory, ALICE, "", DOCS)
        await s.memories.delete_user(ALICE)
        assert all(not hits for hits in (await scores(s, ALICE, "")).values())
        few = {"b1": ("t1", "my sister lives in Lisbon"), "b2": ("t1", "the office is downtown")}
        await index(s, memory, ALICE, "", few)
        await index(s, memory, FRESH, "fresh-", few)
        assert await scores(s, ALICE, "") == await scores(s, FRESH, "fresh-")

    run(scenario)


def test_a_reset_index_rebuilt_scores_as_before(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await index(s, memory, ALICE, "", DOCS)
        before = await scores(s, ALICE, "")
        await s.keywords.reset()
        assert all(not hits for hits in (await scores(s, ALICE, "")).values())
        await s.keywords.upsert(ALICE, [(mid, text) for mid, (_, text) in DOCS.items()])
        assert await scores(s, ALICE, "") == before

    run(scenario)


def test_batches_larger_than_a_statement_takes_keep_the_statistics(run: Callable, memory: Callable) -> None:
    many = {f"m{i}": ("t1", f"note {i} about the garden" if i % 3 else f"note {i} about Lisbon") for i in range(1200)}
    kept = {mid: many[mid] for mid in list(many)[1000:]}

    async def scenario(s) -> None:
        await index(s, memory, ALICE, "", many)
        await s.keywords.upsert(ALICE, [(mid, text) for mid, (_, text) in many.items()])  # all replaced at once
        await s.keywords.delete(ALICE, list(many)[:1000])
        await index(s, memory, FRESH, "fresh-", kept)
        assert await scores(s, ALICE, "") == await scores(s, FRESH, "fresh-")

    run(scenario)
