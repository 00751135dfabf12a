"""Facts kept consistent around what the rules read: one grammatical gender per user (earlier facts
reworded when a turn tells it), earlier facts a later turn ends in phrasing no rule knows (retracted
with the sentence as the reason), and a fact saved by a tool merged with the same fact read from a
turn (one current memory, both sources); and a fact replaced by one whose thread was forgotten
stays earlier, never "retracted"."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

from hipocampo.adapters.clock import FakeClock
from hipocampo.domain.model import HistoryEvent, MemoryKind, MemoryType, Scope
from hipocampo.domain.truth.validity import REPLACED, RETRACTED, Validity
from hipocampo.services.admin import forget
from hipocampo.services.curation import remember
from hipocampo.services.deps import Deps
from hipocampo.services.fact_upkeep import SAVED_AS
from hipocampo.services.facts import mine_messages
from hipocampo.services.ingest import add_messages
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

T0 = datetime(2024, 5, 1, 12, tzinfo=timezone.utc)
ANA = Scope("t", "ana")
SETTINGS = Settings(embedder="fake", tokenizer="chars", summaries=False)


def run(scenario) -> None:  # noqa: ANN001
    deps = build_memory_deps(SETTINGS, clock=FakeClock(T0 + timedelta(days=30)))
    asyncio.run(scenario(deps))


async def say(deps: Deps, text: str, day: int, thread: str | None = None) -> None:
    turn = {"role": "user", "content": text, "created_at": (T0 + timedelta(days=day)).isoformat()}
    (m,) = await add_messages(deps, ANA, thread or f"t{day}", [turn])
    await mine_messages(deps, ANA, [m.id])


async def current(deps: Deps) -> dict[str, str]:
    items = await deps.memories.list(ANA, kind=MemoryKind.FACT)
    return {m.key or m.id: m.content for m in items if m.valid_to is None}


def test_earlier_facts_take_the_gender_a_later_turn_tells() -> None:
    async def scenario(deps: Deps) -> None:
        await say(deps, "Moro em Lisboa.", 0)
        await say(deps, "Trabalho como engenheiro... quer dizer, obrigada pela ajuda! Sou vegana.", 1)
        facts = await current(deps)
        assert facts["home_city"] == "A usuária mora em Lisboa."
        assert facts["diet"] == "A usuária é vegana."
        assert all("usuário" not in c for c in facts.values())

    run(scenario)


def test_a_later_statement_ends_an_earlier_fact_no_rule_took_back() -> None:
    async def scenario(deps: Deps) -> None:
        await say(deps, "My budget for the Peru trip is 3000 dollars.", 0)
        await say(deps, "Peru is not happening anymore, it's cancelled.", 3)
        items = await deps.memories.list(ANA, kind=MemoryKind.FACT)
        (budget,) = [m for m in items if m.key == "budget:peru_trip"]
        assert budget.valid_to == T0 + timedelta(days=3)
        (_, closed) = await deps.memories.history(ANA, budget.id)
        assert closed.event is HistoryEvent.DELETE and "cancelled" in (closed.reason or "")

    run(scenario)


def test_a_restatement_with_no_ending_cue_ends_nothing() -> None:
    async def scenario(deps: Deps) -> None:
        await say(deps, "My budget for the Peru trip is 3000 dollars.", 0)
        await say(deps, "The Peru trip is going to be amazing, I can't wait!", 3)
        assert "budget:peru_trip" in await current(deps)

    run(scenario)


def test_a_fact_saved_by_a_tool_and_read_from_a_turn_is_one_memory() -> None:
    async def scenario(deps: Deps) -> None:
        saved = await remember(deps, ANA, "Ana is allergic to penicillin", memory_type=MemoryType.CRITICAL_INFO)
        await say(deps, "I also found out I'm allergic to penicillin.", 1)
        items = await deps.memories.list(ANA, kind=MemoryKind.FACT)
        live = [m for m in items if m.valid_to is None]
        assert len(live) == 1 and live[0].key == "allergy:penicillin"
        assert live[0].metadata[SAVED_AS] == [saved.id] and live[0].source_message_ids
        (old,) = [m for m in items if m.id == saved.id]
        assert old.valid_to is not None  # stored, closed, pointing at the merged fact
        events = await deps.memories.history(ANA, saved.id)
        assert events[-1].event is HistoryEvent.UPDATE and events[-1].related_id == live[0].id

    run(scenario)


def test_a_saved_fact_about_someone_else_is_not_merged() -> None:
    async def scenario(deps: Deps) -> None:
        await remember(deps, ANA, "Ana's daughter is allergic to penicillin")
        await say(deps, "I'm allergic to penicillin.", 1)
        assert len(await current(deps)) == 2

    run(scenario)


def test_forgetting_the_thread_that_changed_a_fact_does_not_make_it_retracted() -> None:
    async def scenario(deps: Deps) -> None:
        await say(deps, "I work at Acme.", 0)
        await say(deps, "I left Acme for Globex last week.", 3)
        await forget(deps, ANA, "t3")
        closed = await deps.memories.list(ANA, kind=MemoryKind.FACT)
        (change,) = Validity.of(closed, T0 + timedelta(days=30)).changes
        assert change.successor is None and change.value == "Acme"
        assert REPLACED in change.note() and RETRACTED not in change.note()

    run(scenario)


def test_a_statement_no_rule_read_is_marked_earlier_when_taken_back() -> None:
    async def scenario(deps: Deps) -> None:
        await say(deps, "I'm training for a half marathon in October, super excited!", 0, "run")
        await say(deps, "Actually, scratch what I said about the half marathon, I hurt my knee.", 3, "run")
        closed = await deps.memories.list(ANA, kind=MemoryKind.FACT)
        (statement,) = [m for m in closed if (m.key or "").startswith("statement:")]
        assert statement.valid_to == T0 + timedelta(days=3) and statement.metadata["fact_value"] == "half marathon"
        (change,) = Validity.of(closed, T0 + timedelta(days=30)).changes
        assert change.sources == frozenset(statement.source_message_ids)
        assert RETRACTED in change.note()

    run(scenario)
