"""Which turns ``with_memory`` stores: every exchange exactly once, whether the app resends its
conversation or sends only its new message, with a thread or without one. Real ``openai`` client,
the OpenAI-compatible server on loopback (tests/openai_stub.py), a real store on each backend."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import openai
import pytest
from openai_stub import ChatStub, answer_for, chat_stub

from hipocampo import Memory
from hipocampo.integrations import with_memory

pytestmark = pytest.mark.backends()

SYSTEM = {"role": "system", "content": "You are a booking assistant."}
EXCHANGES = ["Book a table for two on Friday", "yes", "Also add a cake", "yes", "thanks", "thanks"]


@pytest.fixture(scope="module")
def stub() -> Iterator[ChatStub]:
    with chat_stub() as server:
        yield server


@pytest.fixture
def mem(db_path: str) -> Iterator[Memory]:
    with Memory.open(db_path, embedder="fake") as m:
        yield m


def llm(stub: ChatStub) -> openai.OpenAI:
    return openai.OpenAI(base_url=stub.url, api_key="test", max_retries=0)


def user(text: str) -> dict[str, str]:
    return {"role": "user", "content": text}


def said(mem: Memory, user_id: str, thread: str) -> list[tuple[str, str]]:
    return [(m.role.value, m.content) for m in mem.messages(user_id, thread)]


def test_an_app_that_sends_only_its_new_message_keeps_every_exchange(stub: ChatStub, mem: Memory) -> None:
    client = with_memory(llm(stub), user_id="ana", memory=mem, thread_id="booking")
    expected: list[tuple[str, str]] = []
    for text in EXCHANGES:
        reply = client.chat.completions.create(model="stub-1", messages=[SYSTEM, user(text)])
        expected += [("user", text), ("assistant", reply.choices[0].message.content or "")]
    # Before: 8 of 12, the second "yes" and the second "thanks" lost with their answers.
    assert said(mem, "ana", "booking") == expected
    assert len(expected) == 12


def test_an_app_that_resends_its_conversation_keeps_every_exchange_and_a_resent_call_adds_nothing(
    stub: ChatStub, mem: Memory
) -> None:
    client = with_memory(llm(stub), user_id="ana", memory=mem, thread_id="booking")
    history: list[dict[str, str]] = [SYSTEM]
    for text in EXCHANGES:
        history.append(user(text))
        reply = client.chat.completions.create(model="stub-1", messages=history)
        if text == "thanks":  # the same request sent again (a retry, a regenerated answer): nothing new
            client.chat.completions.create(model="stub-1", messages=history)
        history.append({"role": "assistant", "content": reply.choices[0].message.content or ""})
    assert said(mem, "ana", "booking") == [(m["role"], m["content"]) for m in history[1:]]


def test_thread_less_conversations_that_open_alike_each_keep_their_exchanges(stub: ChatStub, mem: Memory) -> None:
    client = with_memory(llm(stub), user_id="ana", memory=mem)
    # Two conversations open with "hi"; their answers differ (the stub answers from the system prompt).
    a_sys, b_sys = SYSTEM, {"role": "system", "content": "Mind the peanut allergy."}
    a_first, b_first = [a_sys, user("hi")], [b_sys, user("hi")]
    a_said = client.chat.completions.create(model="stub-1", messages=a_first).choices[0].message.content or ""
    b_said = client.chat.completions.create(model="stub-1", messages=b_first).choices[0].message.content or ""
    assert a_said != b_said
    a_next = [*a_first, {"role": "assistant", "content": a_said}, user("I'm Ana")]
    b_next = [*b_first, {"role": "assistant", "content": b_said}, user("I'm Bia")]
    a_reply = client.chat.completions.create(model="stub-1", messages=a_next).choices[0].message.content
    b_reply = client.chat.completions.create(model="stub-1", messages=b_next).choices[0].message.content
    threads = mem.threads("ana")
    assert len(threads) == 2 and all(t.startswith("chat-") for t in threads)
    logs = sorted(said(mem, "ana", t) for t in threads)
    assert logs == sorted(
        [
            [("user", "hi"), ("assistant", a_said), ("user", "I'm Ana"), ("assistant", a_reply)],
            [("user", "hi"), ("assistant", b_said), ("user", "I'm Bia"), ("assistant", b_reply)],
        ]
    )

    # Conversations alike in their whole first exchange cannot be told apart: they share a thread,
    # and both exchanges are kept.
    other = with_memory(llm(stub), user_id="carla", memory=mem)
    for _ in range(2):
        other.chat.completions.create(model="stub-1", messages=[SYSTEM, user("hi")])
    (thread,) = mem.threads("carla")
    answer = answer_for([SYSTEM, user("hi")])
    assert said(mem, "carla", thread) == [("user", "hi"), ("assistant", answer)] * 2


def test_a_thread_less_message_only_app_keeps_repeated_messages(stub: ChatStub, mem: Memory) -> None:
    async def main() -> None:
        client = with_memory(
            openai.AsyncOpenAI(base_url=stub.url, api_key="test", max_retries=0), user_id="ana", memory=mem
        )
        for text in ("thanks", "thanks"):
            stream = await client.chat.completions.create(model="stub-1", messages=[user(text)], stream=True)
            assert "".join([c.choices[0].delta.content or "" async for c in stream]) == answer_for([user(text)])

    asyncio.run(main())
    stored = [turn for t in mem.threads("ana") for turn in said(mem, "ana", t)]
    assert stored == [("user", "thanks"), ("assistant", answer_for([user("thanks")]))] * 2


def test_a_langchain_model_keeps_repeated_messages_too(stub: ChatStub, mem: Memory) -> None:
    from langchain_openai import ChatOpenAI

    base = ChatOpenAI(model="stub-1", base_url=stub.url, api_key="test", max_retries=0)  # type: ignore[arg-type]
    model = with_memory(base, user_id="ana", memory=mem)
    config = {"configurable": {"thread_id": "lc"}}
    replies = [model.invoke("yes", config=config).text, "".join(c.text for c in model.stream("yes", config=config))]
    assert said(mem, "ana", "lc") == [
        ("user", "yes"),
        ("assistant", replies[0]),
        ("user", "yes"),
        ("assistant", replies[1]),
    ]
