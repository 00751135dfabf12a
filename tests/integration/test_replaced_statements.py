"""An earlier statement a later one replaced with no change cue, end to end on a real SQLite store:
the earlier turn is shown marked earlier with the later sentence, the fact drawn from it is no
longer current, and the later statement leads the search; a later statement that adds a value
beside the first marks nothing."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone
from pathlib import Path

from hipocampo import AsyncMemory
from hipocampo.domain.truth.validity import OUTDATED_MARK
from hipocampo.testing import CharTokenizer, FakeClock, FakeEmbedder

T0 = datetime(2025, 1, 10, 9, tzinfo=timezone.utc)


async def _open(path: Path) -> AsyncMemory:
    clock = FakeClock(T0 + timedelta(days=200))
    return await AsyncMemory.open(str(path / "m.db"), embedder=FakeEmbedder(), tokenizer=CharTokenizer(), clock=clock)


async def _say(mem: AsyncMemory, thread: str, day: int, *texts: str) -> None:
    at = T0 + timedelta(days=day)
    turns = [
        {"role": "user", "content": t, "created_at": (at + timedelta(minutes=n)).isoformat()}
        for n, t in enumerate(texts)
    ]
    await mem.add("ana", thread, turns)
    await mem.flush()


def _line(context: str, words: str) -> str:
    return next(line for line in context.splitlines() if words in line)


def test_a_move_said_without_a_cue_marks_the_earlier_home_earlier(tmp_path: Path) -> None:
    async def scenario() -> None:
        mem = await _open(tmp_path)
        try:
            await _say(mem, "a", 0, "oi! me passa uma receita rápida?", "valeu. moro em Santos, perto da praia")
            await _say(mem, "b", 120, "mano, primeiro mês em Belo Horizonte e já viciei em pão de queijo")
            recalled = await mem.recall("ana", "new", "em que cidade eu moro?")
            earlier = _line(recalled.context, "moro em Santos")
            assert OUTDATED_MARK in earlier and "Belo Horizonte" in earlier
            assert OUTDATED_MARK not in _line(recalled.context, "primeiro mês em Belo Horizonte")
            facts = await mem.list("ana", kind="fact", limit=100)
            assert not [f for f in facts if f.valid_to is None and "Santos" in f.content]
            hits = (await mem.search("ana", "onde eu moro? Santos ou Belo Horizonte")).hits
            assert "Belo Horizonte" in hits[0].memory.content
        finally:
            await mem.close()

    asyncio.run(scenario())


def test_a_job_change_in_english_closes_the_old_role_only_when_a_new_one_is_said(tmp_path: Path) -> None:
    async def scenario() -> None:
        mem = await _open(tmp_path)
        try:
            await _say(mem, "a", 0, "i work at Spotify as a data analyst, mostly dashboards")
            await _say(mem, "b", 80, "started at Canva as a product analyst, the onboarding is intense")
            facts = await mem.list("ana", kind="fact", limit=100)
            current = [f.content for f in facts if f.valid_to is None]
            assert not [c for c in current if "Spotify" in c or "data analyst" in c]
            recalled = await mem.recall("ana", "new", "where do i work?")
            assert OUTDATED_MARK in _line(recalled.context, "i work at Spotify")
            await _say(mem, "c", 90, "i'm a nurse at Memorial Hermann")
            await _say(mem, "d", 120, "switched hospitals, i work at Texas Children's now. still a nurse")
            facts = await mem.list("ana", kind="fact", limit=100)
            assert [f for f in facts if f.valid_to is None and f.key == "occupation"]  # still a nurse
        finally:
            await mem.close()

    asyncio.run(scenario())


def test_a_second_job_said_with_also_leaves_the_first_current(tmp_path: Path) -> None:
    async def scenario() -> None:
        mem = await _open(tmp_path)
        try:
            await _say(mem, "a", 0, "i work at Target as a cashier")
            await _say(mem, "b", 30, "i also work at a bar called The Anchor on weekends")
            await _say(mem, "c", 40, "my sister moved to Berlin", "if i ever move to Bristol id want a flat")
            recalled = await mem.recall("ana", "new", "where do i work?")
            assert OUTDATED_MARK not in recalled.context
            facts = await mem.list("ana", kind="fact", limit=100)
            assert not [f for f in facts if f.valid_to is not None]
        finally:
            await mem.close()

    asyncio.run(scenario())
