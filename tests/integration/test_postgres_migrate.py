"""`hipocampo migrate` on a real Postgres: applies the schema once, safely from many processes,
and servers refuse a database whose schema is behind instead of migrating it themselves."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from typer.testing import CliRunner

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.postgres.schema import LATEST, MIGRATIONS, migrate, pending
from hipocampo.backends import open_storage, redact
from hipocampo.domain.errors import ConfigurationError
from hipocampo.entrypoints.cli import app
from hipocampo.settings import Settings


def _versions(url: str) -> list[int]:
    with psycopg.connect(url) as conn:
        return [v for (v,) in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]


def _open(url: str) -> None:
    async def main() -> None:
        storage = await open_storage(url, clock=FakeClock(), settings=Settings(db=url))
        await storage.close()

    asyncio.run(main())


def test_migrate_applies_the_schema_once_and_then_does_nothing(pg_db_url: str) -> None:
    runner = CliRunner()
    first = runner.invoke(app, ["migrate", "--db", pg_db_url])
    assert first.exit_code == 0, first.output
    assert f"from schema version 0 to {LATEST}" in first.output
    assert "hipocampo:***@" in first.output  # the password is never printed
    assert _versions(pg_db_url) == list(range(1, LATEST + 1))
    assert asyncio.run(pending(pg_db_url)) == []

    again = runner.invoke(app, ["--db", pg_db_url, "migrate"])  # the global --db works too
    assert again.exit_code == 0, again.output
    assert f"up to date (schema version {LATEST})" in again.output
    assert _versions(pg_db_url) == list(range(1, LATEST + 1))
    _open(pg_db_url)  # and the storage opens on it


def test_opening_refuses_a_database_with_pending_migrations(pg_db_url: str) -> None:
    with pytest.raises(ConfigurationError) as never_migrated:
        _open(pg_db_url)
    message = str(never_migrated.value)
    assert f"is at schema version 0 of {LATEST}: run `hipocampo migrate`" in message
    assert redact(pg_db_url) in message and "hipocampo:hipocampo@" not in message
    with psycopg.connect(pg_db_url) as conn:  # opening created nothing
        assert conn.execute("SELECT to_regclass('messages')").fetchone() == (None,)

    # Half way: as an older hipocampo left it, before a newer one with more migrations.
    with psycopg.connect(pg_db_url) as conn:
        conn.execute("CREATE TABLE schema_migrations (version integer PRIMARY KEY)")
        for statement in MIGRATIONS[0]:
            conn.execute(statement)
        conn.execute("INSERT INTO schema_migrations VALUES (1)")
    assert asyncio.run(pending(pg_db_url)) == list(range(2, LATEST + 1))
    if LATEST > 1:
        with pytest.raises(ConfigurationError, match=f"at schema version 1 of {LATEST}"):
            _open(pg_db_url)
    assert asyncio.run(migrate(pg_db_url)) == (1, LATEST)
    _open(pg_db_url)


def test_concurrent_migrate_runs_apply_each_migration_once(pg_db_url: str) -> None:
    """A deploy starting several replicas, each running `hipocampo migrate`: separate processes."""
    command = [sys.executable, "-m", "hipocampo.entrypoints.cli", "migrate", "--db", pg_db_url]

    def run(_: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)

    with ThreadPoolExecutor(4) as pool:
        done = list(pool.map(run, range(4)))
    assert all(p.returncode == 0 for p in done), [p.stderr for p in done]
    outputs = [" ".join(p.stdout.split()) for p in done]
    assert sum(f"from schema version 0 to {LATEST}" in o for o in outputs) == 1, outputs
    assert sum("up to date" in o for o in outputs) == 3, outputs
    assert _versions(pg_db_url) == list(range(1, LATEST + 1))
    _open(pg_db_url)


def test_a_failed_connection_is_a_clear_configuration_error() -> None:
    url = "postgresql://nobody:secret@127.0.0.1:9/nowhere?connect_timeout=2"
    with pytest.raises(ConfigurationError, match=r"cannot connect to Postgres at postgresql://nobody:\*\*\*@") as err:
        asyncio.run(migrate(url))
    assert "secret" not in str(err.value)


def test_migrate_on_sqlite_reports_the_version(tmp_path) -> None:
    path = tmp_path / "memory.db"
    runner = CliRunner()
    first = runner.invoke(app, ["migrate", "--db", str(path)])
    assert first.exit_code == 0, first.output
    assert "from schema version 0 to" in first.output
    again = runner.invoke(app, ["migrate", "--db", f"sqlite:///{path}"])
    assert again.exit_code == 0 and "up to date" in again.output, again.output
