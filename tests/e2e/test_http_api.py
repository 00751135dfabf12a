"""The HTTP service end to end: a real uvicorn server on a loopback port, spoken to with httpx.

Every route is exercised: writing and paging turns, recall and search, curating memories,
forgetting, the conversation-memory and agent-tool routes, metrics; and every refusal the API promises
(401/403/404/409/413/422/429 with Retry-After), plus idempotent replays.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import time

import httpx
import pytest
from fastapi.routing import iter_route_contexts
from live_http import LiveServer, live_server

from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.client import AsyncMemory
from hipocampo.domain.tenancy import KeyRole
from hipocampo.entrypoints.http import create_app
from hipocampo.services import tenancy
from hipocampo.testing import deps_of

pytestmark = pytest.mark.backends()

MAX_BYTES = 64 * 1024


async def setup_tenants(mem: AsyncMemory) -> dict[str, str]:
    deps = deps_of(mem)
    await tenancy.create_tenant(deps, "acme", requests_per_minute=10_000)
    await tenancy.create_tenant(deps, "tiny", requests_per_minute=3)
    await tenancy.create_tenant(deps, "small", max_memories=1, requests_per_minute=10_000)
    tokens = {
        "acme": (await tenancy.issue_key(deps, "acme"))[1],
        "acme-admin": (await tenancy.issue_key(deps, "acme", role=KeyRole.ADMIN))[1],
        "tiny": (await tenancy.issue_key(deps, "tiny"))[1],
        "small": (await tenancy.issue_key(deps, "small"))[1],
    }
    revoked, tokens["revoked"] = await tenancy.issue_key(deps, "acme")
    await tenancy.revoke_key(deps, revoked.id)
    return tokens


@pytest.fixture
def server(db_path: str):
    with live_server(db_path, setup_tenants, max_request_bytes=MAX_BYTES) as live:
        yield live


def turns(*texts: str, ids: bool = False) -> dict:
    return {
        "messages": [
            {"role": "user" if i % 2 == 0 else "assistant", "content": t, **({"id": f"m{i}"} if ids else {})}
            for i, t in enumerate(texts)
        ]
    }


def error_of(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "detail"} and body["detail"]
    return body["detail"]


# -- writing and reading --------------------------------------------------------------------
def test_write_page_and_list(server: LiveServer) -> None:
    c = server.client("acme")
    r = c.post("/v1/users/ana/threads/t1/messages", json=turns("Moro em Lisboa desde 2023", "Que bom!", "Um gato"))
    assert r.status_code == 201
    stored = r.json()["messages"]
    assert [m["seq"] for m in stored] == [0, 1, 2]
    assert {m["tenant_id"] for m in stored} == {"acme"} and stored[0]["user_id"] == "ana"

    first = c.get("/v1/users/ana/threads/t1/messages", params={"limit": 2}).json()
    assert [m["content"] for m in first["messages"]] == ["Moro em Lisboa desde 2023", "Que bom!"]
    assert first["next_after_seq"] == 1
    rest = c.get("/v1/users/ana/threads/t1/messages", params={"after_seq": 1, "limit": 2}).json()
    assert [m["seq"] for m in rest["messages"]] == [2] and rest["next_after_seq"] is None

    c.post("/v1/users/ana/threads/t2/messages", json=turns("I'm allergic to peanuts"))
    c.post("/v1/users/bob/threads/t1/messages", json=turns("Bob here"))
    assert c.get("/v1/users/ana/threads").json() == {"user_id": "ana", "threads": ["t1", "t2"]}
    assert c.get("/v1/users").json() == {"users": ["ana", "bob"]}
    error_of(c.get("/v1/users/ana/threads/nope/messages"), 404)


def test_messages_with_ids_are_written_once(server: LiveServer) -> None:
    c = server.client("acme")
    body = turns("Moro em Lisboa", "Que bom!", ids=True)
    first = c.post("/v1/users/ana/threads/t1/messages", json=body)
    again = c.post("/v1/users/ana/threads/t1/messages", json=body)
    assert first.status_code == again.status_code == 201
    assert [m["id"] for m in again.json()["messages"]] == [m["id"] for m in first.json()["messages"]]
    assert len(c.get("/v1/users/ana/threads/t1/messages").json()["messages"]) == 2


def test_idempotency_key_replays_the_first_answer(server: LiveServer) -> None:
    c = server.client("acme")
    headers = {"Idempotency-Key": "write-1"}
    first = c.post("/v1/users/ana/memories", json={"content": "Ana is vegan"}, headers=headers)
    assert first.status_code == 201 and "idempotent-replayed" not in first.headers
    again = c.post("/v1/users/ana/memories", json={"content": "Ana is vegan"}, headers=headers)
    assert again.status_code == 201 and again.headers["idempotent-replayed"] == "true"
    assert again.json()["id"] == first.json()["id"]
    assert len(c.get("/v1/users/ana/memories", params={"kind": "fact"}).json()["memories"]) == 1
    detail = error_of(c.post("/v1/users/ana/memories", json={"content": "other"}, headers=headers), 409)
    assert "idempotency key" in detail
    # Keys belong to a tenant: another tenant's request with the same key is its own.
    other = server.client("small").post("/v1/users/ana/memories", json={"content": "x"}, headers=headers)
    assert other.status_code == 201 and "idempotent-replayed" not in other.headers


def test_recall_and_search(server: LiveServer) -> None:
    c = server.client("acme")
    c.post("/v1/users/ana/threads/t1/messages", json=turns("I'm allergic to peanuts", "Noted!"))
    c.post("/v1/users/ana/threads/t2/messages", json=turns("Moro em Lisboa desde 2023"))
    server.flush()
    recall = c.post("/v1/users/ana/recall", json={"thread_id": "t2", "query": "peanuts allergy", "k": 3})
    assert recall.status_code == 200
    body = recall.json()
    assert "peanuts" in body["context"] and body["thread_id"] == "t2"
    assert body["memories"] and body["memories"][0]["explanation"]["relevance"] >= 0
    assert "Moro em Lisboa" in body["context"]  # t2's recent window
    # A caller that sends its model the conversation itself: the window is not repeated.
    lean = c.post("/v1/users/ana/recall", json={"thread_id": "t2", "query": "peanuts allergy", "include_recent": False})
    assert "peanuts" in lean.json()["context"] and "Moro em Lisboa" not in lean.json()["context"]
    assert lean.json()["recent"] == []
    hits = c.post("/v1/users/ana/search", json={"query": "peanuts", "kinds": ["turn"]}).json()["hits"]
    assert hits and "peanuts" in hits[0]["content"]
    other = c.post("/v1/users/ana/search", json={"query": "peanuts", "thread_id": "t1", "exclude_thread": True})
    assert all(h["provenance"]["thread_id"] != "t1" for h in other.json()["hits"])
    assert c.post("/v1/users/ana/recall", json={"query": "x", "recency": "sometimes"}).status_code == 422


def test_memory_curation(server: LiveServer) -> None:
    c = server.client("acme")
    created = c.post(
        "/v1/users/ana/memories",
        json={
            "content": "Ana lives in Lisbon",
            "memory_type": "user_profile",
            "importance": 0.8,
            "metadata": {"source": "crm"},
        },
    )
    assert created.status_code == 201
    mid = created.json()["id"]
    got = c.get(f"/v1/users/ana/memories/{mid}").json()
    assert got["memory_type"] == "user_profile" and got["provenance"]["metadata"] == {"source": "crm"}
    patched = c.patch(f"/v1/users/ana/memories/{mid}", json={"content": "Ana lives in Porto", "importance": 0.9})
    assert patched.status_code == 200 and patched.json()["content"] == "Ana lives in Porto"
    history = c.get(f"/v1/users/ana/memories/{mid}/history").json()["history"]
    assert [h["event"] for h in history] == ["ADD", "UPDATE"] and history[1]["old_content"] == "Ana lives in Lisbon"
    key_id = server.tokens["acme"].split("_", 2)[1]  # who changed it: the key's public id, never its secret
    assert [h["actor"] for h in history] == [f"api, key {key_id}"] * 2
    listed = c.get("/v1/users/ana/memories", params={"memory_type": "user_profile"}).json()
    assert [m["id"] for m in listed["memories"]] == [mid] and listed["next_offset"] is None

    c.post("/v1/users/ana/threads/t1/messages", json=turns("hello there"))
    server.flush()
    turn = c.get("/v1/users/ana/memories", params={"kind": "turn"}).json()["memories"][0]
    assert "conversation turn" in error_of(c.patch(f"/v1/users/ana/memories/{turn['id']}", json={"content": "x"}), 422)

    deleted = c.delete(f"/v1/users/ana/memories/{mid}")
    assert deleted.status_code == 200 and deleted.json()["id"] == mid
    error_of(c.get(f"/v1/users/ana/memories/{mid}"), 404)
    error_of(c.get(f"/v1/users/ana/memories/{mid}/history"), 404)
    error_of(c.delete(f"/v1/users/ana/memories/{mid}"), 404)


def test_forget_thread_user_and_export(server: LiveServer) -> None:
    c = server.client("acme")
    c.post("/v1/users/ana/threads/t1/messages", json=turns("first thread"))
    c.post("/v1/users/ana/threads/t2/messages", json=turns("second thread"))
    c.post("/v1/users/ana/memories", json={"content": "Ana likes tea"})
    server.flush()
    export = c.get("/v1/users/ana/export")
    assert export.headers["content-type"] == "application/x-ndjson"
    records = [json.loads(line) for line in export.text.splitlines()]
    assert [r["thread_id"] for r in records if r["type"] == "thread"] == ["t1", "t2"]
    assert [r["content"] for r in records if r["type"] == "memory" and r["origin"] == "saved"] == ["Ana likes tea"]
    assert records[-1] == {"type": "end", "counts": {"thread": 2, "message": 2, "memory": 1, "history": 1}}

    gone = c.delete("/v1/users/ana/threads/t1")
    assert gone.status_code == 200 and gone.json()["messages"] == 1
    error_of(c.delete("/v1/users/ana/threads/t1"), 404)
    error_of(c.get("/v1/users/ana/threads/t1/messages"), 404)
    hits = c.post("/v1/users/ana/search", json={"query": "first thread"}).json()["hits"]
    assert all(h["provenance"]["thread_id"] != "t1" for h in hits)

    assert c.delete("/v1/users/ana").json()["threads"] == 1
    error_of(c.get("/v1/users/ana/export"), 404)
    error_of(c.delete("/v1/users/ana"), 404)
    assert c.get("/v1/users").json() == {"users": []}


# -- compatible memory API and agent tools ---------------------------------------------------------------
def test_seed_001_memory_endpoints(server: LiveServer) -> None:
    c = server.client("acme")
    c.post("/v1/users/ana/threads/conv-1/messages", json=turns("Moro em Lisboa", "Que bom!"))
    server.flush()
    conv = c.get("/api/v1/memory/conv-1", params={"user_id": "ana"}).json()
    assert conv["conversation_id"] == "conv-1" and [m["content"] for m in conv["messages"]] == [
        "Moro em Lisboa",
        "Que bom!",
    ]
    assert "summary" in conv
    found = c.get("/api/v1/memory/search", params={"user_id": "ana", "query": "Lisboa", "k": 2}).json()
    assert found["hits"] and "Lisboa" in found["hits"][0]["content"]
    # "search" is a route, never a conversation id
    assert "query" in error_of(c.get("/api/v1/memory/search", params={"user_id": "ana"}), 422)
    error_of(c.get("/api/v1/memory/conv-1"), 422)  # user_id is required
    assert c.delete("/api/v1/memory/conv-1", params={"user_id": "ana"}).json()["messages"] == 2
    error_of(c.get("/api/v1/memory/conv-1", params={"user_id": "ana"}), 404)
    error_of(c.delete("/api/v1/memory/conv-1", params={"user_id": "ana"}), 404)
    assert c.get("/api/v1/memory/search", params={"user_id": "ana", "query": "Lisboa"}).json()["hits"] == []


def test_agent_tools(server: LiveServer) -> None:
    c = server.client("acme")
    session = {"user_id": "ana", "thread_id": "t1", "memory_min_relevance": 0.0}
    saved = c.post(
        "/v1/tools/save_memory",
        json={
            "session": session,
            "arguments": {"content": "Ana is allergic to peanuts", "memory_type": "critical_info"},
        },
    ).json()
    assert saved["success"] and saved["memory"]["memory_type"] == "critical_info"
    server.flush()
    got = c.post("/v1/tools/get_memory", json={"session": session, "arguments": {"query": "peanut allergy"}}).json()
    assert got["success"] and got["memories"][0]["memory_id"] == saved["memory_id"]
    newest = c.post("/v1/tools/get_memory", json={"session": session, "arguments": {"mode": "chronological"}}).json()
    assert [m["memory_id"] for m in newest["memories"]] == [saved["memory_id"]]
    updated = c.post(
        "/v1/tools/update_memory",
        json={
            "session": session,
            "arguments": {"memory_id": saved["memory_id"], "new_content": "Ana: severe peanut allergy"},
        },
    ).json()
    assert updated["success"] and updated["memory"]["content"] == "Ana: severe peanut allergy"
    # The API key's tenant holds the memory: the REST view of the same user sees it.
    assert c.get(f"/v1/users/ana/memories/{saved['memory_id']}").status_code == 200
    delete = {"session": session, "arguments": {"memory_id": saved["memory_id"]}}
    assert c.post("/v1/tools/delete_memory", json=delete).json()["success"]
    again = c.post("/v1/tools/delete_memory", json=delete)
    assert again.status_code == 200 and not again.json()["success"] and again.json()["error_message"]
    limited = {**session, "memory_types": ["preference"]}
    refused = c.post(
        "/v1/tools/save_memory",
        json={
            "session": limited,
            "arguments": {"content": "x", "memory_type": "goal"},
        },
    ).json()
    assert not refused["success"] and "preference" in refused["error_message"]
    # The tenant is never the caller's to choose.
    sneaky = {"session": {**session, "tenant_id": "tiny"}, "arguments": {"content": "x", "memory_type": "goal"}}
    assert "tenant_id" in error_of(c.post("/v1/tools/save_memory", json=sneaky), 422)


def test_chat_without_a_model_still_remembers(server: LiveServer) -> None:
    c = server.client("acme")
    c.post("/v1/users/ana/memories", json={"content": "Ana is allergic to peanuts"})
    server.flush()
    body = {"session": {"user_id": "ana", "thread_id": "chat-1", "memory_min_relevance": 0}, "message": "peanuts?"}
    reply = c.post("/v1/chat", json=body)
    assert reply.status_code == 200, reply.text
    out = reply.json()
    assert out["answer"] is None and not out["llm_configured"] and "HIPOCAMPO_LLM" in out["notice"]
    assert "allergic to peanuts" in out["memory_context"]
    stored = c.get("/v1/users/ana/threads/chat-1/messages").json()["messages"]
    assert [m["content"] for m in stored] == ["peanuts?"]
    assert c.post("/chat", json={**body, "message": "again"}).status_code == 200  # the compatible API's path
    assert "/chat" not in c.get("/openapi.json").json()["paths"]


def test_chat_with_a_model_uses_the_memory_tools(db_path: str) -> None:
    from hipocampo.agent.scripted_chat import ScriptedToolChatModel, tool_call

    model = ScriptedToolChatModel(
        script=[
            tool_call("save_memory", content="Ana lives in Lisbon.", memory_type="user_profile"),
            "Noted: you live in Lisbon.",
        ]
    )

    async def scenario(app, client, mem):
        body = {"session": {"user_id": "ana", "thread_id": "t1"}, "message": "I live in Lisbon now"}
        reply = (await client.post("/v1/chat", json=body)).json()
        assert reply["answer"] == "Noted: you live in Lisbon." and reply["llm_configured"]
        assert [t["name"] for t in reply["tool_calls"]] == ["save_memory"]
        facts = await mem.list("ana", tenant_id="home", kind="fact")
        assert [m.content for m in facts] == ["Ana lives in Lisbon."]
        assert [m.content for m in await mem.messages("ana", "t1", tenant_id="home")] == [
            "I live in Lisbon now",
            "Noted: you live in Lisbon.",
        ]

    run_app(db_path, scenario, auth=False, local_tenant="home", chat_model=model)


# -- refusals -------------------------------------------------------------------------------
def test_authentication_and_roles(server: LiveServer) -> None:
    anonymous = server.client()
    r = anonymous.get("/v1/users")
    error_of(r, 401)
    assert r.headers["www-authenticate"].startswith("Bearer")
    error_of(server.client(Authorization="Bearer hk_nope_nope").get("/v1/users"), 401)
    error_of(server.client(Authorization="Basic YTpi").get("/v1/users"), 401)
    error_of(server.client("revoked").get("/v1/users"), 401)
    assert server.client(**{"X-API-Key": server.tokens["acme"]}).get("/v1/users").status_code == 200

    assert "admin" in error_of(server.client("acme").get("/v1/admin/metrics"), 403)
    admin = server.client("acme-admin")
    server.client("acme").post("/v1/users/ana/threads/t1/messages", json=turns("hello"))
    tenant = admin.get("/v1/admin/metrics").json()
    assert tenant["tenant_id"] == "acme" and tenant["users"] == 1
    user = admin.get("/v1/admin/users/ana/metrics").json()
    assert user["user_id"] == "ana" and user["messages"] == 1
    error_of(admin.get("/v1/admin/users/nobody/metrics"), 404)

    for path in ("/healthz", "/readyz", "/metrics"):
        assert anonymous.get(path).status_code == 200
    exposition = anonymous.get("/metrics").text
    for metric in (
        "hipocampo_outbox_depth",
        "hipocampo_jobs_dead",
        "hipocampo_jobs_retrying",
        "hipocampo_http_request_duration_seconds",
        "hipocampo_recall_duration_seconds",
    ):
        assert metric in exposition, metric


def test_validation_errors_are_readable_4xx(server: LiveServer) -> None:
    c = server.client("acme")
    assert "user_id" in error_of(c.get("/v1/users/%20%20/threads"), 422)
    error_of(c.get("/v1/users/a%01b/threads"), 422)
    error_of(c.get("/v1/users/" + "u" * 201 + "/threads"), 422)
    detail = error_of(c.post("/v1/users/ana/threads/t1/messages", json={"messages": [{"content": ""}]}), 422)
    assert "messages.0.content" in detail
    error_of(c.post("/v1/users/ana/threads/t1/messages", json={"messages": [{"content": "   "}]}), 422)
    error_of(c.post("/v1/users/ana/threads/t1/messages", json={"messages": [{"content": "x", "role": "god"}]}), 422)
    error_of(c.post("/v1/users/ana/threads/t1/messages", json={"messages": []}), 422)
    error_of(c.post("/v1/users/ana/memories", json={"content": "x", "importance": 3}), 422)
    error_of(c.post("/v1/users/ana/memories", json={"content": "x", "surprise": 1}), 422)
    error_of(c.post("/v1/users/ana/search", json={"query": "x", "since": "yesterday-ish"}), 422)
    error_of(c.get("/v1/users/ana/memories", params={"limit": 0}), 422)
    error_of(c.post("/v1/users/ana/search", content=b"{not json", headers={"Content-Type": "application/json"}), 400)
    error_of(c.post("/v1/users/ana/search", content=b"[1, 2]", headers={"Content-Type": "application/json"}), 422)
    error_of(c.post("/v1/users/ana/memories", json={"content": "x"}, headers={"Idempotency-Key": "k" * 201}), 422)
    error_of(c.get("/v1/nowhere"), 404)
    error_of(c.put("/v1/users/ana/memories"), 405)


def test_request_size_limit(server: LiveServer) -> None:
    c = server.client("acme")
    big = {"content": "x" * (MAX_BYTES + 10)}
    assert "larger than" in error_of(c.post("/v1/users/ana/memories", json=big), 413)

    def chunks():
        yield b'{"content": "'
        for _ in range(MAX_BYTES // 1024 + 2):
            yield b"y" * 1024
        yield b'"}'

    streamed = c.post("/v1/users/ana/memories", content=chunks(), headers={"Content-Type": "application/json"})
    error_of(streamed, 413)
    assert "content-length" not in streamed.request.headers  # the limit caught a streamed body
    assert c.get("/v1/users/ana/memories").json()["memories"] == []


def test_rate_limit_answers_429_with_retry_after(server: LiveServer) -> None:
    c = server.client("tiny")
    statuses = [c.get("/v1/users").status_code for _ in range(4)]
    assert statuses[:3] == [200, 200, 200] and statuses[3] == 429
    r = c.get("/v1/users")
    error_of(r, 429)
    assert 1 <= int(r.headers["retry-after"]) <= 60
    assert server.client("acme").get("/v1/users").status_code == 200  # per tenant


def test_memory_quota(server: LiveServer) -> None:
    c = server.client("small")
    r = c.post("/v1/users/ana/threads/t1/messages", json=turns("one", "two"))
    assert "allows 1" in error_of(r, 429)
    assert "retry-after" not in r.headers  # waiting frees nothing: deleting memories does
    assert c.post("/v1/users/ana/memories", json={"content": "fits"}).status_code == 201
    assert "quota is exhausted" in error_of(c.post("/v1/users/ana/memories", json={"content": "too many"}), 429)
    tool = {"session": {"user_id": "ana", "thread_id": "t1"}, "arguments": {"content": "x", "memory_type": "goal"}}
    error_of(c.post("/v1/tools/save_memory", json=tool), 429)


def test_metrics_text(server: LiveServer) -> None:
    c = server.client("acme")
    c.post("/v1/users/ana/threads/t1/messages", json=turns("hello"))
    c.post("/v1/users/ana/recall", json={"query": "hello"})
    c.get("/v1/users/ana/memories/nope")
    text = server.client().get("/metrics").text
    assert 'route="/v1/users/{user_id}/threads/{thread_id}/messages",status="201"' in text
    assert 'route="/v1/users/{user_id}/memories/{memory_id}",status="404"' in text
    assert "ana" not in text  # ids never become labels
    assert re.search(r'hipocampo_recall_duration_seconds_count\{operation="recall"\} 1\.0', text)
    for gauge in ("hipocampo_outbox_depth", "hipocampo_jobs_dead", 'hipocampo_jobs{status="pending"}'):
        assert gauge in text
    assert server.client().get("/readyz").json()["status"] == "ready"


# -- in-process apps: no auth, opaque 500s, private metrics ---------------------------------
def run_app(db_path: str, scenario, **options) -> None:
    async def main() -> None:
        mem = await AsyncMemory.open(db_path, embedder=FakeEmbedder())
        try:
            app = create_app(mem, **options)
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
                await scenario(app, client, mem)
        finally:
            await mem.close()

    asyncio.run(main())


def test_no_auth_mode_acts_as_the_local_tenant(db_path: str) -> None:
    async def scenario(app, client, mem):
        r = await client.post("/v1/users/ana/memories", json={"content": "local fact"})
        assert r.status_code == 201
        assert [m.content for m in await mem.list("ana", tenant_id="home")] == ["local fact"]
        assert (await client.get("/v1/admin/metrics")).json()["tenant_id"] == "home"

    run_app(db_path, scenario, auth=False, local_tenant="home")


def test_unexpected_errors_are_opaque_500s(db_path: str, caplog: pytest.LogCaptureFixture) -> None:
    async def scenario(app, client, mem):
        async def broken() -> None:
            raise RuntimeError("secret internals: /var/db password=hunter2")

        app.add_api_route("/boom", broken)
        r = await client.get("/boom")
        assert r.status_code == 500
        assert r.json() == {"error": "internal_error", "detail": "internal server error; the incident was logged"}

    run_app(db_path, scenario, auth=False)
    assert "secret internals" in caplog.text  # logged for the operator, never sent


def test_private_metrics_need_an_admin_key(db_path: str) -> None:
    async def scenario(app, client, mem):
        await tenancy.create_tenant(deps_of(mem), "acme")
        _, user = await tenancy.issue_key(deps_of(mem), "acme")
        _, admin = await tenancy.issue_key(deps_of(mem), "acme", role=KeyRole.ADMIN)
        assert (await client.get("/metrics")).status_code == 401
        assert (await client.get("/metrics", headers={"X-API-Key": user})).status_code == 403
        assert (await client.get("/metrics", headers={"X-API-Key": admin})).status_code == 200

    run_app(db_path, scenario, metrics_public=False)


def test_app_opens_and_closes_its_own_store(db_path: str) -> None:
    from starlette.testclient import TestClient

    from hipocampo.settings import Settings

    app = create_app(settings=Settings(db=db_path, embedder="fake"), auth=False)
    with TestClient(app, base_url="http://localhost") as client:  # runs the lifespan: open the store, then close it
        assert client.get("/readyz").json()["status"] == "ready"
        assert client.post("/v1/users/ana/memories", json={"content": "kept"}).status_code == 201
    assert app.state.hipocampo.memory is None
    with TestClient(app, base_url="http://localhost") as client:
        assert [m["content"] for m in client.get("/v1/users/ana/memories").json()["memories"]] == ["kept"]


# -- the command ----------------------------------------------------------------------------
@pytest.mark.slow
def test_hipocampo_serve_command(cli_command: list[str], db_path: str) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [*cli_command, "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "server did not start"
            time.sleep(0.2)
        assert httpx.get(f"{url}/v1/users").status_code == 401
        assert httpx.get(f"{url}/openapi.json").json()["info"]["title"] == "hipocampo"
    finally:
        proc.terminate()
        output, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, output  # a clean stop: the store was closed after the server
    assert "Application shutdown complete" in output
    assert url in output and f"{url}/docs" in output
    assert "hipocampo tenants create acme && hipocampo keys create --tenant acme" in output


def test_openapi_documents_every_route(server: LiveServer) -> None:
    spec = server.client().get("/openapi.json").json()
    assert {"/v1/users/{user_id}/recall", "/api/v1/memory/search", "/v1/tools/save_memory"} <= set(spec["paths"])
    schemes = spec["components"]["securitySchemes"]
    assert {"HTTPBearer", "APIKeyHeader"} <= set(schemes)
    documented = {(path, method) for path, ops in spec["paths"].items() for method in ops}
    routes = iter_route_contexts(server.app.routes)
    served = {(r.path, m.lower()) for r in routes for m in r.methods or () if m != "HEAD"}
    assert served - documented <= {
        ("/docs", "get"),
        ("/redoc", "get"),
        ("/openapi.json", "get"),
        ("/docs/oauth2-redirect", "get"),
        ("/chat", "post"),
    }


def test_list_memories_by_type_and_only_current_ones(server: LiveServer) -> None:
    c = server.client("acme")
    c.post(
        "/v1/users/eve/memories",
        json={"content": "Eve is in hospital", "memory_type": "critical_info", "expires_at": "2001-01-01T00:00:00Z"},
    )
    c.post("/v1/users/eve/memories", json={"content": "Eve likes tea", "memory_type": "preference"})
    listed = c.get("/v1/users/eve/memories", params={"kind": "fact"}).json()["memories"]
    assert {m["content"] for m in listed} == {"Eve is in hospital", "Eve likes tea"}
    current = c.get("/v1/users/eve/memories", params={"current_only": "true", "limit": 1}).json()
    assert [m["content"] for m in current["memories"]] == ["Eve likes tea"]
    typed = c.get("/v1/users/eve/memories", params={"memory_type": "critical_info"}).json()["memories"]
    assert [m["content"] for m in typed] == ["Eve is in hospital"]
