"""The lean context: which hits earn a place (services.recall.chosen, over hand-made hits), and
recall over the in-memory adapters keeping the budget a ceiling and the list and context in step."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from typing import Any

from hipocampo.adapters.clock import FakeClock
from hipocampo.domain.model import MemoryItem, MemoryKind, Role, Scope
from hipocampo.domain.retrieval.recall import Explanation, ScoredMemory
from hipocampo.services import recall as recall_service
from hipocampo.services.deps import Deps
from hipocampo.services.ingest import add_messages
from hipocampo.services.recall import K_LOW, K_LOW_MAX, SUBJECT_EXTRA, chosen, k_low, recall, rerender
from hipocampo.services.worker import run_once
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

ALICE = Scope("acme", "alice")
T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
ENGINE_ONLY = {"embedder": "fake", "tokenizer": "chars", "extraction": False, "summaries": False}


def hit(n: int, score: float, relevance: float, content: str = "", terms: tuple[str, ...] = ("x",)) -> ScoredMemory:
    item = MemoryItem(f"m{n}", ALICE, MemoryKind.TURN, content or f"memory {n}", T0, thread_id="t", seq=n)
    return ScoredMemory(item, score, Explanation(relevance=relevance, matched_terms=list(terms)))


def ids(hits: list[ScoredMemory]) -> list[str]:
    return [h.memory.id for h in hits]


class TestChosen:
    def test_nothing_over_the_floor_gives_nothing(self) -> None:
        hits = [hit(i, 1.0 - i / 10, 0.3, terms=()) for i in range(8)]
        assert chosen(hits, "anything", 0.5) == ([], False, 0.5)

    def test_hits_under_the_floor_are_skipped_not_counted(self) -> None:
        hits = [hit(0, 1.0, 0.9), hit(1, 0.9, 0.2), hit(2, 0.8, 0.9)]
        picked, anchored, floor = chosen(hits, "anything", 0.5)
        assert ids(picked) == ["m0", "m2"] and anchored and floor == 0.5

    def test_the_top_hit_on_the_query_own_words_stays_under_the_floor(self) -> None:
        hits = [hit(0, 1.0, 0.4, terms=("peanut",)), hit(1, 0.8, 0.7), hit(2, 0.7, 0.3)]
        assert ids(chosen(hits, "chicken satay with peanut sauce?", 0.5)[0]) == ["m0", "m1"]
        unanchored = [hit(0, 1.0, 0.4, terms=()), hit(1, 0.8, 0.7, terms=())]
        assert ids(chosen(unanchored, "anything", 0.5)[0]) == ["m1"]  # nothing in the store answers it
        # Another hit shares the question's words: the store answers it, and the ranker's first
        # choice is shown whatever its cosine ("quem passeia o tejo?" and "new walker is joost").
        anchored = [hit(0, 1.0, 0.4, terms=()), hit(1, 0.8, 0.7)]
        assert ids(chosen(anchored, "anything", 0.5)[0]) == ["m0", "m1"]

    def test_the_floor_rises_below_an_outright_match(self) -> None:
        hits = [hit(0, 1.0, 1.0), hit(1, 0.9, 0.55), hit(2, 0.8, 0.7)]
        picked, _, floor = chosen(hits, "anything", 0.5)
        assert floor > 0.55 and ids(picked) == ["m0", "m2"]

    def test_adaptive_k_follows_the_scores(self) -> None:
        hits = [hit(i, 1.0, 0.9) for i in range(3)] + [hit(i, 0.01, 0.9) for i in range(3, 40)]
        assert len(chosen(hits, "anything", 0.5)[0]) == K_LOW  # a cliff after three: the floor of k

    def test_a_detailed_question_has_a_higher_floor_of_k(self) -> None:
        # Its evidence ranks further below its best hit; a short one stays lean.
        assert k_low("How is Ana doing?") == k_low("where do I work?") == K_LOW
        assert K_LOW < k_low("What did Caroline research about adoption agencies?") <= K_LOW_MAX
        assert k_low(" ".join(["word"] * 3 + ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"])) == K_LOW_MAX

    def test_a_query_naming_more_people_keeps_more(self) -> None:
        hits = [hit(i, 1.0 if i < 2 else 0.01, 0.9) for i in range(40)]
        one = chosen(hits, "What does Ana do?", 0.5)[0]
        three = chosen(hits, "What do Ana, Pedro and Rui do?", 0.5)[0]
        assert len(three) == 3 * len(one)

    def test_without_an_anchor_one_hit_per_facet(self) -> None:
        hits = [hit(i, 1.0 - i / 100, 0.95, terms=()) for i in range(10)]  # dense closeness alone
        picked, anchored, _ = chosen(hits, "how do I boil an egg?", 0.5)
        assert not anchored and ids(picked) == ["m0"]

    def test_a_name_anchors_too(self) -> None:
        hits = [hit(i, 1.0, 0.95, terms=()) for i in range(10)]
        hits[4].explanation.matched_names = ["Ana"]
        assert chosen(hits, "Como está a Ana?", 0.5)[1]

    def test_memories_on_the_asked_subject_join_beyond_k(self) -> None:
        hits = [hit(i, 1.0 if i < 3 else 0.01, 0.9, f"note {i}") for i in range(30)]
        hits += [hit(30 + i, 0.001, 0.7, f"I'm only free on Tuesdays, week {i}") for i in range(5)]
        query = "When am I free to train?"
        picked, _, _ = chosen(hits, query, 0.5)
        assert len(picked) == k_low(query) + SUBJECT_EXTRA
        assert ids(picked)[k_low(query) :] == ["m30", "m31", "m32"]

    def test_a_small_user_sees_every_line_they_said_marked_ones_with_their_note(self) -> None:
        """A turn a later line took back in part ("sou motorista tvde em braga", the job ended) still
        says the city: a small user's question about themselves gets it, rendered with its note."""

        def said(n: int, content: str, current: bool = True) -> ScoredMemory:
            h = hit(n, 1.0 - n / 10, 0.05, content, terms=())
            h.memory.role = Role.USER
            h.explanation.speech_act = "disclosure"
            h.current = current
            return h

        hits = [said(0, "comecei na transportes vilar, braga-lyon"), said(1, "sou motorista tvde em braga", False)]
        hits += [said(i, f"gosto de pescar {i}") for i in range(2, 6)]
        picked, _, _ = chosen(hits, "onde é que eu moro?", 0.5)
        assert "m1" in ids(picked)

    def test_a_subject_asked_without_my_keeps_the_users_own_lines_on_it(self) -> None:
        """ "qnd é a viagem?" names a subject of the user's life without saying whose: every cosine
        sits under the floor, and the user's own lines on the trip must still reach the context."""

        def said(n: int, content: str, act: str = "disclosure") -> ScoredMemory:
            h = hit(n, 1.0 - n / 10, 0.05, content, terms=())
            h.memory.role = Role.USER
            h.explanation.speech_act = act
            return h

        hits = [said(0, "comprei pão hoje"), said(1, "fechei a pousada em floripa pra setembro")]
        hits += [said(2, "me ajuda com um roteiro de viagem?", "request"), said(3, "adoro sushi")]
        picked, anchored, _ = chosen(hits, "qnd é a viagem", 0.5)
        assert ids(picked) == ["m1"] and anchored
        # A question about the world asks no subject of a life: still one line at most.
        assert len(chosen(hits, "qual a capital da frança?", 0.5)[0]) <= 1

    def test_an_explicit_k_is_a_cap_not_a_quota(self) -> None:
        hits = [hit(i, 1.0, 0.1 if i % 2 else 0.9) for i in range(20)]
        picked, _, _ = chosen(hits, "anything", 0.5, k=4)
        assert ids(picked) == ["m0", "m2", "m4", "m6"]
        assert len(chosen(hits, "anything", 0.5, k=200)[0]) == 10


def run(scenario: Callable[[Deps], Awaitable[None]], **settings: Any) -> None:
    deps = build_memory_deps(Settings(**(ENGINE_ONLY | settings)), clock=FakeClock(T0))
    asyncio.run(scenario(deps))


async def indexed(deps: Deps) -> None:
    while await run_once(deps):
        pass


async def garden(deps: Deps) -> None:
    await add_messages(deps, ALICE, "garden", [f"the garden roses need water, day {i}" for i in range(12)])
    await add_messages(deps, ALICE, "work", ["the quarterly report is due friday", "my manager liked it"])
    await indexed(deps)


def test_the_memories_are_what_the_context_shows_and_the_budget_is_a_ceiling() -> None:
    async def scenario(deps: Deps) -> None:
        await garden(deps)
        result = await recall(deps, ALICE, "garden roses water")
        assert result.memories and "quarterly report" not in result.context  # another conversation
        shown = {p.memory.id for p in result.pieces}
        assert {h.memory.id for h in result.memories} <= shown
        assert all(h.memory.id in {p.memory.id for p in result.pieces} for h in result.memories)
        roomy = await recall(deps, ALICE, "garden roses water", token_budget=50_000)
        assert roomy.context == result.context  # more room brings nothing more in
        for budget in (60, 200):
            text, tokens = rerender(deps, result, budget)
            assert tokens == deps.tokenizer.count(text) <= budget
            assert all(line in result.context for line in text.splitlines())  # a part of the same context

    run(scenario)


def test_the_floor_is_a_setting_and_a_call_may_lower_it() -> None:
    async def scenario(deps: Deps) -> None:
        await garden(deps)
        strict = await recall(deps, ALICE, "garden gnomes and fairies")  # one word of four: 0.25
        assert len(strict.memories) == 1  # only the best hit on the query's own word
        loose = await recall(deps, ALICE, "garden gnomes and fairies", options=_options(min_relevance=0.2))
        assert len(loose.memories) > 1 and "garden roses" in loose.context
        unrelated = await recall(deps, ALICE, "quantum entanglement")
        assert unrelated.memories == [] and "## Relevant memories" not in unrelated.context

    run(scenario, context_min_relevance=0.9)


def _options(**kw: Any) -> recall_service.SearchOptions:
    return recall_service.SearchOptions(**kw)
