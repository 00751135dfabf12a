"""Exporting a big user through a real `hipocampo serve`: the answer is streamed JSON Lines with
every message, the server's peak memory stays flat however big the export, and exports and
metrics past the tenant's limit are refused with 503 ``busy`` and Retry-After instead of piling
up (other tenants and deletions: test_http_abuse_heavy.py)."""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from contextlib import ExitStack, closing

import httpx
import pytest
from serve_process import ServeProcess, serve_process

from hipocampo import Memory
from hipocampo.adapters.embedders.fake import FakeEmbedder

pytestmark = [pytest.mark.slow, pytest.mark.backends()]  # starts a server process

MESSAGES = 20_000
TEXT = "lorem ipsum dolor sit amet " * 37  # ~1 KB: the export is ~25 MB of JSON
MiB = 1024


@pytest.fixture(scope="module")
def big_user(module_db: str) -> tuple[str, dict[str, str]]:
    """A store where ana has 20,000 messages in two threads and a few facts (left unindexed:
    the export reads the log and the memory table, not the indexes); and the environment a server
    of that store needs (its Redis, on Postgres: set now, cleared by ``fake_env`` in each test)."""
    db = module_db
    env = {k: v for k, v in os.environ.items() if k == "HIPOCAMPO_REDIS_URL"}
    with Memory.open(db, embedder=FakeEmbedder(), worker="external") as mem:
        for thread in ("t1", "t2"):
            for start in range(0, MESSAGES // 2, 1000):
                mem.add("ana", thread, [f"{thread} #{i} {TEXT}" for i in range(start, start + 1000)])
        for fact in ("Ana is vegan", "Ana lives in Lisbon", "Ana plays chess"):
            mem.remember("ana", fact, memory_type="preference")
        mem.add("bia", "t1", ["Olá"])
    return db, env


@pytest.fixture
def server(big_user: tuple[str, dict[str, str]]):
    db, env = big_user
    command = [sys.executable, "-m", "hipocampo.entrypoints.cli", "--db", db]
    with serve_process(command, "--no-auth", "--no-workers-inprocess", env=env) as s:
        yield s


def export_lines(c: httpx.Client, user: str) -> list[dict]:
    with c.stream("GET", f"/v1/users/{user}/export") as r:
        assert r.status_code == 200 and r.headers["content-type"] == "application/x-ndjson"
        return [json.loads(line) for line in r.iter_lines() if line]


def test_a_big_export_streams_every_message_in_flat_memory(server: ServeProcess) -> None:
    c = httpx.Client(base_url=server.url, timeout=120)
    export_lines(c, "bia")  # warm the code paths up before measuring
    before = server.peak_rss_kib()
    started = time.monotonic()
    records = export_lines(c, "ana")
    took = time.monotonic() - started
    growth = server.peak_rss_kib() - before

    assert records[0]["type"] == "export" and records[0]["user_id"] == "ana"
    assert records[-1] == {"type": "end", "counts": {"thread": 2, "message": MESSAGES, "memory": 3, "history": 3}}
    messages = [r for r in records if r["type"] == "message"]
    assert len(messages) == len({m["id"] for m in messages}) == MESSAGES
    for thread in ("t1", "t2"):
        seqs = [m["seq"] for m in messages if m["thread_id"] == thread]
        assert len(seqs) == MESSAGES // 2 and seqs == sorted(seqs)
    size_kib = sum(len(m["content"]) for m in messages) // 1024
    # Built in memory, as before, the export cost four times its size (measured: +93 MiB of peak
    # for these 22 MiB); streamed, the peak grows by a few MiB (measured: +4).
    assert growth < 12 * MiB, f"peak RSS grew {growth // MiB} MiB for a {size_kib // MiB} MiB export ({took:.1f} s)"
    c.close()


def stalled_export(server: ServeProcess, user: str) -> socket.socket:
    """A client that asks for an export, reads its first bytes and then stops reading. Its tiny
    receive buffer (no kernel autotuning) makes the server wait on it, holding its slot."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(30)
    sock.connect(("127.0.0.1", server.port))
    sock.sendall(f"GET /v1/users/{user}/export HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
    head = sock.recv(1024)
    assert head.startswith(b"HTTP/1.1 200") and b"application/x-ndjson" in head, head
    return sock


def test_heavy_requests_past_the_limit_get_503_busy(server: ServeProcess) -> None:
    with ExitStack() as stack:
        for _ in range(2):  # HIPOCAMPO_MAX_HEAVY_REQUESTS defaults to 2: hold both slots
            stack.enter_context(closing(stalled_export(server, "ana")))
        c = stack.enter_context(httpx.Client(base_url=server.url, timeout=60))
        for method, path in [("GET", "/v1/users/bia/export"), ("GET", "/v1/admin/users/bia/metrics")]:
            r = c.request(method, path)
            assert r.status_code == 503, f"{method} {path}: {r.status_code} {r.text}"
            assert r.json()["error"] == "busy" and "HIPOCAMPO_MAX_HEAVY_REQUESTS" in r.json()["detail"]
            assert int(r.headers["retry-after"]) >= 1
        assert c.get("/v1/users/bia/threads").status_code == 200  # light requests still pass
        # Deletions have slots of their own: never refused behind exports (here: no such user).
        assert c.delete("/v1/users/nobody").status_code == 404
    # The stalled clients are gone: their slots come back without a restart.
    c = httpx.Client(base_url=server.url, timeout=60)
    deadline = time.monotonic() + 15
    while (r := c.get("/v1/admin/users/bia/metrics")).status_code == 503:
        assert time.monotonic() < deadline, r.text
        time.sleep(0.2)
    assert r.status_code == 200, r.text
    assert [rec["type"] for rec in export_lines(c, "bia")] == ["export", "thread", "message", "end"]
    c.close()
