"""The command line starts without the engine: building it (what ``hipocampo --version`` and
``--help`` do) imports typer, rich and the domain's plain types, and nothing that loads models,
settings, storage or the ranking code. Each command imports what it needs when it runs. The time
it takes is measured by ``benchmarks/cli_startup.py`` (docs/benchmarks.md), not asserted here."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import get_args

from hipocampo import __version__
from hipocampo.domain.retrieval.recall import RecencyMode
from hipocampo.entrypoints.cli import RecencyName

HEAVY = (
    "hipocampo.client",
    "hipocampo.settings",
    "hipocampo.bootstrap",
    "hipocampo.services",
    "hipocampo.adapters.sqlite",
    "hipocampo.adapters.postgres",
    "hipocampo.domain.retrieval.recall",
    "hipocampo.domain.extraction",
    "hipocampo_bench",
    "numpy",
    "pydantic_settings",
    "onnxruntime",
)


def test_building_the_command_line_loads_no_engine() -> None:
    code = (
        "import json, sys\n"
        "import typer.main\n"
        "from hipocampo.entrypoints.cli import app\n"
        "typer.main.get_command(app)  # every command and option, as --help sees them\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.startswith({HEAVY!r}))))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == []


def test_the_recency_choices_are_the_recency_modes() -> None:
    """Spelled out in the CLI so that its options load no ranking code: kept the same here."""
    assert get_args(RecencyName) == tuple(m.value for m in RecencyMode)


def test_version_answers_without_the_engine() -> None:
    code = (
        "import sys\n"
        "sys.argv = ['hipocampo', '--version']\n"
        "from hipocampo.entrypoints.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('hipocampo.client', 'hipocampo.settings'))))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.splitlines() == [f"hipocampo {__version__}", "[]"]
