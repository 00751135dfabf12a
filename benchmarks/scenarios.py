"""Fact lifecycle scenarios: scripted PT/EN conversations, the facts they leave, and how updates,
retractions, mentions and event dates were handled.

    python benchmarks/scenarios.py [--embedder fake] [--json] [--out result.json]

Prints tables (per scenario, per language, every miss); ``--json`` prints the full result as JSON
instead. The scenarios live in src/hipocampo/bench/scenario_data*.py.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console  # noqa: E402

from hipocampo.bench.scenarios import render_scenarios, run_scenarios  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--embedder", default="fake", help="embedder setting (default: fake; extraction does not use it)"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--out", default=None, help="also write the JSON result to this file")
    args = parser.parse_args(argv)
    result = run_scenarios(embedder=args.embedder)
    text = json.dumps(result, indent=2, ensure_ascii=False)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    if args.json:
        print(text)
    else:
        render_scenarios(result, Console())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
