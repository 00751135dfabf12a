"""User ids with a ``/``, through real HTTP on loopback, on every backend.

The tools, MCP and the query-string routes used to store data for a user "sl/ash", which
``GET /v1/users`` then listed but no path could reach: ``/v1/users/sl%2Fash/...`` is read as
``/v1/users/sl/ash/...``, so the user could be neither exported nor forgotten. Now one rule holds
everywhere: tenant, user, thread and agent ids may not hold ``/`` (422 on every entry point, and
every write refuses them). Users an older version stored that way are exported and forgotten
through ``?user_id=`` (``GET /v1/users/export``, ``DELETE /v1/users``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from live_http import LiveServer, live_server

from hipocampo.client import AsyncMemory
from hipocampo.domain.errors import InvalidInput
from hipocampo.domain.model import NewMessage, Role, Scope
from hipocampo.testing import deps_of

pytestmark = pytest.mark.backends()

SESSION = {"user_id": "ana", "thread_id": "t1"}


async def no_tenants(mem: AsyncMemory) -> dict[str, str]:
    return {}


@pytest.fixture
def server(db_path: str) -> Iterator[LiveServer]:
    with live_server(db_path, no_tenants, auth=False) as live:
        yield live


def mcp_call(server: LiveServer, headers: dict[str, str], tool: str, **arguments: Any) -> httpx.Response:
    rpc = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
    sent = {"Accept": "application/json, text/event-stream", **headers}
    return httpx.post(f"{server.url}/mcp", json=rpc, headers=sent, timeout=30)


def assert_slash_refused(r: httpx.Response) -> None:
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "invalid_input" and "'/'" in body["detail"], body


def test_ids_with_a_slash_are_refused_on_every_entry_point(server: LiveServer) -> None:
    pytest.importorskip("mcp")
    c = server.client()
    save = {"content": "likes tea", "memory_type": "preference"}
    for r in (
        c.post("/v1/tools/save_memory", json={"session": {**SESSION, "user_id": "sl/ash"}, "arguments": save}),
        c.post("/v1/tools/save_memory", json={"session": {**SESSION, "thread_id": "t/1"}, "arguments": save}),
        c.post("/v1/tools/get_memory", json={"session": {**SESSION, "agent_id": "a/b"}}),
        mcp_call(server, {"X-Hipocampo-User": "mc/p"}, "save_memory", **save),
        mcp_call(server, {"X-Hipocampo-User": "mc%2Fp"}, "save_memory", **save),
        mcp_call(server, {"X-Hipocampo-User": "ana", "X-Hipocampo-Thread": "t/1"}, "save_memory", **save),
        c.get("/api/v1/memory/conv", params={"user_id": "sl/ash"}),
        c.get("/api/v1/memory/search", params={"user_id": "sl/ash", "query": "tea"}),
        c.post("/api/v1/memory/search", json={"user_id": "sl/ash", "query": "tea"}),
        c.post("/v1/users/ana/memories", json={"content": "likes tea", "thread_id": "t/1"}),
        c.post("/v1/users/ana/memories", json={"content": "likes tea", "agent_id": "a/b"}),
        c.post("/v1/users/ana/threads/t1/messages", json={"messages": [{"content": "hi"}], "agent_id": "a/b"}),
        c.post("/v1/users/ana/search", json={"query": "tea", "thread_id": "t/1"}),
        c.post("/v1/users/ana/context", json={"query": "tea", "thread_id": "t/1"}),
        c.post("/v1/chat", json={"session": {**SESSION, "user_id": "sl/ash"}, "message": "hi"}),
    ):
        assert_slash_refused(r)
    with pytest.raises(InvalidInput, match="'/'"):
        server.call(server.memory.add("sl/ash", "t1", ["hi"]))
    with pytest.raises(InvalidInput, match="'/'"):
        server.call(server.memory.remember("ana", "likes tea", thread_id="t/1"))
    assert c.get("/v1/users").json() == {"users": []}

    # Message ids and speaker names are never path segments: they may hold one.
    ok = c.post(
        "/v1/users/ana/threads/t1/messages",
        json={"messages": [{"content": "hi", "id": "wa/17", "name": "AC/DC"}]},
    )
    assert ok.status_code == 201, ok.text
    assert c.get("/v1/users").json() == {"users": ["ana"]}


async def stored_by_an_older_version(mem: AsyncMemory, user: str) -> None:
    """What the tools and MCP stored before the rule: written through the store's ports, which
    take stored ids as they are."""
    deps = deps_of(mem)
    scope = Scope("default", user)
    async with deps.uow.transaction():
        await deps.log.append(scope, "t/1", [NewMessage(Role.USER, "Slash likes green tea")], [])


def test_users_stored_with_a_slash_stay_reachable_for_export_and_deletion(server: LiveServer) -> None:
    server.call(stored_by_an_older_version(server.memory, "sl/ash"))
    server.call(stored_by_an_older_version(server.memory, "ana"))
    c = server.client()
    assert sorted(c.get("/v1/users").json()["users"]) == ["ana", "sl/ash"]

    export = c.get("/v1/users/export", params={"user_id": "sl/ash"})
    assert export.status_code == 200, export.text
    records = [json.loads(line) for line in export.text.splitlines()]
    assert records[0]["type"] == "export" and records[-1]["type"] == "end", records
    assert [r["content"] for r in records if r["type"] == "message"] == ["Slash likes green tea"]

    assert c.get("/v1/users/export", params={"user_id": "nobody"}).status_code == 404
    forgot = c.delete("/v1/users", params={"user_id": "sl/ash"})
    assert forgot.status_code == 200, forgot.text
    assert c.get("/v1/users").json() == {"users": ["ana"]}
    assert c.get("/v1/users/export", params={"user_id": "sl/ash"}).status_code == 404
    # The query form reaches any user, the usual ones too.
    assert c.get("/v1/users/export", params={"user_id": "ana"}).status_code == 200
