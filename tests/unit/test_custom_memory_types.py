"""A deployment's own memory types (a marketing agent's: campaign, metric, threshold,
insight) from ``HIPOCAMPO_MEMORY_TYPES``: the extraction schema and prompt, what the model finds,
the rendered context and the client's filters. No network: the chat model is scripted."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import pytest
from pydantic import ValidationError

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.adapters.llm.scripted import ScriptedChatModel
from hipocampo.client import AsyncMemory
from hipocampo.domain.errors import InvalidInput, LLMError
from hipocampo.domain.extraction.llm_schemas import (
    FactsOut,
    RevisionsOut,
    extraction_prompt,
    facts_schema,
    parse_structured,
)
from hipocampo.domain.model import CUSTOM_TYPE_KEY, MemoryKind, MemoryType, Scope
from hipocampo.domain.retrieval.context import memory_line
from hipocampo.services.deps import Deps
from hipocampo.services.facts import MEMORY_TYPE_DESCRIPTIONS, ask_llm, memory_types_for, mine_messages
from hipocampo.services.ingest import add_messages
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

T0 = datetime(2025, 11, 3, 9, tzinfo=timezone.utc)
MARKETING = {
    "campaign": "uma campanha do usuário, com nome e detalhes",
    "metric": "uma métrica (CPL, CTR, leads, gasto) com o valor",
    "threshold": "um limite definido pelo usuário, como o CPL máximo aceitável",
    "insight": "uma conclusão tirada dos números",
    "preference": "",  # a built-in type keeps its own description
}
SETTINGS = Settings(
    embedder="fake",
    tokenizer="chars",
    summaries=False,
    llm="openai:gpt-test",
    memory_types={"marketing": MARKETING},
)
ANA = Scope("acme", "ana", "marketing")


def fact(memory_type: str, key: str, value: str, content: str) -> dict:
    return {"memory_type": memory_type, "key": key, "value": value, "content": content, "confidence": 0.9}


def test_the_schema_and_prompt_list_the_configured_types_with_their_descriptions() -> None:
    deps = build_memory_deps(SETTINGS)
    types = memory_types_for(deps, ANA)
    assert list(types) == list(MARKETING) and types["preference"] == MEMORY_TYPE_DESCRIPTIONS["preference"]

    schema = facts_schema(types)
    assert issubclass(schema, FactsOut) and schema is facts_schema(dict(types))  # one class per set of types
    published = schema.model_json_schema()
    assert published["$defs"]["FactOut"]["properties"]["memory_type"]["enum"] == list(MARKETING)
    assert "'default'" not in str(published)  # strict providers refuse defaults
    answer = parse_structured({"facts": [fact("threshold", "max_cpl", "R$ 40", "O CPL máximo é R$ 40.")]}, schema)
    assert answer.facts[0].memory_type == "threshold"
    with pytest.raises(ValidationError):  # a type nobody configured is a wrong answer
        parse_structured({"facts": [fact("goal", "k", "v", "c")]}, schema)
    assert facts_schema(MEMORY_TYPE_DESCRIPTIONS) is FactsOut  # the built-in six: the schema as ever

    system, _ = extraction_prompt("CPL máximo de R$ 40", "Ana", T0, types)
    for name, description in types.items():
        assert f"- {name}: {description}" in system


def test_settings_refuse_custom_types_without_a_description_or_a_proper_name() -> None:
    for bad, reason in (
        ({"campaign": ""}, "needs a description"),
        ({"Campanha!": "x"}, "lowercase identifier"),
        ({"turn": "x"}, "kind of memory"),
    ):
        with pytest.raises(ValidationError, match=reason):
            Settings(embedder="fake", memory_types={"*": bad})
    assert Settings(embedder="fake", memory_types={"*": {"goal": "", "insight": "a conclusion"}}).memory_types


def test_the_models_custom_typed_facts_are_kept_typed_through_corrections() -> None:
    state = {"turn": 0}

    def answer(system: str, prompt: str, schema: type) -> dict:
        if isinstance(schema, type) and issubclass(schema, FactsOut):
            assert "- campaign: uma campanha" in system and schema is not FactsOut
            state["turn"] += 1
            if state["turn"] > 1:
                return {"facts": []}
            return {
                "facts": [
                    fact("campaign", "campaign:black_friday", "Black Friday", "Ana roda a campanha Black Friday."),
                    fact("threshold", "max_cpl", "R$ 40", "O CPL máximo aceitável de Ana é R$ 40."),
                    fact("preference", "likes:reports", "relatórios semanais", "Ana prefere relatórios semanais."),
                ]
            }
        assert schema is RevisionsOut
        if state["turn"] == 1:
            return {"revisions": []}
        target = next(line for line in prompt.splitlines() if "R$ 40" in line).split("[", 1)[1].split("]", 1)[0]
        return {
            "revisions": [
                {
                    "op": "CORRECT",
                    "id": target,
                    "value": "R$ 35",
                    "content": "O CPL máximo aceitável de Ana é R$ 35.",
                    "reason": "novo limite",
                }
            ]
        }

    async def scenario(deps: Deps) -> None:
        turn = "Rodando a Black Friday; meu CPL máximo é R$ 40 e prefiro relatórios semanais"
        (m1,) = await add_messages(deps, ANA, "t1", [{"role": "user", "name": "Ana", "content": turn}])
        await mine_messages(deps, ANA, [m1.id], rules=False, llm_facts=await ask_llm(deps, ANA, [m1.id]))
        stored = {m.key: m for m in await deps.memories.list(ANA, kind=MemoryKind.FACT)}
        campaign, threshold, likes = stored["campaign:black_friday"], stored["max_cpl"], stored["likes:reports"]
        # Stored as the agent tools store theirs: no built-in type, the custom one in the metadata.
        assert campaign.memory_type is None and campaign.metadata[CUSTOM_TYPE_KEY] == "campaign"
        assert (threshold.type_name, likes.memory_type, likes.type_name) == (
            "threshold",
            MemoryType.PREFERENCE,
            "preference",
        )
        assert memory_line(campaign).startswith("- (fact/campaign) Ana roda")
        assert [m.id for m in await deps.memories.list(ANA, memory_type="threshold")] == [threshold.id]

        (m2,) = await add_messages(deps, ANA, "t1", [{"role": "user", "name": "Ana", "content": "Baixei para 35"}])
        await mine_messages(deps, ANA, [m2.id], rules=False, llm_facts=await ask_llm(deps, ANA, [m2.id]))
        (now,) = await deps.memories.list(ANA, memory_type="threshold", current_at=deps.clock.now())
        assert now.content.endswith("R$ 35.") and now.type_name == "threshold" and now.memory_type is None

    asyncio.run(scenario(build_memory_deps(SETTINGS, clock=FakeClock(T0), chat=ScriptedChatModel(answer))))


def test_an_answer_with_a_type_the_agent_lacks_fails_like_any_wrong_answer() -> None:
    """Another agent's deployment types are not this agent's: its schema refuses them."""
    chat = ScriptedChatModel([{"facts": [fact("campaign", "campaign:x", "x", "x")]}])

    async def scenario(deps: Deps) -> None:
        plain = Scope("acme", "ana", "support")  # no entry of its own, no "*": the built-in six
        (m,) = await add_messages(deps, plain, "t1", [{"role": "user", "content": "Rodando a campanha X"}])
        with pytest.raises(LLMError):
            await ask_llm(deps, plain, [m.id])
        assert chat.calls[0][2] is FactsOut

    asyncio.run(scenario(build_memory_deps(SETTINGS, clock=FakeClock(T0), chat=chat)))


def test_the_client_saves_lists_and_retypes_by_custom_type_and_refuses_unknown_ones(tmp_path) -> None:
    async def main() -> None:
        mem = await AsyncMemory.open(
            str(tmp_path / "m.db"),
            embedder=FakeEmbedder(),
            extraction=False,
            summaries=False,
            memory_types={"marketing": MARKETING},
        )
        try:
            cpl = await mem.remember("ana", "CPL máximo de R$ 40", memory_type="threshold", metadata={"src": "x"})
            assert cpl.memory_type is None and cpl.type_name == "threshold" and cpl.metadata["src"] == "x"
            await mem.remember("ana", "Gosta de relatórios", memory_type="preference")
            assert [m.id for m in await mem.list("ana", memory_type="threshold")] == [cpl.id]
            retyped = await mem.update("ana", cpl.id, memory_type="metric")
            assert retyped.type_name == "metric" and [m.id for m in await mem.list("ana", memory_type="metric")]
            back = await mem.update("ana", cpl.id, memory_type="constraint")
            assert back.memory_type is MemoryType.CONSTRAINT and CUSTOM_TYPE_KEY not in back.metadata
            for call in (mem.list("ana", memory_type="opinion"), mem.remember("ana", "x", memory_type="opinion")):
                with pytest.raises(InvalidInput, match="campaign, metric, threshold, insight"):
                    await call
        finally:
            await mem.close()

    asyncio.run(main())


def test_the_mcp_tools_offer_accept_and_recall_the_agents_custom_types(tmp_path) -> None:
    pytest.importorskip("mcp")
    from mcp import Client

    from hipocampo.agent.tools import MemoryTools
    from hipocampo.entrypoints.mcp_server.server import Caller, build_server, configured_session

    async def main() -> None:
        mem = await AsyncMemory.open(
            str(tmp_path / "m.db"),
            embedder=FakeEmbedder(),
            extraction=False,
            summaries=False,
            memory_types={"marketing": MARKETING},
        )
        try:
            session = configured_session(mem, "ana", "t1", tenant_id="acme", agent_id="marketing")
            session = session.model_copy(update={"memory_min_relevance": 0.0})
            caller = Caller(MemoryTools(mem, session))
            async with Client(build_server(lambda ctx: caller, session)) as client:
                tools = {t.name: t for t in (await client.list_tools()).tools}
                assert tools["save_memory"].input_schema["properties"]["memory_type"]["enum"] == list(MARKETING)
                assert f"- campaign: {MARKETING['campaign']}" in (tools["save_memory"].description or "")
                assert "threshold" in str(tools["get_memory"].input_schema["properties"]["memory_type"])
                saved = await client.call_tool(
                    "save_memory", {"content": "Campanha Black Friday com CPL de R$ 25", "memory_type": "campaign"}
                )
                assert not saved.is_error and saved.structured_content["memory"]["memory_type"] == "campaign"
                listed = await client.call_tool("get_memory", {"mode": "chronological", "memory_type": "campaign"})
                assert [m["memory_type"] for m in listed.structured_content["memories"]] == ["campaign"]
                await mem.flush()
                recalled = await client.call_tool("recall", {"query": "campanha Black Friday"})
                assert "(fact/campaign) Campanha Black Friday" in recalled.structured_content["context"]
        finally:
            await mem.close()

    asyncio.run(main())
