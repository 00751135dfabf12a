"""A storage backend plugin: the ``hipocampo.backends`` entry point ``example`` names
:data:`backend`, so ``HIPOCAMPO_DB=example:///path`` opens a store here, and ``hipocampo
migrate``, ``move`` and ``doctor`` ask this object as they ask a built-in one.

The example keeps its data in a SQLite file through hipocampo's own SQLite backend (a real
engine would open its own client): what it shows is the shape of a backend, one object that
opens, migrates and identifies a store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hipocampo.backends import Backend, backend_for

if TYPE_CHECKING:
    from hipocampo.ports import Clock, Storage
    from hipocampo.settings import Settings


def _file(url: str) -> str:
    """``example:///path`` -> the SQLite URL of the file it keeps."""
    return "sqlite:///" + url.split("://", 1)[1].removeprefix("/")


class ExampleBackend(Backend):
    async def open(self, url: str, *, clock: Clock, settings: Settings) -> Storage:
        return await backend_for("sqlite:///").open(_file(url), clock=clock, settings=settings)

    async def migrate(self, url: str) -> tuple[int, int] | None:
        return await backend_for("sqlite:///").migrate(_file(url))

    def identity(self, url: str) -> tuple[str, ...] | None:
        found = backend_for("sqlite:///").identity(_file(url))
        return None if found is None else ("example", *found[1:])

    def exists(self, url: str) -> bool:
        return backend_for("sqlite:///").exists(_file(url))

    def local_size(self, url: str) -> int | None:
        return backend_for("sqlite:///").local_size(_file(url))


backend = ExampleBackend()
