"""Nothing stale is presented as current: after a fact changes (a new employer, a move, a
retraction), the turns that said the old value rank below what holds now, and every line of the
context that still states it carries the outdated mark. Through the public API, on every backend."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

import pytest

from hipocampo import AsyncMemory, Memory
from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.agent.session import SessionConfig
from hipocampo.agent.tools import MemoryTools
from hipocampo.domain.text import fold
from hipocampo.domain.truth.validity import OUTDATED_MARK, UPDATED_SINCE
from hipocampo.entrypoints.http.responses import RecallOut, SearchOut
from hipocampo.entrypoints.mcp_server.server import _recall

pytestmark = pytest.mark.backends()

T0 = datetime(2024, 4, 1, 10, 0, tzinfo=timezone.utc)
CHANGED = T0 + timedelta(days=62)  # 2024-06-02


def _states(text: str, value: str) -> bool:
    return f" {fold(value)} " in f" {fold(text).replace('.', ' ').replace(',', ' ')} "


def assert_never_current(context: str, stale: str, current: str) -> None:
    """Every line stating the stale value also states the current one or carries the mark."""
    for line in context.splitlines():
        if _states(line, stale):
            assert OUTDATED_MARK in line or _states(line, current) or line.startswith(UPDATED_SINCE), line


def _chat(mem: Memory, user: str, thread: str, at: datetime, *turns: str) -> None:
    mem.add(
        user,
        thread,
        [{"role": "user" if i % 2 == 0 else "assistant", "content": t} for i, t in enumerate(turns)],
        at=at,
    )


def test_a_new_employer_outranks_the_turn_that_named_the_old_one(db_path: str) -> None:
    with Memory.open(db_path, embedder=FakeEmbedder(), clock=FakeClock(CHANGED + timedelta(days=28))) as mem:
        _chat(
            mem,
            "sam",
            "t1",
            T0,
            "I work at Acme as a graphic designer.",
            "Nice, what do you design?",
            "Mostly posters and book covers.",
            "Sounds fun!",
        )
        _chat(mem, "sam", "t2", CHANGED, "I joined Globex.", "Congratulations on the new job!")
        mem.flush()

        hits = mem.search("sam", "Where do I work now?").hits
        assert hits and not _states(hits[0].memory.content, "Acme"), hits[0].memory.content
        # Among turns alone, the old one shares the most with the question ("work"): it led
        # before outdated memories were told apart.
        turns = mem.search("sam", "Where do I work now?", kinds=["turn"], min_relevance=0.0, k=8).hits
        assert not _states(turns[0].memory.content, "Acme"), [h.memory.content for h in turns]
        for hit in [*hits, *turns]:
            if _states(hit.memory.content, "Acme") and not _states(hit.memory.content, "Globex"):
                assert not hit.current and hit.outdated_note == f"{OUTDATED_MARK} 2024-06-02: The user works at Globex"
                assert hit.explanation.boosts["validity"] < 1
                assert hit.to_dict()["current"] is False
        everything = mem.search("sam", "Acme graphic designer", k=20).hits
        old_turn = next(h for h in everything if h.memory.content.startswith("I work at Acme"))
        assert not old_turn.current and old_turn.to_dict()["outdated_note"].startswith(OUTDATED_MARK)
        assert all(h.current for h in everything if h.memory.kind.value == "fact")

        for thread in ("fresh", "t1"):  # a new conversation, and the one where Acme was said (recent window)
            context = mem.recall("sam", thread, "Where do I work now?").context
            assert "Globex" in context
            assert_never_current(context, "Acme", "Globex")
        assert "I work at Acme as a graphic designer. (earlier; since 2024-06-02:" in context


def test_a_move_in_portuguese_and_a_retraction(db_path: str) -> None:
    with Memory.open(db_path, embedder=FakeEmbedder(), clock=FakeClock(CHANGED + timedelta(days=28))) as mem:
        _chat(mem, "ana", "s1", T0, "Moro em São Paulo.", "Que legal!", "Sou vegetariana.", "Anotado.")
        _chat(mem, "ana", "s2", T0 + timedelta(days=5), "Me mudei para Lisboa.", "Parabéns!")
        _chat(mem, "ana", "s3", T0 + timedelta(days=16), "Não sou mais vegetariana.", "Tudo bem.")
        mem.flush()

        hits = mem.search("ana", "Onde eu moro agora?").hits
        assert hits and not (_states(hits[0].memory.content, "São Paulo") and hits[0].current)
        context = mem.recall("ana", "nova", "Onde eu moro agora?").context
        assert "Lisboa" in context
        assert_never_current(context, "São Paulo", "Lisboa")

        context = mem.recall("ana", "nova", "Sou vegetariana?").context
        assert "Sou vegetariana. (earlier; since 2024-04-17: retracted: " in context
        for line in context.splitlines():
            if _states(line, "vegetariana") and "não" not in line.lower():
                assert OUTDATED_MARK in line, line


def test_every_entry_point_says_which_memories_are_outdated(db_path: str) -> None:
    """The JSON of HTTP search and recall (and the CLI's --json, the same dicts) and the MCP
    recall tool carry whether each memory is current and what replaced it."""

    async def scenario() -> None:
        mem = await AsyncMemory.open(db_path, embedder=FakeEmbedder(), clock=FakeClock(CHANGED + timedelta(days=28)))
        try:
            await mem.add("sam", "t1", [{"role": "user", "content": "I work at Acme as a graphic designer."}], at=T0)
            await mem.add("sam", "t2", [{"role": "user", "content": "I joined Globex."}], at=CHANGED)
            await mem.flush()
            query = "Acme graphic designer"
            found = SearchOut.model_validate((await mem.search("sam", query, k=20)).to_dict())
            recalled = RecallOut.model_validate((await mem.recall("sam", "fresh", query)).to_dict())
            for hits in (found.hits, recalled.memories):
                old = next(h for h in hits if h.content.startswith("I work at Acme"))
                assert old.current is False and old.outdated_note is not None
                assert old.outdated_note.startswith(OUTDATED_MARK) and old.explanation.boosts["validity"] < 1
                assert all(h.current and h.outdated_note is None for h in hits if h.kind == "fact")
            tool = await _recall(MemoryTools(mem, SessionConfig(user_id="sam", thread_id="fresh")), query)
            assert any(note.startswith(OUTDATED_MARK) for note in tool.outdated.values())
            assert set(tool.outdated) <= set(tool.memory_ids)
        finally:
            await mem.close()

    asyncio.run(scenario())


def test_two_named_speakers_keep_their_own_facts(db_path: str) -> None:
    """One user's memory holding two people (a transcript of two friends, a shared thread): a
    fact said by one does not supersede the other's, and nothing either said is marked outdated."""
    with Memory.open(db_path, embedder=FakeEmbedder(), clock=FakeClock(CHANGED)) as mem:
        mem.add(
            "pair",
            "t1",
            [
                {"role": "user", "name": "Emma", "content": "I live in Boston.", "created_at": T0.isoformat()},
                {
                    "role": "user",
                    "name": "Carla",
                    "content": "I live in Denver.",
                    "created_at": (T0 + timedelta(minutes=1)).isoformat(),
                },
            ],
        )
        mem.flush()
        homes = [f for f in mem.list("pair", kind="fact") if f.key == "home_city"]
        assert sorted((f.metadata["speaker"], f.valid_to is None) for f in homes) == [("Carla", True), ("Emma", True)]
        context = mem.recall("pair", "t2", "Where does Emma live?").context
        assert "Boston" in context and OUTDATED_MARK not in context
        # The same person moving still supersedes her own fact.
        mem.add(
            "pair",
            "t1",
            [
                {
                    "role": "user",
                    "name": "Emma",
                    "content": "I moved to Chicago.",
                    "created_at": (T0 + timedelta(days=3)).isoformat(),
                }
            ],
        )
        mem.flush()
        current = {
            (f.metadata["speaker"], f.metadata["fact_value"])
            for f in mem.list("pair", kind="fact")
            if f.key == "home_city" and f.valid_to is None
        }
        assert current == {("Carla", "Denver"), ("Emma", "Chicago")}
