"""CLI commands for tenants and API keys (`hipocampo tenants`, `hipocampo keys`)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
