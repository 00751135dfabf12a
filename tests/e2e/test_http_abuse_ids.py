"""Non-ASCII and invisible user ids, through real HTTP: MCP headers and REST paths name the same
user ("joão" over MCP was another user than over REST when headers were read as Latin-1), every
spelling of a name is one user (NFC), and invisible or control characters are refused with 422."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from live_http import LiveServer, live_server

from hipocampo.client import AsyncMemory

pytest.importorskip("mcp")

pytestmark = pytest.mark.backends()

JOAO = "jo\u00e3o"  # NFC: one code point for ã
JOAO_NFD = "joa\u0303o"  # "a" and a combining tilde


async def no_tenants(mem: AsyncMemory) -> dict[str, str]:
    return {}


@pytest.fixture
def server(db_path: str) -> Iterator[LiveServer]:
    with live_server(db_path, no_tenants, auth=False) as live:
        yield live


def mcp_call(server: LiveServer, user: bytes | str, tool: str, **arguments: Any) -> httpx.Response:
    """One JSON-RPC ``tools/call`` to ``/mcp``, the user header sent as the given bytes."""
    rpc = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
    headers = {"Accept": "application/json, text/event-stream", "X-Hipocampo-User": user}
    return httpx.post(f"{server.url}/mcp", json=rpc, headers=headers, timeout=30)  # type: ignore[arg-type]


def saved(server: LiveServer, user: bytes | str, content: str) -> None:
    r = mcp_call(server, user, "save_memory", content=content, memory_type="preference")
    assert r.status_code == 200, r.text
    assert not r.json()["result"].get("isError"), r.text


def rest_facts(c: httpx.Client, user_segment: str) -> list[str]:
    r = c.get(f"/v1/users/{user_segment}/memories", params={"kind": "fact"})
    assert r.status_code == 200, r.text
    return sorted(m["content"] for m in r.json()["memories"])


def test_mcp_and_rest_name_the_same_user(server: LiveServer) -> None:
    saved(server, JOAO.encode("utf-8"), "likes tea")  # the header's bytes are UTF-8
    saved(server, quote(JOAO), "likes rain")  # percent-encoded, as in a URL: jo%C3%A3o
    saved(server, JOAO_NFD.encode("utf-8"), "likes cats")  # another spelling of the same name
    c = server.client()
    expected = ["likes cats", "likes rain", "likes tea"]
    assert rest_facts(c, quote(JOAO)) == expected
    assert rest_facts(c, quote(JOAO_NFD)) == expected  # the path is normalised the same way
    assert c.get("/v1/users").json() == {"users": [JOAO]}

    written = c.post(
        f"/v1/users/{quote(JOAO_NFD)}/threads/{quote('conversa-' + JOAO_NFD)}/messages",
        json={"messages": [{"content": "Olá"}]},
    )
    assert written.status_code == 201, written.text
    assert c.get(f"/v1/users/{quote(JOAO)}/threads").json()["threads"] == [f"conversa-{JOAO}"]


@pytest.mark.parametrize("invisible", ["\u200b", "\u2060", "\ufeff", "\u202e", "\x7f"])
def test_invisible_characters_are_refused_everywhere(server: LiveServer, invisible: str) -> None:
    c = server.client()
    user = f"ana{invisible}"
    for r in (
        c.get(f"/v1/users/{quote(user)}/memories"),
        c.post("/v1/users/ana/memories", json={"content": "x", "thread_id": f"t{invisible}"}),
        c.post("/api/v1/memory/search", json={"user_id": user, "query": "x"}),
        c.get("/api/v1/memory/search", params={"user_id": user, "query": "x"}),
        mcp_call(server, user.encode("utf-8"), "get_memory"),
        mcp_call(server, quote(user), "get_memory"),
    ):
        assert r.status_code == 422, r.text
        body = r.json()
        assert body["error"] == "invalid_input", body
        assert "invisible" in body["detail"] or "id of" in body["detail"], body
    assert c.get("/v1/users").json() == {"users": []}


def test_header_bytes_that_are_not_utf8_are_refused(server: LiveServer) -> None:
    r = mcp_call(server, JOAO.encode("latin-1"), "get_memory")  # b"jo\xe3o"
    assert r.status_code == 422 and "not UTF-8" in r.json()["detail"], r.text
    assert json.loads(r.text)["error"] == "invalid_input"
