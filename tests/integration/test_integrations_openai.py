"""``with_memory`` around the real ``openai`` client, against an OpenAI-compatible server on
loopback (tests/openai_stub.py), with the memory in a real SQLite file and the fake embedder."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest
from openai_stub import ChatStub, answer_for, chat_stub
from pydantic import BaseModel

from hipocampo import AsyncMemory, Memory
from hipocampo.adapters.tokenizers import TiktokenTokenizer
from hipocampo.integrations import MEMORY_HEADER, with_memory

SYSTEM = {"role": "system", "content": "You are terse."}
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


def llm(stub: ChatStub) -> openai.OpenAI:
    return openai.OpenAI(base_url=stub.url, api_key="test", max_retries=0)


def allm(stub: ChatStub) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=stub.url, api_key="test", max_retries=0)


def user(text: str) -> dict[str, str]:
    return {"role": "user", "content": text}


def contents(mem: Memory, user_id: str, thread: str) -> list[tuple[str, str]]:
    return [(m.role.value, m.content) for m in mem.messages(user_id, thread)]


def test_turns_are_stored_once_and_a_new_thread_recalls_them(stub: ChatStub, mem: Memory) -> None:
    client = with_memory(llm(stub), user_id="ana", memory=mem)
    first = [SYSTEM, user(ALLERGY)]
    reply = client.chat.completions.create(model="stub-1", messages=first, thread_id="t1")
    said = reply.choices[0].message.content
    assert said == answer_for(first)  # nothing remembered yet: nothing injected
    assert stub.system_prompt() == "You are terse."
    assert contents(mem, "ana", "t1") == [("user", ALLERGY), ("assistant", said)]

    # The next call resends the history: only its new turns are stored; a retry stores nothing.
    second = [*first, {"role": "assistant", "content": said}, user("Thanks!")]
    client.chat.completions.create(model="stub-1", messages=second, thread_id="t1")
    client.chat.completions.create(model="stub-1", messages=second, thread_id="t1")
    assert [c for _, c in contents(mem, "ana", "t1")][:3] == [ALLERGY, said, "Thanks!"]
    assert len(contents(mem, "ana", "t1")) == 4
    assert all(m.external_id.startswith("chat-") for m in mem.messages("ana", "t1"))
    assert "Thanks!" not in (stub.requests[-1]["messages"][0]["content"].split(MEMORY_HEADER)[0])

    mem.flush()  # the worker indexes the turns and extracts the allergy
    later = client.chat.completions.create(model="stub-1", messages=[SYSTEM, user(QUESTION)], thread_id="t2")
    system = stub.system_prompt()
    assert system.startswith("You are terse.\n\n" + MEMORY_HEADER)  # the app's prompt stays first
    assert "peanut" in system.split(MEMORY_HEADER)[1]
    assert later.choices[0].message.content.startswith("knows: peanuts")
    assert stub.requests[-1]["messages"][1:] == [user(QUESTION)]  # the rest of the request is untouched


def test_a_call_that_carries_its_history_is_not_shown_it_twice(stub: ChatStub, mem: Memory) -> None:
    client = with_memory(llm(stub), user_id="ana", memory=mem)
    first = [SYSTEM, user(ALLERGY)]
    said = client.chat.completions.create(model="stub-1", messages=first, thread_id="t1").choices[0].message.content
    mem.flush()

    # Resending the conversation: its turns are before the model already, so the context shows
    # them neither as the recent window nor among the memories (here it is left empty).
    history = [*first, {"role": "assistant", "content": said}, user(QUESTION)]
    client.chat.completions.create(model="stub-1", messages=history, thread_id="t1")
    system = stub.system_prompt()
    assert "## Recent messages" not in system and ALLERGY not in system and said not in system

    # Sending only the new message: the thread's recent turns are the model's only view of them.
    client.chat.completions.create(model="stub-1", messages=[SYSTEM, user(QUESTION)], thread_id="t1")
    context = stub.system_prompt().split(MEMORY_HEADER)[1]
    assert "## Recent messages" in context and ALLERGY in context


def test_the_context_keeps_to_the_token_budget(stub: ChatStub, mem: Memory) -> None:
    mem.add("ana", "old", [ALLERGY, *[f"Note {i}: I keep {i} jars of peanut butter at home" for i in range(40)]])
    mem.flush()
    tokens = TiktokenTokenizer()  # the store's tokenizer (cl100k, the default)
    sizes = {}
    for budget in (80, 2000):
        client = with_memory(llm(stub), user_id="ana", memory=mem, token_budget=budget)
        client.chat.completions.create(model="stub-1", messages=[user(QUESTION)], thread_id=f"b{budget}")
        context = stub.system_prompt().split(MEMORY_HEADER)[1].strip()
        assert "peanut" in context
        sizes[budget] = tokens.count(context)
    assert sizes[80] <= 80 < sizes[2000] <= 2000


def test_streams_pass_chunks_through_and_store_the_whole_reply(stub: ChatStub, mem: Memory) -> None:
    plain = llm(stub).chat.completions.create(model="stub-1", messages=[user("Hello there")], stream=True)
    expected = [c.choices[0].delta.content for c in plain]
    client = with_memory(llm(stub), user_id="ana", memory=mem)
    stream = client.chat.completions.create(model="stub-1", messages=[user("Hello there")], stream=True, thread_id="s")
    chunks = list(stream)
    assert all(isinstance(c, openai.types.chat.ChatCompletionChunk) for c in chunks)
    assert [c.choices[0].delta.content for c in chunks] == expected
    assert contents(mem, "ana", "s") == [("user", "Hello there"), ("assistant", "".join(filter(None, expected)))]

    # Closed early: what arrived is stored, marked incomplete.
    with client.chat.completions.create(model="stub-1", messages=[user("Stop me")], stream=True, thread_id="e") as s:
        got = [next(s).choices[0].delta.content for _ in range(3)]
    stored = mem.messages("ana", "e")
    assert [m.content for m in stored] == ["Stop me", "".join(filter(None, got))]
    assert stored[1].metadata["incomplete"] is True

    # A stream the server breaks raises, as without memory, and stores nothing.
    with pytest.raises(openai.APIError):
        list(client.chat.completions.create(model="break", messages=[user("Break")], stream=True, thread_id="x"))
    assert mem.messages("ana", "x") == []


def test_async_client_with_streams(stub: ChatStub, mem: Memory) -> None:
    async def main() -> None:
        async with with_memory(allm(stub), user_id="ana", memory=mem) as client:
            reply = await client.chat.completions.create(
                model="stub-1", messages=[SYSTEM, user(ALLERGY)], thread_id="a1"
            )
            stream = await client.chat.completions.create(
                model="stub-1", messages=[user("And dessert?")], stream=True, thread_id="a2"
            )
            text = "".join([c.choices[0].delta.content or "" async for c in stream])
            assert text == answer_for([user("And dessert?")])
            assert [m.content for m in mem.messages("ana", "a1")] == [ALLERGY, reply.choices[0].message.content]
            assert [m.content for m in mem.messages("ana", "a2")] == ["And dessert?", text]

            mem.flush()
            stream = await client.chat.completions.create(
                model="stub-1", messages=[user(QUESTION)], stream=True, thread_id="a3"
            )
            text = "".join([c.choices[0].delta.content or "" async for c in stream])
            assert text.startswith("knows: peanuts") and MEMORY_HEADER in stub.system_prompt()
            models = await client.models.list()
            assert [m.id async for m in models] == ["stub-1"]

    asyncio.run(main())


def test_an_async_memory_serves_an_async_client(stub: ChatStub, tmp_path: Path) -> None:
    async def main() -> None:
        async with await AsyncMemory.open(str(tmp_path / "a.db"), embedder="fake") as amem:
            client = with_memory(allm(stub), user_id="ana", memory=amem)
            await client.chat.completions.create(model="stub-1", messages=[user(ALLERGY)], thread_id="t")
            await amem.flush()
            await client.chat.completions.create(model="stub-1", messages=[user(QUESTION)], thread_id="u")
            assert "peanut" in stub.system_prompt().split(MEMORY_HEADER)[1]
            await client.close()  # closes the client, not the memory passed in
            assert len(await amem.messages("ana", "t")) == 2

    asyncio.run(main())


def test_whose_memory_a_call_uses(stub: ChatStub, mem: Memory, caplog: pytest.LogCaptureFixture) -> None:
    mem.add("ana", "t0", [ALLERGY])
    mem.flush()
    client = with_memory(llm(stub), memory=mem)

    # No user anywhere: no memory, the call goes through, one warning for the wrapper.
    with caplog.at_level(logging.WARNING, logger="hipocampo.integrations"):
        for _ in range(2):
            client.chat.completions.create(model="stub-1", messages=[user(QUESTION)])
    assert stub.system_prompt() == ""
    assert len([r for r in caplog.records if "named no user" in r.message]) == 1

    # Per-call arguments never reach the API; metadata and the OpenAI `user` field name users too.
    client.chat.completions.create(model="stub-1", messages=[user(QUESTION)], user_id="ana", thread_id="c")
    assert "user_id" not in stub.requests[-1] and "thread_id" not in stub.requests[-1]
    assert "peanut" in stub.system_prompt()
    meta = {"user_id": "bia", "thread_id": "m"}
    client.chat.completions.create(model="stub-1", messages=[user(QUESTION)], metadata=meta)
    assert stub.requests[-1]["metadata"] == meta  # a field of the API: passed on as given
    assert "peanut" not in stub.system_prompt()  # bia never sees ana's memory
    client.chat.completions.create(model="stub-1", messages=[user("Hi, I am Dora")], user="dora")
    assert [m.content for m in mem.messages("bia", "m")][0] == QUESTION
    dora_threads = mem.threads("dora")
    assert len(dora_threads) == 1 and dora_threads[0].startswith("chat-")  # named after its first exchange

    # Most specific first: the call's argument, then metadata, then the wrapper's, then `user`.
    bound = with_memory(llm(stub), memory=mem, user_id="ana", thread_id="bound")
    bound.chat.completions.create(model="stub-1", messages=[user("one")], user_id="carla", metadata=meta, user="x")
    bound.chat.completions.create(model="stub-1", messages=[user("two")], metadata=meta, user="x")
    bound.chat.completions.create(model="stub-1", messages=[user("three")], user="x")
    assert [m.content for m in mem.messages("carla", "m")][0] == "one"
    assert [m.content for m in mem.messages("bia", "m")][-2] == "two"
    assert [m.content for m in mem.messages("ana", "bound")][0] == "three"
    assert mem.threads("x") == []


def test_memory_failures_never_break_the_call(stub: ChatStub, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    mem = Memory.open(str(tmp_path / "gone.db"), embedder="fake")
    client = with_memory(llm(stub), user_id="ana", memory=mem)
    mem.close()  # the store goes away under the wrapper
    unreachable = with_memory(llm(stub), user_id="ana", memory="http://127.0.0.1:9/", memory_timeout=3)
    with caplog.at_level(logging.WARNING, logger="hipocampo.integrations"):
        for c in (client, unreachable):
            reply = c.chat.completions.create(model="stub-1", messages=[SYSTEM, user(ALLERGY)], thread_id="t")
            assert reply.choices[0].message.content == answer_for([SYSTEM, user(ALLERGY)])
            assert stub.system_prompt() == "You are terse."
            chunks = list(c.chat.completions.create(model="stub-1", messages=[user("Hi")], stream=True))
            assert "".join(ch.choices[0].delta.content or "" for ch in chunks) == answer_for([user("Hi")])
    failures = [r.message for r in caplog.records if "goes on without it" in r.message]
    assert any("recall" in f for f in failures) and any("store" in f for f in failures)
    unreachable.close()


def test_a_failed_chat_call_propagates_and_stores_nothing(stub: ChatStub, mem: Memory) -> None:
    client = with_memory(llm(stub), user_id="ana", memory=mem)
    with pytest.raises(openai.BadRequestError, match="refuses"):
        client.chat.completions.create(model="fail", messages=[user(ALLERGY)], thread_id="f")

    async def main() -> None:
        aclient = with_memory(allm(stub), user_id="ana", memory=mem)
        with pytest.raises(openai.BadRequestError):
            await aclient.chat.completions.create(model="fail", messages=[user(ALLERGY)], thread_id="f")

    asyncio.run(main())
    assert mem.threads("ana") == []


def test_everything_else_passes_through(stub: ChatStub, mem: Memory) -> None:
    client = with_memory(llm(stub), user_id="ana", memory=mem)
    assert [m.id for m in client.models.list()] == ["stub-1"]
    assert client.base_url == llm(stub).base_url
    quick = client.with_options(timeout=5)
    quick.chat.completions.create(model="stub-1", messages=[user("Quick one")], thread_id="q")
    assert [m.content for m in mem.messages("ana", "q")][0] == "Quick one"
    parts: Any = [{"type": "text", "text": "Parts"}, {"type": "text", "text": "work too"}]
    client.chat.completions.create(model="stub-1", messages=[{"role": "user", "content": parts}], thread_id="p")
    assert mem.messages("ana", "p")[0].content == "Parts\nwork too"


def test_structured_output_through_parse(stub: ChatStub, mem: Memory) -> None:
    class Answer(BaseModel):
        answer: str

    client = with_memory(llm(stub), user_id="ana", memory=mem)
    parsed = client.chat.completions.parse(
        model="stub-1", messages=[user(ALLERGY)], response_format=Answer, thread_id="j"
    )
    answer = parsed.choices[0].message.parsed
    assert isinstance(answer, Answer) and answer.answer == answer_for([user(ALLERGY)])
    assert [m.content for m in mem.messages("ana", "j")] == [ALLERGY, parsed.choices[0].message.content]
