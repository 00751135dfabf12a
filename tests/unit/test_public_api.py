"""The curated public surface, and the README's settings table, stay what they claim."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

import hipocampo
from hipocampo.client import _PUBLIC, AsyncMemory
from hipocampo.client_sync import Memory
from hipocampo.entrypoints.cli import app

README = Path(__file__).resolve().parents[2] / "README.md"


def test_everything_in_all_is_importable() -> None:
    for name in hipocampo.__all__:
        assert hasattr(hipocampo, name), name


def test_sync_facade_mirrors_every_public_async_method() -> None:
    lifecycle = {"open", "settings", "deps", "start_worker", "run_worker", "stop_worker", "close"}
    public_async = {name for name in vars(AsyncMemory) if not name.startswith("_") and name not in lifecycle}
    assert public_async == set(_PUBLIC)
    for name in _PUBLIC:
        assert getattr(Memory, name).__doc__ == getattr(AsyncMemory, name).__doc__


def test_readme_settings_table_matches_the_settings_class() -> None:
    generated = CliRunner().invoke(app, ["settings", "--markdown"]).stdout.strip()
    text = README.read_text()
    embedded = re.search(r"<!-- settings:start -->\n(.*?)\n<!-- settings:end -->", text, re.S)
    assert embedded, "README lost its settings markers"
    assert embedded.group(1).strip() == generated, "regenerate with: hipocampo settings --markdown"
