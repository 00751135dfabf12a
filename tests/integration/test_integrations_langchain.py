"""``with_memory`` around a real LangChain ``ChatOpenAI`` pointed at an OpenAI-compatible server on
loopback (tests/openai_stub.py), with the memory in a real SQLite file and the fake embedder."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from openai_stub import ChatStub, answer_for, chat_stub

from hipocampo import Memory
from hipocampo.integrations import MEMORY_HEADER, MemoryChatModel, with_memory

ALLERGY = "I'm allergic to peanuts, keep that in mind"
QUESTION = "Can I order the satay with peanut sauce?"


@pytest.fixture(scope="module")
def stub() -> Iterator[ChatStub]:
    with chat_stub() as server:
        yield server


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory.open(str(tmp_path / "memory.db"), embedder="fake") as m:
        yield m


def chat(stub: ChatStub, model: str = "stub-1") -> ChatOpenAI:
    return ChatOpenAI(model=model, base_url=stub.url, api_key="test", max_retries=0)  # type: ignore[arg-type]


def contents(mem: Memory, user_id: str, thread: str) -> list[str]:
    return [m.content for m in mem.messages(user_id, thread)]


def test_invoke_stores_turns_and_recalls_them_in_a_new_thread(stub: ChatStub, mem: Memory) -> None:
    model = with_memory(chat(stub), user_id="ana", memory=mem)
    assert isinstance(model, MemoryChatModel) and isinstance(model, BaseChatModel)
    first = [SystemMessage("You are terse."), HumanMessage(ALLERGY)]
    reply = model.invoke(first, config={"configurable": {"thread_id": "t1"}})
    assert reply.text == answer_for([{"role": "user", "content": ALLERGY}])
    assert contents(mem, "ana", "t1") == [ALLERGY, reply.text]
    # The history comes back with the next call: only the new turns are stored.
    model.invoke([*first, reply, HumanMessage("Thanks!")], config={"configurable": {"thread_id": "t1"}})
    assert contents(mem, "ana", "t1")[:3] == [ALLERGY, reply.text, "Thanks!"]
    assert len(contents(mem, "ana", "t1")) == 4

    mem.flush()
    later = model.invoke([SystemMessage("You are terse."), HumanMessage(QUESTION)], thread_id="t2")
    assert stub.system_prompt().startswith("You are terse.\n\n" + MEMORY_HEADER)
    assert later.text.startswith("knows: peanuts")
    assert "thread_id" not in stub.requests[-1]  # the call's own ids never reach the API


def test_streams_and_async(stub: ChatStub, mem: Memory) -> None:
    mem.add("ana", "old", [ALLERGY])
    mem.flush()
    model = with_memory(chat(stub), user_id="ana", memory=mem)
    pieces = [c.text for c in model.stream(QUESTION, config={"metadata": {"thread_id": "s1"}})]
    assert "".join(pieces).startswith("knows: peanuts") and len(pieces) > 3
    assert contents(mem, "ana", "s1") == [QUESTION, "".join(pieces)]

    async def main() -> None:
        reply = await model.ainvoke(QUESTION, thread_id="a1")
        assert reply.text.startswith("knows: peanuts")
        streamed = "".join([c.text async for c in model.astream("And for dessert?", thread_id="a2")])
        assert contents(mem, "ana", "a1") == [QUESTION, reply.text]
        assert contents(mem, "ana", "a2") == ["And for dessert?", streamed]

    asyncio.run(main())

    # Closed early: what arrived is stored, marked incomplete.
    stream = model.stream("Stop me", thread_id="e")
    got = [next(stream).text for _ in range(3)]
    stream.close()
    stored = mem.messages("ana", "e")
    assert [m.content for m in stored] == ["Stop me", "".join(got)] and stored[1].metadata["incomplete"] is True


def test_whose_memory_and_failures(
    stub: ChatStub, mem: Memory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    mem.add("ana", "old", [ALLERGY])
    mem.flush()
    model = with_memory(chat(stub), memory=mem)
    with caplog.at_level(logging.WARNING, logger="hipocampo.integrations"):
        model.invoke(QUESTION)
    assert stub.system_prompt() == "" and any("named no user" in r.message for r in caplog.records)
    model.invoke(QUESTION, config={"metadata": {"user_id": "bia", "thread_id": "b"}})
    assert "peanut" not in stub.system_prompt() and contents(mem, "bia", "b")[0] == QUESTION
    model.invoke(QUESTION, user_id="ana", thread_id="c", config={"metadata": {"user_id": "bia"}})
    assert "peanut" in stub.system_prompt() and contents(mem, "ana", "c")[0] == QUESTION

    # An LLM failure propagates and stores nothing; a memory failure costs only the memory.
    import openai

    with pytest.raises(openai.BadRequestError):
        with_memory(chat(stub, "fail"), user_id="ana", memory=mem).invoke(ALLERGY, thread_id="f")
    assert mem.messages("ana", "f") == []
    gone = Memory.open(str(tmp_path / "gone.db"), embedder="fake")
    broken = with_memory(chat(stub), user_id="ana", memory=gone)
    gone.close()
    assert broken.invoke(ALLERGY, thread_id="g").text == answer_for([{"role": "user", "content": ALLERGY}])
    assert "".join(c.text for c in broken.stream("Hi", thread_id="g")).endswith("You said: Hi")


def test_tools_bind_through_the_wrapper(stub: ChatStub, mem: Memory) -> None:
    @tool
    def lookup(dish: str) -> str:
        """Ingredients of a dish."""
        return "peanuts"

    model = with_memory(chat(stub), user_id="ana", memory=mem).bind_tools([lookup])
    reply = model.invoke(QUESTION, config={"configurable": {"thread_id": "tools"}})
    assert isinstance(reply, AIMessage)
    assert stub.requests[-1]["tools"][0]["function"]["name"] == "lookup"
    assert contents(mem, "ana", "tools") == [QUESTION, reply.text]


def test_a_langgraph_node_uses_the_runs_thread(stub: ChatStub, mem: Memory) -> None:
    from langgraph.graph import START, MessagesState, StateGraph

    model = with_memory(chat(stub), user_id="ana", memory=mem)

    def answer(state: MessagesState) -> dict:
        return {"messages": [model.invoke(state["messages"])]}  # the config arrives from the run

    graph = StateGraph(MessagesState).add_node("answer", answer).add_edge(START, "answer").compile()
    out = graph.invoke({"messages": [HumanMessage(ALLERGY)]}, config={"configurable": {"thread_id": "g1"}})
    assert contents(mem, "ana", "g1") == [ALLERGY, out["messages"][-1].text]
