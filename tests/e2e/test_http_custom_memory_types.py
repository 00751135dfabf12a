"""A deployment's own memory types over HTTP, end to end (a marketing agent's): configured
in ``HIPOCAMPO_MEMORY_TYPES``, saved and read through the agent tools and the memories API,
listed by type, shown with their type in recall's context; an unknown type is a 422 saying why.
The remote agent uses them through the service, and an export of them imports back typed."""

from __future__ import annotations

import asyncio
import json

import pytest
from live_http import LiveServer, live_server

from hipocampo.client import AsyncMemory
from hipocampo.services import tenancy
from hipocampo.testing import deps_of

pytestmark = pytest.mark.backends()

MARKETING = {
    "campaign": "a campaign the user runs, with its name and details",
    "metric": "a metric (CPL, CTR, leads, spend) with its value",
    "threshold": "a limit the user set, such as the highest acceptable CPL",
    "insight": "a conclusion drawn from the numbers",
    "preference": "",
}


async def setup(mem: AsyncMemory) -> dict[str, str]:
    await tenancy.create_tenant(deps_of(mem), "acme", requests_per_minute=10_000)
    return {"acme": (await tenancy.issue_key(deps_of(mem), "acme"))[1]}


@pytest.fixture
def server(db_path: str, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("HIPOCAMPO_MEMORY_TYPES", json.dumps({"marketing": MARKETING}))
    with live_server(db_path, setup) as live:
        yield live


def detail_of(response, status: int) -> str:  # noqa: ANN001 - httpx.Response
    assert response.status_code == status, response.text
    return response.json()["detail"]


def test_custom_types_are_saved_listed_recalled_and_unknown_ones_refused(server: LiveServer) -> None:
    c = server.client("acme")
    session = {"user_id": "ana", "thread_id": "t1", "agent_id": "marketing", "memory_min_relevance": 0}

    # The agent's configured types are its session's by default.
    saved = c.post(
        "/v1/tools/save_memory",
        json={
            "session": session,
            "arguments": {"content": "Highest acceptable CPL is R$ 40", "memory_type": "threshold"},
        },
    ).json()
    assert saved["success"], saved
    assert saved["memory"]["memory_type"] == "threshold"
    got = c.post(
        "/v1/tools/get_memory",
        json={
            "session": session,
            "arguments": {"mode": "chronological", "memory_type": "threshold"},
        },
    ).json()
    assert [m["memory_id"] for m in got["memories"]] == [saved["memory_id"]]

    # The memories API takes them too, and filters by them.
    r = c.post(
        "/v1/users/ana/memories",
        json={
            "content": "Black Friday campaign runs with a CPL of R$ 25",
            "memory_type": "campaign",
            "agent_id": "marketing",
        },
    )
    assert r.status_code == 201, r.text
    campaign = r.json()
    assert campaign["memory_type"] == "campaign"
    assert c.get(f"/v1/users/ana/memories/{campaign['id']}").json()["memory_type"] == "campaign"
    listed = c.get("/v1/users/ana/memories", params={"memory_type": "campaign"}).json()["memories"]
    assert [m["id"] for m in listed] == [campaign["id"]]

    # Recall's context names each memory's type.
    server.flush()
    recall = c.post(
        "/v1/users/ana/recall",
        json={
            "query": "Black Friday campaign CPL",
            "agent_id": "marketing",
            "min_relevance": 0,
            "k": 10,
        },
    )
    assert recall.status_code == 200, recall.text
    context = recall.json()["context"]
    assert "(fact/campaign) Black Friday campaign" in context
    assert "(fact/threshold) Highest acceptable CPL" in context
    found = c.post(
        "/v1/tools/get_memory",
        json={
            "session": session,
            "arguments": {"query": "Black Friday CPL", "memory_type": "campaign"},
        },
    ).json()
    assert [m["memory_id"] for m in found["memories"]] == [campaign["id"]]  # searched by type

    # A session may name configured custom types explicitly, whatever its agent.
    support = {"user_id": "ana", "thread_id": "t2", "agent_id": "support", "memory_types": ["insight", "goal"]}
    insight = c.post(
        "/v1/tools/save_memory",
        json={
            "session": support,
            "arguments": {"content": "Video ads beat carousels", "memory_type": "insight"},
        },
    ).json()
    assert insight["success"] and insight["memory"]["memory_type"] == "insight"

    # Unknown types: 422 with the reason and the names accepted.
    detail = detail_of(c.post("/v1/users/ana/memories", json={"content": "x", "memory_type": "opinion"}), 422)
    assert "'opinion'" in detail and "campaign" in detail
    assert "'opinion'" in detail_of(c.get("/v1/users/ana/memories", params={"memory_type": "opinion"}), 422)
    patch = c.patch(f"/v1/users/ana/memories/{campaign['id']}", json={"memory_type": "opinion"})
    assert "'opinion'" in detail_of(patch, 422)
    unknown = {**session, "memory_types": {"campaign": "", "opinion": "what the user thinks"}}
    detail = detail_of(
        c.post(
            "/v1/tools/save_memory",
            json={
                "session": unknown,
                "arguments": {"content": "x", "memory_type": "opinion"},
            },
        ),
        422,
    )
    assert "session.memory_types" in detail and "'opinion'" in detail and "threshold" in detail
    # A configured type outside the session's own list stays a tool refusal the model can read.
    refused = c.post(
        "/v1/tools/save_memory",
        json={
            "session": {**support, "memory_types": ["goal"]},
            "arguments": {"content": "x", "memory_type": "campaign"},
        },
    ).json()
    assert not refused["success"] and "goal" in refused["error_message"]


def test_a_remote_agent_saves_and_finds_its_custom_types(server: LiveServer) -> None:
    from hipocampo.agent import SessionConfig
    from hipocampo.agent.remote import RemoteAgentMemory

    def session(**types: str) -> SessionConfig:
        return SessionConfig(
            user_id="bia",
            thread_id="t1",
            agent_id="marketing",
            memory_min_relevance=0.0,
            memory_types={**MARKETING, **types},
        )

    async def main() -> None:
        async with RemoteAgentMemory(server.url, server.tokens["acme"]) as remote:
            tools = remote.tools(session())
            saved = await tools.save_memory("CTR of the Black Friday ads is 2.1%", "metric")
            assert saved.success and saved.memory is not None and saved.memory.memory_type == "metric"
            listed = await tools.get_memory("chronological", memory_type="metric")
            assert [m.memory_id for m in listed.memories] == [saved.memory_id]
            # A type the service was not configured with: refused with the reason, as a result.
            own = await remote.tools(session(opinion="what the user thinks")).save_memory("x", "opinion")
            assert not own.success and "'opinion'" in (own.error_message or "")

    asyncio.run(main())


def test_an_exported_custom_typed_memory_imports_back_typed(cli, db_path: str, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    from hipocampo import Memory

    monkeypatch.setenv("HIPOCAMPO_MEMORY_TYPES", json.dumps({"*": MARKETING}))
    with Memory.open(db_path) as mem:
        mem.remember("ana", "Black Friday campaign runs until Sunday", memory_type="campaign")
    saved = tmp_path / "ana.json"
    cli("export", "ana", "--out", str(saved))
    cli("forget", "ana", "--yes")
    monkeypatch.delenv("HIPOCAMPO_MEMORY_TYPES")  # the metadata carries the type back, configured or not
    cli("import", str(saved))
    (fact,) = cli.json("memories", "ana", "--kind", "fact")
    assert (fact["memory_type"], fact["content"]) == ("campaign", "Black Friday campaign runs until Sunday")
