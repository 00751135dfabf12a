"""Keyword search latency over one user holding N memories, next to other tenants' memories.

    python benchmarks/keyword_search.py --db sqlite:///tmp/kw.db [--size 10000] [--noise 10000]
                                        [--queries 200] [--k 60]

Fills the store through the storage ports (memories, then their keyword entries) with the
synthetic chat turns of the latency benchmark: a small vocabulary, so common words match
thousands of memories, the hard case for a keyword index. ``--noise`` memories go to another
tenant, so a backend whose statistics or matching span tenants pays for them. Then times
``KeywordIndex.search`` (the stage-1 call recall makes, ``k`` = the candidate pool) over
synthetic questions and prints p50/p95 in milliseconds. A store that already holds the user's
memories (an earlier run's) is searched as it is, so one store can be measured before and after
a change.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from hipocampo.adapters.clock import FakeClock  # noqa: E402
from hipocampo.backends import open_storage  # noqa: E402
from hipocampo.domain.model import MemoryItem, MemoryKind, Role, Scope  # noqa: E402
from hipocampo.settings import Settings  # noqa: E402
from hipocampo_bench.latency import START, synthetic_queries, synthetic_turns  # noqa: E402

USER = Scope("bench", "bench-user")
NOISE = Scope("noise", "someone")
BATCH = 1000


async def _fill(storage, scope: Scope, n: int, prefix: str, seed: int) -> None:
    turns = synthetic_turns(n, seed=seed)
    for start in range(0, n, BATCH):
        chunk = turns[start : start + BATCH]
        items = [
            MemoryItem(
                id=f"{prefix}-{start + i}",
                scope=scope,
                kind=MemoryKind.TURN,
                content=t["content"],
                created_at=t["created_at"],
                thread_id=f"t{(start + i) // 200}",
                seq=(start + i) % 200,
                role=Role(t["role"]),
                name=t["name"],
            )
            for i, t in enumerate(chunk)
        ]
        async with storage.uow.transaction():
            await storage.memories.upsert(items)
            await storage.keywords.upsert(scope, [(m.id, m.index_text) for m in items])


async def main(args: argparse.Namespace) -> dict:
    if args.db.startswith("postgres"):  # a scratch database: bring its schema up to date
        from hipocampo.adapters.postgres.schema import migrate

        await migrate(args.db)
    storage = await open_storage(args.db, clock=FakeClock(START), settings=Settings(db=args.db))
    try:
        if await storage.memories.count(USER) < args.size:
            t = time.perf_counter()
            await _fill(storage, USER, args.size, "user", seed=1)
            if args.noise:
                await _fill(storage, NOISE, args.noise, "noise", seed=2)
            print(f"filled in {time.perf_counter() - t:.1f}s", file=sys.stderr)
        queries = synthetic_queries(args.queries)
        for q in queries[:5]:  # warm caches
            await storage.keywords.search(USER, q, args.k)
        times, cpu, hits = [], [], []
        for q in queries:
            t, c = time.perf_counter(), time.process_time()
            found = await storage.keywords.search(USER, q, args.k)
            times.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)  # this process's share: the SQLite work, not Postgres'
            hits.append(len(found))
        times.sort()
        cpu.sort()
        return {
            "db": args.db.split("://", 1)[0],
            "size": args.size,
            "noise": args.noise,
            "k": args.k,
            "queries": len(times),
            "p50_ms": round(statistics.median(times), 2),
            "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
            "mean_hits": statistics.mean(hits),
            "cpu_p50_ms": round(statistics.median(cpu), 2),
            "cpu_p95_ms": round(cpu[int(0.95 * (len(cpu) - 1))], 2),
        }
    finally:
        await storage.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", required=True, help="database URL (sqlite:///..., postgresql://..., memory://)")
    parser.add_argument("--size", type=int, default=10_000, help="memories of the searched user")
    parser.add_argument("--noise", type=int, default=10_000, help="memories of another tenant")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--k", type=int, default=60, help="hits per search (recall's candidate pool)")
    print(json.dumps(asyncio.run(main(parser.parse_args()))))
