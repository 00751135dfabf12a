"""The storage backends, chosen by the scheme of the database URL.

``HIPOCAMPO_DB`` (``Memory.open(db)``, ``--db``) takes a URL or a plain path:

- a path or ``sqlite:///path``: the embedded default, one SQLite file;
- ``postgresql://user:pass@host/db``: Postgres with pgvector, for many servers and workers;
- ``memory://`` (or ``memory://name`` to share one store inside a process): in-process fakes.

A backend is one package exposing ``open_storage(url, *, clock, settings)`` that returns a
:class:`~hipocampo.ports.Storage`, plus one line here. Packages are imported only when their
scheme is used, so a SQLite user never imports a Postgres driver.
"""

from __future__ import annotations

import os
from importlib import import_module
from typing import TYPE_CHECKING, Protocol

from .domain.errors import ConfigurationError

if TYPE_CHECKING:
    from .ports import Clock, Storage
    from .settings import Settings

BACKENDS: dict[str, str] = {
    "sqlite": "hipocampo.adapters.sqlite",
    "memory": "hipocampo.adapters.memory",
    "postgresql": "hipocampo.adapters.postgres",
}
"""URL scheme -> the package whose ``open_storage`` opens it."""

ALIASES = {"postgres": "postgresql", "postgresql+psycopg": "postgresql"}


class OpenStorage(Protocol):
    async def __call__(self, url: str, *, clock: Clock, settings: Settings) -> Storage: ...


def scheme_of(target: str) -> str:
    """The backend a database setting names: its URL scheme, or ``sqlite`` for a plain path."""
    if "://" not in target:
        return "sqlite"
    scheme = target.split("://", 1)[0].lower()
    scheme = ALIASES.get(scheme, scheme)
    if scheme not in BACKENDS:
        raise ConfigurationError(
            f"unsupported database URL {scheme}://...; use a file path, sqlite:///path, postgresql://... or memory://"
        )
    return scheme


def redact(target: str) -> str:
    """The URL without its password, for logs and messages."""
    if "://" not in target or "@" not in target:
        return target
    scheme, rest = target.split("://", 1)
    creds, host = rest.rsplit("@", 1)
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}" if ":" in creds else target


def local_size(target: str) -> int | None:
    """Bytes on this machine's disk for a SQLite file; None for a server or in-memory database."""
    if scheme_of(target) != "sqlite":
        return None
    path = os.path.expanduser(target.removeprefix("sqlite:///"))
    return os.path.getsize(path) if os.path.exists(path) else 0


async def open_storage(target: str, *, clock: Clock, settings: Settings) -> Storage:
    """Open every storage port of the backend ``target`` names."""
    scheme = scheme_of(target)
    try:
        package = import_module(BACKENDS[scheme])
    except ImportError as exc:
        extra = {"postgresql": "postgres"}.get(scheme, scheme)
        raise ConfigurationError(
            f"the {scheme} backend needs an extra: pip install 'hipocampo[{extra}]' ({exc})"
        ) from exc
    opener: OpenStorage = package.open_storage
    return await opener(target, clock=clock, settings=settings)
