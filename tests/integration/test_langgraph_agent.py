"""The ready LangGraph agent, driven by the scripted chat model, on a real store (each backend)."""

from __future__ import annotations

import asyncio
import json

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from hipocampo import Memory, Settings
from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.agent import SessionConfig
from hipocampo.agent.chat import chat_model_from_config, run_chat
from hipocampo.agent.langgraph import MemoryFlags, build_agent_graph
from hipocampo.agent.langgraph.nodes import SYSTEM_MESSAGE_ID, load_context
from hipocampo.agent.scripted_chat import ScriptedToolChatModel, ScriptExhausted, tool_call
from hipocampo.client import AsyncMemory
from hipocampo.domain.errors import LLMError

pytestmark = pytest.mark.backends()


def session(thread: str, user: str = "ana", **kw) -> SessionConfig:
    return SessionConfig(user_id=user, thread_id=thread, memory_min_relevance=0.0, **kw)


async def open_memory(db_path: str, **kw) -> AsyncMemory:
    kw.setdefault("extraction", False)  # the facts in these tests are the ones the agent saves
    return await AsyncMemory.open(db_path, embedder=FakeEmbedder(), llm=None, **kw)


def peanut_aware(messages):
    """Answers from the system prompt alone: what the memory injected decides the answer."""
    system = messages[0]
    assert isinstance(system, SystemMessage)
    return "No: you are allergic to peanuts." if "peanuts" in system.text else "Sure, enjoy the satay!"


def run(coro):
    return asyncio.run(coro)


def test_a_fact_saved_in_one_session_changes_the_answer_in_another(db_path):
    async def main():
        mem = await open_memory(db_path)
        try:
            first = ScriptedToolChatModel(
                script=[
                    tool_call("save_memory", content="Ana is allergic to peanuts.", memory_type="critical_info"),
                    "Noted, I will remember your allergy.",
                ]
            )
            a = await build_agent_graph(mem, session("A"), first).ainvoke(
                {"messages": [HumanMessage("I'm allergic to peanuts, keep that in mind")]}
            )
            trace = a["messages"]
            assert [type(m) for m in trace] == [SystemMessage, HumanMessage, AIMessage, ToolMessage, AIMessage]
            assert trace[0].id == SYSTEM_MESSAGE_ID
            assert json.loads(trace[3].text)["success"]
            assert trace[3].artifact["memory"]["memory_type"] == "critical_info"
            assert trace[-1].text == "Noted, I will remember your allergy."
            assert first.tools_seen[0] == ["get_memory", "save_memory", "update_memory", "delete_memory"]
            logged = await mem.messages("ana", "A")
            assert [(m.role.value, m.content) for m in logged] == [
                ("user", "I'm allergic to peanuts, keep that in mind"),
                ("assistant", "Noted, I will remember your allergy."),
            ]
            await mem.flush()

            # Session 2, another thread: only long-term memory can know about the allergy.
            second = ScriptedToolChatModel(script=[peanut_aware])
            b = await build_agent_graph(mem, session("B"), second).ainvoke(
                {"messages": [HumanMessage("Can I order the chicken satay with peanut sauce?")]}
            )
            assert b["messages"][-1].text == "No: you are allergic to peanuts."
            assert "Ana is allergic to peanuts." in b["memory_context"]
            assert "Ana is allergic to peanuts." in second.calls[0][0].text
            assert [type(m) for m in second.calls[0]] == [SystemMessage, HumanMessage]
            assert b.get("memory_errors", []) == []

            # The same question from a user with no such memory gets the other answer.
            third = ScriptedToolChatModel(script=[peanut_aware])
            c = await build_agent_graph(mem, session("B", user="bob"), third).ainvoke(
                {"messages": [HumanMessage("Can I order the chicken satay with peanut sauce?")]}
            )
            assert c["messages"][-1].text == "Sure, enjoy the satay!"
        finally:
            await mem.close()

    run(main())


def test_chronological_get_memory_lists_newest_first(db_path):
    async def main():
        clock = FakeClock()
        mem = await open_memory(db_path, clock=clock)
        try:
            for fact in ("Ana started running.", "Ana ran a 10k.", "Ana signed up for a marathon."):
                await mem.remember("ana", fact, memory_type="goal")
                clock.advance(3600)

            def from_tool(messages):
                listed = json.loads(messages[-1].text)["memories"]
                return " | ".join(m["content"] for m in listed)

            model = ScriptedToolChatModel(script=[tool_call("get_memory", mode="chronological"), from_tool])
            out = await build_agent_graph(mem, session("A"), model, proactive_retrieval=False).ainvoke(
                {"messages": [HumanMessage("What have I been up to lately?")]}
            )
            assert out["messages"][-1].text == "Ana signed up for a marathon. | Ana ran a 10k. | Ana started running."
            assert out["memory_context"] == ""
            assert "What you remember" not in out["messages"][0].text  # no proactive recall
        finally:
            await mem.close()

    run(main())


def test_memory_failures_never_break_the_answer(db_path):
    async def main():
        mem = await open_memory(db_path)
        await mem.close()  # every memory call now fails
        model = ScriptedToolChatModel(script=["Hello! How can I help?"])
        out = await build_agent_graph(mem, session("A"), model).ainvoke({"messages": [HumanMessage("hi there")]})
        assert out["messages"][-1].text == "Hello! How can I help?"
        assert [e.split(":")[0] for e in out["memory_errors"]] == ["load_memory", "persist_memory"]
        assert out["messages"][0].id == SYSTEM_MESSAGE_ID  # the system prompt is there, without memory
        assert "What you remember" not in out["messages"][0].text

    run(main())


def test_feature_flags_choose_the_layers(db_path):
    async def main():
        mem = await open_memory(db_path, summarization_threshold=2, summary_keep_recent=1)
        try:
            await mem.remember("ana", "Ana is vegetarian.", memory_type="constraint", thread_id="A")
            await mem.add(
                "ana",
                "A",
                [
                    {"role": "user", "content": "Book a vegetarian dinner in Porto on Friday"},
                    {"role": "assistant", "content": "Booked a vegetarian dinner in Porto for Friday."},
                    {"role": "user", "content": "And a dinner table for two"},
                ],
            )
            await mem.add("ana", "B", [{"role": "user", "content": "Dinner plans for Porto with friends"}])
            await mem.flush()

            async def context(thread: str, **flags) -> str:
                return await load_context(mem, session(thread), "vegetarian dinner in Porto", MemoryFlags(**flags))

            full = await context("B")
            assert "## Known facts" in full and "Ana is vegetarian." in full
            assert "## Relevant memories" in full and "conversation A" in full
            assert "## Recent messages" in full and "Dinner plans for Porto" in full

            assert "## Known facts" not in await context("B", entities=False)
            no_vectors = await context("B", vectors=False)
            assert "Ana is vegetarian." in no_vectors and "## Relevant memories" not in no_vectors
            own_thread = await context("B", cross_thread=False)
            assert "conversation A" not in own_thread and "Ana is vegetarian." not in own_thread
            assert "Dinner plans for Porto" in own_thread
            assert "## Recent messages" not in await context("B", recent=False)

            in_a = await context("A")
            assert "## Summary of this conversation" in in_a
            assert "## Summary of this conversation" not in await context("A", summaries=False)
            bare = await context("A", summaries=False, recent=False, vectors=False, entities=False)
            assert bare == ""
        finally:
            await mem.close()

    run(main())


def test_a_sync_memory_runs_the_graph_with_invoke(db_path):
    with Memory.open(db_path, embedder=FakeEmbedder(), extraction=False, llm=None) as mem:
        model = ScriptedToolChatModel(
            script=[
                tool_call("save_memory", content="Ana's cat is called Miso.", memory_type="entity"),
                "Miso is a lovely name.",
            ]
        )
        out = build_agent_graph(mem, session("A"), model).invoke({"messages": [HumanMessage("My cat is Miso")]})
        assert out["messages"][-1].text == "Miso is a lovely name."
        assert [m.content for m in mem.list("ana", kind="fact")] == ["Ana's cat is called Miso."]
        assert len(mem.messages("ana", "A")) == 2


def test_tool_rounds_are_capped_then_the_model_answers_without_tools(db_path):
    async def main():
        mem = await open_memory(db_path)
        try:
            lookup = tool_call("get_memory", mode="chronological")
            model = ScriptedToolChatModel(script=[lookup, lookup, "I found nothing."])
            out = await build_agent_graph(mem, session("A"), model, max_tool_rounds=2).ainvoke(
                {"messages": [HumanMessage("what do you know?")]}
            )
            assert out["messages"][-1].text == "I found nothing."
            assert [bool(t) for t in model.tools_seen] == [True, True, False]
            assert model.remaining == 0
        finally:
            await mem.close()

    run(main())


def test_with_a_checkpointer_the_system_prompt_is_replaced_and_turns_stored_once(db_path):
    async def main():
        mem = await open_memory(db_path)
        try:
            model = ScriptedToolChatModel(script=["Hi Ana.", "Still here."])
            graph = build_agent_graph(mem, session("A"), model, flags=MemoryFlags(recent=False))
            graph = graph.builder.compile(checkpointer=InMemorySaver())
            config = {"configurable": {"thread_id": "A"}}
            await graph.ainvoke({"messages": [HumanMessage("hello")]}, config)
            out = await graph.ainvoke({"messages": [HumanMessage("are you there?")]}, config)
            kinds = [m.type for m in out["messages"]]
            assert kinds == ["system", "human", "ai", "human", "ai"]
            logged = [m.content for m in await mem.messages("ana", "A")]
            assert logged == ["hello", "Hi Ana.", "are you there?", "Still here."]
        finally:
            await mem.close()

    run(main())


# -- run_chat ------------------------------------------------------------------------------------
def test_run_chat_without_a_model_shows_the_memory_and_stores_the_turn(db_path):
    async def main():
        mem = await open_memory(db_path)
        try:
            await mem.remember("ana", "Ana lives in Lisbon.", memory_type="user_profile")
            await mem.flush()
            reply = await run_chat(mem, session("A"), "Where do I live?")
            assert reply.answer is None and not reply.llm_configured
            assert "HIPOCAMPO_LLM=openai:gpt-4o-mini" in reply.notice and "HIPOCAMPO_LLM_BASE_URL" in reply.notice
            assert "Ana lives in Lisbon." in reply.memory_context
            assert reply.memory_context in reply.system_prompt
            assert [m["role"] for m in reply.messages] == ["system", "user"]
            assert [m.content for m in await mem.messages("ana", "A")] == ["Where do I live?"]
            json.dumps(reply.model_dump(mode="json"))
        finally:
            await mem.close()

    run(main())


def test_a_model_that_cannot_be_built_is_explained_not_raised():
    with pytest.raises(ValueError, match="must be 'provider:model'"):
        Settings(llm="nonsense")  # refused at start-up now; settings built around validation still get a notice
    model, notice = chat_model_from_config(Settings.model_construct(llm="nonsense"))
    assert model is None and "HIPOCAMPO_LLM=nonsense cannot be used" in notice
    model, notice = chat_model_from_config(Settings(llm=None))
    assert model is None and "HIPOCAMPO_LLM is unset" in notice


def test_run_chat_with_a_model_returns_the_trace_and_tool_calls(db_path):
    async def main():
        mem = await open_memory(db_path)
        try:
            model = ScriptedToolChatModel(
                script=[
                    tool_call("save_memory", content="Ana prefers window seats.", memory_type="preference"),
                    "Window seat it is.",
                ]
            )
            reply = await run_chat(mem, session("A"), "I always want a window seat", chat_model=model)
            assert reply.answer == "Window seat it is." and reply.llm_configured and reply.notice is None
            assert [m["role"] for m in reply.messages] == ["system", "user", "assistant", "tool", "assistant"]
            (call,) = reply.tool_calls
            assert call["name"] == "save_memory" and call["result"]["success"]
            json.dumps(reply.model_dump(mode="json"))

            with pytest.raises(LLMError, match="chat model failed"):
                await run_chat(mem, session("A"), "again?", chat_model=ScriptedToolChatModel(script=[RuntimeError]))
        finally:
            await mem.close()

    run(main())


def test_the_scripted_model_plays_its_steps_in_order():
    model = ScriptedToolChatModel(
        script=[
            "hello",
            [tool_call("get_memory", mode="semantic", query="x"), tool_call("delete_memory", memory_id="m1")],
            ValueError("down"),
        ]
    )
    assert model.invoke("hi").text == "hello"
    calls = model.invoke("again").tool_calls
    assert [(c["name"], c["args"]) for c in calls] == [
        ("get_memory", {"mode": "semantic", "query": "x"}),
        ("delete_memory", {"memory_id": "m1"}),
    ]
    assert len({c["id"] for c in calls}) == 2
    with pytest.raises(ValueError, match="down"):
        model.invoke("and?")
    with pytest.raises(ScriptExhausted):
        model.invoke("more?")
    assert [m[0].text for m in model.calls] == ["hi", "again", "and?", "more?"]
