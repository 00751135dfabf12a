"""Real PostgreSQL (+pgvector) and Redis for the tests, from ``scripts/engines.sh``.

Registered in ``tests/conftest.py``; test modules import the helpers by module name (``tests/`` is on
``sys.path`` under pytest's rootdir-based imports, like ``live_http``)::

    from engines import fresh_pg_database, fresh_redis_db, restart_pg

    def test_x(pg_db_url):            # a fresh database (pgvector installed), dropped afterwards
        ...

    def test_y(pg_url):               # the server; make databases yourself
        with fresh_pg_database(pg_url) as url:
            ...

    def test_z(redis_db_url):         # redis://127.0.0.1:63799/<n>: a leased, empty logical database
        ...

Where the servers come from: ``HIPOCAMPO_TEST_PG_URL`` / ``HIPOCAMPO_TEST_REDIS_URL`` when set
(``scripts/test.sh`` sets them), otherwise ``scripts/engines.sh install`` + ``start`` once per test
process. A server that cannot be had FAILS the test, with the reason; ``HIPOCAMPO_TEST_ENGINES=skip``
turns that into a skip (and then nothing is installed: only ``engines.sh start`` is tried).
"""

from __future__ import annotations

import functools
import os
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlsplit, urlunsplit

import pytest

PG_URL_ENV = "HIPOCAMPO_TEST_PG_URL"
REDIS_URL_ENV = "HIPOCAMPO_TEST_REDIS_URL"
MODE_ENV = "HIPOCAMPO_TEST_ENGINES"  # "skip": skip instead of failing when a server is missing
PG_TEMPLATE = "hipocampo_template"  # made by engines.sh start: CREATE EXTENSION vector already done
SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "engines.sh"

_REDIS_LEASE_KEY = "hipocampo:test:db-lease:{}"  # in db 0: which logical databases are taken
_REDIS_LEASE_SECONDS = 3600


def _skip_mode() -> bool:
    return os.environ.get(MODE_ENV, "").strip().lower() == "skip"


def _unavailable(what: str, why: str) -> NoReturn:
    message = (
        f"{what} is not available: {why}\n"
        f"Run `bash {SCRIPT} install && bash {SCRIPT} start` (as root, or with passwordless sudo, for the "
        f"install), or point {PG_URL_ENV} / {REDIS_URL_ENV} at running servers; "
        f"{MODE_ENV}=skip skips these tests instead."
    )
    if _skip_mode():
        pytest.skip(message)
    pytest.fail(message, pytrace=False)


def engines_sh(*args: str, timeout: float = 600) -> str:
    """Run ``scripts/engines.sh <args>``; its stdout. Raises ``RuntimeError`` with its output on failure."""
    try:
        done = subprocess.run(
            ["bash", str(SCRIPT), *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RuntimeError(f"engines.sh {' '.join(args)}: {exc}") from exc
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-20:])
        raise RuntimeError(f"engines.sh {' '.join(args)} exited {done.returncode}:\n{tail}")
    return done.stdout


@functools.lru_cache(maxsize=1)
def _started_env() -> dict[str, str]:
    """Install (unless in skip mode) and start the engines once per process; the URLs they serve."""
    if not _skip_mode():
        engines_sh("install")
    engines_sh("start", timeout=180)
    found: dict[str, str] = {}
    for line in engines_sh("env").splitlines():
        if line.startswith("export ") and "=" in line:
            key, _, value = line[len("export ") :].partition("=")
            found[key.strip()] = value.strip().strip("'\"")
    return found


def _server_url(env_var: str, what: str) -> str:
    url = os.environ.get(env_var, "").strip()
    if url:
        return url
    try:
        url = _started_env().get(env_var, "")
    except RuntimeError as exc:
        _unavailable(what, str(exc))
    if not url:
        _unavailable(what, f"engines.sh env printed no {env_var}")
    return url


# ---------------------------------------------------------------------------------------- postgres


def _pg_connect(url: str):
    try:
        import psycopg
    except ImportError:
        _unavailable("PostgreSQL", "psycopg is not installed (pip install -e '.[test]')")
    return psycopg.connect(url, autocommit=True, connect_timeout=10)


def with_database(url: str, dbname: str) -> str:
    """``url`` with its database replaced by ``dbname``."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + dbname, parts.query, parts.fragment))


@pytest.fixture(scope="session")
def pg_url() -> str:
    """URL of the test PostgreSQL server (superuser; its database ``hipocampo`` has pgvector)."""
    url = _server_url(PG_URL_ENV, "PostgreSQL")
    try:
        with _pg_connect(url) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:
        _unavailable("PostgreSQL", f"cannot connect to {url}: {exc}")
    return url


def create_pg_database(server_url: str, prefix: str = "hipo_t") -> tuple[str, Callable[[], None]]:
    """Create a uniquely named database from the pgvector template: ``(url, drop)``.

    ``drop()`` is idempotent and uses ``DROP DATABASE ... WITH (FORCE)``, so connections left open
    (a pool a test forgot) do not block it.
    """
    name = f"{prefix}_{os.getpid()}_{uuid.uuid4().hex[:10]}"
    with _pg_connect(server_url) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE {PG_TEMPLATE}')
    dropped = False

    def drop() -> None:
        nonlocal dropped
        if dropped:
            return
        for attempt in range(50):  # the server may be restarting in a fault test
            try:
                with _pg_connect(server_url) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                dropped = True
                return
            except Exception:
                if attempt == 49:
                    raise
                time.sleep(0.2)

    return with_database(server_url, name), drop


@contextmanager
def fresh_pg_database(server_url: str, prefix: str = "hipo_t") -> Iterator[str]:
    """A fresh database (``CREATE EXTENSION vector`` done) for the duration of the block: its URL."""
    url, drop = create_pg_database(server_url, prefix)
    try:
        yield url
    finally:
        drop()


@pytest.fixture
def pg_db_url(pg_url: str) -> Iterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards."""
    with fresh_pg_database(pg_url) as url:
        yield url


def wait_for_pg(server_url: str, timeout: float = 30.0) -> None:
    """Block until the server accepts connections again (after a restart)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with _pg_connect(server_url) as conn:
                conn.execute("SELECT 1")
            return
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def restart_pg() -> None:
    """Fast restart of the engines' PostgreSQL (every connection is cut). Only for our local engines."""
    engines_sh("restart-pg", timeout=120)


def stop_pg(mode: str = "fast") -> None:
    """Stop the engines' PostgreSQL (``immediate``: like a crash, recovery on the next start)."""
    engines_sh("stop-pg", mode, timeout=120)


def start_pg() -> None:
    engines_sh("start-pg", timeout=120)


def stop_redis() -> None:
    engines_sh("stop-redis", timeout=60)


def start_redis() -> None:
    engines_sh("start-redis", timeout=60)


# ---------------------------------------------------------------------------------------- redis


def _redis_client(url: str):
    try:
        import redis
    except ImportError:
        _unavailable("Redis", "the redis package is not installed (pip install -e '.[test]')")
    return redis.Redis.from_url(url, socket_connect_timeout=10, socket_timeout=30)


@pytest.fixture(scope="session")
def redis_url() -> str:
    """URL of the test Redis server (database 0: do not FLUSHDB it, it holds the db leases)."""
    url = _server_url(REDIS_URL_ENV, "Redis")
    try:
        client = _redis_client(url)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:
        _unavailable("Redis", f"cannot connect to {url}: {exc}")
    return url


def _with_redis_db(url: str, db: int) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, parts.fragment))


@contextmanager
def fresh_redis_db(server_url: str, wait: float = 120.0) -> Iterator[str]:
    """Lease an empty logical database (1..N-1) for the block: its URL; flushed before and after.

    Leases are ``SET NX EX`` keys in database 0, so parallel test processes (and other people's
    runs on the same server) never share a database.
    """
    admin = _redis_client(_with_redis_db(server_url, 0))
    token = f"{os.getpid()}-{uuid.uuid4().hex}"
    try:
        try:
            count = int(admin.config_get("databases").get("databases", 16))
        except Exception:  # CONFIG may be disabled on a managed server
            count = 16
        deadline = time.monotonic() + wait
        db = None
        while db is None:
            for n in range(1, count):
                if admin.set(_REDIS_LEASE_KEY.format(n), token, nx=True, ex=_REDIS_LEASE_SECONDS):
                    db = n
                    break
            else:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"no free Redis database on {server_url} after {wait:.0f} s")
                time.sleep(0.1)
        try:
            url = _with_redis_db(server_url, db)
            client = _redis_client(url)
            try:
                client.flushdb()
                yield url
            finally:
                try:
                    client.flushdb()  # the server may have been restarted by a fault test: empty anyway
                except Exception:
                    pass
                client.close()
        finally:
            if admin.get(_REDIS_LEASE_KEY.format(db)) == token.encode():
                admin.delete(_REDIS_LEASE_KEY.format(db))
    finally:
        admin.close()


@contextmanager
def redis_namespace(server_url: str, prefix: str = "hipo_t") -> Iterator[str]:
    """A unique key prefix (ending in ``:``) in the URL's database; its keys are deleted afterwards."""
    namespace = f"{prefix}:{os.getpid()}:{uuid.uuid4().hex[:10]}:"
    try:
        yield namespace
    finally:
        client = _redis_client(server_url)
        try:
            keys = list(client.scan_iter(match=namespace + "*", count=1000))
            for start in range(0, len(keys), 500):
                client.delete(*keys[start : start + 500])
        finally:
            client.close()


@pytest.fixture
def redis_db_url(redis_url: str) -> Iterator[str]:
    """An empty Redis logical database for one test (``redis://127.0.0.1:63799/<n>``), flushed afterwards."""
    with fresh_redis_db(redis_url) as url:
        yield url
