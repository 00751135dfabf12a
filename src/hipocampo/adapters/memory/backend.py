"""The in-process backend object (the ``memory`` entry point of ``hipocampo.backends``): nothing
kept between runs, so nothing to migrate; ``memory://name`` names one store inside a process."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...backend_port import Backend

if TYPE_CHECKING:
    from ...ports import Clock, Storage
    from ...settings import StorageSettings


class MemoryBackend(Backend):
    async def open(self, url: str, *, clock: Clock, settings: StorageSettings) -> Storage:
        from . import open_storage

        return await open_storage(url, clock=clock, settings=settings)

    def identity(self, url: str) -> tuple[str, ...] | None:
        name = url.split("://", 1)[1].strip("/")
        return ("memory", name) if name else None  # each plain memory:// opens a new store


backend = MemoryBackend()
