"""``with_memory`` with its memory in a real ``hipocampo serve`` process (API key, its own worker),
the chat calls going to an OpenAI-compatible server on loopback (tests/openai_stub.py)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator

import httpx
import openai
import pytest
from openai_stub import ChatStub, answer_for, chat_stub
from serve_process import ServeProcess, serve_process

from hipocampo.agent.remote import RemoteAgentMemory
from hipocampo.integrations import MEMORY_HEADER, with_memory

pytestmark = pytest.mark.slow

ALLERGY = "I'm allergic to peanuts, keep that in mind"
QUESTION = "Can I order the satay with peanut sauce?"


@pytest.fixture
def stub() -> Iterator[ChatStub]:
    with chat_stub() as server:
        yield server


@pytest.fixture
def service(cli, cli_command: list[str]) -> Iterator[tuple[ServeProcess, str]]:
    cli("tenants", "create", "acme")
    token = cli.json("keys", "create", "--tenant", "acme")["token"]
    with serve_process(cli_command) as server:
        yield server, token


def user(text: str) -> dict[str, str]:
    return {"role": "user", "content": text}


def test_memory_in_a_hipocampo_service(
    stub: ChatStub, service: tuple[ServeProcess, str], caplog: pytest.LogCaptureFixture
) -> None:
    server, token = service
    api = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    llm = openai.OpenAI(base_url=stub.url, api_key="test", max_retries=0)
    client = with_memory(llm, user_id="ana", memory=server.url, memory_api_key=token)

    first = [user(ALLERGY)]
    reply = client.chat.completions.create(model="stub-1", messages=first, thread_id="t1")
    logged = api.get("/v1/users/ana/threads/t1/messages").json()["messages"]
    assert [m["content"] for m in logged] == [ALLERGY, reply.choices[0].message.content]

    # The service's worker indexes the turns in the background: wait until they can be recalled.
    deadline = time.monotonic() + 60
    while "peanut" not in api.post("/v1/users/ana/recall", json={"query": QUESTION}).json()["context"]:
        assert time.monotonic() < deadline, "the service never indexed the turns"
        time.sleep(0.2)

    later = client.chat.completions.create(model="stub-1", messages=[user(QUESTION)], thread_id="t2")
    assert "peanut" in stub.system_prompt().split(MEMORY_HEADER)[1]
    assert later.choices[0].message.content.startswith("knows: peanuts")

    # A call that resends its conversation: the service leaves the thread's recent turns out.
    resent = [*first, {"role": "assistant", "content": reply.choices[0].message.content}, user(QUESTION)]
    client.chat.completions.create(model="stub-1", messages=resent, thread_id="t1")
    assert ALLERGY not in stub.system_prompt()
    client.chat.completions.create(model="stub-1", messages=[user(QUESTION)], thread_id="t1")
    assert ALLERGY in stub.system_prompt().split(MEMORY_HEADER)[1]  # only the new message: the window

    async def streamed() -> str:
        aclient = with_memory(
            openai.AsyncOpenAI(base_url=stub.url, api_key="test", max_retries=0),
            user_id="ana",
            memory=server.url,
            memory_api_key=token,
            token_budget=100,
        )
        async with aclient:
            stream = await aclient.chat.completions.create(
                model="stub-1", messages=[user(QUESTION)], thread_id="t3", stream=True
            )
            return "".join([c.choices[0].delta.content or "" async for c in stream])

    text = asyncio.run(streamed())
    assert text.startswith("knows: peanuts")
    assert [m["content"] for m in api.get("/v1/users/ana/threads/t3/messages").json()["messages"]] == [QUESTION, text]

    # A refused key costs the memory, never the answer.
    wrong = with_memory(llm, user_id="ana", memory=server.url, memory_api_key="hk_nope_nope")
    with caplog.at_level(logging.WARNING, logger="hipocampo.integrations"):
        assert wrong.chat.completions.create(model="stub-1", messages=[user(QUESTION)]).choices[
            0
        ].message.content == answer_for([user(QUESTION)])
    assert any("recall failed" in r.message for r in caplog.records)
    client.close()
    wrong.close()
    api.close()


class LosesFirstAnswer(httpx.AsyncHTTPTransport):
    """A network that delivers the first store request to the service and then loses its answer,
    as a timeout after the service committed does: the client retries the same request."""

    def __init__(self) -> None:
        super().__init__()
        self.stores = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        if request.method == "POST" and request.url.path.endswith("/messages"):
            self.stores += 1
            if self.stores == 1:
                await response.aread()
                raise httpx.ReadTimeout("the answer was lost", request=request)
        return response


@pytest.mark.backends()
def test_a_repeated_message_is_a_new_turn_and_a_retried_store_is_kept_once(
    stub: ChatStub, service: tuple[ServeProcess, str]
) -> None:
    server, token = service
    api = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    llm = openai.OpenAI(base_url=stub.url, api_key="test", max_retries=0)
    network = LosesFirstAnswer()
    remote = RemoteAgentMemory(
        server.url, token, retries=1, backoff=0, http_client=httpx.AsyncClient(transport=network)
    )
    client = with_memory(llm, user_id="ana", thread_id="t", memory=remote)
    replies = [client.chat.completions.create(model="stub-1", messages=[user(text)]) for text in ("yes", "yes")]
    assert network.stores == 3  # the first store was sent twice
    logged = [m["content"] for m in api.get("/v1/users/ana/threads/t/messages").json()["messages"]]
    assert logged == ["yes", replies[0].choices[0].message.content, "yes", replies[1].choices[0].message.content]
    client.close()
    api.close()
