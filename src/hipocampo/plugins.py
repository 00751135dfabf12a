"""Providers as plugins: one registry per kind, filled from Python entry points.

Every embedder, chat model provider, vector index and storage backend is found the same way,
hipocampo's own included: a package declares it in its metadata under one of these groups, and
the registry loads it when a setting names it (simonw/llm registers its built-in providers like
its plugins, for the same reason: the core favours none, so the route plugins take is the one
every built-in exercises on every run).

===========================  ===========================================  ==========================
group                        the entry point loads                        named by
===========================  ===========================================  ==========================
``hipocampo.embedders``      ``factory(section) -> Embedder``             ``HIPOCAMPO_EMBEDDER``
``hipocampo.chat_models``    ``factory(model, **options) -> chat model``  ``HIPOCAMPO_LLM`` provider
``hipocampo.vector_indexes`` ``open(url, *, memories) -> VectorIndex``    ``HIPOCAMPO_VECTORS`` scheme
``hipocampo.backends``       ``open_storage(url, *, clock, settings)``    ``HIPOCAMPO_DB`` scheme
===========================  ===========================================  ==========================

``docs/plugins.md`` says what each factory receives and returns. Only the entry points' names are
read until one is chosen, so a plugin's imports cost nothing to users who do not choose it, and a
plugin that fails to import breaks only the setting that names it, with an error saying which
package and why.

Name clashes: a name hipocampo itself declares always means hipocampo's provider; a plugin that
declares it too is ignored, with a warning in the log. Two plugins declaring one name make that
name an error when it is chosen (naming both packages), and nothing else.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from .domain.errors import ConfigurationError

log = logging.getLogger(__name__)

HIPOCAMPO = "hipocampo"
"""The distribution whose entry points are the built-ins."""

Source = Callable[[str], Iterable[tuple[str, EntryPoint]]]
"""Entry points of a group with the distribution declaring each: installed metadata, or a test's list."""


def installed(group: str) -> Iterator[tuple[str, EntryPoint]]:
    for ep in entry_points(group=group):
        yield (ep.dist.name if ep.dist is not None else "?"), ep


def _normal(dist: str) -> str:
    return re.sub(r"[-_.]+", "-", dist).lower()


@dataclass(frozen=True)
class Provider:
    """One name in a registry: where it comes from, and how to load it."""

    name: str
    package: str  # the distribution declaring it ("hipocampo" for built-ins, "" for register())
    value: str  # the entry point's "module:attribute", or a description
    load: Callable[[], Any]

    @property
    def builtin(self) -> bool:
        return _normal(self.package) == HIPOCAMPO


class Registry:
    """The providers of one kind, by name.

    ``noun`` names the kind in messages ("embedder"); ``extras`` maps a built-in's name to the
    pip extra its dependencies come with, for the message when they are missing. Entry points are
    read once per process (a few milliseconds; settings validate against them often), then cached:
    :meth:`refresh` reads them again.
    """

    def __init__(self, group: str, noun: str, *, extras: dict[str, str] | None = None, source: Source = installed):
        self.group = group
        self.noun = noun
        self.extras = extras or {}
        self._source = source
        self._lock = threading.Lock()
        self._scanned: tuple[dict[str, Provider], dict[str, list[Provider]]] | None = None
        self._registered: dict[str, Provider] = {}
        self._shadowed: list[Provider] = []

    # -- reading ---------------------------------------------------------------------------------

    def names(self) -> list[str]:
        """Every name that can be chosen, sorted (clashing plugins' names included)."""
        chosen, clashes = self._scan()
        return sorted({*chosen, *clashes, *self._registered})

    def builtin_names(self) -> list[str]:
        """The names hipocampo itself provides: what documentation lists, whatever else is installed."""
        chosen, _ = self._scan()
        return sorted(name for name, p in chosen.items() if p.builtin)

    def providers(self) -> list[Provider]:
        """Every provider found, by name: the chosen one of each name, both sides of a clash, and
        the plugins ignored for declaring a built-in's name (see :meth:`ignored`)."""
        chosen, clashes = self._scan()
        found = [self._registered.get(n) or chosen[n] for n in sorted({*chosen, *self._registered})]
        found += [p for name in sorted(clashes) for p in clashes[name]] + self.ignored()
        return sorted(found, key=lambda p: p.name)

    def ignored(self) -> list[Provider]:
        """Plugins' providers declared under a name hipocampo provides itself: never used."""
        chosen, _ = self._scan()
        return [p for p in self._shadowed if chosen.get(p.name) is not p]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self.names()

    def check(self, name: str) -> str:
        """``name`` if something provides it, without importing it; else a :class:`ConfigurationError`
        listing what is installed."""
        if name in self._registered:
            return name
        chosen, clashes = self._scan()
        if name in clashes:
            packages = ", ".join(sorted(p.package for p in clashes[name]))
            raise ConfigurationError(
                f"the {self.noun} {name!r} is declared by several packages ({packages}); uninstall all but one"
            )
        if name not in chosen:
            raise ConfigurationError(f"unknown {self.noun} {name!r}; {self._choices()}")
        return name

    def load(self, name: str) -> Any:
        """The object the entry point ``name`` names (a factory), imported now."""
        self.check(name)
        provider = self._registered.get(name) or self._scan()[0][name]
        try:
            return provider.load()
        except Exception as exc:  # ImportError, a missing attribute, an error at import time
            raise ConfigurationError(self._load_problem(provider, exc)) from exc

    # -- registering without a package -----------------------------------------------------------

    @contextmanager
    def registered(self, name: str, factory: Any) -> Iterator[None]:
        """Provide ``factory`` as ``name`` inside the block, ahead of installed ones.

        For tests and notebooks, where a package with an entry point is too much ceremony: code
        that registers a name asked for it explicitly, so it wins even over a built-in.
        """
        previous = self._registered.get(name)
        self._registered[name] = Provider(name, "", f"registered in process: {factory!r}", lambda: factory)
        try:
            yield
        finally:
            if previous is None:
                self._registered.pop(name, None)
            else:
                self._registered[name] = previous

    def refresh(self) -> None:
        """Read the installed entry points again (after installing a package into this process)."""
        with self._lock:
            self._scanned = None

    # -- internals -------------------------------------------------------------------------------

    def _scan(self) -> tuple[dict[str, Provider], dict[str, list[Provider]]]:
        with self._lock:
            if self._scanned is None:
                self._scanned = self._read()
            return self._scanned

    def _read(self) -> tuple[dict[str, Provider], dict[str, list[Provider]]]:
        self._shadowed = []
        by_name: dict[str, dict[tuple[str, str], Provider]] = {}
        for package, ep in self._source(self.group):
            provider = Provider(ep.name, package, ep.value, ep.load)
            # The same distribution seen twice (an editable install's two metadata folders) is one.
            by_name.setdefault(ep.name, {})[(_normal(package), ep.value)] = provider
        chosen: dict[str, Provider] = {}
        clashes: dict[str, list[Provider]] = {}
        for name, found in by_name.items():
            providers = list(found.values())
            builtins = [p for p in providers if p.builtin]
            if builtins:
                chosen[name] = builtins[0]
                self._shadowed += [p for p in providers if not p.builtin]
                for ignored in (p for p in providers if not p.builtin):
                    log.warning(
                        "package %s declares the %s %r, which hipocampo provides itself: ignored (%s)",
                        ignored.package,
                        self.noun,
                        name,
                        ignored.value,
                    )
            elif len(providers) == 1:
                chosen[name] = providers[0]
            else:
                clashes[name] = providers
        return chosen, clashes

    def _choices(self) -> str:
        names = self.names()
        if not self.builtin_names():
            # hipocampo's own metadata predates its entry points: an old install of a newer checkout.
            return (
                f"hipocampo's built-in {self.noun}s are not registered in this environment: reinstall "
                f"hipocampo (pip install -e . in a checkout) so its entry points ({self.group}) are published"
                + (f"; installed: {', '.join(names)}" if names else "")
            )
        return f"installed: {', '.join(names)} (plugins add more: see docs/plugins.md)"

    def _load_problem(self, provider: Provider, exc: Exception) -> str:
        what = f"{type(exc).__name__}: {exc}"
        if provider.builtin:
            extra = self.extras.get(provider.name)
            if extra and isinstance(exc, ImportError):
                return f"the {self.noun} {provider.name!r} needs an extra: pip install 'hipocampo[{extra}]' ({what})"
            return f"the {self.noun} {provider.name!r} could not be loaded; reinstall hipocampo ({what})"
        source = f"package {provider.package}" if provider.package else "registered in process"
        return f"the {self.noun} {provider.name!r} ({source}, {provider.value}) could not be loaded: {what}"


embedders = Registry("hipocampo.embedders", "embedder", extras={"use": "use", "minilm": "minilm"})
"""``factory(section: EmbedderSettings) -> Embedder`` (the embedder's section of the settings, nothing
else of them), named by ``HIPOCAMPO_EMBEDDER``."""

chat_models = Registry("hipocampo.chat_models", "LLM provider")

LLM_EXAMPLES = "e.g. 'openai:gpt-4o-mini' or 'google_genai:gemini-2.0-flash'"


def parse_llm(spec: str) -> tuple[str, str]:
    """``(provider, model)`` of ``"provider:model"``; the model may itself hold colons (``llama3.1:8b``)."""
    provider, sep, model = str(spec).partition(":")
    provider, model = provider.strip(), model.strip()
    if not sep or not provider or not model:
        raise ConfigurationError(f"LLM {spec!r} must be 'provider:model', {LLM_EXAMPLES}")
    return provider, model


def check_llm(spec: str) -> str:
    """``spec`` if it is ``provider:model`` with an installed provider (nothing is imported).

    Here, beside the registry it asks, so the settings validate an LLM spec without importing
    the LLM builder (which reads the settings): the two no longer import each other."""
    provider, _ = parse_llm(spec)
    chat_models.check(provider)
    return spec


"""``factory(model: str, **options) -> a LangChain chat model``, named by ``HIPOCAMPO_LLM``'s provider."""

vector_indexes = Registry(
    "hipocampo.vector_indexes",
    "vector index",
    extras={"chroma": "chroma", "chroma+http": "chroma", "chroma+https": "chroma", "duckdb": "duckdb"},
)
"""``open(url, *, memories) -> VectorIndex`` (run in a worker thread), named by ``HIPOCAMPO_VECTORS``' scheme."""

backends = Registry("hipocampo.backends", "storage backend", extras={"postgresql": "postgres"})
"""``open_storage(url, *, clock, settings) -> Storage``, named by ``HIPOCAMPO_DB``'s URL scheme."""

REGISTRIES = {
    "embedders": embedders,
    "chat_models": chat_models,
    "vector_indexes": vector_indexes,
    "backends": backends,
}
"""Every kind, by the last part of its entry-point group."""


@dataclass(frozen=True)
class Named:
    """Marks a setting as a name in ``registry`` (``Annotated[str, Named(embedders)]``), for the
    settings documentation: it lists the built-in names, which do not depend on what else is
    installed where the documentation is generated."""

    registry: Registry

    def describe(self) -> str:
        return ", ".join(self.registry.builtin_names()) + f", or a plugin's ({self.registry.group})"
