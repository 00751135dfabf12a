"""A store that cannot take writes: 503 with Retry-After and a reason, /readyz not ready, and
recovery without a restart once the cause is gone.

Real causes, not simulated exceptions: a database at its size limit (``PRAGMA max_page_count``,
SQLite's own SQLITE_FULL, the error a full disk gives), and files made immutable under a running
server (``chattr +i``: root ignores file modes) or before it opens them. Those are faults of the
SQLite file and skip on Postgres; its counterpart there is a database turning read-only under the
server (what a failover to a standby looks like). Postgres restarts under load are in
test_faults_service.py.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from live_http import LiveServer, live_server

from hipocampo import Memory
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.client import AsyncMemory
from hipocampo.testing import deps_of

BIG = "x" * 90_000  # more pages than the free list can hold


async def no_tenants(mem: AsyncMemory) -> dict[str, str]:
    return {}


pytestmark = pytest.mark.backends()


@pytest.fixture
def sqlite_file(store_backend: str) -> None:
    if store_backend != "sqlite":
        pytest.skip("a fault of the SQLite file (size limit, immutable file): Postgres has no such file")


@pytest.fixture
def server(db_path: str) -> Iterator[LiveServer]:
    with live_server(db_path, no_tenants, auth=False) as live:
        live.app.state.hipocampo.write_probe.interval = 0.5  # readiness turns back quickly in tests
        yield live


def write(c: httpx.Client, text: str = "Ana likes tea") -> httpx.Response:
    return c.post("/v1/users/ana/threads/t1/messages", json={"messages": [{"content": text}]})


def assert_unavailable(r: httpx.Response, reason: str) -> None:
    assert r.status_code == 503, r.text
    assert r.json()["error"] == "storage_unavailable" and reason in r.json()["detail"], r.text
    assert int(r.headers["retry-after"]) >= 1


def wait_ready(c: httpx.Client, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while (r := c.get("/readyz")).status_code != 200:
        assert time.monotonic() < deadline, r.text
        time.sleep(0.1)


def test_a_full_database_answers_503_and_recovers(
    sqlite_file: None, server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    c = server.client()
    assert write(c).status_code == 201
    db = deps_of(server.memory).uow

    def cap(conn) -> int:  # the database may not grow past its current size: SQLITE_FULL
        (pages,) = conn.execute("PRAGMA page_count").fetchone()
        return conn.execute(f"PRAGMA max_page_count = {pages}").fetchone()[0]

    server.call(db.write(cap))
    assert_unavailable(write(c, BIG), "full")
    ready = c.get("/readyz")
    assert ready.status_code == 503 and "full" in ready.json()["detail"] and ready.headers["retry-after"]
    assert "cannot rollback" not in caplog.text and "no transaction is active" not in caplog.text

    server.call(db.write(lambda conn: conn.execute("PRAGMA max_page_count = 1073741823").fetchone()))
    assert write(c, BIG).status_code == 201  # the same process, the same connection
    wait_ready(c)


def chattr_works(path: Path) -> bool:
    if shutil.which("chattr") is None:
        return False
    ok = subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode == 0
    subprocess.run(["chattr", "-i", str(path)], capture_output=True)
    return ok


@contextmanager
def read_only(*paths: Path) -> Iterator[None]:
    """Make files unwritable for this process: immutable for root (whom modes do not stop), else
    mode 0444 (which only stops files opened from now on)."""
    paths = tuple(p for p in paths if p.exists())
    root = os.geteuid() == 0
    if root and not chattr_works(paths[0]):
        pytest.skip("chattr +i does not work on this file system")
    modes = {p: p.stat().st_mode for p in paths}
    for p in paths:
        if root:
            subprocess.run(["chattr", "+i", str(p)], check=True)
        else:
            p.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    try:
        yield
    finally:
        for p in paths:
            if root:
                subprocess.run(["chattr", "-i", str(p)], check=True)
            else:
                p.chmod(modes[p])


def test_files_turning_read_only_under_a_running_server(sqlite_file: None, server: LiveServer, db_path: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("without root, open files stay writable whatever their mode")
    c = server.client()
    assert write(c).status_code == 201
    db = Path(db_path)
    with read_only(db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        ready = c.get("/readyz")  # the probe writes: nothing failed before it
        assert ready.status_code == 503 and "cannot take writes" in ready.json()["detail"], ready.text
        assert_unavailable(write(c), "I/O error")
        page = c.get("/v1/users/ana/threads/t1/messages")  # reads still work
        assert page.status_code == 200 and [m["content"] for m in page.json()["messages"]] == ["Ana likes tea"]
    wait_ready(c)
    assert write(c, "Ana likes coffee too").status_code == 201


def test_a_store_opened_read_only_recovers_once_writable(sqlite_file: None, db_path: str) -> None:
    Memory.open(db_path, embedder=FakeEmbedder()).close()  # created, migrated, closed (no -wal left)
    db = Path(db_path)
    with read_only(db):
        with live_server(db_path, no_tenants, auth=False) as live:
            live.app.state.hipocampo.write_probe.interval = 0.5
            c = live.client()
            assert c.get("/healthz").status_code == 200
            ready = c.get("/readyz")
            assert ready.status_code == 503 and "read-only" in ready.json()["detail"], ready.text
            assert_unavailable(write(c), "read-only")
            assert c.get("/v1/users").json() == {"users": []}
            subprocess.run(["chattr", "-i", db_path], capture_output=True)  # writable again, server still up
            db.chmod(0o644)
            # SQLite opened the file read-only: the connections are reopened (at most once a second).
            deadline = time.monotonic() + 10
            while (r := write(c)).status_code != 201:
                assert r.status_code == 503 and time.monotonic() < deadline, r.text
                time.sleep(0.2)
            wait_ready(c)
            assert [m["content"] for m in c.get("/v1/users/ana/threads/t1/messages").json()["messages"]] == [
                "Ana likes tea"
            ]


def pg_read_only(db_path: str, on: bool) -> None:
    """Make new sessions of the database read-only (or not), and cut the open ones: the server's
    pool reconnects into the new state, as it would to a standby promoted or demoted under it."""
    import psycopg

    with psycopg.connect(db_path, autocommit=True) as conn:
        conn.execute("SET default_transaction_read_only = off")  # this session may be a read-only one
        name = conn.execute("SELECT current_database()").fetchone()[0]  # type: ignore[index]
        conn.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = {"on" if on else "off"}')
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def test_a_postgres_database_turning_read_only_under_a_running_server(
    store_backend: str, server: LiveServer, db_path: str
) -> None:
    if store_backend != "postgresql":
        pytest.skip("Postgres's read-only database; SQLite's read-only file is tested above")
    c = server.client()
    assert write(c).status_code == 201
    pg_read_only(db_path, True)
    try:
        deadline = time.monotonic() + 10
        while (r := write(c, "Ana likes rain")).status_code != 503:  # a cut connection may answer 503 first, too
            assert time.monotonic() < deadline, r.text
            time.sleep(0.1)
        assert_unavailable(r, "unavailable")
        for _ in range(3):  # not a cut connection: the database refuses writes, again and again
            assert_unavailable(write(c, "Ana likes rain"), "ReadOnlySqlTransaction")
        deadline = time.monotonic() + 10
        while (ready := c.get("/readyz")).status_code != 503:
            assert time.monotonic() < deadline, ready.text
            time.sleep(0.1)
        page = c.get("/v1/users/ana/threads/t1/messages")  # reads still work
        assert page.status_code == 200 and [m["content"] for m in page.json()["messages"]] == ["Ana likes tea"]
    finally:
        pg_read_only(db_path, False)
    deadline = time.monotonic() + 10
    while (r := write(c, "Ana likes coffee too")).status_code != 201:  # no restart
        assert r.status_code == 503 and time.monotonic() < deadline, r.text
        time.sleep(0.2)
    wait_ready(c)
    contents = [m["content"] for m in c.get("/v1/users/ana/threads/t1/messages").json()["messages"]]
    assert contents == ["Ana likes tea", "Ana likes coffee too"]
