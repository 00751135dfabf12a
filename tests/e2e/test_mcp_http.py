"""`hipocampo mcp --transport http`: API keys, per-request users and tenant isolation, with the SDK's
streamable HTTP client against a real server process; and the endpoint routed inside a FastAPI app."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

pytest.importorskip("mcp")

import httpx2  # noqa: E402 - the MCP SDK's HTTP client
from fastapi import FastAPI  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: E402

from hipocampo import AsyncMemory  # noqa: E402
from hipocampo.adapters.embedders.fake import FakeEmbedder  # noqa: E402
from hipocampo.entrypoints.mcp_server import mcp_asgi_app  # noqa: E402
from hipocampo.services import tenancy  # noqa: E402
from hipocampo.testing import deps_of

pytestmark = [pytest.mark.slow, pytest.mark.backends()]  # starts a server process


@dataclass
class Service:
    url: str
    keys: dict[str, str]  # tenant -> token

    @asynccontextmanager
    async def client(self, tenant: str | None, user: str | None = "ana", **headers: str) -> AsyncIterator[Client]:
        if tenant is not None:
            headers["Authorization"] = f"Bearer {self.keys[tenant]}"
        if user is not None:
            headers["X-Hipocampo-User"] = user
        transport = streamable_http_client(self.url, http_client=create_mcp_http_client(headers=headers))
        async with Client(transport) as client:
            yield client


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


TENANTS: dict[str, dict[str, Any]] = {
    "acme": {},
    "globex": {},
    "small": {"max_memories": 1},
    "slow": {"requests_per_minute": 2},
}


async def _tenants_with_keys(db_path: str) -> dict[str, str]:
    async with await AsyncMemory.open(db_path, embedder=FakeEmbedder()) as mem:
        keys = {}
        for tenant, quotas in TENANTS.items():
            await tenancy.create_tenant(deps_of(mem), tenant, **quotas)
            _, keys[tenant] = await tenancy.issue_key(deps_of(mem), tenant, name="mcp test")
        await mem.remember("ana", "Ana sings", memory_type="preference", tenant_id="small")  # its quota is full
        return keys


@pytest.fixture
def service(cli_command: list[str], db_path: str) -> Iterator[Service]:
    keys = asyncio.run(_tenants_with_keys(db_path))
    port = _free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    proc = subprocess.Popen(
        [*cli_command, "mcp", "--transport", "http", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.communicate()[1]
            try:
                httpx.get(url, timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the MCP server did not start"
                time.sleep(0.1)
        yield Service(url, keys)
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


async def call(client: Client, tool: str, **arguments: Any) -> tuple[bool, dict[str, Any]]:
    result = await client.call_tool(tool, arguments)
    return bool(result.is_error), result.structured_content or {}


def test_requests_need_a_valid_key_and_a_user(service: Service) -> None:
    ping = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    refused = httpx.post(service.url, json=ping)
    assert refused.status_code == 401
    assert refused.headers["www-authenticate"].startswith("Bearer")
    assert refused.json()["error"] == "unauthorized"
    forged = httpx.post(service.url, json=ping, headers={"Authorization": "Bearer hk_0123_not-a-secret"})
    assert forged.status_code == 401
    no_user = httpx.post(service.url, json=ping, headers={"Authorization": f"Bearer {service.keys['acme']}"})
    assert no_user.status_code == 422 and "X-Hipocampo-User" in no_user.json()["detail"]

    async def main() -> None:
        with pytest.raises(Exception):  # noqa: B017 - the SDK wraps the 401 in its own error groups
            async with service.client(tenant=None):
                pass
        async with service.client("acme") as ana:
            assert {t.name for t in (await ana.list_tools()).tools} >= {"get_memory", "save_memory", "recall"}

    asyncio.run(main())


def test_quotas_count_requests_and_memories(service: Service) -> None:
    ping = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Authorization": f"Bearer {service.keys['slow']}", "X-Hipocampo-User": "ana"}
    answers = [httpx.post(service.url, json=ping, headers=headers) for _ in range(3)]
    assert [a.status_code for a in answers][-1] == 429
    assert int(answers[-1].headers["retry-after"]) >= 1

    async def main() -> None:
        async with service.client("small") as ana:
            is_error, refused = await call(ana, "save_memory", content="Ana dances", memory_type="preference")
            assert is_error and "its plan allows 1" in refused["error_message"]

    asyncio.run(main())


def test_tenants_and_users_never_see_each_others_memory(service: Service) -> None:
    async def main() -> None:
        async with service.client("acme", **{"X-Hipocampo-Thread": "support"}) as acme_ana:
            is_error, saved = await call(acme_ana, "save_memory", content="Ana is vegan", memory_type="preference")
            assert not is_error, saved
            assert saved["memory"]["thread_id"] == "support"
            memory_id = saved["memory_id"]
        async with service.client("globex") as globex_ana:  # same user id, another tenant
            _, newest = await call(globex_ana, "get_memory", mode="chronological")
            assert newest["memories"] == []
            is_error, _ = await call(globex_ana, "update_memory", memory_id=memory_id, new_content="Ana eats meat")
            assert is_error
            is_error, _ = await call(globex_ana, "delete_memory", memory_id=memory_id)
            assert is_error
        async with service.client("acme", user="bob") as acme_bob:
            _, newest = await call(acme_bob, "get_memory", mode="chronological")
            assert newest["memories"] == []
        async with service.client("acme") as acme_ana:
            _, newest = await call(acme_ana, "get_memory", mode="chronological")
            assert [m["content"] for m in newest["memories"]] == ["Ana is vegan"]

    asyncio.run(main())


def test_the_endpoint_routed_inside_a_fastapi_app(db_path: str) -> None:
    """What the HTTP service does: route the app at /mcp and run its lifespan in the service's."""

    async def main() -> None:
        async with await AsyncMemory.open(db_path, embedder=FakeEmbedder()) as mem:
            mcp = mcp_asgi_app(lambda: mem, auth=False, tenant_id="local")

            @asynccontextmanager
            async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
                async with mcp.lifespan():
                    yield

            app = FastAPI(lifespan=lifespan)
            app.add_route("/mcp", mcp, include_in_schema=False)
            http = httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), headers={"X-Hipocampo-User": "ana"})
            async with app.router.lifespan_context(app), http:
                transport = streamable_http_client("http://service.test/mcp", http_client=http)
                async with Client(transport) as client:
                    is_error, saved = await call(client, "save_memory", content="Ana runs", memory_type="goal")
                    assert not is_error, saved
            assert [m.content for m in await mem.list("ana", tenant_id="local")] == ["Ana runs"]

    asyncio.run(main())
