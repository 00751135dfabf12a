"""Drive the ``hipocampo`` command line: in-process through typer's runner, or as a real process.

Every test gets its own database (``db_path``, from the top conftest) and the fake embedder
(deterministic, no model to load).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from hipocampo.entrypoints.cli import app


@pytest.fixture(autouse=True)
def fake_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings from the developer's shell must not leak in; the fake embedder keeps tests fast.

    The test engines' URLs (``HIPOCAMPO_TEST_*``, tests/engines.py) stay. Being autouse, this runs
    before ``db_path``, which then sets ``HIPOCAMPO_REDIS_URL`` for a Postgres store (and subprocesses
    started by the test inherit it)."""
    for name in list(os.environ):
        # The model cache stays too: tests/conftest.py points it at a temporary folder.
        if name.startswith("HIPOCAMPO_") and not name.startswith(("HIPOCAMPO_TEST_", "HIPOCAMPO_MODEL_CACHE_DIR")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HIPOCAMPO_EMBEDDER", "fake")


@dataclass
class Cli:
    """``cli("recall", "ana", "q")`` runs ``hipocampo --db <tmp> recall ana q``; checks its exit."""

    db: str
    runner: CliRunner

    def __call__(self, *args: str, code: int = 0, input: str | None = None) -> Result:
        result = self.runner.invoke(app, ["--db", self.db, *args], input=input)
        assert result.exit_code == code, f"exit {result.exit_code}, wanted {code}:\n{result.output}"
        return result

    def json(self, *args: str) -> Any:
        """Run with ``--json``: stdout must hold JSON and nothing else."""
        return json.loads(self(*args, "--json").stdout)


@pytest.fixture
def cli(db_path: str) -> Cli:
    return Cli(db_path, CliRunner())


@pytest.fixture
def cli_command(db_path: str) -> list[str]:
    """The command line of a real ``hipocampo --db <tmp>`` process, on this interpreter."""
    return [sys.executable, "-m", "hipocampo.entrypoints.cli", "--db", db_path]


@pytest.fixture
def process(cli_command: list[str]) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run the CLI as a separate process; it inherits the (fake) environment."""

    def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*cli_command, *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=timeout,
            check=False,
        )

    return run


@pytest.fixture
def jsonl(tmp_path: Path) -> Callable[[str, Sequence[dict[str, Any] | str]], Path]:
    """Write a JSONL file in the test's folder; a ``str`` row is written as is (a bad line)."""

    def write(name: str, rows: Sequence[dict[str, Any] | str]) -> Path:
        path = tmp_path / name
        lines = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in rows]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    return write
