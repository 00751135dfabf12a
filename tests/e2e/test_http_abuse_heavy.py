"""Heavy routes held by one tenant, over real HTTP on loopback (SQLite, and Postgres with Redis).

Exports, user metrics and user deletions each walk a whole user, so a tenant runs only a few at
once. Those slots are the tenant's own: another tenant's exports, metrics and deletions, and the
inspector's "forget user", answer as if nothing else ran. A deletion never waits behind an export,
not even the same tenant's: the right to erasure must not depend on anyone's open socket. And an
export whose client stops reading is cut after ``HIPOCAMPO_STREAM_IDLE_SECONDS``, giving its slot
back (a few seconds here; 30 s by default).
"""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, closing

import httpx
import pytest
from live_http import LiveServer, live_server

from hipocampo.client import AsyncMemory
from hipocampo.domain.tenancy import KeyRole
from hipocampo.services import tenancy
from hipocampo.testing import deps_of

pytestmark = pytest.mark.backends()

HELD_SECONDS = 300
"""The idle time where a test holds its slots for a while: no stream is cut before it ends."""
IDLE_SECONDS = 4
"""The idle time where a test waits for the cut."""
BIG = "lorem ipsum dolor sit amet " * 1500  # ~40 KB a message: 200 of them (8 MB) outgrow every buffer


async def setup(mem: AsyncMemory) -> dict[str, str]:
    """alpha has a big user (``big``) and small ones; beta has small ones. Admin keys, for metrics."""
    tokens = {}
    for tenant in ("alpha", "beta"):
        await tenancy.create_tenant(deps_of(mem), tenant, requests_per_minute=100_000)
        tokens[tenant] = (await tenancy.issue_key(deps_of(mem), tenant, role=KeyRole.ADMIN))[1]
        for user in ("bia", "cid", "dora"):
            await mem.add(user, "t1", [f"{user} says hello"], tenant_id=tenant)
    for start in range(0, 200, 50):
        await mem.add("big", "t1", [f"#{i} {BIG}" for i in range(start, start + 50)], tenant_id="alpha")
    return tokens


@pytest.fixture
def server(db_path: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setenv("HIPOCAMPO_STREAM_IDLE_SECONDS", str(HELD_SECONDS))
    with live_server(db_path, setup) as live:
        yield live


@pytest.fixture
def cutting_server(db_path: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setenv("HIPOCAMPO_STREAM_IDLE_SECONDS", str(IDLE_SECONDS))
    with live_server(db_path, setup) as live:
        yield live


def stalled_export(server: LiveServer, tenant: str, user: str) -> socket.socket:
    """A client that asks for an export, reads the status line and then stops reading. Its tiny
    receive buffer (no kernel autotuning) makes the server wait on it, holding its slot."""
    host, port = server.url.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(30)
    sock.connect((host, int(port)))
    request = (
        f"GET /v1/users/{user}/export HTTP/1.1\r\nHost: {host}:{port}\r\n"
        f"Authorization: Bearer {server.tokens[tenant]}\r\n\r\n"
    )
    sock.sendall(request.encode())
    head = sock.recv(1024)
    assert head.startswith(b"HTTP/1.1 200") and b"application/x-ndjson" in head, head
    return sock


def busy(r: httpx.Response) -> bool:
    if r.status_code != 503:
        return False
    assert r.json()["error"] == "busy" and int(r.headers["retry-after"]) >= 1, r.text
    return True


def test_one_tenants_stalled_exports_leave_other_tenants_and_deletions_alone(server: LiveServer) -> None:
    alpha, beta = server.client("alpha"), server.client("beta")
    with ExitStack() as stack:
        for _ in range(2):  # HIPOCAMPO_MAX_HEAVY_REQUESTS defaults to 2: alpha holds both its slots
            stack.enter_context(closing(stalled_export(server, "alpha", "big")))
        # alpha itself is at its limit for exports and metrics...
        assert busy(alpha.get("/v1/users/bia/export"))
        assert busy(alpha.get("/v1/admin/users/bia/metrics"))
        # ...but its deletions never wait behind an export,
        r = alpha.delete("/v1/users/cid")
        assert r.status_code == 200 and r.json()["messages"] == 1, r.text
        # and another tenant sees nothing of it: export, metrics, deletion, the inspector's forget.
        r = beta.get("/v1/users/bia/export")
        assert r.status_code == 200, r.text
        assert [json.loads(line)["type"] for line in r.text.splitlines()][-1] == "end", r.text
        assert beta.get("/v1/admin/users/bia/metrics").status_code == 200
        r = beta.delete("/v1/users/cid")
        assert r.status_code == 200 and r.json()["messages"] == 1, r.text
        ui = server.client()
        csrf = re.compile(r'name="csrf" value="([^"]+)"')
        token = csrf.search(ui.get("/ui/login").text).group(1)  # type: ignore[union-attr]
        assert ui.post("/ui/login", data={"csrf": token, "key": server.tokens["beta"]}).status_code == 303
        token = csrf.search(ui.get("/ui/users/dora/forget").text).group(1)  # type: ignore[union-attr]
        r = ui.post("/ui/users/dora/forget", data={"csrf": token, "confirm": "yes"})
        assert r.status_code == 303, r.text
        assert beta.get("/v1/users/dora/threads").json()["threads"] == []


def test_a_stalled_export_is_cut_after_the_idle_time_and_its_slot_comes_back(cutting_server: LiveServer) -> None:
    server = cutting_server
    alpha = server.client("alpha")
    metrics = "/v1/admin/users/bia/metrics"
    # Seeing both slots held needs the second export to start within the idle time of the first.
    # A busy machine may take longer: a slot found free is then only wrong if it came back before
    # the idle time could have passed, and the attempt is made again.
    for _ in range(3):
        opened = time.monotonic()
        with ExitStack() as stack:
            socks = [stack.enter_context(closing(stalled_export(server, "alpha", "big"))) for _ in range(2)]
            if not busy(alpha.get(metrics)):
                assert time.monotonic() - opened >= IDLE_SECONDS, "a slot came back before the idle time"
                continue
            # The sockets stay open and unread: only the idle time can give the slots back.
            deadline = time.monotonic() + IDLE_SECONDS + 20
            while busy(r := alpha.get(metrics)):
                assert time.monotonic() < deadline, "a stalled export kept its slot past the idle time"
                time.sleep(0.2)
            assert r.status_code == 200, r.text
            for sock in socks:  # the server ended each stream: what was sent ends, and no `end` line
                sock.settimeout(10)
                received = b""
                while chunk := sock.recv(1 << 20):
                    received += chunk
                assert b'"type":"end"' not in received
            return
        _wait_until_free(alpha, metrics)
    pytest.fail("three times, the machine was too slow to start two exports within the idle time")


def _wait_until_free(client: httpx.Client, path: str) -> None:
    """The streams of closed sockets end soon, giving their slots back: wait for that."""
    deadline = time.monotonic() + IDLE_SECONDS + 20
    while busy(client.get(path)):
        assert time.monotonic() < deadline, "closed streams kept their slots"
        time.sleep(0.2)
