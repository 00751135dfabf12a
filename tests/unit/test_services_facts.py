"""Facts from user turns: rules offline, an LLM when configured, and retries that double nothing."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.llm.scripted import ScriptedChatModel
from hipocampo.domain.errors import LLMError
from hipocampo.domain.extraction.llm_schemas import FactsOut, RevisionsOut
from hipocampo.domain.model import HistoryEvent, MemoryKind, Scope
from hipocampo.services.deps import Deps
from hipocampo.services.facts import ask_llm, mine_messages
from hipocampo.services.ingest import EXTRACT_JOB, add_messages
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

T0 = datetime(2024, 5, 1, 12, tzinfo=timezone.utc)
ANA = Scope("t", "ana")
SETTINGS = Settings(embedder="fake", tokenizer="chars", summaries=False, llm="openai:gpt-test")


def run(scenario, chat=None) -> None:  # noqa: ANN001
    deps = build_memory_deps(SETTINGS, clock=FakeClock(T0), chat=chat)
    asyncio.run(scenario(deps))


async def facts(deps: Deps) -> dict[str, str]:
    items = await deps.memories.list(ANA, kind=MemoryKind.FACT)
    return {m.key: m.content for m in items if m.valid_to is None and m.key}


def test_rules_extract_and_a_rerun_doubles_nothing() -> None:
    async def scenario(deps: Deps) -> None:
        (m,) = await add_messages(deps, ANA, "t1", [{"role": "user", "name": "Ana", "content": "I live in Porto"}])
        await mine_messages(deps, ANA, [m.id])
        await mine_messages(deps, ANA, [m.id])  # a retried job
        (fact,) = await deps.memories.list(ANA, kind=MemoryKind.FACT)
        assert fact.key == "home_city" and fact.mention_count == 1
        assert [e.event for e in await deps.memories.history(ANA, fact.id)] == [HistoryEvent.ADD]

    run(scenario)


def test_an_llm_adds_what_the_rules_miss_and_history_says_who() -> None:
    chat = ScriptedChatModel(
        [
            {
                "facts": [
                    {
                        "memory_type": "preference",
                        "key": "likes:jazz",
                        "value": "jazz",
                        "content": "Ana enjoys jazz.",
                        "confidence": 0.9,
                        "negated": False,
                    }
                ]
            }
        ]
    )

    async def scenario(deps: Deps) -> None:
        text = "Jazz on Sunday mornings is my thing"
        (m,) = await add_messages(deps, ANA, "t1", [{"role": "user", "name": "Ana", "content": text}])
        found = await ask_llm(deps, ANA, [m.id])
        await mine_messages(deps, ANA, [m.id], llm_facts=found)
        assert (await facts(deps)) == {"likes:jazz": "Ana enjoys jazz."}
        (fact,) = await deps.memories.list(ANA, kind=MemoryKind.FACT)
        assert (await deps.memories.history(ANA, fact.id))[0].actor == "llm:gpt-test"  # "llm:<model>"
        assert "Ana" in chat.calls[0][1]  # the speaker is in the prompt

    run(scenario, chat)


def test_an_llm_failure_keeps_the_rule_facts_and_the_job_retries() -> None:
    async def scenario(deps: Deps) -> None:
        (m,) = await add_messages(deps, ANA, "t1", [{"role": "user", "name": "Ana", "content": "I live in Porto"}])
        (job,) = [j for j in await deps.jobs.claim(10, 60.0) if j.kind == EXTRACT_JOB]
        assert await run_once_for(deps, job) is False  # the LLM failed: the job is to be retried
        assert set(await facts(deps)) == {"home_city"}  # ...but the rules' fact was written
        (again,) = [j for j in await deps.jobs.claim(10, 60.0) if j.kind == EXTRACT_JOB] or [None]
        assert again is None  # backing off

    run(scenario, ScriptedChatModel([LLMError("model down")] * 5))


async def run_once_for(deps: Deps, job) -> bool:  # noqa: ANN001
    from hipocampo.services.worker import SINGLE, _fail

    try:
        await SINGLE[job.kind](deps, job)
    except LLMError as exc:
        await _fail(deps, job, exc)
        return False
    return True


def test_the_llm_reconciles_what_it_found_with_the_slot_it_updates() -> None:
    def answer(system: str, prompt: str, schema: type) -> dict:
        if schema is FactsOut:
            return {
                "facts": [
                    {
                        "memory_type": "user_profile",
                        "key": "employer",
                        "value": "Acme",
                        "content": "Ana works at Acme.",
                        "confidence": 0.9,
                    }
                ]
            }
        if schema is RevisionsOut:
            return {"revisions": []}  # the review of stored facts (see test_llm_reconcile.py)
        target = prompt.split("- [", 1)[1].split("]", 1)[0]  # the one existing memory listed
        return {
            "action": "UPDATE",
            "target_id": target,
            "content": "Ana left Globex and now works at Acme.",
            "reason": "new job",
        }

    async def scenario(deps: Deps) -> None:
        (m1,) = await add_messages(deps, ANA, "t1", [{"role": "user", "name": "Ana", "content": "I work at Globex"}])
        await mine_messages(deps, ANA, [m1.id])  # the rules: employer = Globex
        (old,) = await deps.memories.list(ANA, kind=MemoryKind.FACT)
        (m2,) = await add_messages(deps, ANA, "t2", [{"role": "user", "name": "Ana", "content": "Started at Acme!"}])
        found = await ask_llm(deps, ANA, [m2.id])
        await mine_messages(deps, ANA, [m2.id], rules=False, llm_facts=found)
        assert (await facts(deps)) == {"employer": "Ana left Globex and now works at Acme."}
        (closed,) = [e for e in await deps.memories.history(ANA, old.id) if e.event is HistoryEvent.UPDATE]
        assert closed.actor == "llm:gpt-test" and "new job" in (closed.reason or "")

    run(scenario, ScriptedChatModel(answer))


def test_memory_types_are_configured_per_agent_and_injected_into_the_prompt() -> None:
    from hipocampo.services.facts import memory_types_for

    settings = Settings(
        embedder="fake",
        memory_types={
            "travel-bot": {"preference": "travel likes: seats, airlines, food on board", "constraint": ""},
            "*": {"critical_info": "allergies and health"},
        },
    )
    deps = build_memory_deps(settings)
    travel = memory_types_for(deps, Scope("t", "ana", "travel-bot"))
    assert travel["preference"].startswith("travel likes") and set(travel) == {"preference", "constraint"}
    assert travel["constraint"]  # an empty description falls back to the built-in one
    assert set(memory_types_for(deps, Scope("t", "ana", "other"))) == {"critical_info"}
    assert len(memory_types_for(build_memory_deps(Settings(embedder="fake")), ANA)) == 6


def test_the_llm_actor_names_the_model() -> None:
    from hipocampo.services.facts import llm_actor

    chat = ScriptedChatModel([])
    assert llm_actor(build_memory_deps(SETTINGS, chat=chat)) == "llm:gpt-test"
    ollama = Settings(embedder="fake", llm="openai:llama3.1:8b")
    assert llm_actor(build_memory_deps(ollama, chat=chat)) == "llm:llama3.1:8b"
    assert llm_actor(build_memory_deps(Settings(embedder="fake"), chat=chat)) == "llm:ScriptedChatModel"


def test_an_open_year_dates_no_fact() -> None:
    """ "in April" with nothing to tell the year leaves the fact undated rather than a year off."""
    from hipocampo.domain.extraction import ExtractedFact
    from hipocampo.domain.model import MemoryType, Message, Role
    from hipocampo.services.facts import _event_dates

    said = datetime(2025, 3, 5, 12, tzinfo=timezone.utc)

    def dated(text: str) -> tuple[datetime | None, datetime | None]:
        message = Message(id="m", scope=ANA, thread_id="t", seq=0, role=Role.USER, content=text, created_at=said)
        fact = ExtractedFact(MemoryType.GOAL, "k", "v", "c", 0.9, span=(0, len(text)))
        return _event_dates(message, fact)

    assert dated("Comprei ingressos para o show do Caetano em abril.")[0] == datetime(2025, 4, 1, tzinfo=timezone.utc)
    assert dated("My birthday party is in April.") == (None, None)


def test_a_users_portuguese_facts_keep_the_gender_they_gave_in_an_earlier_turn() -> None:
    async def scenario(deps: Deps) -> None:
        for text in ("Sou alérgica a camarão.", "Moro em Braga e namoro com o Rui."):  # the second says no gender
            (m,) = await add_messages(deps, ANA, "t1", [{"role": "user", "content": text}])
            await mine_messages(deps, ANA, [m.id])
        found = await facts(deps)
        assert found["home_city"] == "A usuária mora em Braga."
        assert found["person:partner"] == "A usuária namora com Rui."

    run(scenario)


def test_the_rules_read_a_turn_with_the_users_facts_and_the_question_it_answers() -> None:
    async def scenario(deps: Deps) -> None:
        async def say(*turns: tuple[str, str]) -> None:
            added = await add_messages(deps, ANA, "t1", [{"role": r, "content": c} for r, c in turns])
            await mine_messages(deps, ANA, [m.id for m in added])

        await say(("user", "I live in Porto. I work at Acme. I have a cat named Miso."))
        await say(("user", "I left Acme for Globex."))  # Acme is the known employer: a job change
        await say(("user", "I don't have Miso anymore."))  # the stored cat's name
        await say(("assistant", "Got it. Do you still live in Porto?"), ("user", "Not anymore."))
        assert await facts(deps) == {"employer": "The user works at Globex (previously Acme)."}

    run(scenario)
