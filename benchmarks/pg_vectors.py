"""Postgres vector search: the exact per-user path against HNSW, by user size.

    python benchmarks/pg_vectors.py --db postgresql://user:pass@host/bench_db
        [--vectors 200000] [--users 2000] [--dim 384] [--queries 50] [--ef 40,100,200] [--json]

Fills a scratch database (migrated here; it must hold nothing else, and is reused as it is when
already filled) with unit vectors spread over users of five sizes: 4 users of 20,000 vectors, 2
of 10,000, 4 of 5,000, 60 of 1,000, the rest (about 1,900) of about 10 each. The shape is
embedding-like (see ``clustered``) and deliberately shared: each user writes about 8 of 32
topics, so any topic is every user's, and a query's nearest neighbours in the whole table belong
mostly to other users (a user of 1,000 vectors holds ~2% of a topic's vectors, one of 10 ~0.02%):
the case where filtering after an HNSW walk goes wrong. Then, for one user of each size, it asks
``PostgresVectorIndex.search`` (the real code path, its counting query included) for the k=10
nearest of queries near that user's own vectors, once forced exact, once forced through the
index alone (no exact answer in place of a short one) per ``ef_search``, and once as the
product chooses, and reports latency (p50/p95, ms), the path chosen and recall@10 against the
exact answer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from hipocampo.adapters.postgres import conninfo  # noqa: E402
from hipocampo.adapters.postgres.db import PostgresDatabase  # noqa: E402
from hipocampo.adapters.postgres.schema import migrate  # noqa: E402
from hipocampo.adapters.postgres.vectors import PostgresVectorIndex, ann_index_ddl  # noqa: E402
from hipocampo.domain.model import Scope  # noqa: E402
from hipocampo.settings import Settings  # noqa: E402

MODEL = "bench/clustered"
TOPICS = 32
LATENT = 24
SIZED_USERS = {"20k": (20_000, 4), "10k": (10_000, 2), "5k": (5_000, 4), "1k": (1_000, 60)}
"""label: (vectors per user, users); every other user holds the rest, about 10 each."""
K = 10
SEED = 7


def user_sizes(total: int, users: int) -> dict[str, int]:
    sizes = {f"user-{label}-{i}": n for label, (n, count) in SIZED_USERS.items() for i in range(count)}
    small = users - len(sizes)
    left = total - sum(sizes.values())
    sizes |= {f"small-{i}": left // small + (1 if i < left % small else 0) for i in range(small)}
    return sizes


def clustered(rng: np.random.Generator, topics: list[tuple[np.ndarray, np.ndarray]], n: int) -> np.ndarray:
    """``n`` unit vectors about ``topics``: each a topic's centre moved within the topic's own
    low-dimensional subspace, plus a little noise in every direction. Text embeddings have that
    shape (a few meaningful directions per subject), so nearest neighbours mean something; with
    isotropic noise in 384 dimensions every point of a cluster is as far as any other."""
    dim = topics[0][0].shape[0]
    picked = rng.integers(len(topics), size=n)
    centres = np.stack([topics[i][0] for i in picked])
    latent = rng.standard_normal((n, LATENT)).astype(np.float32) / np.sqrt(LATENT)
    moved = np.einsum("nl,ndl->nd", latent, np.stack([topics[i][1] for i in picked]))
    v = centres + 0.8 * moved + 0.15 * rng.standard_normal((n, dim)).astype(np.float32) / np.sqrt(dim)
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


def make_topics(rng: np.random.Generator, dim: int) -> list[tuple[np.ndarray, np.ndarray]]:
    topics = []
    for _ in range(TOPICS):
        centre = rng.standard_normal(dim).astype(np.float32)
        basis, _ = np.linalg.qr(rng.standard_normal((dim, LATENT)))
        topics.append((centre / np.linalg.norm(centre), basis.astype(np.float32)))
    return topics


async def fill(url: str, total: int, users: int, dim: int) -> dict[str, Any]:
    import psycopg
    from pgvector.psycopg import register_vector_async

    rng = np.random.default_rng(SEED)
    all_topics = make_topics(rng, dim)
    sizes = user_sizes(total, users)
    async with await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True) as conn:
        await register_vector_async(conn)
        t = time.perf_counter()
        async with conn.cursor() as cur:
            async with cur.copy("COPY memories (id, tenant_id, user_id, kind, content, created_at) FROM STDIN") as cp:
                for user, n in sizes.items():
                    for i in range(n):
                        await cp.write_row((f"{user}-{i}", "bench", user, "turn", "x", "2024-01-01T00:00:00Z"))
            async with cur.copy(
                "COPY vectors (memory_id, tenant_id, user_id, model, dim, embedding) FROM STDIN WITH (FORMAT BINARY)"
            ) as cp:
                cp.set_types(["text", "text", "text", "text", "int4", "vector"])
                for user, n in sizes.items():
                    topics = [all_topics[t] for t in rng.choice(TOPICS, size=8, replace=False)]
                    for i, v in enumerate(clustered(rng, topics, n)):
                        await cp.write_row((f"{user}-{i}", "bench", user, MODEL, dim, v))
        loaded = time.perf_counter() - t
        await conn.execute("INSERT INTO vector_model (model, dim) VALUES (%s, %s)", (MODEL, dim))
        await conn.execute("SET maintenance_work_mem = '2GB'")
        t = time.perf_counter()
        await conn.execute(ann_index_ddl(dim))  # type: ignore[arg-type]
        built = time.perf_counter() - t
        await conn.execute("VACUUM ANALYZE vectors")
        await conn.execute("VACUUM ANALYZE memories")
    return {"load_s": round(loaded, 1), "hnsw_build_s": round(built, 1)}


def queries_for(rng: np.random.Generator, stored: np.ndarray, n: int) -> list[np.ndarray]:
    """Queries about the user's own subjects: a stored vector moved a little (a question is near,
    not on, what it asks about)."""
    picks = stored[rng.integers(len(stored), size=n)]
    noisy = picks + 0.3 * rng.standard_normal(picks.shape).astype(np.float32) / np.sqrt(picks.shape[1])
    return list(noisy / np.linalg.norm(noisy, axis=1, keepdims=True))


def stats_ms(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {"p50_ms": round(statistics.median(values), 2), "p95_ms": round(values[int(0.95 * (len(values) - 1))], 2)}


async def measure(url: str, n_queries: int, efs: list[int]) -> dict[str, Any]:
    db = await PostgresDatabase.open(conninfo(url))
    rng = np.random.default_rng(SEED + 1)
    out: dict[str, Any] = {}
    try:
        exact = PostgresVectorIndex(db, Settings(), path="exact")
        for label, user in (("10", "small-0"), *((label, f"user-{label}-0") for label in reversed(SIZED_USERS))):
            scope = Scope("bench", user)
            stored = list((await exact.get(scope, [f"{user}-{i}" for i in range(20_000)])).values())
            queries = queries_for(rng, np.stack(stored), n_queries)
            row: dict[str, Any] = {"user_vectors": len(stored)}
            truth, times = [], []
            for q in queries:
                t = time.perf_counter()
                truth.append([h.memory_id for h in await exact.search(scope, q, K)])
                times.append((time.perf_counter() - t) * 1000)
            row["exact"] = stats_ms(times)
            product = PostgresVectorIndex(db, Settings())
            row["product_path"] = await product.path_for(scope, K)
            times, recalls = [], []
            for q, want in zip(queries, truth, strict=True):
                t = time.perf_counter()
                got = [h.memory_id for h in await product.search(scope, q, K)]
                times.append((time.perf_counter() - t) * 1000)
                recalls.append(len(set(got) & set(want)) / max(len(want), 1))
            row["product"] = stats_ms(times) | {"recall_at_10": round(statistics.mean(recalls), 3)}
            for ef in efs:
                ann = PostgresVectorIndex(db, Settings(pg_ef_search=ef), path="hnsw", fallback=False)
                times, recalls = [], []
                for q, want in zip(queries, truth, strict=True):
                    t = time.perf_counter()
                    got = [h.memory_id for h in await ann.search(scope, q, K)]
                    times.append((time.perf_counter() - t) * 1000)
                    recalls.append(len(set(got) & set(want)) / max(len(want), 1))
                row[f"hnsw_ef{ef}"] = stats_ms(times) | {"recall_at_10": round(statistics.mean(recalls), 3)}
            out[label] = row
            print(label, json.dumps(row), file=sys.stderr)
    finally:
        await db.close()
    return out


async def main(args: argparse.Namespace) -> dict[str, Any]:
    await migrate(args.db)
    import psycopg

    with psycopg.connect(conninfo(args.db), autocommit=True) as conn:
        held = conn.execute("SELECT count(*) FROM vectors").fetchone()[0]
    result: dict[str, Any] = {"vectors": args.vectors, "users": args.users, "dim": args.dim, "k": K}
    if held == 0:
        result |= await fill(args.db, args.vectors, args.users, args.dim)
        print("filled", json.dumps(result), file=sys.stderr)
    elif held != args.vectors:
        raise SystemExit(f"the database holds {held} vectors, not {args.vectors}: give an empty one")
    result["by_user_size"] = await measure(args.db, args.queries, [int(e) for e in args.ef.split(",")])
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", required=True, help="a scratch postgresql:// database (filled once, then reused)")
    parser.add_argument("--vectors", type=int, default=200_000)
    parser.add_argument("--users", type=int, default=2000)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--queries", type=int, default=50, help="queries per user size")
    parser.add_argument("--ef", default="40,100,200", help="hnsw.ef_search values to measure")
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=2))
