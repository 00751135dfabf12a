"""``hipocampo.testing`` is a public entry for users' own tests: what docs/testing.md shows works."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import pytest

from hipocampo import testing


def test_open_memory_writes_and_recalls_with_no_model_file_or_network() -> None:
    async def main() -> None:
        clock = testing.FakeClock(datetime(2026, 3, 1, 9, tzinfo=timezone.utc))
        async with await testing.open_memory(clock=clock) as mem:
            await mem.add("ana", "t1", [{"role": "user", "content": "My sister Rita lives in Porto"}])
            await mem.flush()
            clock.advance(3 * 86400)
            result = await mem.search("ana", "where does Rita live?")
            assert any("Porto" in h.memory.content for h in result.hits)

    asyncio.run(main())


def test_named_memories_share_one_store_and_fresh_ones_do_not() -> None:
    async def main() -> None:
        async with (
            await testing.open_memory(name="shared-test") as a,
            await testing.open_memory(name="shared-test") as b,
            await testing.open_memory() as fresh,
        ):
            await a.add("ana", "t1", "hello")
            assert [m.content for m in await b.messages("ana", "t1")] == ["hello"]
            assert await fresh.threads("ana") == []

    asyncio.run(main())


def test_scripted_chat_model_answers_in_order_and_records_calls() -> None:
    chat = testing.ScriptedChatModel(["first", {"a": 1}])
    assert asyncio.run(chat.complete("system", "prompt")) == "first"
    assert asyncio.run(chat.complete("system", "again")) == '{"a": 1}'
    assert [c[1] for c in chat.calls] == ["prompt", "again"]
    with pytest.raises(testing.ScriptExhausted):
        asyncio.run(chat.complete("system", "one too many"))


def test_the_langchain_fakes_load_on_first_use() -> None:
    pytest.importorskip("langchain_core")
    model = testing.ScriptedToolChatModel(script=[testing.tool_call("get_memory", query="x"), "done"])
    assert model is not None
    with pytest.raises(AttributeError):
        testing.no_such_fake  # noqa: B018


def test_the_scripted_llm_example_of_the_docs() -> None:
    fact = {
        "content": "Ana is vegetarian.",
        "memory_type": "preference",
        "key": "diet",
        "value": "vegetarian",
        "confidence": 0.9,
    }

    answers = {"FactsOut": {"facts": [fact]}, "RevisionsOut": {"revisions": []}, "ReconcileOut": {"action": "ADD"}}
    chat = testing.ScriptedChatModel(lambda system, prompt, schema: answers[schema.__name__])

    async def main() -> None:
        async with await testing.open_memory(chat=chat) as mem:
            await mem.add("ana", "t1", "I am vegetarian now")
            await mem.flush()
            assert "The user is vegetarian." in [m.content for m in await mem.list("ana", kind="fact")]

    asyncio.run(main())
    assert chat.calls
