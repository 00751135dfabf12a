"""The port a storage backend implements: open a store, migrate it, say which store a URL names.

Apart from :mod:`hipocampo.ports` (which re-exports it) because it is another concept: the ports
there are what the services use of an open store; this is how the commands (``migrate``, ``move``,
``doctor``) and the composition root find and open one. It imports nothing of the ports at run time,
so a backend folder depends on the ports alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .domain.urls import redact

if TYPE_CHECKING:
    from .ports import Clock, Storage
    from .settings import StorageSettings

__all__ = ["Backend", "OpenStorage"]


class OpenStorage(Protocol):
    async def __call__(self, url: str, *, clock: Clock, settings: StorageSettings) -> Storage: ...


class Backend:
    """A storage backend as the commands ask it: open a store, migrate its schema, say which store
    a URL names. Subclasses override what their engine has; the defaults fit a store with no
    schema and no file (an in-process one).

    A port like the others (a backend folder implements it and imports nothing above this module),
    with its capabilities as methods whose defaults say "none": a plugin's backend migrates, is
    identified and moved exactly as a built-in one. ``open`` is given the storage section of the
    settings only (:class:`~hipocampo.settings.StorageSettings`)."""

    def __init__(self, open_storage: OpenStorage | None = None) -> None:
        self._open = open_storage

    async def open(self, url: str, *, clock: Clock, settings: StorageSettings) -> Storage:
        """Every storage port over the store at ``url``."""
        if self._open is None:
            raise NotImplementedError(f"{type(self).__name__} opens no store")
        return await self._open(url, clock=clock, settings=settings)

    async def migrate(self, url: str) -> tuple[int, int] | None:
        """Apply the pending schema migrations: ``(before, after)`` versions, or ``None`` for a
        store with no schema (it keeps nothing between runs, or migrates itself)."""
        return None

    def identity(self, url: str) -> tuple[str, ...] | None:
        """What names one store, so two URLs of it are known as one (``move`` refuses to move a
        store onto itself); ``None`` for a store nothing else can name. By default the URL
        without its password."""
        return (redact(url),)

    def exists(self, url: str) -> bool:
        """Whether the store is there to read (``move --from`` refuses one that is not)."""
        return True

    def local_size(self, url: str) -> int | None:
        """Bytes on this machine's disk, or ``None`` for a server or in-memory store."""
        return None
