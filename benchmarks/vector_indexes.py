"""Vector search through the VectorIndex port: the built-in SQLite index, ChromaDB and DuckDB.

    python benchmarks/vector_indexes.py [--sizes 10000 100000] [--users 4] [--queries 200] [--k 60]
                                        [--engines sqlite chroma duckdb] [--dir /tmp/vbench] [--json]

For each size N: N random unit vectors of dimension 384 spread evenly over ``--users`` users of
one tenant (the searched user holds N/users of them), one SQLite file as the log (the memories
the vectors belong to), and each engine filled through ``VectorIndex.upsert`` in batches of 1,000.
Then ``--queries`` searches of the first user (each a stored vector of that user plus noise, so a
query has true near neighbours), ``k`` hits each (default: the candidate pool recall asks for),
timed one after another (median and 95th percentile, milliseconds); recall@k compares each
engine's hits with the exact top k of the user's own vectors (numpy), recall@10 its first ten
with the exact ten nearest. Build: seconds to index N. Random vectors have no neighbourhoods
(past the nearest one, every distance is about the same), the hard case for HNSW.
Needs the extras ``chroma`` and ``duckdb`` for those engines.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from hipocampo.adapters.clock import FakeClock  # noqa: E402
from hipocampo.backends import open_storage, with_vector_index  # noqa: E402
from hipocampo.domain.model import MemoryItem, MemoryKind, Role, Scope  # noqa: E402
from hipocampo.settings import Settings  # noqa: E402

DIM = 384
BATCH = 1000
MODEL = "bench/384"
T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


def _users(n: int) -> list[Scope]:
    return [Scope("bench", f"user-{i}") for i in range(n)]


async def _log(storage, vectors: np.ndarray, owners: np.ndarray, users: list[Scope]) -> None:
    """The memories the vectors index: the built-in index and the engines check they exist."""
    for start in range(0, len(vectors), BATCH):
        items = [
            MemoryItem(
                id=f"m{i}",
                scope=users[owners[i]],
                kind=MemoryKind.TURN,
                content=f"memory {i}",
                created_at=T0,
                thread_id=f"t{i // 200}",
                seq=i % 200,
                role=Role.USER,
            )
            for i in range(start, min(start + BATCH, len(vectors)))
        ]
        await storage.memories.upsert(items)


async def _fill(index, vectors: np.ndarray, owners: np.ndarray, users: list[Scope]) -> float:
    t = time.perf_counter()
    for u, scope in enumerate(users):
        mine = np.flatnonzero(owners == u)
        for start in range(0, len(mine), BATCH):
            chunk = mine[start : start + BATCH]
            await index.upsert(scope, [(f"m{i}", vectors[i]) for i in chunk], MODEL)
    return time.perf_counter() - t


async def _measure(index, scope: Scope, queries: np.ndarray, truth: list[list[str]], k: int) -> dict:
    await index.search(scope, queries[0], k)  # warm caches and connections
    times, recalls, recalls10 = [], [], []
    for q, expected in zip(queries, truth, strict=True):
        t = time.perf_counter()
        hits = [h.memory_id for h in await index.search(scope, q, k)]
        times.append((time.perf_counter() - t) * 1000)
        recalls.append(len(set(hits) & set(expected)) / len(expected))
        recalls10.append(len(set(hits[:10]) & set(expected[:10])) / len(expected[:10]))
    times.sort()
    return {
        "p50_ms": statistics.median(times),
        "p95_ms": times[min(len(times) - 1, int(0.95 * len(times)))],
        "recall": statistics.fmean(recalls),
        "recall10": statistics.fmean(recalls10),
    }


async def run_size(n: int, args: argparse.Namespace, folder: Path) -> list[dict]:
    rng = np.random.default_rng(n)
    vectors = rng.standard_normal((n, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    users = _users(args.users)
    owners = np.arange(n) % len(users)
    mine = np.flatnonzero(owners == 0)
    seeds = rng.choice(mine, size=args.queries, replace=len(mine) < args.queries)
    queries = vectors[seeds] + 0.05 * rng.standard_normal((args.queries, DIM)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    exact = queries @ vectors[mine].T
    k = min(args.k, len(mine))
    truth = [[f"m{mine[j]}" for j in np.argsort(-row)[:k]] for row in exact]  # nearest first

    db = f"sqlite:///{folder / f'log-{n}.db'}"
    storage = await open_storage(db, clock=FakeClock(T0), settings=Settings(db=db))
    rows = []
    try:
        await _log(storage, vectors, owners, users)
        for engine in args.engines:
            if engine == "sqlite":
                index, close = storage.vectors, None
            else:
                url = {
                    "chroma": f"chroma:///{folder / f'chroma-{n}'}",
                    "duckdb": f"duckdb:///{folder / f'v-{n}.duckdb'}",
                }
                external = await with_vector_index(storage, url[engine])
                index, close = external.vectors, external.vectors
            build = await _fill(index, vectors, owners, users)
            row = {"engine": engine, "vectors": n, "user_vectors": len(mine), "k": k, "build_s": build}
            row |= await _measure(index, users[0], queries, truth, k)
            rows.append(row)
            if not args.json:  # each row as soon as it is measured: a 100k DuckDB build takes minutes
                print(_row(row), flush=True)
            if close is not None:
                await close.close()
    finally:
        await storage.close()
    return rows


HEADER = (
    "| engine | vectors (user's) | build s | p50 ms | p95 ms | recall@k | recall@10 |\n|---|---|---|---|---|---|---|"
)


def _row(r: dict) -> str:
    return (
        f"| {r['engine']} | {r['vectors']:,} ({r['user_vectors']:,}) | {r['build_s']:.1f} | {r['p50_ms']:.2f} "
        f"| {r['p95_ms']:.2f} | {r['recall']:.3f} | {r['recall10']:.3f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--users", type=int, default=4)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--k", type=int, default=60)
    parser.add_argument("--engines", nargs="+", default=["sqlite", "chroma", "duckdb"])
    parser.add_argument("--dir", type=Path, default=None, help="where the stores go (default: a temporary folder)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="vbench-"))
    folder.mkdir(parents=True, exist_ok=True)
    if not args.json:
        print(HEADER, flush=True)
    try:
        rows = [row for n in args.sizes for row in asyncio.run(run_size(n, args, folder))]
    finally:
        if args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
