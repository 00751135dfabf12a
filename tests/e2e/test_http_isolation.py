"""Tenants and users never see each other, on every route of the HTTP API.

Tenant ``alpha`` holds the victim's data (user ``ana``: a thread, messages with client ids, a
saved fact, an idempotency key). Two viewers try to reach it: tenant ``beta``'s key naming the
same user, thread and memory ids, and alpha's own user ``bob`` naming ana's thread and memory
ids under his user id. Every route of ``app.routes`` must have a case here (a new route fails
the coverage test until it gets one); each answer is a 404, an empty result, or the viewer's own
data, and never contains the victim's content. Afterwards the victim's data is intact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute, iter_route_contexts
from live_http import LiveServer, live_server

from hipocampo.client import AsyncMemory
from hipocampo.domain.tenancy import KeyRole
from hipocampo.services import tenancy
from hipocampo.testing import deps_of

pytestmark = pytest.mark.backends()

SECRET = "SECRET-ana-7f3a"
QUERY = "bank pin fact noted"  # words of the victim's texts: a leak would rank them first
UNSCOPED = {"/healthz", "/readyz", "/metrics"}  # operations routes: no tenant data, checked for leaks only


async def setup(mem: AsyncMemory) -> dict[str, str]:
    deps = deps_of(mem)
    tokens = {}
    for tenant in ("alpha", "beta"):
        await tenancy.create_tenant(deps, tenant, requests_per_minute=100_000)
        tokens[tenant] = (await tenancy.issue_key(deps, tenant))[1]
        tokens[f"{tenant}-admin"] = (await tenancy.issue_key(deps, tenant, role=KeyRole.ADMIN))[1]
    return tokens


@dataclass
class Victim:
    thread_id: str = "t-ana"
    message_id: str = "wa-ana-1"
    idempotency_key: str = "ana-key-1"
    memory_id: str = ""
    turn_id: str = ""


@dataclass
class Viewer:
    name: str
    client: httpx.Client
    admin: httpx.Client
    user_id: str
    own_text: str


@dataclass
class Case:
    method: str
    url: str
    expect: str  # "404", "empty" (2xx, nothing of anyone), "own" (2xx, only the viewer's data), "tool_fails"
    json: Any = None
    params: dict[str, Any] | None = None
    headers: dict[str, str] | None = None
    client: str = "client"


def cases(v: Viewer, ana: Victim) -> dict[tuple[str, str], Case]:
    u, t, m = v.user_id, ana.thread_id, ana.memory_id
    session = {"user_id": u, "thread_id": t, "memory_min_relevance": 0.0}
    return {
        ("GET", "/v1/users/{user_id}/threads/{thread_id}/messages"): Case(
            "GET", f"/v1/users/{u}/threads/{t}/messages", "404"
        ),
        ("GET", "/v1/users/{user_id}/threads"): Case("GET", f"/v1/users/{u}/threads", "own"),
        ("DELETE", "/v1/users/{user_id}/threads/{thread_id}"): Case("DELETE", f"/v1/users/{u}/threads/{t}", "404"),
        ("GET", "/v1/users/{user_id}/memories"): Case("GET", f"/v1/users/{u}/memories", "own"),
        ("GET", "/v1/users/{user_id}/memories/{memory_id}"): Case("GET", f"/v1/users/{u}/memories/{m}", "404"),
        ("PATCH", "/v1/users/{user_id}/memories/{memory_id}"): Case(
            "PATCH", f"/v1/users/{u}/memories/{m}", "404", json={"content": "overwritten"}
        ),
        ("DELETE", "/v1/users/{user_id}/memories/{memory_id}"): Case("DELETE", f"/v1/users/{u}/memories/{m}", "404"),
        ("GET", "/v1/users/{user_id}/memories/{memory_id}/history"): Case(
            "GET", f"/v1/users/{u}/memories/{m}/history", "404"
        ),
        ("POST", "/v1/users/{user_id}/search"): Case(
            "POST", f"/v1/users/{u}/search", "own", json={"query": QUERY, "thread_id": t}
        ),
        ("POST", "/v1/users/{user_id}/recall"): Case(
            "POST", f"/v1/users/{u}/recall", "own", json={"query": QUERY, "thread_id": t}
        ),
        ("POST", "/v1/users/{user_id}/context"): Case(
            "POST", f"/v1/users/{u}/context", "own", json={"query": QUERY, "thread_id": t}
        ),
        ("GET", "/v1/users"): Case("GET", "/v1/users", "own"),
        ("GET", "/v1/users/{user_id}/export"): Case("GET", f"/v1/users/{u}/export", "own"),
        ("GET", "/v1/users/export"): Case("GET", "/v1/users/export", "own", params={"user_id": u}),
        ("POST", "/v1/tools/get_memory"): Case(
            "POST", "/v1/tools/get_memory", "own", json={"session": session, "arguments": {"query": QUERY}}
        ),
        ("POST", "/v1/tools/update_memory"): Case(
            "POST",
            "/v1/tools/update_memory",
            "tool_fails",
            json={"session": session, "arguments": {"memory_id": m, "new_content": "overwritten"}},
        ),
        ("POST", "/v1/tools/delete_memory"): Case(
            "POST", "/v1/tools/delete_memory", "tool_fails", json={"session": session, "arguments": {"memory_id": m}}
        ),
        ("GET", "/api/v1/memory/search"): Case(
            "GET", "/api/v1/memory/search", "own", params={"user_id": u, "query": QUERY}
        ),
        ("POST", "/api/v1/memory/search"): Case(
            "POST", "/api/v1/memory/search", "own", json={"user_id": u, "query": QUERY}
        ),
        ("GET", "/api/v1/memory/{conversation_id}"): Case("GET", f"/api/v1/memory/{t}", "404", params={"user_id": u}),
        ("DELETE", "/api/v1/memory/{conversation_id}"): Case(
            "DELETE", f"/api/v1/memory/{t}", "404", params={"user_id": u}
        ),
        ("GET", "/v1/admin/metrics"): Case("GET", "/v1/admin/metrics", "own", client="admin"),
        ("GET", "/v1/admin/users/{user_id}/metrics"): Case(
            "GET", f"/v1/admin/users/{u}/metrics", "own", client="admin"
        ),
        ("DELETE", "/v1/users/{user_id}"): Case("DELETE", f"/v1/users/{u}", "own"),
        ("DELETE", "/v1/users"): Case("DELETE", "/v1/users", "own", params={"user_id": u}),
        # Writes last: they create the viewer's own data under the victim's ids and keys.
        ("POST", "/v1/users/{user_id}/threads/{thread_id}/messages"): Case(
            "POST",
            f"/v1/users/{u}/threads/{t}/messages",
            "own",
            json={"messages": [{"content": v.own_text, "id": ana.message_id}]},
        ),
        ("POST", "/v1/users/{user_id}/memories"): Case(
            "POST",
            f"/v1/users/{u}/memories",
            "own",
            json={"content": v.own_text},
            headers={"Idempotency-Key": ana.idempotency_key},
        ),
        ("POST", "/v1/chat"): Case("POST", "/v1/chat", "own", json={"session": session, "message": QUERY}),
        ("POST", "/chat"): Case("POST", "/chat", "own", json={"session": session, "message": QUERY}),
        ("POST", "/v1/tools/save_memory"): Case(
            "POST",
            "/v1/tools/save_memory",
            "own",
            json={"session": session, "arguments": {"content": v.own_text, "memory_type": "goal"}},
        ),
    }


@pytest.fixture
def server(db_path: str):
    with live_server(db_path, setup) as live:
        yield live


def seed_victim(server: LiveServer) -> Victim:
    ana = Victim()
    alpha = server.client("alpha")
    written = alpha.post(
        f"/v1/users/ana/threads/{ana.thread_id}/messages",
        json={
            "messages": [
                {"content": f"{SECRET} my bank pin is 1234", "id": ana.message_id},
                {"role": "assistant", "content": f"{SECRET} noted"},
            ]
        },
    )
    assert written.status_code == 201
    key = {"Idempotency-Key": ana.idempotency_key}
    fact = alpha.post("/v1/users/ana/memories", json={"content": f"{SECRET} Ana's fact"}, headers=key)
    ana.memory_id = fact.json()["id"]
    server.flush()
    turns = alpha.get("/v1/users/ana/memories", params={"kind": "turn"}).json()["memories"]
    ana.turn_id = turns[0]["id"]
    return ana


def check(case: Case, r: httpx.Response, viewer: Viewer) -> None:
    where = f"{viewer.name}: {case.method} {case.url}"
    assert SECRET not in r.text, f"{where} leaked the victim's content"
    assert r.status_code < 500, where
    if case.expect == "404":
        assert r.status_code == 404, f"{where}: {r.status_code} {r.text}"
        return
    if case.expect == "own" and r.status_code == 404:  # e.g. forgetting or exporting a user it lacks
        return
    if case.expect == "own" and r.status_code == 409:  # same tenant, same key, another body: refused
        assert viewer.name == "bob" and case.headers, where
        return
    assert 200 <= r.status_code < 300, f"{where}: {r.status_code} {r.text}"
    if case.expect == "tool_fails":
        assert r.json()["success"] is False, where
    if "Idempotency-Key" in (case.headers or {}):
        assert "idempotent-replayed" not in r.headers, f"{where} replayed the victim's answer"
    if case.method == "POST" and case.url.endswith("/messages"):
        assert [m["content"] for m in r.json()["messages"]] == [viewer.own_text], where


def send(case: Case, viewer: Viewer) -> None:
    client: httpx.Client = getattr(viewer, case.client)
    check(case, client.request(case.method, case.url, params=case.params, json=case.json, headers=case.headers), viewer)


def test_every_route_has_an_isolation_case(server: LiveServer) -> None:
    dummy = Viewer("x", server.client(), server.client(), "u", "x")
    covered = set(cases(dummy, Victim(memory_id="m")))
    routes = {
        (method, r.path)
        # /mcp is no APIRoute: it authenticates itself; its isolation is tested in test_mcp_http.py
        # and test_remote_agent.py.
        for r in iter_route_contexts(server.app.routes)  # included routers are not flattened any more
        if isinstance(r.original_route, APIRoute) and r.path not in UNSCOPED
        for method in r.methods or ()
    }
    assert routes - covered == set(), "add an isolation case for the new route(s)"
    assert covered - routes == set()


@pytest.mark.parametrize("viewer_name", ["beta", "bob"])
def test_no_route_reaches_another_tenant_or_user(server: LiveServer, viewer_name: str) -> None:
    ana = seed_victim(server)
    if viewer_name == "beta":
        viewer = Viewer("beta", server.client("beta"), server.client("beta-admin"), "ana", "beta's own words")
    else:
        alpha = server.client("alpha")
        bob = {"messages": [{"content": "bob's own words"}]}
        assert alpha.post("/v1/users/bob/threads/t-bob/messages", json=bob).status_code == 201
        server.flush()
        viewer = Viewer("bob", alpha, server.client("alpha-admin"), "bob", "bob's own words")
    for case in cases(viewer, ana).values():
        send(case, viewer)
    # The same routes again with the id of a turn (deleting a turn deletes its message too).
    by_turn = Victim(memory_id=ana.turn_id)
    for (_, path), case in cases(viewer, by_turn).items():
        if "{memory_id}" in path or path.endswith(("update_memory", "delete_memory")):
            send(case, viewer)
    for path in UNSCOPED:
        assert SECRET not in server.client().get(path).text
    assert_victim_intact(server, ana)


def test_beta_sees_nothing_before_writing(server: LiveServer) -> None:
    seed_victim(server)
    beta = server.client("beta")
    assert beta.get("/v1/users").json() == {"users": []}
    assert beta.get("/v1/users/ana/threads").json() == {"user_id": "ana", "threads": []}
    assert beta.get("/v1/users/ana/memories").json()["memories"] == []
    assert beta.post("/v1/users/ana/search", json={"query": QUERY}).json()["hits"] == []
    recall = beta.post("/v1/users/ana/recall", json={"query": QUERY, "thread_id": "t-ana"}).json()
    assert recall["recent"] == [] and recall["memories"] == [] and recall["summary"] is None
    metrics = server.client("beta-admin").get("/v1/admin/metrics").json()
    assert metrics["users"] == 0 and metrics["messages"] == 0 and metrics["memories"] == 0


def assert_victim_intact(server: LiveServer, ana: Victim) -> None:
    alpha = server.client("alpha")
    messages = alpha.get(f"/v1/users/ana/threads/{ana.thread_id}/messages").json()["messages"]
    assert [m["content"] for m in messages] == [f"{SECRET} my bank pin is 1234", f"{SECRET} noted"]
    assert alpha.get(f"/v1/users/ana/memories/{ana.memory_id}").json()["content"] == f"{SECRET} Ana's fact"
    assert alpha.get(f"/v1/users/ana/memories/{ana.turn_id}").status_code == 200
    hits = alpha.post("/v1/users/ana/search", json={"query": QUERY}).json()["hits"]
    assert hits and all(SECRET in h["content"] for h in hits)
