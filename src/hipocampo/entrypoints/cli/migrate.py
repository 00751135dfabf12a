"""`hipocampo migrate`: bring the database's schema up to date.

Postgres is shared by many servers and workers, so it is migrated on purpose, once per deploy,
by this command (servers refuse to start on an old schema and say so). SQLite migrates itself
whenever it is opened; the command does the same for it, so one deploy step fits both.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Annotated

import typer

from .support import out, state, user_errors


async def migrate_database(target: str) -> tuple[int, int] | None:
    """Apply the pending migrations of the database ``target`` names: ``(before, after)``
    schema versions, or ``None`` for a backend with no schema (``memory://``)."""
    from ...backends import scheme_of

    scheme = scheme_of(target)
    if scheme == "postgresql":
        from ...adapters.postgres.schema import migrate

        return await migrate(target)
    if scheme == "sqlite":
        from ...adapters.sqlite import sqlite_path
        from ...adapters.sqlite.db import SqliteDatabase
        from ...adapters.sqlite.schema import MIGRATIONS

        path = sqlite_path(target)
        before = _sqlite_version(path)
        db = await SqliteDatabase.open(path)  # opening migrates
        await db.close()
        return before, max(before, len(MIGRATIONS))
    return None


def _sqlite_version(path: str) -> int:
    """The schema version of the SQLite file at ``path``, read without changing it (0: none yet)."""
    file = Path(path).expanduser()
    if path == ":memory:" or not file.exists():
        return 0
    conn = sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True)
    try:
        (version,) = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
        return int(version)
    except sqlite3.OperationalError:  # no schema_migrations table: never opened by hipocampo
        return 0
    finally:
        conn.close()


def migrate(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option("--db", help="Database URL or SQLite path (default: --db before the command, then HIPOCAMPO_DB)."),
    ] = None,
) -> None:
    """Bring the database's schema up to date; run it once per deploy, before the servers start.

    Postgres needs it before first use and after every upgrade (servers refuse an old schema);
    running it again, or from several machines at once, is safe. SQLite migrates itself when
    opened: this only does it now.
    """
    from ...backends import redact
    from ...settings import Settings

    with user_errors():
        target = db or state(ctx).db or Settings().db
        versions = asyncio.run(migrate_database(target))
    where = redact(target)
    if versions is None:
        out().print(f"{where} keeps nothing between runs: there is no schema to migrate", soft_wrap=True)
    elif versions[0] == versions[1]:
        out().print(f"{where} is up to date (schema version {versions[1]})", soft_wrap=True)
    else:
        out().print(f"migrated {where} from schema version {versions[0]} to {versions[1]}", soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("migrate")(migrate)
