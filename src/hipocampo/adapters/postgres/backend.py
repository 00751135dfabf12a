"""The Postgres backend object (the ``postgresql`` entry point of ``hipocampo.backends``): a server
shared by many processes, migrated on purpose by ``hipocampo migrate``."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ...backend_port import Backend

if TYPE_CHECKING:
    from ...ports import Clock, Storage
    from ...settings import StorageSettings

DEFAULT_PORT = 5432
"""libpq's port when a URL names none: two URLs, one with it and one without, name one store."""


class PostgresBackend(Backend):
    async def open(self, url: str, *, clock: Clock, settings: StorageSettings) -> Storage:
        from . import open_storage

        return await open_storage(url, clock=clock, settings=settings)

    async def migrate(self, url: str) -> tuple[int, int] | None:
        from .schema import migrate

        return await migrate(url)

    def identity(self, url: str) -> tuple[str, ...]:
        parts = urlsplit(url)
        host = (parts.hostname or "localhost").lower()
        return "postgresql", host, str(parts.port or DEFAULT_PORT), parts.path.strip("/")


backend = PostgresBackend()
