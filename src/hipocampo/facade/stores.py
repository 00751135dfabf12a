"""A store as a whole, before any memory is opened on it: migrate it, say which store a URL names,
whether it is there. Asked of the store's :class:`~hipocampo.backends.Backend`, so a plugin's
backend is migrated and identified like a built-in one."""

from __future__ import annotations

from ..backends import backend_for


class StoreCalls:
    """Store-level calls (``hipocampo migrate``, ``move``, ``doctor``); static: no memory needed."""

    @staticmethod
    async def migrate_store(url: str) -> tuple[int, int] | None:
        """Apply the store's pending schema migrations: ``(before, after)`` versions, or ``None``
        for a store with no schema to migrate."""
        return await backend_for(url).migrate(url)

    @staticmethod
    def store_identity(url: str) -> tuple[str, ...] | None:
        """What names the store (two URLs of one store give the same), or ``None`` for a store
        nothing else can name (a plain ``memory://``)."""
        return backend_for(url).identity(url)

    @staticmethod
    def store_exists(url: str) -> bool:
        """Whether the store is there to read."""
        return backend_for(url).exists(url)
