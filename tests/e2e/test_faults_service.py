"""Faults and load against real ``hipocampo serve`` processes on Postgres (+ Redis).

1. Postgres restarts (a fast restart, then a crash-like immediate stop with the server down for
   :data:`DOWN_S`) under writes from concurrent clients: every answer is a 201 or a retriable 503
   with ``Retry-After`` (never a 500, never a hang past the client timeout), writes succeed again
   without restarting anything, and every acknowledged message is stored and indexed once.
2. Redis stopped under a read load (recall with the recent window): every read still answers 200
   with the right window (from the log), the fallback metric grows, and once Redis is back the
   windows are cached in Redis again.
3. Many tenants and users writing and reading at once: no answer ever carries another user's
   marker.

Each test gets a fresh migrated database on the engines' Postgres; the Redis test a leased empty
Redis database. The figures these tests print are the ones in docs/reliability.md.
"""

from __future__ import annotations

import asyncio
import os
import re
import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg
import pytest
import redis
from engines import create_pg_database, restart_pg, start_pg, start_redis, stop_pg, stop_redis, wait_for_pg
from serve_process import ServeProcess, serve_process

from hipocampo import AsyncMemory
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.adapters.postgres.db import PostgresDatabase
from hipocampo.adapters.postgres.schema import migrate
from hipocampo.adapters.redis.link import PAUSE_SECONDS
from hipocampo.domain.errors import StorageUnavailable
from hipocampo.domain.model import Scope
from hipocampo.services import tenancy
from hipocampo.services.ingest import recent_cache_key
from hipocampo.testing import deps_of

CLIENT_TIMEOUT_S = 20.0
"""Every request's client timeout: an answer later than this is a hang, and fails the test."""


_ENGINES_ENV = {
    k: v
    for k, v in os.environ.items()
    if k
    in (
        "HIPOCAMPO_ENGINES_DIR",
        "HIPOCAMPO_PG_PORT",
        "HIPOCAMPO_REDIS_PORT",
        "HIPOCAMPO_PG_FSYNC",
        "HIPOCAMPO_TEST_PG_URL",
        "HIPOCAMPO_TEST_REDIS_URL",
        "HIPOCAMPO_TEST_ENGINES",
    )
}
"""Read at import, before ``fake_env`` clears every ``HIPOCAMPO_*`` variable: the faults must hit
the servers the tests use (``engines.sh restart-pg`` reads where they are from these)."""


@pytest.fixture(autouse=True)
def engines_env(fake_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in _ENGINES_ENV.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def pg_store(pg_url: str) -> Iterator[str]:
    """A fresh, migrated Postgres database for this test."""
    url, drop = create_pg_database(pg_url, prefix="hipo_fault")
    try:
        asyncio.run(migrate(url))
        yield url
    finally:
        drop()


def cli(url: str) -> list[str]:
    return [sys.executable, "-m", "hipocampo.entrypoints.cli", "--db", url]


async def provision(url: str, tenants: list[str]) -> dict[str, str]:
    """Create ``tenants`` (no request rate limit) with one API key each: tenant -> key."""
    mem = await AsyncMemory.open(url, embedder=FakeEmbedder(), worker="external")
    try:
        keys = {}
        for tenant in tenants:
            await tenancy.create_tenant(deps_of(mem), tenant, requests_per_minute=None)
            keys[tenant] = (await tenancy.issue_key(deps_of(mem), tenant))[1]
        return keys
    finally:
        await mem.close()


def metric(server: ServeProcess, name: str, labels: str) -> float:
    body = httpx.get(f"{server.url}/metrics", timeout=CLIENT_TIMEOUT_S).text
    found = re.search(rf"^{re.escape(name)}{{{re.escape(labels)}}} (\S+)$", body, re.M)
    return float(found.group(1)) if found else 0.0


def pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))] if values else 0.0


# -- Postgres restarts under writes ------------------------------------------------------------

WRITERS = 6
"""Concurrent clients writing (each its own connection), across two server processes."""
LOAD_BEFORE_S = 2.0
"""Load before each fault (and between faults once writes succeed again)."""
LOAD_AFTER_S = 3.0
"""Load after the last fault: every write of this phase must succeed at the first try."""
DOWN_S = 2.0
"""How long Postgres stays down in the crash-like (immediate stop) fault."""
RETRY_PAUSE_S = 0.1
"""A client retries a 503 after this (it would honour Retry-After; short here to time the recovery)."""
OUTAGE_S = 4.0
"""Postgres down for longer than the pool retries one connection (``RECONNECT_SECONDS``)."""
RECOVERED_WITHIN_S = 5.0
"""Every client has a write acknowledged within this long after Postgres accepts connections again
(measured: 0.2-1.1 s; before the pool's reconnection was driven, 6.4 s once after an 8 s outage)."""
DRAIN_S = 30.0
"""Half the default job lease: jobs left leased by a round that the outage broke would exceed it."""


@dataclass
class Attempt:
    began: float
    ended: float
    status: int  # 0: transport error or timeout
    error: str = ""
    retry_after: str | None = None
    server: int = 0


@dataclass
class Writer:
    n: int
    key: str
    servers: list[str]
    stop: threading.Event
    attempts: list[Attempt] = field(default_factory=list)
    acked: dict[str, str] = field(default_factory=dict)  # stored message id -> content

    @property
    def user(self) -> str:
        return ("ana", "bob", "carla")[self.n % 3]

    def run(self) -> None:
        clients = [
            httpx.Client(base_url=url, headers={"Authorization": f"Bearer {self.key}"}, timeout=CLIENT_TIMEOUT_S)
            for url in self.servers
        ]
        try:
            i = 0
            while not self.stop.is_set():
                contents = [f"w{self.n} n{i} part {j} {uuid.uuid4().hex[:6]}" for j in range(2)]
                body = {"messages": [{"content": c, "id": f"w{self.n}-n{i}-{j}"} for j, c in enumerate(contents)]}
                while True:  # the same write (same message ids) until it is acknowledged
                    server = len(self.attempts) % len(clients)  # alternate, retries included
                    client = clients[server]
                    began = time.monotonic()
                    try:
                        answer = client.post(f"/v1/users/{self.user}/threads/t{self.n}/messages", json=body)
                    except httpx.HTTPError as exc:
                        self.attempts.append(Attempt(began, time.monotonic(), 0, type(exc).__name__, None, server))
                        time.sleep(RETRY_PAUSE_S)
                        continue
                    ended = time.monotonic()
                    body_ = answer.json()
                    error = "" if answer.status_code == 201 else f"{body_.get('error')}: {body_.get('detail')}"
                    self.attempts.append(
                        Attempt(began, ended, answer.status_code, error, answer.headers.get("retry-after"), server)
                    )
                    if answer.status_code == 201:
                        for m in body_["messages"]:
                            self.acked[m["id"]] = m["content"]
                        break
                    if self.stop.is_set() and answer.status_code != 503:
                        break
                    time.sleep(RETRY_PAUSE_S)
                i += 1
        finally:
            for c in clients:
                c.close()


def stalled(writers: list[Writer], began: float, back: float) -> str:
    """Why the writes did not recover in time: each writer's attempts since the fault began."""
    lines = [f"writes did not recover within {RECOVERED_WITHIN_S} s after postgres was back (at {back - began:.2f} s)"]
    for w in writers:
        tried = [
            f"{a.began - began:.2f}-{a.ended - began:.2f}s:{a.status}{'/' + a.error[:60] if a.error else ''}@{a.server}"
            for a in w.attempts
            if a.ended >= began
        ]
        lines.append(f"  writer {w.n}: {', '.join(tried) or 'no attempt answered since'}")
    return "\n".join(lines)


def thread_messages(client: httpx.Client, user: str, thread: str) -> list[dict]:
    out: list[dict] = []
    after = -1
    while True:
        page = client.get(f"/v1/users/{user}/threads/{thread}/messages", params={"after_seq": after, "limit": 1000})
        assert page.status_code == 200, page.text
        body = page.json()
        out += body["messages"]
        if body["next_after_seq"] is None:
            return out
        after = body["next_after_seq"]


@pytest.mark.slow
def test_postgres_restarts_under_writes_answer_503_then_recover_without_losing_a_message(
    pg_store: str, pg_url: str, tmp_path: Path
) -> None:
    key = asyncio.run(provision(pg_store, ["acme"]))["acme"]
    env = {"HIPOCAMPO_CONSOLIDATION": "false"}
    faults: list[dict[str, float | str]] = []
    with serve_process(cli(pg_store), env=env) as one, serve_process(cli(pg_store), env=env) as two:
        stop = threading.Event()
        writers = [Writer(n, key, [one.url, two.url], stop) for n in range(WRITERS)]
        try:
            with ThreadPoolExecutor(WRITERS) as pool:
                running = [pool.submit(w.run) for w in writers]
                try:
                    for kind in ("restart", "immediate stop"):
                        time.sleep(LOAD_BEFORE_S)
                        began = time.monotonic()
                        if kind == "restart":
                            restart_pg()
                        else:
                            stop_pg("immediate")
                            time.sleep(DOWN_S)
                            start_pg()
                        back = time.monotonic()
                        faults.append({"kind": kind, "began": began, "back": back})
                        wait_for_pg(pg_url)
                        # Writes must succeed again without restarting anything, within the bound.
                        deadline = back + RECOVERED_WITHIN_S
                        while not all(any(a.status == 201 and a.began > back for a in w.attempts) for w in writers):
                            assert time.monotonic() < deadline, stalled(writers, began, back)
                            assert not any(f.done() for f in running), [f.result() for f in running if f.done()]
                            time.sleep(0.05)
                    time.sleep(LOAD_AFTER_S)
                finally:
                    stop.set()
                    for f in running:
                        f.result(timeout=2 * CLIENT_TIMEOUT_S)
        finally:
            start_pg()  # whatever happened, the next tests find Postgres running
            wait_for_pg(pg_url)

        attempts = sorted((a for w in writers for a in w.attempts), key=lambda a: a.began)
        statuses = Counter(a.status for a in attempts)
        slowest = max(a.ended - a.began for a in attempts)
        report = [f"\npostgres faults: {len(attempts)} requests, statuses {dict(statuses)}, slowest {slowest:.2f} s"]
        for fault in faults:
            began, back = float(fault["began"]), float(fault["back"])
            until = next((float(f["began"]) for f in faults if float(f["began"]) > began), float("inf"))
            window = [a for a in attempts if began <= a.ended < until]  # answered after it began
            first_ok = min(a.ended for a in window if a.status == 201 and a.began >= back)
            every_ok = max(
                min(a.ended for a in w.attempts if a.status == 201 and back <= a.began and a.ended < until)
                for w in writers
            )
            last_503 = max((a.ended for a in window if a.status == 503), default=began)
            report.append(
                f"  {fault['kind']}: postgres back after {back - began:.2f} s; first write acknowledged "
                f"{first_ok - began:.2f} s after the fault began ({first_ok - back:.2f} s after postgres was "
                f"back, every writer's {every_ok - back:.2f} s after); 503s: {sum(a.status == 503 for a in window)}, "
                f"the last {last_503 - began:.2f} s in "
                f"(at {[(round(a.ended - began, 2), a.server) for a in window if a.status == 503]} s, server: "
                f"{dict(Counter(a.error.split('(')[-1].split(')')[0] for a in window if a.status == 503))})"
            )
        print("\n".join(report))

        # Only 201 or a retriable 503 (with Retry-After), never a 500 or a transport error.
        assert set(statuses) <= {201, 503}, [(a.status, a.error) for a in attempts if a.status not in (201, 503)][:5]
        for a in attempts:
            if a.status == 503:
                assert a.error.startswith("storage_unavailable:") and a.retry_after and int(a.retry_after) >= 1, a
        assert slowest < CLIENT_TIMEOUT_S
        # After the last fault, every write succeeds at its first try.
        calm = faults[-1]["back"] + 2.0  # type: ignore[operator]
        late = [a for a in attempts if a.began > calm]
        assert late and all(a.status == 201 for a in late), Counter(a.status for a in late)

        # Servers and their workers recover: ready again, and they drain the queue (no job dead).
        client = httpx.Client(base_url=one.url, headers={"Authorization": f"Bearer {key}"}, timeout=CLIENT_TIMEOUT_S)
        with client, psycopg.connect(pg_store, autocommit=True) as conn:
            for server in (one, two):
                assert httpx.get(f"{server.url}/readyz", timeout=CLIENT_TIMEOUT_S).status_code == 200
            drained_from = time.monotonic()
            while True:
                left = conn.execute("SELECT status, count(*) FROM jobs GROUP BY 1").fetchall()
                if not [s for s, _ in left if s != "dead"]:
                    break
                assert time.monotonic() - drained_from < DRAIN_S, f"the queue did not drain: {left}"
                time.sleep(0.2)
            print(f"  queue drained {time.monotonic() - drained_from:.1f} s after the load ended")
            assert left == [], f"jobs left: {left}"

            # Every acknowledged message is stored once and indexed once.
            acked = {mid: content for w in writers for mid, content in w.acked.items()}
            stored = [m for w in writers for m in thread_messages(client, w.user, f"t{w.n}")]
            assert Counter(m["id"] for m in stored) == Counter(list(acked)), "a message lost or stored twice"
            assert {m["id"]: m["content"] for m in stored} == acked
            rows = conn.execute(
                "SELECT m.id, count(v.memory_id), count(k.memory_id) FROM memories m"
                " LEFT JOIN vectors v ON v.memory_id = m.id LEFT JOIN keywords k ON k.memory_id = m.id"
                " WHERE m.kind = 'turn' GROUP BY m.id"
            ).fetchall()
            assert {r[0] for r in rows} == {f"turn_{mid}" for mid in acked}
            assert all(r[1:] == (1, 1) for r in rows)
            print(f"  {len(acked)} messages acknowledged, all stored and indexed once")


@pytest.mark.slow
def test_a_request_waiting_through_an_outage_is_served_once_postgres_is_back(pg_store: str, pg_url: str) -> None:
    """The pool's own retries give up during a longer outage, with no new request to start more:
    the requests already waiting for a connection must still be served soon after the server is
    back, not when their wait times out (which a CI run once saw as writes stalled for 5 s)."""

    async def scenario() -> tuple[float, float]:
        db = await PostgresDatabase.open(pg_store, max_size=2, timeout_s=15.0)
        try:
            async with db.connection() as conn:
                await conn.execute("SELECT 1")
            stop_pg("immediate")
            try:
                # The pooled connection is broken: this call fails, and the pool starts recovering
                # while nothing else waits.
                with pytest.raises(StorageUnavailable):
                    async with db.connection() as conn:
                        await conn.execute("SELECT 1")
                await asyncio.sleep(0.3)

                async def waiting() -> float:
                    async with db.connection() as conn:
                        await conn.execute("SELECT 1")
                    return time.monotonic()

                request = asyncio.create_task(waiting())
                await asyncio.sleep(OUTAGE_S)  # longer than the pool's retries of one connection
                assert not request.done()
            finally:
                await asyncio.to_thread(start_pg)
            back = time.monotonic()
            served = await request
            return back, served
        finally:
            await db.close()

    try:
        back, served = asyncio.run(scenario())
    finally:
        start_pg()
        wait_for_pg(pg_url)
    print(f"\nwaiting request served {served - back:.2f} s after postgres was back from a {OUTAGE_S} s outage")
    assert served - back < 3.0


# -- Redis stopped under reads -------------------------------------------------------------------

READERS = 4
THREADS = 6
"""Threads with a recent window, read round-robin by the readers."""
PHASE_S = 3.0
"""Read load in each phase: Redis up, Redis down, Redis back."""
PREFIX = "hipo-fault:"


@dataclass
class Read:
    phase: str
    began: float
    ended: float
    status: int
    right_window: bool


def read_load(server: ServeProcess, key: str, windows: dict[str, list[str]], phase: str, seconds: float) -> list[Read]:
    """Recalls with a thread (its recent window comes first) from :data:`READERS` clients."""
    reads: list[Read] = []
    lock = threading.Lock()

    def reader(r: int) -> None:
        end = time.monotonic() + seconds
        with httpx.Client(
            base_url=server.url, headers={"Authorization": f"Bearer {key}"}, timeout=CLIENT_TIMEOUT_S
        ) as c:
            i = r
            while time.monotonic() < end:
                thread = f"t{i % THREADS}"
                began = time.monotonic()
                try:
                    answer = c.post("/v1/users/ana/recall", json={"query": "what did I say", "thread_id": thread})
                except httpx.HTTPError:
                    read = Read(phase, began, time.monotonic(), 0, False)
                else:
                    recent = [m["content"] for m in answer.json()["recent"]] if answer.status_code == 200 else None
                    ok = recent == windows[thread]
                    read = Read(phase, began, time.monotonic(), answer.status_code, ok)
                with lock:
                    reads.append(read)
                i += 1

    with ThreadPoolExecutor(READERS) as pool:
        for f in [pool.submit(reader, r) for r in range(READERS)]:
            f.result(timeout=seconds + 2 * CLIENT_TIMEOUT_S)
    return reads


def cached_windows(redis_url: str) -> int:
    """How many of the threads' recent windows are held in Redis."""
    client = redis.Redis.from_url(redis_url, socket_timeout=5)
    try:
        keys = [PREFIX + "cache:" + recent_cache_key(Scope("acme", "ana"), f"t{t}") for t in range(THREADS)]
        return int(client.exists(*keys))
    finally:
        client.close()


@pytest.mark.slow
def test_redis_stopped_under_reads_falls_back_to_the_log_then_caches_again(pg_store: str, redis_db_url: str) -> None:
    key = asyncio.run(provision(pg_store, ["acme"]))["acme"]
    env = {"HIPOCAMPO_REDIS_URL": redis_db_url, "HIPOCAMPO_REDIS_PREFIX": PREFIX, "HIPOCAMPO_CONSOLIDATION": "false"}
    with serve_process(cli(pg_store), env=env) as server:
        windows: dict[str, list[str]] = {}
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {key}"}, timeout=30) as c:
            for t in range(THREADS):
                contents = [f"thread {t} turn {i}" for i in range(4)]
                assert (
                    c.post(
                        f"/v1/users/ana/threads/t{t}/messages", json={"messages": [{"content": x} for x in contents]}
                    ).status_code
                    == 201
                )
                windows[f"t{t}"] = contents

        reads = read_load(server, key, windows, "up", PHASE_S)
        assert cached_windows(redis_db_url) == THREADS, "the windows are not cached in Redis"
        fallbacks_up = metric(server, "hipocampo_cache_fallbacks_total", 'component="cache"')
        stop_redis()
        try:
            reads += read_load(server, key, windows, "down", PHASE_S)
            fallbacks_down = metric(server, "hipocampo_cache_fallbacks_total", 'component="cache"')
            ready = httpx.get(f"{server.url}/readyz", timeout=CLIENT_TIMEOUT_S)
        finally:
            start_redis()
        assert ready.status_code == 200 and ready.json()["cache"].startswith("degraded"), ready.text
        time.sleep(PAUSE_SECONDS + 0.1)  # the breaker lets a call try Redis again after this pause
        reads += read_load(server, key, windows, "back", PHASE_S)
        fallbacks_back = metric(server, "hipocampo_cache_fallbacks_total", 'component="cache"')
        recached = cached_windows(redis_db_url)
        reads += read_load(server, key, windows, "after", 1.0)
        fallbacks_after = metric(server, "hipocampo_cache_fallbacks_total", 'component="cache"')

    lines = ["\nredis stop under reads:"]
    for phase in ("up", "down", "back"):
        mine = [r for r in reads if r.phase == phase]
        ms = [1000 * (r.ended - r.began) for r in mine]
        lines.append(
            f"  redis {phase}: {len(mine)} recalls, statuses {dict(Counter(r.status for r in mine))}, "
            f"p50 {statistics.median(ms):.0f} ms, p95 {pct(ms, 0.95):.0f} ms, max {max(ms):.0f} ms"
        )
    lines.append(
        f"  cache fallbacks: {fallbacks_up:.0f} up, {fallbacks_down:.0f} after the outage, "
        f"{fallbacks_back:.0f} once back, {fallbacks_after:.0f} later; windows cached again: {recached}"
    )
    print("\n".join(lines))

    assert all(r.status == 200 for r in reads), Counter(r.status for r in reads)
    assert all(r.right_window for r in reads), "a recall returned a wrong recent window"
    assert fallbacks_up == 0
    assert fallbacks_down > fallbacks_up, "reads during the outage did not fall back"
    assert recached == THREADS, "the windows are not cached in Redis again"
    assert fallbacks_after == fallbacks_back, "still falling back after Redis came back"


# -- isolation under concurrency --------------------------------------------------------------------

TENANTS = ("t-alpha", "t-beta", "t-gamma")
USERS = ("ana", "bob", "carla")
"""The same user ids in every tenant: tenant isolation is tested, not only user isolation."""
ISOLATION_ROUNDS = 12
"""Each (tenant, user) writes then reads this many times, all identities at once."""
MARKER = re.compile(r"zq[a-z]+q")


def marker(tenant: str, user: str) -> str:
    return f"zq{tenant.split('-')[1]}{user}q"


@pytest.mark.slow
def test_many_tenants_and_users_at_once_never_see_each_others_data(pg_store: str, redis_db_url: str) -> None:
    keys = asyncio.run(provision(pg_store, list(TENANTS)))
    env = {"HIPOCAMPO_REDIS_URL": redis_db_url, "HIPOCAMPO_REDIS_PREFIX": PREFIX, "HIPOCAMPO_CONSOLIDATION": "false"}
    with serve_process(cli(pg_store), env=env) as one, serve_process(cli(pg_store), env=env) as two:
        checked: Counter[str] = Counter()
        lock = threading.Lock()

        def identity(tenant: str, user: str, n: int) -> None:
            own = marker(tenant, user)
            servers = [one.url, two.url]
            clients = [
                httpx.Client(base_url=u, headers={"Authorization": f"Bearer {keys[tenant]}"}, timeout=CLIENT_TIMEOUT_S)
                for u in servers
            ]
            try:
                for r in range(ISOLATION_ROUNDS):
                    c = clients[(n + r) % 2]
                    # Shared words ("garden", "trip", "allergy") make every user's text a candidate
                    # for everyone's query: only the scope may keep them apart.
                    text = f"{own} my garden trip note {r} and my allergy to peanuts {own}"
                    answer = c.post(
                        f"/v1/users/{user}/threads/th{r % 3}/messages", json={"messages": [{"content": text}]}
                    )
                    assert answer.status_code == 201, answer.text
                    if r % 4 == 0:
                        saved = c.post(f"/v1/users/{user}/memories", json={"content": f"{own} likes the garden"})
                        assert saved.status_code == 201, saved.text
                    reads = {
                        "recall": c.post(
                            f"/v1/users/{user}/recall",
                            json={"query": "garden trip allergy peanuts", "thread_id": f"th{r % 3}"},
                        ),
                        "search": c.post(f"/v1/users/{user}/search", json={"query": "garden trip allergy", "k": 50}),
                        "memories": c.get(f"/v1/users/{user}/memories", params={"limit": 200}),
                        "messages": c.get(f"/v1/users/{user}/threads/th{r % 3}/messages"),
                        "threads": c.get(f"/v1/users/{user}/threads"),
                    }
                    for what, answer in reads.items():
                        assert answer.status_code == 200, (what, answer.status_code, answer.text)
                        seen = set(MARKER.findall(answer.text))
                        assert seen <= {own}, f"{tenant}/{user} {what} saw {seen - {own}}"
                        with lock:
                            checked[what] += 1
                            checked["with own data"] += own in seen
            finally:
                for c in clients:
                    c.close()

        began = time.monotonic()
        with ThreadPoolExecutor(len(TENANTS) * len(USERS)) as pool:
            jobs = [pool.submit(identity, t, u, n) for n, (t, u) in enumerate((t, u) for t in TENANTS for u in USERS)]
            for f in jobs:
                f.result(timeout=240)
        took = time.monotonic() - began
        # Once indexed, every user's search finds their own texts, and still only theirs.
        with httpx.Client(base_url=one.url, timeout=CLIENT_TIMEOUT_S) as c:
            deadline = time.monotonic() + 60
            while httpx.get(f"{one.url}/readyz", timeout=CLIENT_TIMEOUT_S).json()["jobs"].get("pending", 0):
                assert time.monotonic() < deadline
                time.sleep(0.2)
            for tenant in TENANTS:
                for user in USERS:
                    found = c.post(
                        f"/v1/users/{user}/search",
                        json={"query": "garden trip allergy", "k": 50},
                        headers={"Authorization": f"Bearer {keys[tenant]}"},
                    )
                    assert found.status_code == 200
                    assert set(MARKER.findall(found.text)) == {marker(tenant, user)}
    total = sum(v for k, v in checked.items() if k != "with own data")
    print(
        f"\nisolation: {len(TENANTS)} tenants x {len(USERS)} users, {total} reads checked in {took:.1f} s "
        f"({dict(checked)}): no foreign marker"
    )
