"""DNS rebinding: `hipocampo serve --no-auth` answers only for the host names it is meant to,
on every route (REST, the docs, the probes and the mounted /mcp), with 421 and the house error."""

from __future__ import annotations

import httpx
import pytest
from serve_process import serve_process

pytestmark = [pytest.mark.slow, pytest.mark.backends()]  # starts server processes

RPC = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "X-Hipocampo-User": "ana"}


def test_serve_without_keys_refuses_foreign_hosts_everywhere(cli_command: list[str]) -> None:
    with serve_process(cli_command, "--no-auth") as s:
        for host in ("evil.example", f"evil.example:{s.port}", f"localhost.evil.example:{s.port}"):
            for method, path, body, headers in [
                ("GET", "/v1/users", None, {}),
                ("POST", "/v1/users/ana/memories", {"content": "planted by a web page"}, {}),
                ("GET", "/v1/users/ana/export", None, {}),
                ("GET", "/api/v1/memory/search?user_id=ana&query=x", None, {}),
                ("POST", "/mcp", RPC, MCP_HEADERS),
                ("GET", "/openapi.json", None, {}),
                ("GET", "/readyz", None, {}),
                ("GET", "/nowhere", None, {}),
            ]:
                r = httpx.request(method, s.url + path, json=body, headers={**headers, "Host": host})
                assert r.status_code == 421, f"{method} {path} as {host}: {r.status_code} {r.text}"
                assert r.json()["error"] == "misdirected_request" and "HIPOCAMPO_ALLOWED_HOSTS" in r.json()["detail"]
        for host in (f"localhost:{s.port}", f"127.0.0.1:{s.port}", f"[::1]:{s.port}", "localhost"):
            r = httpx.get(s.url + "/v1/users", headers={"Host": host})
            assert r.status_code == 200, f"{host}: {r.text}"
        mcp = httpx.post(s.url + "/mcp", json=RPC, headers={**MCP_HEADERS, "Host": f"localhost:{s.port}"})
        assert mcp.status_code in (200, 404), mcp.text  # 404: the mcp extra is not installed
        assert httpx.get(s.url + "/v1/users").json() == {"users": []}  # nothing was planted
    assert "answering for hosts: localhost, 127.0.0.1, [::1]" in s.output


def test_allowed_hosts_come_from_the_option_or_the_environment(cli_command: list[str]) -> None:
    options = ("--allowed-host", "memory.test", "--allowed-host", "127.0.0.1")  # the list replaces the default
    with serve_process(cli_command, "--no-auth", *options) as s:
        assert httpx.get(s.url + "/v1/users", headers={"Host": f"memory.test:{s.port}"}).status_code == 200
        assert httpx.get(s.url + "/v1/users", headers={"Host": "localhost"}).status_code == 421
    with serve_process(cli_command, "--no-auth", env={"HIPOCAMPO_ALLOWED_HOSTS": "*"}) as s:
        assert httpx.get(s.url + "/v1/users", headers={"Host": "anything.example"}).status_code == 200
