"""How long the ``hipocampo`` command takes to answer: ``--version``, ``--help`` and light commands.

    .venv/bin/python benchmarks/cli_startup.py [--runs 9] [--json]

Each command runs as a fresh process (the installed ``hipocampo`` script next to this Python, else
``python -m hipocampo.entrypoints.cli``), once to warm the file cache and then ``--runs`` times,
the commands interleaved so that a burst of load on the machine hits them all alike; the table
gives the median and the fastest wall-clock time of each against its target (``--version`` and
``--help`` 0.3 s, a light command 1 s, on an idle machine), and the median CPU time (user + system)
of the process: on a busy machine the wall clock mostly measures the wait for a core, while the
CPU time stays close to what an idle machine would take. The light commands work on a fresh
SQLite file in a temporary folder with the fake embedder, so they time the command line and the
store, not a model download. Timings depend on the machine and its load: compare runs on the same one.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

COMMANDS: tuple[tuple[str, tuple[str, ...], float], ...] = (
    ("--version", ("--version",), 0.3),
    ("--help", ("--help",), 0.3),
    ("bench --help", ("bench", "--help"), 0.3),
    ("memories (light)", ("memories", "ana"), 1.0),
    ("settings (light)", ("settings",), 1.0),
)
"""(label, arguments, target seconds)."""


def _command() -> list[str]:
    script = Path(sys.executable).parent / "hipocampo"
    if script.exists():
        return [str(script)]
    found = shutil.which("hipocampo")
    return [found] if found else [sys.executable, "-m", "hipocampo.entrypoints.cli"]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _time(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall-clock seconds, CPU seconds) of one run of ``argv``."""
    cpu, started = _cpu(), time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()[-300:]}")
    return elapsed, _cpu() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9, help="timed runs of each command (default 9)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    base = _command()
    with tempfile.TemporaryDirectory(prefix="hipocampo-cli-startup-") as tmp:
        env = {**os.environ, "HIPOCAMPO_DB": str(Path(tmp) / "cli.db"), "HIPOCAMPO_EMBEDDER": "fake"}
        env.setdefault("HF_HUB_OFFLINE", "1")
        times: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in COMMANDS}
        for _label, extra, _ in COMMANDS:  # warm-up: file cache, and the store's first migration
            _time([*base, *extra], env)
        for _ in range(args.runs):
            for label, extra, _ in COMMANDS:
                times[label].append(_time([*base, *extra], env))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    rows = [
        {
            "command": f"hipocampo {' '.join(extra)}",
            "label": label,
            "median_s": round(statistics.median(wall for wall, _ in times[label]), 3),
            "min_s": round(min(wall for wall, _ in times[label]), 3),
            "cpu_median_s": round(statistics.median(cpu for _, cpu in times[label]), 3),
            "target_s": target,
            "runs": args.runs,
        }
        for label, extra, target in COMMANDS
    ]
    result = {"python": sys.version.split()[0], "cpus": os.cpu_count(), "load_1min": load, "commands": rows}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    table = Table(title=f"hipocampo startup ({args.runs} runs each; load {load:.2f} on {os.cpu_count()} CPUs)")
    for col in ("command", "median s", "fastest s", "CPU s (median)", "target s", "CPU vs target"):
        table.add_column(col, justify="left" if col == "command" else "right")
    for r in rows:  # the target is for an idle machine, which the CPU time stands for
        ok = "ok" if r["cpu_median_s"] <= r["target_s"] else "over"
        cells = (f"{r['median_s']:.3f}", f"{r['min_s']:.3f}", f"{r['cpu_median_s']:.3f}", f"{r['target_s']:.1f}")
        table.add_row(r["command"], *cells, ok)
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
