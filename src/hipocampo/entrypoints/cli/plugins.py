"""`hipocampo plugins`: the providers installed here, built-in and third-party, by kind.

What a settings error lists when a name is unknown, with where each name comes from: the package
and entry point, so a clash or a plugin that shadows a built-in can be traced. Reads only the
entry points' metadata; ``--check`` also imports each one, to find the ones that are broken.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from ...domain.errors import ConfigurationError
from .support import out

if TYPE_CHECKING:
    from ... import plugins


def plugin_rows(check: bool = False) -> list[dict[str, str]]:
    from ... import plugins

    rows = []
    for kind, registry in plugins.REGISTRIES.items():
        for provider in registry.providers():
            row = {
                "kind": kind,
                "name": provider.name,
                "package": provider.package or "(registered in process)",
                "entry_point": provider.value,
            }
            if check:
                row["status"] = _status(registry, provider)
            rows.append(row)
    return rows


def _status(registry: plugins.Registry, provider: plugins.Provider) -> str:
    if provider in registry.ignored():
        return "ignored: hipocampo provides this name"
    try:
        registry.load(provider.name)
    except ConfigurationError as exc:
        return str(exc)
    return "ok"


def list_plugins(
    check: Annotated[bool, typer.Option("--check", help="Also import each one and report those that fail.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the installed embedders, LLM providers, vector indexes and storage backends.

    hipocampo's own are registered as plugins are (entry points; see docs/plugins.md)."""
    rows = plugin_rows(check)
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table(title="providers (entry points)", title_justify="left")
    for column in ("kind", "name", "package", "entry_point", *(["status"] if check else [])):
        table.add_column(column.replace("_", " "), overflow="fold")
    for row in rows:
        table.add_row(*row.values())
    out().print(table)


def register(app: typer.Typer) -> None:
    """Add this module's command to the root app."""
    app.command("plugins")(list_plugins)
