"""The LLM reviews stored facts: it corrects or retracts what the rules misread, never deletes.

The rules read "I am allergic to cats, just kidding!" as two allergies and "I work at Globex lol
not really" as an employer; without a review those facts stayed current forever. With a model
configured, the extraction job shows it the new turns beside the user's current facts, and it may
correct one (superseded by a new fact: history UPDATE with ``related_id``) or retract one (closed:
history DELETE), each with actor ``llm:<model>`` and the model's reason. Its answer is checked item
by item: an unknown op, an id that is not one of this user's current facts, a correction without a
value are skipped with a log line. Driven by the scripted chat model: no network.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.llm.scripted import ScriptedChatModel
from hipocampo.domain.extraction.llm_schemas import FactsOut, ReconcileOut, RevisionsOut
from hipocampo.domain.model import HistoryEvent, MemoryItem, MemoryKind, Scope
from hipocampo.services.deps import Deps
from hipocampo.services.facts import ask_llm, mine_messages
from hipocampo.services.ingest import EXTRACT_JOB, INDEX_MEMORIES_JOB, add_messages
from hipocampo.services.worker import SINGLE
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

T0 = datetime(2025, 3, 5, 12, tzinfo=timezone.utc)
ANA = Scope("t", "ana")
BOB = Scope("t", "bob")
SETTINGS = Settings(embedder="fake", tokenizer="chars", summaries=False, llm="openai:gpt-test")
ACTOR = "llm:gpt-test"

Revise = Callable[[dict[str, str]], list[dict[str, Any]]]


def model(revise: Revise, facts: list[dict[str, Any]] | None = None) -> ScriptedChatModel:
    """A model that extracts ``facts`` and answers each review with ``revise(listed)``, where
    ``listed`` maps each fact id shown in the prompt to its line."""

    def answer(system: str, prompt: str, schema: type) -> Any:
        if schema is FactsOut:
            return {"facts": facts or []}
        if schema is RevisionsOut:
            listed = dict(re.findall(r"^- \[([^\]]+)\](.*)$", prompt, flags=re.M))
            return {"revisions": revise(listed)}
        assert schema is ReconcileOut
        return {"action": "ADD", "reason": "new"}

    return ScriptedChatModel(answer)


def run(scenario: Callable[[Deps], Any], chat: ScriptedChatModel | None) -> None:
    deps = build_memory_deps(SETTINGS, clock=FakeClock(T0), chat=chat)
    asyncio.run(scenario(deps))


async def say(deps: Deps, scope: Scope, *texts: str) -> list[str]:
    stored = await add_messages(deps, scope, "t1", [{"role": "user", "name": "Ana", "content": t} for t in texts])
    return [m.id for m in stored]


async def extract_job(deps: Deps, scope: Scope = ANA) -> None:
    """One extraction job of the user as the worker runs it: rules, then the model, then its changes."""
    (job,) = [j for j in await deps.jobs.claim(10, 60.0) if j.kind == EXTRACT_JOB and j.user_id == scope.user_id]
    await SINGLE[EXTRACT_JOB](deps, job)


async def all_facts(deps: Deps, scope: Scope = ANA) -> list[MemoryItem]:
    return await deps.memories.list(scope, kind=MemoryKind.FACT)


async def current(deps: Deps, scope: Scope = ANA) -> dict[str, str]:
    return {m.key or "": m.metadata.get("fact_value", "") for m in await all_facts(deps, scope) if m.valid_to is None}


def ids_where(listed: dict[str, str], *words: str) -> list[str]:
    return [i for i, line in listed.items() if any(w in line for w in words)]


def test_the_model_retracts_what_the_rules_misread_in_the_same_turn() -> None:
    def revise(listed: dict[str, str]) -> list[dict[str, Any]]:
        joking = ids_where(listed, "cat", "kidding")
        return [{"op": "RETRACT", "id": i, "reason": "the user was joking"} for i in joking]

    async def scenario(deps: Deps) -> None:
        await say(deps, ANA, "I am allergic to cats, just kidding!")
        await extract_job(deps)
        assert await current(deps) == {}
        stored = await all_facts(deps)
        assert {m.key for m in stored} == {"allergy:cats"}  # kept, no longer current
        for fact in stored:
            assert fact.valid_to == T0
            added, retracted = await deps.memories.history(ANA, fact.id)
            assert (added.event, added.actor) == (HistoryEvent.ADD, "heuristic")
            assert (retracted.event, retracted.actor) == (HistoryEvent.DELETE, ACTOR)
            assert "the user was joking" in (retracted.reason or "") and retracted.old_content == fact.content

    run(scenario, model(revise))


def test_the_model_corrects_a_fact_with_a_successor_and_a_rerun_changes_nothing() -> None:
    def revise(listed: dict[str, str]) -> list[dict[str, Any]]:
        return [
            {
                "op": "correct",
                "id": i,
                "value": "Braga",
                "content": "Ana lives in Braga.",
                "reason": "Porto was sarcasm",
            }
            for i in ids_where(listed, "Porto")
        ]

    async def scenario(deps: Deps) -> None:
        (m,) = await say(deps, ANA, "I live in Porto, said no one ever: Braga is home.")
        await extract_job(deps)
        (old,) = [f for f in await all_facts(deps) if f.metadata.get("fact_value") == "Porto"]
        (new,) = [f for f in await all_facts(deps) if f.valid_to is None]
        assert (new.key, new.metadata["fact_value"], new.content) == ("home_city", "Braga", "Ana lives in Braga.")
        assert old.valid_to == T0 and new.source_message_ids == [m]
        superseded = (await deps.memories.history(ANA, old.id))[-1]
        assert (superseded.event, superseded.actor, superseded.related_id) == (HistoryEvent.UPDATE, ACTOR, new.id)
        assert superseded.new_content == "Ana lives in Braga." and "Porto was sarcasm" in (superseded.reason or "")
        (added,) = await deps.memories.history(ANA, new.id)
        assert (added.event, added.actor, added.related_id) == (HistoryEvent.ADD, ACTOR, old.id)
        indexing = [j for j in await deps.jobs.claim(10, 60.0) if j.kind == INDEX_MEMORIES_JOB]
        assert any(new.id in j.payload["memory_ids"] for j in indexing)

        # A retried job: the Porto fact is no longer current, so nothing is shown or changed twice.
        found = await ask_llm(deps, ANA, [m])
        assert found.revisions == []
        await mine_messages(deps, ANA, [m], rules=False, llm_facts=found)
        assert len(await all_facts(deps)) == 2 and await current(deps) == {"home_city": "Braga"}

    run(scenario, model(revise))


def test_earlier_facts_are_reviewed_against_new_turns_in_portuguese() -> None:
    def revise(listed: dict[str, str]) -> list[dict[str, Any]]:
        return [{"op": "RETRACT", "id": i, "reason": "era mentira"} for i in ids_where(listed, "amendoim")]

    async def scenario(deps: Deps) -> None:
        (first,) = await say(deps, ANA, "Sou alérgica a amendoim.")
        await mine_messages(deps, ANA, [first])  # the rules alone, an earlier batch
        (before,) = await all_facts(deps)
        (later,) = await say(deps, ANA, "Aquilo do amendoim era mentira, como amendoim todos os dias.")
        found = await ask_llm(deps, ANA, [later])
        await mine_messages(deps, ANA, [later], rules=False, llm_facts=found)
        (after,) = await all_facts(deps)
        assert after.id == before.id and after.valid_to == T0  # closed, not deleted
        assert (await deps.memories.history(ANA, after.id))[-1].event is HistoryEvent.DELETE

    run(scenario, model(revise))


def test_bad_revisions_are_skipped_with_a_log_line(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario(deps: Deps) -> None:
        (theirs,) = await say(deps, BOB, "I work at Initech")
        await mine_messages(deps, BOB, [theirs])
        (bobs,) = await all_facts(deps, BOB)

        def revise(listed: dict[str, str]) -> list[dict[str, Any]]:
            (globex,) = ids_where(listed, "Globex")
            assert bobs.id not in listed  # another user's facts are never shown...
            return [
                {"op": "MERGE", "id": globex, "reason": "?"},
                {"op": "RETRACT", "id": "fact_made_up", "reason": "?"},
                {"op": "RETRACT", "id": bobs.id, "reason": "...nor touched"},
                {"op": "CORRECT", "id": globex, "value": "", "content": "Ana works somewhere.", "reason": "?"},
                {"op": "RETRACT", "reason": "no id"},
                {"op": "RETRACT", "id": globex, "reason": "not really"},
                {"op": "RETRACT", "id": globex, "reason": "said twice"},
            ]

        deps.chat = model(revise)
        (m,) = await say(deps, ANA, "I work at Globex lol not really")
        await extract_job(deps)
        assert await current(deps) == {}
        (globex,) = await all_facts(deps)
        events = [(e.event, e.reason) for e in await deps.memories.history(ANA, globex.id)]
        assert events[-1][0] is HistoryEvent.DELETE and "not really" in (events[-1][1] or "") and len(events) == 2
        assert (await all_facts(deps, BOB))[0].valid_to is None

    with caplog.at_level(logging.INFO, logger="hipocampo.services.facts"):
        run(scenario, None)
    ignored = [r.getMessage() for r in caplog.records if "LLM revision ignored" in r.getMessage()]
    assert any("unknown op 'MERGE'" in line for line in ignored)
    assert any("'fact_made_up'" in line and "not one of the user's current facts" in line for line in ignored)
    assert sum("not one of the user's current facts" in line for line in ignored) == 3  # made up, Bob's, none
    assert any("without a value" in line for line in ignored)


def test_a_fact_changed_while_the_model_thought_is_left_alone(caplog: pytest.LogCaptureFixture) -> None:
    def revise(listed: dict[str, str]) -> list[dict[str, Any]]:
        return [{"op": "RETRACT", "id": i, "reason": "stale"} for i in listed]

    async def scenario(deps: Deps) -> None:
        (m,) = await say(deps, ANA, "I live in Porto")
        await mine_messages(deps, ANA, [m])
        found = await ask_llm(deps, ANA, [m])
        (fact,) = await all_facts(deps)
        fact.valid_to = T0  # another job closed it meanwhile
        await deps.memories.upsert([fact])
        applied = await mine_messages(deps, ANA, [m], rules=False, llm_facts=found)
        assert applied == [] and len(await deps.memories.history(ANA, fact.id)) == 1

    with caplog.at_level(logging.INFO, logger="hipocampo.services.facts"):
        run(scenario, model(revise))
    assert any("no longer a current fact" in r.getMessage() for r in caplog.records)


def test_the_review_prompt_shows_the_turns_and_the_facts_and_nothing_is_asked_without_facts() -> None:
    chat = model(lambda listed: [])

    async def scenario(deps: Deps) -> None:
        (m,) = await say(deps, ANA, "Jazz on Sunday mornings is my thing")
        await ask_llm(deps, ANA, [m])
        assert [c[2] for c in chat.calls] == [FactsOut]  # no stored fact: no review
        (n,) = await say(deps, ANA, "I live in Porto")
        await mine_messages(deps, ANA, [n])
        await ask_llm(deps, ANA, [n])
        system, prompt, schema = chat.calls[-1]
        (fact,) = await all_facts(deps)
        assert schema is RevisionsOut and "CORRECT" in system and "RETRACT" in system
        assert f"[{fact.id}]" in prompt and "Ana: I live in Porto" in prompt

    run(scenario, chat)
