"""Regression tests, over real HTTP, for two defects that only show under concurrency and crashes.

1. The stored-memories quota used to be checked before the write and outside its transaction, so
   racing writers all saw room: a tenant capped at 100 got 200 × 201 for 200 parallel writes
   (and 176,850 messages against a cap of 1,000 under sustained load). Now the store counts
   exactly, in the write's transaction, and a write that would overflow is refused whole with a
   429 that carries no ``Retry-After`` (waiting frees nothing; deleting does).
2. ``Idempotency-Key`` reservations used to commit before the write, so after a ``kill -9`` the
   retries were refused with 409 until a lease expired and then written again: duplicates. Now
   the key, the write and the stored answer are one transaction, so every retry either replays
   the first answer or performs the write exactly once.

The quota races run against the in-process uvicorn helper (``live_http``); the crash test kills a
real ``hipocampo serve`` process, set up the way an operator does it: tenant and key from the CLI.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from live_http import LiveServer, live_server

from hipocampo.client import AsyncMemory
from hipocampo.services import tenancy
from hipocampo.testing import deps_of

pytestmark = pytest.mark.backends()

CAP = 100
WORKERS = 16


@pytest.fixture(autouse=True)
def no_consolidation(monkeypatch: pytest.MonkeyPatch) -> None:
    """The nightly consolidation merges near-duplicate facts; if the run crossed its hour it would
    change the very counts these tests pin, so it is off."""
    monkeypatch.setenv("HIPOCAMPO_CONSOLIDATION", "false")


async def capped_tenant(mem: AsyncMemory) -> dict[str, str]:
    """One tenant capped at :data:`CAP` memories and no request rate limit: only the memory quota
    may refuse a request here."""
    await tenancy.create_tenant(deps_of(mem), "capped", max_memories=CAP, requests_per_minute=None)
    return {"capped": (await tenancy.issue_key(deps_of(mem), "capped"))[1]}


@pytest.fixture
def capped(db_path: str) -> Iterator[LiveServer]:
    with live_server(db_path, capped_tenant) as live:
        yield live


def race(server: LiveServer, calls: Sequence[Callable[[httpx.Client], httpx.Response]]) -> list[httpx.Response]:
    """Run ``calls`` from :data:`WORKERS` threads, each with its own connection, released together
    by a barrier so the requests really overlap; answers come back in the order of ``calls``."""
    clients = [server.client("capped") for _ in range(WORKERS)]
    start = threading.Barrier(WORKERS)

    def worker(w: int) -> list[tuple[int, httpx.Response]]:
        start.wait(timeout=30)
        return [(i, call(clients[w])) for i, call in enumerate(calls) if i % WORKERS == w]

    with ThreadPoolExecutor(WORKERS) as pool:
        done = [pair for part in pool.map(worker, range(WORKERS)) for pair in part]
    return [response for _, response in sorted(done, key=lambda pair: pair[0])]


def assert_exhausted(response: httpx.Response) -> None:
    """The memory quota's refusal: 429 ``quota_exceeded``, no ``Retry-After`` (no point waiting)."""
    assert response.status_code == 429, response.text
    assert "retry-after" not in response.headers, "an exhausted memory quota must not invite retries"
    error = response.json()
    assert error["error"] == "quota_exceeded"
    assert "quota is exhausted" in error["detail"] and f"allows {CAP}" in error["detail"]


def save_fact(user: str, content: str) -> Callable[[httpx.Client], httpx.Response]:
    return lambda c: c.post(f"/v1/users/{user}/memories", json={"content": content})


def stored_facts(client: httpx.Client, users: Sequence[str]) -> dict[str, str]:
    """Every fact stored for ``users``, id → content (one page holds them all at this size)."""
    facts = {}
    for user in users:
        page = client.get(f"/v1/users/{user}/memories", params={"kind": "fact", "limit": 1000}).json()
        assert page["next_offset"] is None
        facts |= {m["id"]: m["content"] for m in page["memories"]}
    return facts


def thread_contents(client: httpx.Client, user: str, thread: str) -> list[str]:
    """Every message of a thread, oldest first, paging with ``after_seq``."""
    contents: list[str] = []
    after = -1
    while True:
        answer = client.get(f"/v1/users/{user}/threads/{thread}/messages", params={"after_seq": after, "limit": 50})
        if answer.status_code == 404:  # nothing was ever written to it
            return contents
        assert answer.status_code == 200, answer.text
        page = answer.json()
        contents += [m["content"] for m in page["messages"]]
        if page["next_after_seq"] is None:
            return contents
        after = page["next_after_seq"]


def test_parallel_fact_writes_stop_exactly_at_the_cap_and_deleting_frees_exactly_that_much(
    capped: LiveServer,
) -> None:
    """(a) 200 racing saves against a cap of 100: exactly 100 stored, 100 refused; (b) once full,
    every write is refused, through each write route; (d) deleting 10 lets exactly 10 more in,
    even when 30 race for them. The tenant's two users share one quota."""
    users = ("ana", "bob")
    client = capped.client("capped")

    # (a) The race that used to store all 200.
    wanted = [(users[i % 2], f"fact {i} of the parallel batch") for i in range(2 * CAP)]
    answers = race(capped, [save_fact(u, text) for u, text in wanted])
    assert Counter(a.status_code for a in answers) == {201: CAP, 429: CAP}
    for a in answers:
        if a.status_code == 429:
            assert_exhausted(a)
    owners = {a.json()["id"]: user for a, (user, _) in zip(answers, wanted, strict=True) if a.status_code == 201}
    accepted = {a.json()["id"]: text for a, (_, text) in zip(answers, wanted, strict=True) if a.status_code == 201}
    assert stored_facts(client, users) == accepted  # what was acknowledged is exactly what is stored

    # (b) Full: sequential writes on every write route are refused, and nothing is written.
    for i in range(20):
        assert_exhausted(client.post("/v1/users/ana/memories", json={"content": f"one too many {i}"}))
    assert_exhausted(client.post("/v1/users/carol/threads/t1/messages", json={"messages": [{"content": "hello"}]}))
    session = {"user_id": "ana", "thread_id": "t1"}
    tool = client.post(
        "/v1/tools/save_memory",
        json={"session": session, "arguments": {"content": "Ana likes tea", "memory_type": "preference"}},
    )
    # The tool answers the model, not the client: a 200 with success false and the reason.
    if tool.status_code == 200:
        assert tool.json()["success"] is False and "quota is exhausted" in tool.json()["error_message"]
    else:
        assert_exhausted(tool)
    assert stored_facts(client, users) == accepted
    assert client.get("/v1/users/carol/threads/t1/messages").status_code == 404

    # (d) Deleting 10 frees exactly 10, however many race for them.
    for memory_id in list(accepted)[:10]:
        assert client.delete(f"/v1/users/{owners[memory_id]}/memories/{memory_id}").status_code == 200
    assert len(stored_facts(client, users)) == CAP - 10
    refill = race(capped, [save_fact(users[i % 2], f"refill {i}") for i in range(30)])
    assert Counter(a.status_code for a in refill) == {201: 10, 429: 20}
    assert len(stored_facts(client, users)) == CAP
    assert_exhausted(client.post("/v1/users/bob/memories", json={"content": "still full"}))


def test_racing_multi_message_writes_never_pass_the_cap_and_an_overflowing_request_writes_nothing(
    capped: LiveServer,
) -> None:
    """(c) Two users write batches of 1 to 4 turns at once, 2.5 times what the cap holds. Every
    batch is stored whole or not at all, the total never passes the cap, and afterwards single
    turns fill it to exactly :data:`CAP`, even once the worker has derived memories from the turns
    (derived memories do not count)."""
    users = ("ana", "bob")
    batches = [
        (users[i % 2], f"t{i % 3}", [f"{users[i % 2]} batch {i} turn {j}" for j in range(1 + i % 4)]) for i in range(80)
    ]
    calls = [
        (
            lambda c, u=u, t=t, texts=texts: c.post(
                f"/v1/users/{u}/threads/{t}/messages", json={"messages": [{"content": x} for x in texts]}
            )
        )
        for u, t, texts in batches
    ]
    answers = race(capped, calls)
    statuses = Counter(a.status_code for a in answers)
    assert set(statuses) == {201, 429}, statuses
    accepted: list[str] = []
    refused: list[str] = []
    for a, (_, _, texts) in zip(answers, batches, strict=True):
        if a.status_code == 201:
            assert [m["content"] for m in a.json()["messages"]] == texts
            accepted += texts
        else:
            assert_exhausted(a)
            refused += texts
    assert CAP - 3 <= len(accepted) <= CAP  # a batch of at most 4 was refused only for lack of room

    client = capped.client("capped")

    def stored() -> list[str]:
        return [x for u in users for t in ("t0", "t1", "t2") for x in thread_contents(client, u, t)]

    assert Counter(stored()) == Counter(accepted), "a refused batch left turns behind, or one was stored twice"
    assert not set(refused) & set(stored())

    # Let the worker index and extract; then fill the room left, one turn at a time, exactly.
    capped.flush()
    room = CAP - len(accepted)
    singles = [
        client.post("/v1/users/ana/threads/t9/messages", json={"messages": [{"content": f"single {i}"}]})
        for i in range(room + 3)
    ]
    assert [a.status_code for a in singles] == [201] * room + [429] * 3
    assert len(stored()) + room == CAP
    assert len(thread_contents(client, "ana", "t9")) == room


# -- kill -9 and idempotent retries ---------------------------------------------------------------

ROUNDS = 3
PER_ROUND = 150
CLIENTS = 8
THREADS = 4
LOST = 5


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Serve:
    """``hipocampo --db <file> serve`` as a real process, its output in a file (a pipe nobody
    reads would fill up with access logs and stall the server)."""

    command: list[str]
    log: Path
    proc: subprocess.Popen[bytes] | None = None
    url: str = ""

    def start(self) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([*self.command, "serve", "--port", str(port)], stdout=out, stderr=out)
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.url}/readyz", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert self.proc.poll() is None and time.monotonic() < deadline, self.tail()
            time.sleep(0.1)

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> int:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                return self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise
        return self.proc.returncode

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""


@dataclass
class Write:
    """One logical write: its key, the exact bytes sent every time, and what happened to it."""

    key: str
    user: str
    thread: str
    contents: list[str]
    first: httpx.Response | None = None  # the first attempt's answer; None: it died with the server
    final: httpx.Response | None = None  # the answer to the retry after the restart
    conflicts: list[str] = field(default_factory=list)

    @property
    def path(self) -> str:
        return f"/v1/users/{self.user}/threads/{self.thread}/messages"

    @property
    def body(self) -> bytes:
        return json.dumps({"messages": [{"content": c} for c in self.contents]}).encode()


def send(client: httpx.Client, w: Write) -> httpx.Response:
    headers = {"Idempotency-Key": w.key, "Content-Type": "application/json"}
    return client.post(w.path, content=w.body, headers=headers)


def round_of(r: int) -> list[Write]:
    """Messages without client ids: only the idempotency key can keep a retry from duplicating."""
    return [
        Write(
            key=f"r{r}-w{i}-{uuid.uuid4().hex}",
            user=("ana", "bob")[i % 2],
            thread=f"t{i % THREADS}",
            contents=[f"round {r} write {i} turn {j} {uuid.uuid4().hex[:8]}" for j in range(1 + i % 2)],
        )
        for i in range(PER_ROUND)
    ]


def send_and_never_read(server: Serve, token: str, write: Write) -> socket.socket:
    """Send ``write`` on a raw socket and leave its answer unread: the socket stays open (a
    client that hangs up before its body is read would cancel the request), so the server
    commits the write and its answer sits undelivered, as when a crash beats the response."""
    host, port = server.url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    head = (
        f"POST {write.path} HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
        f"Idempotency-Key: {write.key}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(write.body)}\r\n\r\n"
    )
    sock.sendall(head.encode() + write.body)
    return sock


def first_attempts_then_kill(server: Serve, token: str, writes: list[Write]) -> None:
    """Send ``writes`` from :data:`CLIENTS` threads and ``kill -9`` the server once a third are
    acknowledged: the ones in flight die with it, the rest find nobody listening."""
    acked = 0
    lock = threading.Lock()

    def worker(w: int) -> None:
        nonlocal acked
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=30) as c:
            for write in writes[w::CLIENTS]:
                try:
                    write.first = send(c, write)
                except httpx.TransportError:
                    continue
                assert write.first.status_code == 201, write.first.text
                with lock:
                    acked += 1

    with ThreadPoolExecutor(CLIENTS) as pool:
        running = [pool.submit(worker, w) for w in range(CLIENTS)]
        deadline = time.monotonic() + 30
        while acked < len(writes) // 3:
            for f in running:
                if f.done():
                    f.result()  # a worker that failed says why; one that finished early is a bug here
                    raise AssertionError("the load ended before the kill")
            assert time.monotonic() < deadline, server.tail()
            time.sleep(0.002)
        server.kill()
        for f in running:
            f.result(timeout=60)


def retry_until_answered(server: Serve, token: str, writes: list[Write]) -> None:
    """Retry every write, same key and bytes, until a 2xx. A 409 "still being processed" is
    noted (the assertions reject it) and retried after a short wait, within a bound."""

    def worker(w: int) -> None:
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=30) as c:
            for write in writes[w::CLIENTS]:
                deadline = time.monotonic() + 20
                while True:
                    try:
                        answer = send(c, write)
                    except httpx.TransportError:
                        answer = None
                    if answer is not None and 200 <= answer.status_code < 300:
                        write.final = answer
                        break
                    if answer is not None:
                        assert answer.status_code == 409, f"{write.key}: {answer.status_code} {answer.text}"
                        write.conflicts.append(answer.json()["detail"])
                    assert time.monotonic() < deadline, (
                        f"{write.key} never answered: {len(write.conflicts)} × 409 {write.conflicts[:1]}"
                    )
                    time.sleep(0.2)

    with ThreadPoolExecutor(CLIENTS) as pool:
        for f in [pool.submit(worker, w) for w in range(CLIENTS)]:
            f.result(timeout=120)


@pytest.mark.slow
def test_kill_minus_nine_under_load_then_retries_with_the_same_keys_write_every_message_exactly_once(
    process, cli_command: list[str], tmp_path: Path
) -> None:
    """Three times: load a real server with keyed writes, ``kill -9`` it mid-load, restart it on
    the same file and retry every write. Each retry must be answered at once (no 409 for a key
    whose request died: its reservation rolled back with its write), an acknowledged write must be
    replayed with its first answer, and in the end every message is stored exactly once. The
    tenant's quota is exactly the number of messages sent, so a duplicate, or a usage counter
    that drifted in a crash, would also surface as a 429."""
    total = sum(1 + i % 2 for i in range(PER_ROUND)) * ROUNDS
    made = process("tenants", "create", "acme", "--rpm", "unlimited", "--max-memories", str(total))
    assert made.returncode == 0, made.stderr
    made = process("keys", "create", "--tenant", "acme")
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()

    server = Serve(cli_command, tmp_path / "serve.log")
    server.start()
    everything: list[Write] = []
    try:
        for r in range(ROUNDS):
            writes = round_of(r)
            everything += writes
            # A few writes commit but their answers are lost in the crash: they must be replayed.
            lost, load = writes[:LOST], writes[LOST:]
            hanging = [send_and_never_read(server, token, w) for w in lost]
            with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}) as c:
                deadline = time.monotonic() + 20
                while not all(set(w.contents) <= set(thread_contents(c, w.user, w.thread)) for w in lost):
                    assert time.monotonic() < deadline, server.tail()
                    time.sleep(0.05)
            try:
                first_attempts_then_kill(server, token, load)
            finally:
                for sock in hanging:
                    sock.close()
            died = [w for w in load if w.first is None]
            assert died, "the kill should have cut the load short"
            server.start()
            retry_until_answered(server, token, writes)

            conflicts = {w.key: w.conflicts for w in writes if w.conflicts}
            assert not conflicts, f"409 for {len(conflicts)} keys whose first request died: {list(conflicts)[:3]}"
            for w in writes:
                assert w.final is not None and w.final.status_code == 201, w.key
                answered = [m["content"] for m in w.final.json()["messages"]]
                assert answered == w.contents, w.key
                if w in lost:  # committed, answer lost in the crash: the retry is a replay
                    assert w.final.headers.get("Idempotent-Replayed") == "true", w.key
                if w.first is not None:  # acknowledged before the kill: the retry is a replay
                    assert w.final.headers.get("Idempotent-Replayed") == "true", w.key
                    assert w.final.json() == w.first.json(), w.key

        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=30) as c:
            # Keys outlive restarts: a late retry of any round is still a replay.
            for w in everything[:: PER_ROUND // 10]:
                late = send(c, w)
                assert late.status_code == 201 and late.headers.get("Idempotent-Replayed") == "true", w.key
                assert late.json() == w.final.json()  # type: ignore[union-attr]

            stored = Counter(x for u in ("ana", "bob") for t in range(THREADS) for x in thread_contents(c, u, f"t{t}"))
            sent = Counter(x for w in everything for x in w.contents)
            duplicated = {x: n for x, n in stored.items() if n > 1}
            assert not duplicated, f"{len(duplicated)} messages stored more than once, e.g. {list(duplicated)[:3]}"
            assert stored == sent, f"missing: {len(sent - stored)}, unexpected: {len(stored - sent)}"
            assert sum(stored.values()) == total

            # The usage counter came through three crashes exact: the plan is full, to the message.
            one_more = c.post("/v1/users/ana/threads/t0/messages", json={"messages": [{"content": "one more"}]})
            assert one_more.status_code == 429 and one_more.json()["error"] == "quota_exceeded", one_more.text
    finally:
        code = server.stop()
    assert code == 0, server.tail()
