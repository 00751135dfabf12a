"""The issue's "done means", as a new user lives it, with real processes: create a tenant and keys
with the CLI, run ``hipocampo serve``, then write, recall, curate and delete over plain HTTP (what
curl sends), through an MCP client at ``/mcp`` and through a LangGraph agent using the service;
another tenant sees none of it, and a revoked key stops working."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from hipocampo.agent import SessionConfig
from hipocampo.agent.langgraph import build_agent_graph
from hipocampo.agent.remote import RemoteAgentMemory
from hipocampo.agent.scripted_chat import ScriptedToolChatModel, tool_call

pytestmark = pytest.mark.backends()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(cli_command, process) -> Iterator[tuple[str, dict[str, str], Callable[..., Any]]]:
    for tenant in ("acme", "globex"):
        assert process("tenants", "create", tenant).returncode == 0
    tokens = {}
    for tenant in ("acme", "globex"):
        made = process("keys", "create", "--tenant", tenant)
        assert made.returncode == 0, made.stderr
        tokens[tenant] = made.stdout.strip()  # the token alone on stdout, so $(...) captures it
        assert tokens[tenant].startswith("hk_") and "\n" not in tokens[tenant]
    port = free_port()
    proc = subprocess.Popen(
        [*cli_command, "serve", "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read() if proc.stdout else ""
        time.sleep(0.2)
    try:
        yield url, tokens, process
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0  # a clean shutdown: the store closed, worker stopped


def wait_for(check, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.2)


def test_a_new_user_serves_writes_recalls_curates_and_deletes_their_own_memories(server) -> None:
    url, tokens, process = server
    acme = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {tokens['acme']}"}, timeout=30)
    globex = httpx.Client(base_url=url, headers={"X-API-Key": tokens["globex"]}, timeout=30)

    # curl: write turns, then recall them from another thread once indexed.
    said = {"messages": [{"role": "user", "content": "I live in Porto and I'm allergic to peanuts", "id": "m1"}]}
    assert acme.post("/v1/users/ana/threads/t1/messages", json=said).status_code == 201

    def recalled():
        answer = acme.post("/v1/users/ana/recall", json={"thread_id": "t2", "query": "where does Ana live?"})
        return "Porto" in answer.json()["context"] and answer.json()

    assert wait_for(recalled)

    # curl: curate a fact: save, edit (with history), delete.
    fact_in = {"content": "Ana prefers aisle seats", "memory_type": "preference"}
    saved = acme.post("/v1/users/ana/memories", json=fact_in)
    assert saved.status_code == 201
    fact = saved.json()["id"]
    assert acme.patch(f"/v1/users/ana/memories/{fact}", json={"content": "Ana prefers window seats"}).status_code == 200
    history = acme.get(f"/v1/users/ana/memories/{fact}/history").json()
    assert [e["new_content"] for e in history["history"]][-1] == "Ana prefers window seats"

    # The other tenant: same user id, nothing of acme's, by any id.
    assert globex.get(f"/v1/users/ana/memories/{fact}").status_code == 404
    assert globex.get("/v1/users/ana/threads/t1/messages").status_code in (200, 404)
    assert "Porto" not in globex.get("/v1/users/ana/threads/t1/messages").text
    assert globex.delete(f"/v1/users/ana/memories/{fact}").status_code == 404
    assert acme.delete(f"/v1/users/ana/memories/{fact}").status_code == 200
    assert acme.get(f"/v1/users/ana/memories/{fact}").status_code == 404

    # An MCP client at /mcp, as the key's tenant.
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async def mcp_call(tenant: str, tool: str, **arguments):
        headers = {"Authorization": f"Bearer {tokens[tenant]}", "X-Hipocampo-User": "ana"}
        transport = streamable_http_client(f"{url}/mcp", http_client=create_mcp_http_client(headers=headers))
        async with Client(transport) as client:
            return (await client.call_tool(tool, arguments)).structured_content or {}

    async def over_mcp() -> None:
        saved = await mcp_call("acme", "save_memory", content="Ana is training for a marathon", memory_type="goal")
        assert saved["success"]
        listed = await mcp_call("acme", "get_memory", mode="chronological", memory_type="goal")
        assert [m["content"] for m in listed["memories"]] == ["Ana is training for a marathon"]
        assert (await mcp_call("globex", "get_memory", mode="chronological"))["memories"] == []
        assert (await mcp_call("acme", "delete_memory", memory_id=saved["memory_id"]))["success"]

    asyncio.run(over_mcp())

    # A LangGraph agent whose memory is the service: its answer depends on what was said in t1.
    def informed(messages):
        assert isinstance(messages[0], SystemMessage)
        return "Skip the satay: peanuts." if "peanut" in messages[0].text else "Enjoy the satay!"

    async def agent(token: str) -> str:
        async with RemoteAgentMemory(url, token) as memory:
            session = SessionConfig(user_id="ana", thread_id="t3")
            model = ScriptedToolChatModel(script=[tool_call("get_memory", mode="chronological"), informed])
            state = await build_agent_graph(memory, session, model).ainvoke(
                # "eat" asks about food, which the allergy speaks of: the context holds what relates,
                # and a bag-of-words test embedder cannot know that satay is made with peanuts.
                {"messages": [HumanMessage("Can I eat the satay?")]}
            )
            return state["messages"][-1].text

    assert asyncio.run(agent(tokens["acme"])) == "Skip the satay: peanuts."
    assert asyncio.run(agent(tokens["globex"])) == "Enjoy the satay!"

    # Forget the conversation (the compatible memory API's route), then revoke the key.
    assert acme.delete("/api/v1/memory/t1", params={"user_id": "ana"}).status_code == 200
    assert acme.get("/api/v1/memory/t1", params={"user_id": "ana"}).status_code == 404
    key_id = tokens["acme"].split("_")[1]
    assert process("keys", "revoke", key_id).returncode == 0
    refused = acme.get("/v1/users")
    assert refused.status_code == 401 and refused.json()["error"] == "unauthorized"
    acme.close()
    globex.close()
