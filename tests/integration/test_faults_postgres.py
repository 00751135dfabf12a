"""Faults of the indexing worker on Postgres: kill -9 under load, and two workers on one queue.

1. A real ``hipocampo worker`` process is killed with SIGKILL :data:`KILLS` times, each time while
   it holds claimed jobs (a batch in flight), and started again, while a client keeps ingesting.
   In the end every acknowledged message has exactly one turn memory, one vector and one keyword
   entry, nothing else was indexed, and no job is left (nor dead).
2. Two workers (two ``AsyncMemory`` instances, each with its own connection pool, as two
   processes would be) drain one queue with a counting embedder whose calls are slow enough to
   overlap and to outlive the lease unless it is renewed: every message is embedded exactly once.

Each test gets a fresh migrated database on the engines' Postgres (``scripts/engines.sh``).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import psycopg
import pytest
from engines import create_pg_database

from hipocampo import AsyncMemory, Memory
from hipocampo.adapters.clock import SystemClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.adapters.postgres.schema import migrate
from hipocampo.backends import open_storage
from hipocampo.domain.model import MemoryKind, Scope, turn_memory_id
from hipocampo.settings import Settings
from hipocampo.testing import deps_of

KILLS = 20
"""kill -9 of the worker, each while it holds a claimed batch."""
PER_ADD = 4
"""Messages per ``add`` call (one indexing job)."""
ADD_PAUSE_S = 0.1
"""The client's pause between adds: a steady stream while the worker dies and comes back."""
MAX_MESSAGES = 4000
"""The client stops there even if the kills are not done (bounds the drain at the end)."""
WORDS = 60
"""Words per message: enough embedding work that a batch is in flight most of the time."""
WORK_S = 0.5
"""Each worker lives up to this long after its first claim before the kill (then at its next batch)."""
LEASE_S = 1.0
"""The worker's job lease: a killed worker's batch is claimable again after this."""
CLAIM_S = 120
"""A hang guard: a fresh worker claims its first batch within seconds, even on a loaded machine."""
DRAIN_S = 90
"""Time the last worker may go without shrinking the queue (not a time to drain it all: the
backlog left by the kills grows with the machine's load)."""

USERS = ("ana", "bob", "carla")


@pytest.fixture
def pg_store(pg_url: str) -> Iterator[str]:
    """A fresh, migrated Postgres database for this test."""
    url, drop = create_pg_database(pg_url, prefix="hipo_fault")
    try:
        asyncio.run(migrate(url))
        yield url
    finally:
        drop()


def worker_env(url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HIPOCAMPO_")}
    return {
        **env,
        "HIPOCAMPO_DB": url,
        "HIPOCAMPO_EMBEDDER": "fake",
        "HIPOCAMPO_WORKER": "external",
        "HIPOCAMPO_WORKER_BATCH_SIZE": "16",
        "HIPOCAMPO_JOB_LEASE_SECONDS": str(LEASE_S),
        "HIPOCAMPO_CONSOLIDATION": "false",
        "PYTHONUNBUFFERED": "1",
        **extra,
    }


def start_worker(url: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "hipocampo.entrypoints.cli", "worker"],
            env=worker_env(url),
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )


def held_by(conn: psycopg.Connection, since: datetime) -> int:
    """Jobs running under a lease taken after ``since``: the live worker's batch in flight."""
    row = conn.execute(
        "SELECT count(*) FROM jobs WHERE status = 'running' AND locked_until > %s",
        (since + timedelta(seconds=LEASE_S),),
    ).fetchone()
    return int(row[0]) if row else 0


def activity(conn: psycopg.Connection) -> str:
    """What every other session of this database is doing: why a worker does not move on."""
    rows = conn.execute(
        "SELECT pid, state, wait_event_type, wait_event, pg_blocking_pids(pid),"
        " round(extract(epoch FROM now() - xact_start)::numeric, 1), left(query, 160)"
        " FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
    ).fetchall()
    return "\n".join(str(r) for r in rows)


def stuck(worker: subprocess.Popen[bytes], conn: psycopg.Connection, log: Path) -> str:
    """Why a worker claims nothing: the queue, the database's sessions, and the worker's tasks
    (SIGUSR1 has it log where each is waiting). CI runs under load saw a fresh worker claim
    nothing for 60 s, with no statement running for it: its round waited on a lease renewer whose
    cancel was lost (``services/leases.py`` says how)."""
    worker.send_signal(signal.SIGUSR1)
    time.sleep(1.0)
    return (
        f"the worker never claimed a batch; queue {queue(conn)}; sessions:\n{activity(conn)}\n"
        f"worker log:\n{log.read_text()[-12000:]}"
    )


def queue(conn: psycopg.Connection) -> list[tuple[str, str, int]]:
    return conn.execute("SELECT kind, status, count(*) FROM jobs GROUP BY 1, 2 ORDER BY 1, 2").fetchall()


def text(n: int) -> str:
    """Message ``n``: a unique marker, then filler words (never a fact the extraction would keep)."""
    return f"m{n}x " + " ".join(f"w{(n * 7 + i) % 97}" for i in range(WORDS))


class Client(threading.Thread):
    """Adds messages until told to stop; remembers those acknowledged (``add`` returned)."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.stop = threading.Event()
        self.acked: dict[str, tuple[str, str]] = {}  # message id -> (user, content)
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with Memory.open(self.url, embedder=FakeEmbedder(), worker="external", consolidation=False) as mem:
                n = 0
                while not self.stop.is_set() and n < MAX_MESSAGES:
                    user = USERS[n % len(USERS)]
                    batch = [text(n + i) for i in range(PER_ADD)]
                    for message in mem.add(user, f"t{n % 5}", batch):
                        self.acked[message.id] = (user, message.content)
                    n += PER_ADD
                    time.sleep(ADD_PAUSE_S)
        except BaseException as exc:  # reported by the test
            self.error = exc


async def check_indexed_once(url: str, acked: dict[str, tuple[str, str]]) -> None:
    """Through the ports: each acknowledged message has its turn memory with a vector; nothing more."""
    storage = await open_storage(url, clock=SystemClock(), settings=Settings(db=url))
    try:
        stats = await storage.jobs.stats()
        assert stats.get("pending", 0) + stats.get("running", 0) + stats.get("dead", 0) == 0, stats
        for user in USERS:
            scope = Scope("default", user)
            mine = {mid: content for mid, (u, content) in acked.items() if u == user}
            wanted = [turn_memory_id(mid) for mid in mine]
            found = await storage.memories.get_many(scope, wanted)
            assert {m.id for m in found} == set(wanted), "an acknowledged message was never indexed"
            assert all(m.content == mine[m.source_message_ids[0]] for m in found)
            assert set(await storage.vectors.get(scope, wanted)) == set(wanted)
            turns = await storage.memories.list(scope, kind=MemoryKind.TURN, limit=len(wanted) + 10)
            assert len(turns) == len(wanted), "a turn memory that no acknowledged message explains"
            assert await storage.vectors.count(scope, kind=MemoryKind.TURN) == len(wanted)
    finally:
        await storage.close()


@pytest.mark.slow
def test_kill_minus_nine_a_worker_mid_batch_twenty_times_under_ingest(pg_store: str, tmp_path: Path) -> None:
    log = tmp_path / "workers.log"
    client = Client(pg_store)
    client.start()
    kills_mid_batch = 0
    worker: subprocess.Popen[bytes] | None = None
    rng = random.Random(7)
    with psycopg.connect(pg_store, autocommit=True) as conn:
        began = time.monotonic()
        try:
            for _ in range(KILLS):
                started = datetime.now(timezone.utc)
                worker = start_worker(pg_store, log)
                deadline = time.monotonic() + CLAIM_S
                # Let it work a random while (some rounds commit), then kill it once it holds a batch.
                for pause in (0, rng.uniform(0, WORK_S)):
                    time.sleep(pause)
                    while held_by(conn, started) == 0:
                        assert worker.poll() is None, log.read_text()[-3000:]
                        assert time.monotonic() < deadline, stuck(worker, conn, log)
                        assert client.is_alive() or client.error is None, client.error
                        time.sleep(0.005)
                in_flight = held_by(conn, started)
                os.kill(worker.pid, signal.SIGKILL)
                worker.wait(timeout=30)
                kills_mid_batch += in_flight > 0
            killed_at = time.monotonic()
            client.stop.set()
            client.join(timeout=60)
            print(f"\nkills done in {killed_at - began:.1f} s; {len(client.acked)} acked; queue {queue(conn)}")
            assert client.error is None, client.error
            # One last worker drains what is left, including the dead workers' batches.
            worker = start_worker(pg_store, log)
            deadline, left = time.monotonic() + DRAIN_S, None
            while jobs_left := conn.execute("SELECT count(*) FROM jobs").fetchone()[0]:  # type: ignore[index]
                assert worker.poll() is None, log.read_text()[-3000:]
                if left is None or jobs_left < left:  # progress: the backlog's size depends on the load
                    deadline, left = time.monotonic() + DRAIN_S, jobs_left
                assert time.monotonic() < deadline, f"the last worker stopped draining the queue: {queue(conn)}"
                time.sleep(0.1)
        finally:
            client.stop.set()
            if worker is not None and worker.poll() is None:
                worker.send_signal(signal.SIGTERM)
                try:
                    worker.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    worker.kill()
                    worker.wait()

        acked = client.acked
        print(
            f"\nworker kill -9: {KILLS} kills ({kills_mid_batch} with a batch in flight), "
            f"{len(acked)} messages acknowledged"
        )
        assert kills_mid_batch >= KILLS * 3 // 4, f"only {kills_mid_batch} of {KILLS} kills hit a batch"
        assert len(acked) >= KILLS * PER_ADD
        # The tables themselves: one row each per acknowledged message, no strays, no duplicates.
        counts = conn.execute(
            "SELECT (SELECT count(*) FROM messages), (SELECT count(*) FROM memories WHERE kind = 'turn'),"
            " (SELECT count(DISTINCT id) FROM memories WHERE kind = 'turn'),"
            " (SELECT count(*) FROM vectors v JOIN memories m ON m.id = v.memory_id WHERE m.kind = 'turn'),"
            " (SELECT count(*) FROM keywords k JOIN memories m ON m.id = k.memory_id WHERE m.kind = 'turn'),"
            " (SELECT count(*) FROM jobs)"
        ).fetchone()
        assert counts == (len(acked), len(acked), len(acked), len(acked), len(acked), 0), counts
        missing = conn.execute(
            "SELECT count(*) FROM messages m LEFT JOIN memories t ON t.id = 'turn_' || m.id WHERE t.id IS NULL"
        ).fetchone()
        assert missing == (0,)
    asyncio.run(check_indexed_once(pg_store, acked))


# -- two workers on one queue ---------------------------------------------------------------------

TWO_WORKER_MESSAGES = 600
"""Messages queued before the two workers start (one job per add of :data:`PER_ADD`)."""
EMBED_DELAY_S = 0.004
"""Per text: calls slow enough that the two workers' rounds overlap and outlast the lease."""
SHORT_LEASE_S = 0.6


def count_writes(mem: AsyncMemory, counts: Counter[str], lock: threading.Lock) -> Counter[str]:
    """Instrument this worker's vector index: every memory id it writes is counted, in ``counts``
    (shared by the workers) and in the returned counter (this worker's). Embeddings are cached per
    process, so the writes, not the embedder calls, are the signal of a job done twice."""
    mine: Counter[str] = Counter()
    store = deps_of(mem).vectors
    upsert = store.upsert

    async def counted(scope, items, model):  # noqa: ANN001, ANN202 - test double
        await upsert(scope, items, model)  # counted once it returned (the transaction may still fail)
        with lock:
            for memory_id, _ in items:
                counts[memory_id] += 1
                mine[memory_id] += 1

    store.upsert = counted  # type: ignore[method-assign]
    return mine


class SlowEmbedder(FakeEmbedder):
    def embed_documents(self, texts):  # noqa: ANN001, ANN201 - test double
        time.sleep(EMBED_DELAY_S * len(texts))
        return super().embed_documents(texts)


@pytest.mark.slow
def test_two_workers_on_one_queue_never_index_a_message_twice(pg_store: str) -> None:
    """The lease (0.6 s) is shorter than a round (16 jobs of 4 texts, embedded 8 texts at a time,
    4 ms a text: ~0.26 s of embedding): a worker that did not renew its leases would see the other
    claim the same jobs again (and one that stalls past its lease writes nothing for the claims it
    lost). Every message must be written to the index exactly once, and no indexing transaction
    may be aborted as a deadlock and retried (its rolled-back write would count twice here)."""

    async def main() -> None:
        options = {
            "worker_batch_size": 16,
            "job_lease_seconds": SHORT_LEASE_S,
            "consolidation": False,
            "summaries": False,
            "extraction": False,
            "embed_batch_size": 8,
        }
        producer = await AsyncMemory.open(pg_store, embedder=FakeEmbedder(), worker="external", **options)
        workers: list[AsyncMemory] = []
        counts: Counter[str] = Counter()
        lock = threading.Lock()
        try:
            ids: list[str] = []
            for n in range(0, TWO_WORKER_MESSAGES, PER_ADD):
                added = await producer.add(USERS[n % 3], f"t{n % 4}", [text(n + i) for i in range(PER_ADD)])
                ids += [turn_memory_id(m.id) for m in added]
            # Opened external, instrumented, then started: neither claims before the other exists.
            workers = [
                await AsyncMemory.open(pg_store, embedder=SlowEmbedder(), worker="external", **options)
                for _ in range(2)
            ]
            per_worker = [count_writes(w, counts, lock) for w in workers]
            for w in workers:
                w.start_worker()
            deadline = time.monotonic() + 120
            while True:
                stats = await deps_of(producer).jobs.stats()
                if stats.get("pending", 0) + stats.get("running", 0) == 0:
                    break
                assert time.monotonic() < deadline, stats
                await asyncio.sleep(0.1)
        finally:
            for w in workers:
                await w.close()
            await producer.close()

        print(f"\ntwo workers: {[sum(c.values()) for c in per_worker]} index writes of {len(ids)} messages")
        assert stats.get("dead", 0) == 0, stats
        assert set(counts) == set(ids), "a message was never indexed"
        twice = {m: c for m, c in counts.items() if c != 1}
        assert not twice, f"{len(twice)} messages indexed more than once: {sorted(twice.items())[:5]}"
        assert all(sum(c.values()) > len(ids) // 5 for c in per_worker), "one worker did (almost) everything"

    asyncio.run(main())
