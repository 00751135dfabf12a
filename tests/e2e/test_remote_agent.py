"""The LangGraph agent with its memory in a hipocampo service: ``RemoteAgentMemory`` against a real
server on loopback, two tenants, the scripted tool-calling model; and MCP at ``/mcp`` of the same app.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import httpx
import pytest
from langchain_core.messages import HumanMessage, SystemMessage, ToolMessage
from live_http import LiveServer, live_server

from hipocampo.agent import SessionConfig
from hipocampo.agent.context import MemoryFlags, load_context
from hipocampo.agent.langgraph import build_agent_graph
from hipocampo.agent.remote import RemoteAgentMemory, ServiceUnavailable, error_from
from hipocampo.agent.scripted_chat import ScriptedToolChatModel, tool_call
from hipocampo.client import AsyncMemory
from hipocampo.domain.errors import ConfigurationError, InvalidInput, NotFound, QuotaExceeded, Unauthorized
from hipocampo.services import tenancy
from hipocampo.testing import deps_of

QUESTION = "Can I order the chicken satay with peanut sauce?"


async def setup(mem: AsyncMemory) -> dict[str, str]:
    tokens = {}
    for tenant, rpm in (("alpha", 100_000), ("beta", 100_000), ("tiny", 1)):
        await tenancy.create_tenant(deps_of(mem), tenant, requests_per_minute=rpm)
        tokens[tenant] = (await tenancy.issue_key(deps_of(mem), tenant))[1]
    return tokens


pytestmark = pytest.mark.backends()


@pytest.fixture(scope="module")
def live(module_db: str):
    with live_server(module_db, setup) as server:
        yield server


def session(thread: str, **kw: Any) -> SessionConfig:
    return SessionConfig(user_id="ana", thread_id=thread, memory_min_relevance=0.0, **kw)


def peanut_aware(messages: list[Any]) -> str:
    """Answers from the system prompt alone: what the memory injected decides the answer."""
    assert isinstance(messages[0], SystemMessage)
    return "No: you are allergic to peanuts." if "peanuts" in messages[0].text else "Sure, enjoy the satay!"


def test_a_remote_agent_remembers_across_sessions_and_tenants_stay_apart(live: LiveServer) -> None:
    async def main() -> None:
        async with RemoteAgentMemory(live.url, live.tokens["alpha"]) as alpha:
            # Session 1: the user never says "peanuts"; only the saved memory can carry it.
            first = ScriptedToolChatModel(
                script=[
                    tool_call("save_memory", content="Ana is allergic to peanuts.", memory_type="critical_info"),
                    "Noted, I will remember your allergy.",
                ]
            )
            a = await build_agent_graph(alpha, session("A"), first).ainvoke(
                {"messages": [HumanMessage("Please remember the allergy I told the nurse about")]}
            )
            saved = next(m for m in a["messages"] if isinstance(m, ToolMessage)).artifact
            assert saved["success"] and saved["memory"]["memory_type"] == "critical_info"
            assert a.get("memory_errors", []) == []

            # The turns are in the service's log under their LangGraph ids; writing them again is a no-op.
            api = live.client("alpha")
            logged = api.get("/v1/users/ana/threads/A/messages").json()["messages"]
            assert [m["content"] for m in logged] == [
                "Please remember the allergy I told the nurse about",
                "Noted, I will remember your allergy.",
            ]
            assert [m["external_id"] for m in logged] == a["memory_persisted"]
            await alpha.persist(
                session("A"), [{"role": "user", "content": logged[0]["content"], "id": logged[0]["external_id"]}]
            )
            assert len(api.get("/v1/users/ana/threads/A/messages").json()["messages"]) == 2
            live.flush()

            # Session 2, another thread: the answer depends on what session 1 saved.
            second = ScriptedToolChatModel(script=[peanut_aware])
            b = await build_agent_graph(alpha, session("B"), second).ainvoke({"messages": [HumanMessage(QUESTION)]})
            assert b["messages"][-1].text == "No: you are allergic to peanuts."
            assert "Ana is allergic to peanuts." in b["memory_context"]

            # The route renders what the in-process agent would, flags included. Session 2's turns
            # are indexed first: indexing them between the two renders would change the second.
            live.flush()
            for flags in (MemoryFlags(), MemoryFlags(recent=False, vectors=False)):
                local = live.call(load_context(live.memory, session("B", tenant_id="alpha"), QUESTION, flags))
                assert await alpha.context(session("B"), QUESTION, flags) == local
            alpha_memory_id = saved["memory_id"]

        # Tenant beta, same user and thread ids: nothing of alpha's reaches its agent.
        async with RemoteAgentMemory(live.url, live.tokens["beta"]) as beta:
            third = ScriptedToolChatModel(script=[peanut_aware])
            c = await build_agent_graph(beta, session("B"), third).ainvoke({"messages": [HumanMessage(QUESTION)]})
            assert c["messages"][-1].text == "Sure, enjoy the satay!"
            assert "peanuts" not in c["memory_context"]
            tools = beta.tools(session("B"))
            assert (await tools.get_memory(mode="chronological")).memories == []
            found = (await tools.get_memory(query="allergic to peanuts")).memories
            assert all("allergic" not in m.content for m in found)  # beta's own turn may come back
            refused = await tools.delete_memory(alpha_memory_id)
            assert not refused.success and refused.error_message
        assert live.client("alpha").get(f"/v1/users/ana/memories/{alpha_memory_id}").status_code == 200

    asyncio.run(main())


def test_remote_refusals_become_domain_errors(live: LiveServer) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed_port = s.getsockname()[1]

    async def main() -> None:
        async with RemoteAgentMemory(live.url, "hk_0123_not-a-secret") as forged:
            with pytest.raises(Unauthorized):
                await forged.context(session("A"), "anything")
            with pytest.raises(Unauthorized):
                await forged.persist(session("A"), [{"role": "user", "content": "hi", "id": "m1"}])
            # Tools answer the model instead of raising, as the in-process tools do.
            result = await forged.tools(session("A")).save_memory("Ana sings", "preference")
            assert not result.success and "API key" in (result.error_message or "")
            # And the agent still answers, the failures recorded.
            out = await build_agent_graph(forged, session("A"), ScriptedToolChatModel(script=["Hi!"])).ainvoke(
                {"messages": [HumanMessage("hello")]}
            )
            assert out["messages"][-1].text == "Hi!"
            assert [e.split(":")[:2] for e in out["memory_errors"]] == [
                ["load_memory", " Unauthorized"],
                ["persist_memory", " Unauthorized"],
            ]

        async with RemoteAgentMemory(live.url, live.tokens["alpha"]) as alpha:
            with pytest.raises(InvalidInput, match="role"):
                await alpha.persist(session("A"), [{"role": "robot", "content": "beep"}])
            bad_type = await alpha.tools(session("A")).save_memory("Ana sings", "hobby")
            assert not bad_type.success and "memory_type" in (bad_type.error_message or "")
            with pytest.raises(ConfigurationError, match="ainvoke"):  # a remote memory is async only
                build_agent_graph(alpha, session("A"), ScriptedToolChatModel(script=["x"])).invoke(
                    {"messages": [HumanMessage("hello")]}
                )

        async with RemoteAgentMemory(f"{live.url}/nowhere", live.tokens["alpha"]) as misplaced:
            with pytest.raises(NotFound):
                await misplaced.context(session("A"), "anything")

        async with RemoteAgentMemory(live.url, live.tokens["tiny"]) as tiny:  # one request a minute
            await tiny.context(session("A"), "anything")
            with pytest.raises(QuotaExceeded) as limited:
                await tiny.context(session("A"), "anything")
            assert (limited.value.retry_after_seconds or 0) >= 1

        async with RemoteAgentMemory(f"http://127.0.0.1:{closed_port}", "hk_x", retries=1, backoff=0) as down:
            with pytest.raises(ServiceUnavailable, match="did not answer"):
                await down.context(session("A"), "anything")

    asyncio.run(main())


def test_transient_failures_are_retried_and_error_bodies_mapped() -> None:
    answers = iter(
        [
            httpx.ConnectError("refused"),
            httpx.Response(503, json={"error": "unavailable", "detail": "busy"}),
            httpx.Response(200, json={"context": "remembered", "flags": {}}),
        ]
    )
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def main() -> None:
        async with httpx.AsyncClient(transport=httpx.MockTransport(handler), base_url="http://memory.test") as http:
            remote = RemoteAgentMemory("", "hk_key", backoff=0, http_client=http)
            assert await remote.context(session("t 1"), "q") == "remembered"

    asyncio.run(main())
    assert [r.url.path for r in seen] == ["/v1/users/ana/context"] * 3
    assert seen[0].headers["authorization"] == "Bearer hk_key"
    weird = error_from(httpx.Response(418, text="teapot"))
    assert type(weird).__name__ == "HipocampoError" and "418" in str(weird)


def test_mcp_at_the_service_saves_and_reads_for_the_keys_tenant(live: LiveServer) -> None:
    pytest.importorskip("mcp")
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async def call(tenant: str, tool: str, **arguments: Any) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {live.tokens[tenant]}", "X-Hipocampo-User": "mia"}
        transport = streamable_http_client(f"{live.url}/mcp", http_client=create_mcp_http_client(headers=headers))
        async with Client(transport) as client:
            result = await client.call_tool(tool, arguments)
            assert not result.is_error, result
            return result.structured_content or {}

    async def main() -> None:
        saved = await call("alpha", "save_memory", content="Mia collects stamps.", memory_type="preference")
        assert saved["success"] and saved["memory"]["thread_id"] == "mcp"
        listed = await call("alpha", "get_memory", mode="chronological")
        assert [m["content"] for m in listed["memories"]] == ["Mia collects stamps."]
        assert (await call("beta", "get_memory", mode="chronological"))["memories"] == []

    asyncio.run(main())
    via_api = live.client("alpha").get("/v1/users/mia/memories").json()["memories"]
    assert [m["content"] for m in via_api] == ["Mia collects stamps."]
    assert live.client("beta").get("/v1/users/mia/memories").json()["memories"] == []
    assert "/mcp" not in live.client().get("/openapi.json").json()["paths"]
    assert httpx.post(f"{live.url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).status_code == 401


def test_mcp_follows_the_service_auth_mode_and_survives_restarts(db_path: str) -> None:
    pytest.importorskip("mcp")
    import httpx2  # the MCP SDK's HTTP client
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    from hipocampo.adapters.embedders.fake import FakeEmbedder
    from hipocampo.entrypoints.http import create_app

    async def main() -> None:
        async with await AsyncMemory.open(db_path, embedder=FakeEmbedder()) as mem:
            app = create_app(mem, auth=False, local_tenant="local")  # `hipocampo serve --no-auth`
            for attempt in range(2):  # the SDK's session manager runs once: each start builds a new one
                http = httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), headers={"X-Hipocampo-User": "ana"})
                async with app.router.lifespan_context(app), http:
                    transport = streamable_http_client("http://localhost/mcp", http_client=http)
                    async with Client(transport) as client:
                        args = {"content": f"Ana ran {attempt}", "memory_type": "goal"}
                        result = await client.call_tool("save_memory", args)
                        assert not result.is_error, result
            assert sorted(m.content for m in await mem.list("ana", tenant_id="local")) == ["Ana ran 0", "Ana ran 1"]

    asyncio.run(main())


def test_the_service_starts_without_the_mcp_sdk(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import sys

    from hipocampo.entrypoints.http import create_app
    from hipocampo.settings import Settings

    monkeypatch.setitem(sys.modules, "hipocampo.entrypoints.mcp_server", None)  # as if `mcp` were missing
    with caplog.at_level("INFO", logger="hipocampo.http"):
        app = create_app(settings=Settings(db="unused.db", embedder="fake"))
    assert "/mcp" not in {getattr(r, "path", None) for r in app.routes}
    assert [r.message for r in caplog.records if "MCP" in r.message] == [
        "no MCP endpoint at /mcp: the MCP SDK is not installed (pip install 'hipocampo[mcp]')"
    ]
