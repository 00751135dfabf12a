"""Ask LoCoMo's questions again of stores a previous run kept (``locomo.py --db-dir DIR``).

Ingesting a conversation (facts, summaries, consolidation) takes minutes; changing how recall
ranks does not change what was stored. This re-runs only the questions, through the public
``retrieval.recall``, and scores them with the benchmark's own measures (:mod:`.locomo`,
:mod:`.locomo_layers`), so a ranking change is measured in seconds. The numbers match a full
run's for the same code (same stores, same calls); the full benchmark stays the reference.
"""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from hipocampo.adapters.embedders.cached import CachingEmbedder
from hipocampo.bootstrap import build_embedder
from hipocampo.client import AsyncMemory
from hipocampo.settings import Settings

from .embed_cache import with_disk_cache
from .locomo import (
    CATEGORIES,
    RECALL_KEYS,
    RECALL_KS,
    TOKEN_BUDGET,
    context_recall,
    load_conversation,
    normalise_dia_ids,
    percentile,
    recall_at_k,
)
from .locomo_layers import LAYERS, hit_turns, parse_layers

KEYS = (*RECALL_KEYS, "context_recall", "context_recall_k20")
PAGE = 1000


async def _dia_of_message(mem: AsyncMemory, user: str) -> dict[str, str]:
    """Message id -> canonical dia id, read back from the log (the ingest stored it as metadata)."""
    out: dict[str, str] = {}
    for thread in await mem.threads(user):
        after = -1
        while True:
            page = await mem.messages(user, thread, after_seq=after, limit=PAGE)
            for m in page:
                ids = normalise_dia_ids(str(m.metadata.get("dia_id", "")))
                if ids:
                    out[m.id] = ids[0]
            if len(page) < PAGE:
                break
            after = page[-1].seq
    return out


async def rerun(
    data_dir: str,
    db_dir: str,
    layers: Sequence[str],
    embed_cache: str | None,
    adaptive: bool = True,
    min_relevance: float | None = None,
    embedder: str | None = None,
) -> list[dict[str, Any]]:
    """One record per question and layer: category, evidence ranks, the benchmark's measures and
    recall timings. ``min_relevance`` overrides the context's relevance floor (None: the setting);
    ``embedder`` is a settings name, and must be the one the stores were indexed with."""
    settings = Settings(embedder=embedder) if embedder else Settings()
    inner = with_disk_cache(build_embedder(settings), embed_cache)
    records: list[dict[str, Any]] = []
    for path in sorted(Path(data_dir).glob("*.json")):
        conv = load_conversation(path)
        contents = {t.dia_id: t.content for t in conv.turns}
        for name in layers:
            db = Path(db_dir) / f"{conv.id}-{name}.db"
            if not db.exists():
                raise FileNotFoundError(f"no kept store {db}: run locomo.py --db-dir {db_dir} first")
            cached = CachingEmbedder(inner, max_entries=200_000)
            async with await AsyncMemory.open(
                str(db), settings=settings, embedder=cached, worker="inprocess", **LAYERS[name].overrides()
            ) as mem:
                dia = await _dia_of_message(mem, conv.id)
                for q in conv.questions:
                    if q.category not in CATEGORIES or not q.evidence:
                        continue
                    top = await mem.recall(
                        conv.id, None, q.text, k=20, token_budget=TOKEN_BUDGET, min_relevance=min_relevance
                    )
                    hits = [hit_turns(h.memory, dia) for h in top.memories]
                    rec: dict[str, Any] = {
                        "conversation": conv.id,
                        "layer": name,
                        "category": q.category,
                        "question": q.text,
                        "evidence": q.evidence,
                        **{f"recall_at_{k}": recall_at_k(q.evidence, hits, k) for k in RECALL_KS},
                        "context_recall_k20": context_recall(q.evidence, contents, top.context),
                        "ranks": {e: next((r + 1 for r, h in enumerate(hits) if e in h), None) for e in q.evidence},
                        "timings_ms": top.timings_ms,
                    }
                    if adaptive:
                        shown = await mem.recall(
                            conv.id, None, q.text, token_budget=TOKEN_BUDGET, min_relevance=min_relevance
                        )
                        rec["context_recall"] = context_recall(q.evidence, contents, shown.context)
                    records.append(rec)
    return records


def table(records: Sequence[dict[str, Any]], title: str) -> Table:
    """Mean of each measure per layer and category (in %), as the benchmark reports them."""
    out = Table(title=title)
    for col in ("layer", "category", "n", "R@5", "R@10", "R@20", "context", "context k=20"):
        out.add_column(col, justify="left" if col in ("layer", "category") else "right")
    layers = list(dict.fromkeys(r["layer"] for r in records))
    for layer in layers:
        rows = [r for r in records if r["layer"] == layer]
        groups = [("all", rows)] + [
            (f"{c} {n}", [r for r in rows if r["category"] == c]) for c, n in CATEGORIES.items()
        ]
        for label, group in groups:
            if not group:
                continue
            cells = [
                f"{statistics.fmean(r[k] for r in group) * 100:.1f}" if all(k in r for r in group) else "-"
                for k in KEYS
            ]
            out.add_row(layer, label, str(len(group)), *cells)
        out.add_section()
    return out


def timing_table(records: Sequence[dict[str, Any]]) -> Table:
    out = Table(title="recall timings (k=20 call), ms")
    out.add_column("measure")
    out.add_column("p50", justify="right")
    out.add_column("p95", justify="right")
    names = sorted({k for r in records for k in r["timings_ms"]})
    for n in names:
        values = [r["timings_ms"][n] for r in records if n in r["timings_ms"]]
        out.add_row(n, f"{percentile(values, 50):.2f}", f"{percentile(values, 95):.2f}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    import argparse
    import json
    import sys

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="folder of LoCoMo conversations (*.json)")
    parser.add_argument("--db-dir", required=True, help="the folder a locomo.py --db-dir run kept its stores in")
    parser.add_argument("--layers", default="turns,full")
    parser.add_argument("--embedder", default=None, help="embedder setting the stores were indexed with")
    parser.add_argument("--embed-cache", default=None, help="SQLite file of cached vectors")
    parser.add_argument("--no-adaptive", action="store_true", help="skip the adaptive-k call (context recall)")
    parser.add_argument("--min-relevance", type=float, default=None, help="override the context relevance floor")
    parser.add_argument("--out", default=None, help="also write per-question records as JSON here")
    args = parser.parse_args(argv)
    try:
        layers = parse_layers(args.layers)
        records = asyncio.run(
            rerun(
                args.data,
                args.db_dir,
                layers,
                args.embed_cache,
                adaptive=not args.no_adaptive,
                min_relevance=args.min_relevance,
                embedder=args.embedder,
            )
        )
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    console = Console()
    console.print(table(records, f"LoCoMo evidence recall, % (re-run over kept stores in {args.db_dir})"))
    console.print(timing_table(records))
    if args.out:
        Path(args.out).write_text(json.dumps(records, indent=1), encoding="utf-8")
    return 0
