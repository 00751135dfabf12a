"""Latency at scale: recall over one user holding N memories, the write ack, and the worker's
indexing throughput against the bare embedder.

Embedding 100,000 texts with a real local model takes far too long for a benchmark, and the
vectors' exact values do not change how long a search takes. So the bulk of each store is
written through the real write path (``AsyncMemory.add``, no worker) and then indexed by the
real worker code (:func:`hipocampo.services.worker.run_once`) given a fast random-projection
embedder of the real one's name and dimension. Every memory layer is on, as the product's
defaults have it: the worker extracts facts and folds summaries while it indexes, and the user's
last months are then consolidated (a nightly job in production). Queries then go through the
real ``retrieval.recall`` with the real embedder, and we split their time into query embedding and
everything else (the "overhead"), stage by stage (the recall's ``timings_ms``), which we compare
with the physical floor: an exact numpy scan of an (N, dim) matrix.
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
import zlib
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from hipocampo.adapters.embedders._vectors import unit_rows
from hipocampo.bootstrap import bootstrap, build_embedder
from hipocampo.client import AsyncMemory
from hipocampo.domain.model import MemoryKind, Scope
from hipocampo.ports import Embedder
from hipocampo.services import consolidation, indexing
from hipocampo.services.worker import run_once
from hipocampo.settings import Settings

from .locomo import percentile

USER = "bench-user"
ACK_SAMPLE = 300
BULK_CALL = 1000  # messages per add() call while filling, the most one call accepts
BULK_JOBS_PER_ROUND = 8  # add() calls indexed per worker round: 8,000 messages
THROUGHPUT_MESSAGES = 512
THROUGHPUT_ROUNDS = 2
RAW_BATCH = 32
WARMUP_QUERIES = 3
SEED = 20240501
SCOPE = Scope("default", USER)
NOT_STAGES = frozenset({"query_embed_ms", "total_ms", "recall_ms"})
"""``timings_ms`` keys that are no stage of the overhead; every other key is reported as one (a
stage a recall skipped counts 0 ms). Keyword search runs during the query embedding."""
START = datetime(2023, 1, 1, 9, 0, tzinfo=timezone.utc)

_NAMES = "Ana Bruno Carla Diego Elena Farid Gina Hugo Iris Jon Kai Lena Marta Nate Olga Paulo".split()
_OPENERS = ("", "Hey! ", "Oh, ", "Honestly, ", "Guess what, ", "Haha, ", "So, ", "Well, ")
_VERBS = (
    "bought|painted|fixed|visited|cooked|found|sold|borrowed|planted|built|photographed|cleaned"
    "|booked|read about|lost|rented|repaired|ordered"
).split("|")
_THINGS = (
    "a red bicycle|an old guitar|a tiny apartment|a vegan lasagna|a sunset painting"
    "|a vintage camera|a used Prius|a birthday cake|a pottery vase|a hiking backpack|a chess set"
    "|a lemon tree|a wooden bookshelf|a concert ticket|a travel guide|a violin|a puppy bed"
    "|a yoga mat|a telescope"
).split("|")
_PLACES = (
    "in Lisbon|at the farmers market|near the lake|downtown|at my cousin's place|in the mountains"
    "|at the community center|on the beach|at the old library|in Porto|by the river|at work"
    "|in Toronto|at the gym|in the garden"
).split("|")
_WHENS = (
    "yesterday|last weekend|this morning|two weeks ago|last summer|on Friday|after the meeting"
    "|before dinner|last month|on my birthday|during the holidays"
).split("|")
_TAILS = (
    "It was amazing.|I'm still thinking about it.|The kids loved it.|It cost way too much."
    "|I want to do it again soon.|My partner laughed at me.|It took all day.||"
    "|Have you ever tried that?|I felt so proud.|It reminded me of my grandma."
).split("|")
_QUESTIONS = (
    "What did {name} buy {place}?",
    "When did {name} visit {place}?",
    "Who {verb} {thing}?",
    "Where did {name} find {thing}?",
    "What happened {when} {place}?",
    "Did {name} ever mention {thing}?",
    "How did {name} feel about {thing}?",
)


def synthetic_turns(n: int, seed: int = SEED) -> list[dict[str, Any]]:
    """``n`` varied, deterministic chat turns (message dicts with times ten minutes apart)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        name = rng.choice(_NAMES)
        text = (
            f"{rng.choice(_OPENERS)}{name} and I {rng.choice(_VERBS)} {rng.choice(_THINGS)} "
            f"{rng.choice(_PLACES)} {rng.choice(_WHENS)}. {rng.choice(_TAILS)}"
        ).strip()
        out.append(
            {
                "role": "user" if i % 2 == 0 else "assistant",
                "content": f"{text} (#{rng.randrange(10**6)})",
                "name": name,
                "created_at": START + timedelta(minutes=10 * i),
            }
        )
    return out


def synthetic_queries(n: int, seed: int = SEED + 1) -> list[str]:
    """``n`` distinct questions in the vocabulary of :func:`synthetic_turns`."""
    rng = random.Random(seed)
    seen: dict[str, None] = {}
    while len(seen) < n:
        q = rng.choice(_QUESTIONS).format(
            name=rng.choice(_NAMES),
            place=rng.choice(_PLACES),
            verb=rng.choice(_VERBS),
            thing=rng.choice(_THINGS),
            when=rng.choice(_WHENS),
        )
        seen.setdefault(q, None)
    return list(seen)


class ProjectionEmbedder:
    """Hashed words through a fixed random projection: fast and vaguely topical, never semantic.

    It takes the ``name`` and ``dim`` of the embedder it stands in for, because the vector index
    refuses vectors of another model name; only use it to fill stores that are benchmarked for time.
    """

    def __init__(self, name: str, dim: int, buckets: int = 1 << 14, seed: int = SEED) -> None:
        self.name = name
        self.dim = dim
        self._buckets = buckets
        self._table = np.random.default_rng(seed).standard_normal((buckets, dim), dtype=np.float32)

    def _vector(self, text: str) -> np.ndarray:
        rows = [zlib.crc32(w.encode("utf-8")) % self._buckets for w in text.lower().split()] or [0]
        return self._table[rows].sum(axis=0)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return unit_rows(np.stack([self._vector(t) for t in texts]), self.dim)

    def embed_query(self, text: str) -> np.ndarray:
        return unit_rows(self._vector(text), self.dim)[0]


def _clean(db: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)


def _stats(prefix: str, values: Sequence[float]) -> dict[str, float | None]:
    return {f"{prefix}_p50": percentile(values, 50), f"{prefix}_p95": percentile(values, 95)}


async def _fill(db: Path, settings: Settings, n: int, fast: Embedder) -> dict[str, Any]:
    """Write ``n`` turns through ``add`` (timing a sample of single adds); index them with
    ``fast``."""
    s = Settings.model_validate(
        settings.model_dump() | {"db": str(db), "worker": "external", "worker_batch_size": BULK_JOBS_PER_ROUND}
    )
    res = await bootstrap(s, embedder=fast)
    mem = AsyncMemory(res)  # no worker started: the bulk waits for us
    try:
        turns = synthetic_turns(n, seed=SEED + n)
        sample = min(ACK_SAMPLE, n)
        bulk = turns[: n - sample]
        t0 = time.perf_counter()
        for i in range(0, len(bulk), BULK_CALL):
            await mem.add(USER, f"thread_{i // BULK_CALL}", bulk[i : i + BULK_CALL])
        write_s = time.perf_counter() - t0
        acks = []
        for j, turn in enumerate(turns[n - sample :]):
            t = time.perf_counter()
            await mem.add(USER, f"chat_{j % 10}", turn)
            acks.append((time.perf_counter() - t) * 1000)
        t0 = time.perf_counter()
        while await run_once(res.deps):
            pass
        index_s = time.perf_counter() - t0
        # The nightly consolidation, as of the last turn (the data's own "now"), then its indexing.
        policy = consolidation.ConsolidationPolicy(lookback_days=s.consolidation_lookback_days)
        await consolidation.consolidate(res.deps, SCOPE, policy, now=turns[-1]["created_at"])
        while await run_once(res.deps):
            pass
        layers = await _layers(res)
    finally:
        await mem.close()
    return {
        "bulk_write_seconds": write_s,
        "bulk_index_seconds": index_s,
        "layers": layers,
        **_stats("add_ack_ms", acks),
    }


async def _layers(res: Any) -> dict[str, int]:
    """The user's memories per kind (turns by difference: listing 100k of them to count is slow)."""
    store = res.deps.memories
    layers = {k.value: len(await store.list(SCOPE, kind=k, limit=100_000)) for k in MemoryKind if k != MemoryKind.TURN}
    return {MemoryKind.TURN.value: await store.count(SCOPE) - sum(layers.values()), **layers}


def raw_scan_ms(n: int, dim: int, pool: int, reps: int, seed: int = SEED) -> list[float]:
    """The floor: ``matrix @ q`` and ``argpartition`` over an (n, dim) float32 matrix, per query."""
    rng = np.random.default_rng(seed)
    matrix = unit_rows(rng.standard_normal((n, dim), dtype=np.float32), dim)
    k = max(min(pool, n) - 1, 0)
    out = []
    for _ in range(reps):
        q = unit_rows(rng.standard_normal(dim, dtype=np.float32), dim)[0]
        t = time.perf_counter()
        scores = matrix @ q
        np.argpartition(-scores, k)[: k + 1]
        out.append((time.perf_counter() - t) * 1000)
    return out


async def _measure_size(
    n: int,
    folder: Path,
    settings: Settings,
    real: Embedder,
    queries: list[str],
    console: Console,
    reuse: bool = False,
) -> dict[str, Any]:
    db = folder / f"latency-{n}.db"
    fill_file = db.with_suffix(".fill.json")
    if reuse and db.exists() and fill_file.exists():  # a store an earlier run filled and kept
        fill = json.loads(fill_file.read_text(encoding="utf-8"))
        console.log(f"{n:,} memories: reusing {db}")
    else:
        _clean(db)
        fill = await _fill(db, settings, n, ProjectionEmbedder(real.name, real.dim))
        fill_file.write_text(json.dumps(fill), encoding="utf-8")
    console.log(
        f"{n:,} memories: written in {fill['bulk_write_seconds']:.1f} s, "
        f"indexed (fast embedder) in {fill['bulk_index_seconds']:.1f} s, layers {fill['layers']}"
    )
    totals: list[float] = []
    embeds: list[float] = []
    timings: list[dict[str, float]] = []
    async with await AsyncMemory.open(str(db), settings=settings, embedder=real, worker="external") as mem:
        for q in queries[:WARMUP_QUERIES]:  # loads the user's matrix and warms the caches
            await mem.recall(USER, "chat_0", q)
        for q in queries[WARMUP_QUERIES:]:
            t = time.perf_counter()
            result = await mem.recall(USER, "chat_0", q)
            totals.append((time.perf_counter() - t) * 1000)
            embeds.append(result.timings_ms.get("query_embed_ms", 0.0))
            timings.append(result.timings_ms)
    stages = [key for key in dict.fromkeys(k for t in timings for k in t) if key not in NOT_STAGES]
    overhead = [total - embed for total, embed in zip(totals, embeds, strict=True)]
    raw = raw_scan_ms(n, real.dim, settings.candidate_pool, len(totals))
    row: dict[str, Any] = {
        "size": n,
        **fill,
        "stages": stages,
        **_stats("recall_ms", totals),
        **_stats("query_embed_ms", embeds),
        **_stats("overhead_ms", overhead),
        **_stats("raw_scan_ms", raw),
    }
    for key in stages:
        row |= _stats(key, [t.get(key, 0.0) for t in timings])
    for q in ("p50", "p95"):
        row[f"overhead_ratio_{q}"] = row[f"overhead_ms_{q}"] / max(row[f"raw_scan_ms_{q}"], 1e-9)
    console.log(f"{n:,} memories: recall p50 {row['recall_ms_p50']:.1f} ms, p95 {row['recall_ms_p95']:.1f} ms")
    return row


async def _indexing_round(db: Path, settings: Settings, real: Embedder, round_: int) -> tuple[float, float, int]:
    """Seconds for the bare embedder and for the worker on the same fresh turns."""
    _clean(db)
    # Indexing alone: fact extraction and summaries are other jobs, with work of their own.
    s = Settings.model_validate(
        settings.model_dump() | {"db": str(db), "worker": "external", "extraction": False, "summaries": False}
    )
    res = await bootstrap(s, embedder=real)
    mem = AsyncMemory(res)
    try:
        turns = synthetic_turns(THROUGHPUT_MESSAGES, seed=SEED - 1 - round_)
        stored = []
        for i in range(0, len(turns), 2):  # a turn and its reply per call, as a chat app adds them
            stored += await mem.add(USER, f"t{i // 64}", turns[i : i + 2])
        # The bare embedder gets exactly the texts the worker embeds (replies carry the turn
        # before them), so the ratio measures the pipeline's cost, not a different workload.
        texts = await indexing.embedding_texts(res.deps, [indexing.turn_memory(m) for m in stored])

        async def bare() -> float:
            t0 = time.perf_counter()
            for i in range(0, len(texts), RAW_BATCH):
                real.embed_documents(texts[i : i + RAW_BATCH])
            return time.perf_counter() - t0

        async def worker() -> float:
            t0 = time.perf_counter()
            while await run_once(res.deps):
                pass
            return time.perf_counter() - t0

        if round_ % 2 == 0:  # alternate the order, so neither always runs on a warmer machine
            raw_s, worker_s = await bare(), await worker()
        else:
            worker_s, raw_s = await worker(), await bare()
    finally:
        await mem.close()
    return raw_s, worker_s, len(texts)


async def _indexing_throughput(folder: Path, settings: Settings, real: Embedder) -> dict[str, Any]:
    """The worker's texts/s against the bare embedder's on the same texts in batches of 32; the
    best of a few interleaved rounds of each, since a busy machine only ever makes things slower."""
    real.embed_documents([f"warm up {i}" for i in range(RAW_BATCH)])
    rounds = [await _indexing_round(folder / f"throughput-{r}.db", settings, real, r) for r in range(THROUGHPUT_ROUNDS)]
    n = rounds[0][2]
    raw_s, worker_s = min(r[0] for r in rounds), min(r[1] for r in rounds)
    return {
        "messages": n,
        "rounds": [{"raw_seconds": r[0], "worker_seconds": r[1]} for r in rounds],
        "raw_texts_per_second": n / raw_s,
        "worker_texts_per_second": n / worker_s,
        "ratio": raw_s / worker_s,
    }


async def arun_latency(
    *,
    sizes: list[int],
    queries: int = 200,
    embedder: str | None = None,
    db_dir: str | None = None,
    progress: bool = True,
    throughput: bool = True,
    reuse: bool = False,
) -> dict[str, Any]:
    """:func:`run_latency` for callers already inside an event loop."""
    if not sizes or min(sizes) < 1 or queries < 1:
        raise ValueError("give at least one size and one query, all positive")
    console = Console(stderr=True, quiet=not progress)
    settings = Settings(embedder=embedder) if embedder else Settings()
    real = build_embedder(settings)
    asked = synthetic_queries(queries + WARMUP_QUERIES)
    with tempfile.TemporaryDirectory(prefix="hipocampo-latency-") as tmp:
        folder = Path(db_dir) if db_dir else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        rows = [
            await _measure_size(n, folder, settings, real, asked, console, reuse=reuse and db_dir is not None)
            for n in sorted(set(sizes))
        ]
        indexing = await _indexing_throughput(folder, settings, real) if throughput else None
    if indexing:
        console.log(
            f"indexing: worker {indexing['worker_texts_per_second']:.0f} texts/s, "
            f"bare embedder {indexing['raw_texts_per_second']:.0f} texts/s"
        )
    small = [r for r in rows if r["size"] <= 10_000]
    head = small[-1] if small else rows[-1]
    return {
        "benchmark": "latency",
        "embedder": real.name,
        "embedder_setting": settings.embedder,
        "queries": queries,
        "headline_size": head["size"],
        "recall_p50_ms": head["recall_ms_p50"],
        "recall_p95_ms": head["recall_ms_p95"],
        "query_embed_p95_ms": head["query_embed_ms_p95"],
        "overhead_p95_ms": {str(r["size"]): r["overhead_ms_p95"] for r in rows},
        "add_ack_p50_ms": head["add_ack_ms_p50"],
        "add_ack_p95_ms": head["add_ack_ms_p95"],
        "indexing_throughput_ratio": indexing["ratio"] if indexing else None,
        "indexing": indexing,
        "per_size": rows,
    }


def run_latency(
    *,
    sizes: list[int],
    queries: int = 200,
    embedder: str | None = None,
    db_dir: str | None = None,
    progress: bool = True,
    throughput: bool = True,
    reuse: bool = False,
) -> dict[str, Any]:
    """Measure recall latency for one user holding each of ``sizes`` memories, the add ack and
    (``throughput``) the worker's indexing throughput. Stores are temporary unless ``db_dir`` is
    given; with ``reuse``, stores an earlier run left there are measured again as they are."""
    return asyncio.run(
        arun_latency(
            sizes=sizes,
            queries=queries,
            embedder=embedder,
            db_dir=db_dir,
            progress=progress,
            throughput=throughput,
            reuse=reuse,
        )
    )


def render_latency(result: dict[str, Any], console: Console) -> None:
    table = Table(title=f"Recall latency, ms ({result['queries']} queries per size, embedder {result['embedder']})")
    cols = (
        "memories",
        "recall p50",
        "recall p95",
        "embed p50",
        "embed p95",
        "overhead p50",
        "overhead p95",
        "raw scan p50",
        "raw scan p95",
        "overhead/raw p95",
        "add ack p50",
        "add ack p95",
    )
    for c in cols:
        table.add_column(c, justify="right")
    for r in result["per_size"]:
        table.add_row(
            f"{r['size']:,}",
            *(
                f"{r[k]:.2f}"
                for k in (
                    "recall_ms_p50",
                    "recall_ms_p95",
                    "query_embed_ms_p50",
                    "query_embed_ms_p95",
                    "overhead_ms_p50",
                    "overhead_ms_p95",
                    "raw_scan_ms_p50",
                    "raw_scan_ms_p95",
                )
            ),
            f"{r['overhead_ratio_p95']:.1f}x",
            f"{r['add_ack_ms_p50']:.2f}",
            f"{r['add_ack_ms_p95']:.2f}",
        )
    console.print(table)
    parts = Table(title="Where the overhead goes, p50 / p95 ms (keyword search overlaps the query embedding)")
    parts.add_column("memories", justify="right")
    parts.add_column("turn/fact/summary/consolidated", justify="right")
    stages = list(dict.fromkeys(k for r in result["per_size"] for k in r.get("stages", ())))
    for key in stages:
        parts.add_column(key.removesuffix("_ms").replace("_", " "), justify="right")
    for r in result["per_size"]:
        layers = r.get("layers", {})
        parts.add_row(
            f"{r['size']:,}",
            "/".join(f"{layers.get(k, 0):,}" for k in ("turn", "fact", "summary", "consolidated")),
            *(f"{r[k + '_p50']:.2f} / {r[k + '_p95']:.2f}" if k + "_p50" in r else "-" for k in stages),
        )
    console.print(parts)
    t = result["indexing"]
    if t is None:
        return
    console.print(
        f"Background indexing: {t['worker_texts_per_second']:.1f} texts/s through the worker vs "
        f"{t['raw_texts_per_second']:.1f} texts/s bare embedder (batches of {RAW_BATCH}) -> ratio "
        f"{t['ratio']:.2f} (target >= 0.8)"
    )
