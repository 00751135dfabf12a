"""The LLM path on what small real models answer, not on the answers we would like.

Run on Qwen2.5-Coder-1.5B through llama.cpp (benchmarks/llm_facts.py), the model wrote English
values for Portuguese turns ("Lisbon" for "Lisboa"), invented the old value of a change,
wrote a retraction as an update to "false", cut its JSON off mid-answer, and took longer than
the call's time limit. Each is replayed here by a scripted model (or, for the time limit, the
real LangChain adapter around a fake chat that never answers), and the memory must come out
without a wrong fact: a value not in the user's words is not stored, an invented old value is
dropped, "false" closes the slot, the complete part of a cut answer is kept, and a call that
fails costs only its own answer while the rules' facts stand.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.llm.langchain import LangChainChatModel
from hipocampo.adapters.llm.scripted import ScriptedChatModel
from hipocampo.domain.errors import LLMError
from hipocampo.domain.extraction.llm_schemas import (
    FactsOut,
    ReconcileOut,
    RevisionsOut,
    extract_json,
    facts_schema,
    grounded,
    parse_structured,
)
from hipocampo.domain.model import HistoryEvent, MemoryKind, Scope
from hipocampo.services.deps import Deps
from hipocampo.services.facts import ask_llm, mine_messages
from hipocampo.services.ingest import EXTRACT_JOB, add_messages
from hipocampo.services.worker import SINGLE
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

T0 = datetime(2025, 6, 2, 12, tzinfo=timezone.utc)
ANA = Scope("t", "ana")
SETTINGS = Settings(embedder="fake", tokenizer="chars", summaries=False, llm="openai:qwen-test")


def fact(key: str, value: str, content: str, **more: Any) -> dict[str, Any]:
    return {"memory_type": "user_profile", "key": key, "value": value, "content": content, "confidence": 0.9, **more}


def answering(facts: Callable[[str], list[dict[str, Any]] | str], reconcile: dict[str, Any] | None = None) -> Any:
    """A model whose extraction answer depends on the turn (``facts(prompt)``: items, or raw
    text as a server would send it), that reviews nothing, and reconciles with ``reconcile``
    (its ``target_id`` "first" names the first memory listed)."""

    def answer(system: str, prompt: str, schema: type) -> Any:
        if issubclass(schema, FactsOut):
            found = facts(prompt)
            return found if isinstance(found, str) else {"facts": found}
        if schema is RevisionsOut:
            return {"revisions": []}
        assert schema is ReconcileOut
        out = dict(reconcile or {"action": "ADD", "reason": "new"})
        if out.get("target_id") == "first":
            out["target_id"] = prompt.split("- [", 1)[1].split("]", 1)[0]
        return out

    return answer


def run(scenario: Callable[[Deps], Any], chat: Any) -> None:
    deps = build_memory_deps(SETTINGS, clock=FakeClock(T0), chat=chat)
    asyncio.run(scenario(deps))


async def say(deps: Deps, *texts: str) -> list[str]:
    stored = await add_messages(deps, ANA, "t1", [{"role": "user", "name": "Ana", "content": t} for t in texts])
    return [m.id for m in stored]


async def llm_only(deps: Deps, ids: list[str]) -> None:
    await mine_messages(deps, ANA, ids, rules=False, llm_facts=await ask_llm(deps, ANA, ids))


async def current(deps: Deps) -> dict[str, str]:
    items = await deps.memories.list(ANA, kind=MemoryKind.FACT)
    return {m.key or "": str(m.metadata.get("fact_value", "")) for m in items if m.valid_to is None}


# --- values in the wrong language, and invented old values ---------------------------------------


def test_grounded_values_are_the_users_words_up_to_accents_case_and_inflection() -> None:
    assert grounded("Lisboa", "Mudei-me para Lisboa.")
    assert grounded("São Paulo", "moro em sao paulo")
    assert grounded("vegetariana", "sou vegetariano")  # an inflection, not a translation
    assert not grounded("Lisbon", "Mudei-me para Lisboa.")
    assert not grounded("engineer", "sou engenheira")
    assert not grounded("de", "trabalho de casa")  # stop words alone ground nothing


def test_a_value_translated_into_english_is_not_stored(caplog: pytest.LogCaptureFixture) -> None:
    chat = ScriptedChatModel(
        answering(
            lambda _: [
                fact("home_city", "Lisbon", "A usuária mora em Lisboa."),
                fact("employer", "Farfetch", "A usuária trabalha na Farfetch."),
            ]
        )
    )

    async def scenario(deps: Deps) -> None:
        await llm_only(deps, await say(deps, "Mudei-me para Lisboa e agora trabalho na Farfetch."))
        assert await current(deps) == {"employer": "Farfetch"}

    with caplog.at_level(logging.INFO, logger="hipocampo.services.facts"):
        run(scenario, chat)
    assert "'Lisbon' of 'home_city' is not in the turn" in caplog.text


def test_an_invented_old_value_is_dropped_and_a_sentence_that_tells_it_drops_the_fact() -> None:
    def facts(prompt: str) -> list[dict[str, Any]]:
        if "Globex" in prompt:
            return [fact("employer", "Globex", "Ana works at Globex.", previous_value="Initech")]
        return [fact("home_city", "Porto", "Ana moved from Braga to Porto.", previous_value="Braga")]

    async def scenario(deps: Deps) -> None:
        ids = await say(deps, "I work at Globex now.", "I moved to Porto.")
        found = await ask_llm(deps, ANA, ids)
        (job,) = found[ids[0]]
        assert job.fact.value == "Globex" and job.fact.previous_value is None  # "Initech" was never said
        assert found[ids[1]] == []  # the sentence tells a move from Braga that nobody mentioned

    run(scenario, ScriptedChatModel(answering(facts)))


def test_an_old_value_the_user_did_say_is_kept() -> None:
    def facts(prompt: str) -> list[dict[str, Any]]:
        if "Acme" in prompt:
            return [fact("employer", "Acme", "Ana works at Acme.", previous_value="Globex")]
        return [fact("employer", "Globex", "Ana works at Globex.")]

    async def scenario(deps: Deps) -> None:
        first = await say(deps, "I work at Globex.")
        await llm_only(deps, first)
        (found,) = (await ask_llm(deps, ANA, await say(deps, "Started at Acme last week."))).values()
        assert found[0].fact.previous_value == "Globex"  # stored for the slot: the user said it

    run(scenario, ScriptedChatModel(answering(facts)))


# --- retractions written as updates to "false" -----------------------------------------------------


@pytest.mark.parametrize("written", ["false", "None", "null", "nenhum"])
def test_a_retraction_written_as_an_update_to_false_closes_the_goal(written: str) -> None:
    def facts(prompt: str) -> list[dict[str, Any]]:
        value = written if "scratch" in prompt else "half marathon"
        return [fact("goal:half_marathon", value, "Ana is training for a half marathon.", memory_type="goal")]

    async def scenario(deps: Deps) -> None:
        await llm_only(deps, await say(deps, "I'm training for a half marathon in October."))
        (goal,) = await deps.memories.list(ANA, kind=MemoryKind.FACT)
        retraction = await say(deps, "Actually, scratch the half marathon, I hurt my knee.")
        await llm_only(deps, retraction)
        assert await current(deps) == {}
        (closed,) = await deps.memories.list(ANA, kind=MemoryKind.FACT)  # closed, not replaced by "false"
        assert closed.id == goal.id and closed.valid_to is not None
        assert [e.event for e in await deps.memories.history(ANA, goal.id)] == [HistoryEvent.ADD, HistoryEvent.DELETE]

    # Were the model asked, it would reconcile "false" as an UPDATE: a retraction is not asked about.
    chat = ScriptedChatModel(answering(facts, {"action": "UPDATE", "target_id": "first", "content": "x"}))
    run(scenario, chat)
    assert not any(schema is ReconcileOut for _, _, schema in chat.calls)


def test_a_restatement_is_not_reconciled_by_the_model() -> None:
    chat = ScriptedChatModel(answering(lambda _: [fact("employer", "Globex", "Ana works at Globex.")]))

    async def scenario(deps: Deps) -> None:
        await llm_only(deps, await say(deps, "I work at Globex."))
        await llm_only(deps, await say(deps, "Globex keeps me busy, I work at Globex after all."))
        (item,) = await deps.memories.list(ANA, kind=MemoryKind.FACT)
        assert item.mention_count == 2

    run(scenario, chat)
    assert not any(schema is ReconcileOut for _, _, schema in chat.calls)


def test_a_correction_to_none_is_a_retraction() -> None:
    out = parse_structured(
        {"revisions": [{"op": "correct", "id": "m1", "value": "none", "content": "Ana has no car.", "reason": "sold"}]},
        RevisionsOut,
    )
    assert [(r.op, r.value, r.content) for r in out.revisions] == [("RETRACT", None, None)]


def test_a_correction_that_restates_the_value_as_a_sentence_is_ignored() -> None:
    def answer(system: str, prompt: str, schema: type) -> Any:
        if schema is RevisionsOut:  # what Qwen answered for every fact of a tuned scenario
            listed = prompt.split("- [", 1)[1].split("]", 1)[0]
            fix = {
                "op": "CORRECT",
                "id": listed,
                "value": "trabalha na Sonae",
                "content": "A usuária trabalha na Sonae.",
            }
            return {"revisions": [fix]}
        return {"facts": []}

    async def scenario(deps: Deps) -> None:
        ids = await say(deps, "Trabalho na Sonae.")
        await mine_messages(deps, ANA, ids)  # the rules: employer = Sonae
        await mine_messages(deps, ANA, ids, rules=False, llm_facts=await ask_llm(deps, ANA, ids))
        assert await current(deps) == {"employer": "Sonae"}

    run(scenario, ScriptedChatModel(answer))


def test_an_id_answered_in_its_listing_brackets_is_the_id() -> None:
    verdict = parse_structured({"action": "UPDATE", "target_id": "[fact_1]", "content": "x"}, ReconcileOut)
    revisions = parse_structured({"revisions": [{"op": "RETRACT", "id": " [fact_2] "}]}, RevisionsOut)
    assert verdict.target_id == "fact_1" and revisions.revisions[0].id == "fact_2"


def test_true_as_the_value_of_a_set_item_is_the_item_its_key_names() -> None:
    out = parse_structured({"facts": [fact("likes:jazz", "true", "Ana likes jazz.")]}, FactsOut)
    assert out.facts[0].value == "jazz" and not out.facts[0].negated


# --- malformed and truncated JSON --------------------------------------------------------------------


def test_an_answer_cut_off_keeps_its_complete_facts() -> None:
    cut = '```json\n{"facts": [{"memory_type": "user_profile", "key": "pet_name", "value": "Pixel", '
    cut += '"content": "Ana has a cat called Pixel.", "confidence": 0.9}, {"memory_type": "pref'
    assert extract_json(cut) == {
        "facts": [
            {
                "memory_type": "user_profile",
                "key": "pet_name",
                "value": "Pixel",
                "content": "Ana has a cat called Pixel.",
                "confidence": 0.9,
            }
        ]
    }
    with pytest.raises(ValueError):
        extract_json('{"facts": [{"memory_ty')  # nothing complete: a failed answer, not "no facts"
    with pytest.raises(ValueError):
        extract_json('{"facts": [}')  # closed but invalid: not mended into something else


def test_one_bad_item_costs_that_fact_not_the_answer() -> None:
    schema = facts_schema(["user_profile", "preference"])
    out = parse_structured(
        {
            "facts": [
                fact("pet_name", "Pixel", "Ana has a cat called Pixel."),
                fact("car", "Fiat", "Ana drives a Fiat.", memory_type="vehicle"),  # a type nobody configured
                fact("likes:tea", "tea", "Ana likes tea.", confidence="high"),
            ]
        },
        schema,
    )
    assert [f.value for f in out.facts] == ["Pixel"]


def test_a_garbled_answer_for_one_turn_keeps_the_others_facts() -> None:
    def facts(prompt: str) -> list[dict[str, Any]] | str:
        if "Pixel" in prompt:
            return "Sure! Here are the facts: the user has a cat"  # no JSON at all
        return [fact("employer", "Globex", "Ana works at Globex.")]

    async def scenario(deps: Deps) -> None:
        ids = await say(deps, "My cat is called Pixel.", "I work at Globex.")
        await llm_only(deps, ids)
        assert await current(deps) == {"employer": "Globex"}

    run(scenario, ScriptedChatModel(answering(facts)))


# --- slow answers: the call's time limit, through the real adapter -----------------------------------


@dataclass
class Answer:
    content: str


class NeverAnswersAbout:
    """A LangChain chat look-alike that never answers a prompt mentioning ``word`` (a model
    still thinking) and answers every other one with ``reply``: no time is measured, the
    adapter's limit is what ends the wait."""

    def __init__(self, word: str, reply: Callable[[str], str]) -> None:
        self.word, self.reply = word, reply

    async def ainvoke(self, messages: Any) -> Answer:
        prompt = messages[-1][1]
        if self.word in prompt:
            await asyncio.Event().wait()
        return Answer(self.reply(prompt))

    def bind(self, **kwargs: Any) -> NeverAnswersAbout:
        return self

    def with_structured_output(self, schema: Any, **kwargs: Any) -> NeverAnswersAbout:
        return self


def slow_model(word: str) -> LangChainChatModel:
    def reply(prompt: str) -> str:
        if "Stored facts:" in prompt:
            return '{"revisions": []}'
        if "New fact:" in prompt:
            return '{"action": "ADD", "reason": "new"}'
        globex = fact("employer", "Globex", "Ana works at Globex.")
        return json.dumps({"facts": [globex]})

    chat = NeverAnswersAbout(word, reply)
    return LangChainChatModel(chat, timeout_s=0.01, max_retries=0, structured_output="text")


def test_a_slow_answer_for_one_turn_costs_that_turn_only_and_the_job_completes() -> None:
    async def scenario(deps: Deps) -> None:
        await say(deps, "I live in Porto.", "I work at Globex.")
        (job,) = [j for j in await deps.jobs.claim(10, 60.0) if j.kind == EXTRACT_JOB]
        await SINGLE[EXTRACT_JOB](deps, job)  # does not raise: the calls that name Porto timed out, one answered
        assert await current(deps) == {"home_city": "Porto", "employer": "Globex"}  # the rules' Porto stands
        assert [j for j in await deps.jobs.claim(10, 60.0) if j.kind == EXTRACT_JOB] == []  # done, not retried

    run(scenario, slow_model("Porto"))


def test_a_model_that_never_answers_leaves_the_rules_facts_and_the_job_is_retried() -> None:
    async def scenario(deps: Deps) -> None:
        (m,) = await add_messages(deps, ANA, "t1", [{"role": "user", "name": "Ana", "content": "I live in Porto."}])
        (job,) = [j for j in await deps.jobs.claim(10, 60.0) if j.kind == EXTRACT_JOB]
        with pytest.raises(LLMError, match="no answer within"):
            await SINGLE[EXTRACT_JOB](deps, job)
        assert await current(deps) == {"home_city": "Porto"}
        assert [x.id for x in await deps.log.get_many(ANA, [m.id])] == [m.id]  # the turn is kept

    run(scenario, slow_model("Ana"))  # every prompt names the speaker
