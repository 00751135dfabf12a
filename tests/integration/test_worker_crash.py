"""Kill -9 a worker process mid-batch, restart it, and check every message is indexed once."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hipocampo import Memory
from hipocampo.adapters.embedders.fake import FakeEmbedder

WORKER = Path(__file__).with_name("crash_worker.py")
MESSAGES = 1200


def _count(db: str, sql: str) -> int:
    with sqlite3.connect(db, timeout=30) as conn:
        return conn.execute(sql).fetchone()[0]


def _start(db: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, str(WORKER), db], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


@pytest.mark.slow
def test_kill_minus_nine_mid_batch_loses_nothing_and_duplicates_nothing(tmp_path: Path) -> None:
    db = str(tmp_path / "crash.db")
    with Memory.open(db, embedder=FakeEmbedder(), worker="external", summaries=False) as mem:
        for i in range(0, MESSAGES, 10):  # one job per add call: many small jobs, like real traffic
            mem.add("ana", f"t{i % 7}", [f"message number {j} about topic {j % 13}" for j in range(i, i + 10)])

    worker = _start(db)
    deadline = time.monotonic() + 60
    # Wait until some batches are committed and the next one is claimed, then kill it mid-embedding
    # (a batch takes ~0.4 s to embed with the slow embedder).
    while (
        _count(db, "SELECT count(*) FROM memories") < MESSAGES // 4
        or _count(db, "SELECT count(*) FROM jobs WHERE status = 'running'") == 0
    ):
        assert time.monotonic() < deadline and worker.poll() is None, worker.stderr.read() if worker.stderr else ""
        time.sleep(0.01)
    time.sleep(0.1)
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait()
    indexed_at_kill = _count(db, "SELECT count(*) FROM memories")
    assert 0 < indexed_at_kill < MESSAGES
    running = _count(db, "SELECT count(*) FROM jobs WHERE status = 'running'")

    worker = _start(db)
    try:
        deadline = time.monotonic() + 120
        while _count(db, "SELECT count(*) FROM jobs") > 0:
            assert time.monotonic() < deadline, "the restarted worker did not drain the queue"
            time.sleep(0.05)
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            worker.kill()

    assert running > 0, "the kill should have interrupted a claimed batch"
    assert _count(db, "SELECT count(*) FROM messages") == MESSAGES
    assert _count(db, "SELECT count(*) FROM memories") == MESSAGES
    assert _count(db, "SELECT count(DISTINCT id) FROM memories") == MESSAGES
    assert _count(db, "SELECT count(*) FROM vectors") == MESSAGES
    assert _count(db, "SELECT count(*) FROM memory_fts") == MESSAGES
    assert (
        _count(db, "SELECT count(*) FROM messages m LEFT JOIN memories t ON t.id = 'turn_' || m.id WHERE t.id IS NULL")
        == 0
    )
