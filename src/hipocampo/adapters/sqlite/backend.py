"""The SQLite backend object (the ``sqlite`` entry point of ``hipocampo.backends``): one file,
which migrates itself whenever it is opened."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from ...backend_port import Backend
from . import open_storage, sqlite_path

if TYPE_CHECKING:
    from ...ports import Clock, Storage
    from ...settings import StorageSettings


class SqliteBackend(Backend):
    async def open(self, url: str, *, clock: Clock, settings: StorageSettings) -> Storage:
        return await open_storage(url, clock=clock, settings=settings)

    async def migrate(self, url: str) -> tuple[int, int] | None:
        """Opening migrates; the versions are read before and after."""
        from .db import SqliteDatabase
        from .schema import MIGRATIONS

        path = sqlite_path(url)
        before = _version(path)
        db = await SqliteDatabase.open(path)
        await db.close()
        return before, max(before, len(MIGRATIONS))

    def identity(self, url: str) -> tuple[str, ...]:
        return "sqlite", str(Path(sqlite_path(url)).expanduser().resolve())

    def exists(self, url: str) -> bool:
        return Path(sqlite_path(url)).expanduser().exists()

    def local_size(self, url: str) -> int | None:
        path = os.path.expanduser(sqlite_path(url))
        return os.path.getsize(path) if os.path.exists(path) else 0


def _version(path: str) -> int:
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


backend = SqliteBackend()
