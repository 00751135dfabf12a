"""The KeywordIndex port contract: BM25 over analysed terms (English and Portuguese), in scope,
and queries that can never break the search."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest

from hipocampo.domain.model import Scope

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
ALICE_GLOBEX = Scope("globex", "alice")

FILLER = [
    "the weather was cloudy all week",
    "we talked about the new office",
    "o almoço de domingo foi ótimo",
    "a reunião ficou para terça",
]


async def indexed(s, memory: Callable, scope: Scope, docs: dict[str, str], *, thread_id: str = "t1") -> None:
    """Store the memories, then index their text (an index entry needs its memory)."""
    await s.memories.upsert([memory(mid, scope, text, thread_id=thread_id) for mid, text in docs.items()])
    await s.keywords.upsert(scope, list(docs.items()))


async def ids(s, scope: Scope, query: str, k: int = 10, **kw) -> list[str]:
    return [h.memory_id for h in await s.keywords.search(scope, query, k, **kw)]


def test_finds_memories_by_word_best_match_first(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await indexed(s, memory, ALICE, {f"filler-{i}": t for i, t in enumerate(FILLER)})
        await indexed(
            s,
            memory,
            ALICE,
            {
                "once": "my sister lives in Lisbon",
                "twice": "Lisbon, Lisbon: the sister city of my sister",
                "none": "my brother lives in Porto",
            },
        )
        hits = await s.keywords.search(ALICE, "sister", 10)
        assert [h.memory_id for h in hits] == ["twice", "once"]
        assert all(h.score > 0 for h in hits)
        assert hits[0].score > hits[1].score
        assert await ids(s, ALICE, "sister", 1) == ["twice"]
        assert await ids(s, ALICE, "Porto") == ["none"]
        assert await ids(s, ALICE, "Madrid") == []
        assert await ids(s, ALICE, "sister", 0) == []

    run(scenario)


def test_english_words_match_their_stems(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await indexed(s, memory, ALICE, {f"filler-{i}": t for i, t in enumerate(FILLER)})
        await indexed(s, memory, ALICE, {"run": "I love running in the park", "cook": "She cooked dinner"})
        assert await ids(s, ALICE, "run") == ["run"]
        assert await ids(s, ALICE, "runs") == ["run"]
        assert await ids(s, ALICE, "cooking") == ["cook"]
        assert await ids(s, ALICE, "PARKS") == ["run"]

    run(scenario)


def test_portuguese_words_match_their_stems_and_accents_fold(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await indexed(s, memory, ALICE, {f"filler-{i}": t for i, t in enumerate(FILLER)})
        await indexed(
            s,
            memory,
            ALICE,
            {
                "alergia": "Eu sou alérgica a amendoim e camarão",
                "acao": "A ação da empresa subiu muito",
                "cafe": "Tomei um café com a minha avó",
            },
        )
        assert await ids(s, ALICE, "alérgico") == ["alergia"]
        assert await ids(s, ALICE, "alergica") == ["alergia"]  # typed without accents
        assert await ids(s, ALICE, "alergia") == ["alergia"]
        assert await ids(s, ALICE, "ação") == ["acao"]
        assert await ids(s, ALICE, "acao") == ["acao"]
        assert await ids(s, ALICE, "AÇÃO") == ["acao"]
        assert await ids(s, ALICE, "cafe") == ["cafe"]
        assert await ids(s, ALICE, "avo") == ["cafe"]

    run(scenario)


def test_portuguese_queries_typed_without_accents_find_accented_words(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await indexed(s, memory, ALICE, {f"filler-{i}": t for i, t in enumerate(FILLER)})
        await indexed(
            s,
            memory,
            ALICE,
            {
                "camarao": "Eu sou alérgica a camarão",
                "info": "Preciso da informação do voo",
                "pao": "Comprei pão na padaria",
            },
        )
        assert await ids(s, ALICE, "camarao") == ["camarao"]
        assert await ids(s, ALICE, "informacao") == ["info"]
        assert await ids(s, ALICE, "pao") == ["pao"]

    run(scenario)


def test_hits_report_the_matched_terms(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await indexed(s, memory, ALICE, {f"filler-{i}": t for i, t in enumerate(FILLER)})
        await indexed(s, memory, ALICE, {"both": "running near the river", "one": "the river is cold"})
        hits = {h.memory_id: h for h in await s.keywords.search(ALICE, "run river", 10)}
        assert set(hits) == {"both", "one"}
        assert "run" in hits["both"].matched_terms and "river" in hits["both"].matched_terms
        assert "river" in hits["one"].matched_terms and "run" not in hits["one"].matched_terms
        assert all(isinstance(t, str) for h in hits.values() for t in h.matched_terms)

    run(scenario)


def test_users_and_tenants_never_see_each_others_entries(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await indexed(s, memory, ALICE, {"alice-1": "the password is swordfish"})
        await indexed(s, memory, BOB, {"bob-1": "the password is marlin"})
        await indexed(s, memory, ALICE_GLOBEX, {"globex-1": "the password is tuna"})
        assert await ids(s, ALICE, "password") == ["alice-1"]
        assert await ids(s, BOB, "password") == ["bob-1"]
        assert await ids(s, ALICE_GLOBEX, "password") == ["globex-1"]
        assert await ids(s, ALICE, "marlin tuna") == []
        assert await ids(s, Scope("acme", "carol"), "password") == []

    run(scenario)


def test_indexing_another_scopes_memory_cannot_change_it(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await indexed(s, memory, ALICE, {"alice-1": "the password is swordfish"})
        with contextlib.suppress(LookupError):  # refusing is fine; re-indexing alice's memory is not
            await s.keywords.upsert(BOB, [("alice-1", "hijacked words")])
        assert await ids(s, ALICE, "swordfish") == ["alice-1"]
        assert await ids(s, ALICE, "hijacked") == []
        assert await ids(s, BOB, "hijacked swordfish") == []

    run(scenario)


def test_agent_only_scopes_see_their_own_and_shared_entries(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        sales = Scope("acme", "alice", agent_id="sales")
        support = Scope("acme", "alice", agent_id="support")
        await indexed(s, memory, ALICE, {"shared": "budget for the trip"})
        await indexed(s, memory, sales, {"sales": "budget of the deal"})
        await indexed(s, memory, support, {"support": "budget of the ticket"})
        sales_only = Scope("acme", "alice", agent_id="sales", agent_only=True)
        assert sorted(await ids(s, sales_only, "budget")) == ["sales", "shared"]
        assert len(await ids(s, sales, "budget")) == 3

    run(scenario)


def test_exclude_thread(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await indexed(s, memory, ALICE, {"here": "the dentist appointment"}, thread_id="current")
        await indexed(s, memory, ALICE, {"there": "dentist on monday"}, thread_id="older")
        await indexed(s, memory, ALICE, {"nowhere": "a dentist fact"}, thread_id=None)
        assert sorted(await ids(s, ALICE, "dentist", exclude_thread="current")) == [
            "nowhere",
            "there",
        ]
        assert len(await ids(s, ALICE, "dentist")) == 3

    run(scenario)


def test_reindexing_a_memory_replaces_its_terms(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await indexed(s, memory, ALICE, {"m": "likes tea"})
        await s.keywords.upsert(ALICE, [("m", "likes coffee")])
        assert await ids(s, ALICE, "tea") == []
        assert await ids(s, ALICE, "coffee") == ["m"]
        assert await ids(s, ALICE, "likes") == ["m"]  # one entry, not two

    run(scenario)


def test_delete_removes_entries_in_scope_only(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await indexed(s, memory, ALICE, {"a": "green apple", "b": "red apple"})
        await indexed(s, memory, BOB, {"c": "yellow apple"})
        await s.keywords.delete(BOB, ["a"])
        assert sorted(await ids(s, ALICE, "apple")) == ["a", "b"]
        await s.keywords.delete(ALICE, ["a", "c", "unknown"])
        assert await ids(s, ALICE, "apple") == ["b"]
        assert await ids(s, BOB, "apple") == ["c"]
        await s.keywords.delete(ALICE, [])
        assert await s.memories.count(ALICE) == 2  # the memory itself stays

    run(scenario)


def test_reset_drops_every_entry(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        await indexed(s, memory, ALICE, {"a": "green apple"})
        await indexed(s, memory, BOB, {"b": "red apple"})
        await s.keywords.reset()
        assert await ids(s, ALICE, "apple") == []
        assert await ids(s, BOB, "apple") == []
        await s.keywords.upsert(ALICE, [("a", "green apple")])  # and it can be rebuilt
        assert await ids(s, ALICE, "apple") == ["a"]

    run(scenario)


@pytest.mark.parametrize("query", ["", "   ", "the and of", "e o que é isso", "a", "?!", "🙂🙂"])
def test_queries_without_content_words_find_nothing(run: Callable, memory: Callable, query: str) -> None:
    async def scenario(s) -> None:
        await indexed(s, memory, ALICE, {"a": "the and of e o que é isso a"})
        assert await s.keywords.search(ALICE, query, 10) == []

    run(scenario)


NASTY = [
    '"',
    '"apple',
    'apple"',
    '"green apple"',
    "apple*",
    "*",
    "-apple",
    "apple -green",
    "terms:apple",
    "a:b:c",
    "(apple",
    "apple)",
    "(green OR apple)",
    "NEAR(green apple)",
    "NEAR(green apple, 2)",
    "green NEAR apple",
    "green AND apple",
    "green OR",
    "AND",
    "OR NOT AND",
    "NOT apple",
    "^apple",
    "{terms}: apple",
    "apple + green",
    "'apple'",
    "apple's",
    "d'água",
    "it’s green",
    "\x00apple",
    "apple\nNEAR\tgreen",
    "SELECT * FROM memories; --",
    "green' OR '1'='1",
    "⑴⑵ ½ x² ﬁne",
    "日本語 🙂 apple",
    "apple " * 500,
]


@pytest.mark.parametrize("query", NASTY)
def test_query_syntax_characters_never_raise(run: Callable, memory: Callable, query: str) -> None:
    async def scenario(s) -> None:
        await indexed(s, memory, ALICE, {"a": "a green apple", "b": "the sky is blue"})
        hits = await s.keywords.search(ALICE, query, 10)
        assert {h.memory_id for h in hits} <= {"a"}
        if "apple" in query.lower():
            assert [h.memory_id for h in hits] == ["a"]

    run(scenario)
