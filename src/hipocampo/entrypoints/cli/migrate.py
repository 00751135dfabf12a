"""`hipocampo migrate`: bring the database's schema up to date.

Postgres is shared by many servers and workers, so it is migrated on purpose, once per deploy,
by this command (servers refuse to start on an old schema and say so). SQLite migrates itself
whenever it is opened; the command does the same for it, so one deploy step fits both.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer

from .support import out, state, user_errors


async def migrate_database(target: str) -> tuple[int, int] | None:
    """Apply the pending migrations of the database ``target`` names: ``(before, after)``
    schema versions, or ``None`` for a backend with no schema (``memory://``). The backend of the
    URL's scheme does it, a plugin's as a built-in's."""
    from ...client import AsyncMemory

    return await AsyncMemory.migrate_store(target)


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
    from ...client import redact
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
