"""Training data for the learned ranker: every candidate of every question, with its features
and whether it holds the answer.

Two sources, both dev data (never the held-out sets):

- **LoCoMo dev** (``--locomo DIR``): each conversation written into a fresh store as the benchmark
  does (both speakers as users, facts and summaries on, no consolidation), then every question of
  categories 1-4 ranked; a candidate is positive when one of the question's evidence turns is
  the candidate or among its sources.
- **Scenario folders** (``--scenarios DIR...``): the realistic dev chats and the tuned scenarios,
  played by ``realistic_recall.py``; a candidate is positive when it states one of the probe's
  current values.

    .venv/bin/python benchmarks/ranker_data.py --locomo ../shared/data/locomo-dev \\
        --scenarios benchmarks/data/realistic-dev benchmarks/data/scenarios/tuned --out /tmp/ranker.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

from realistic_recall import DiskCachedEmbedder, load, run_one

from hipocampo.bootstrap import build_embedder
from hipocampo.client import AsyncMemory
from hipocampo.domain.model import Scope
from hipocampo.services.retrieval import SearchOptions, rank_candidates
from hipocampo.settings import Settings
from hipocampo.testing import deps_of

CATEGORIES = (1, 2, 3, 4)


async def locomo_rows(path: Path, embedder: Any, folder: Path) -> list[dict[str, Any]]:
    from hipocampo_bench.locomo import load_conversation, normalise_dia_ids

    conv = load_conversation(path)
    out: list[dict[str, Any]] = []
    dia_of_message: dict[str, str] = {}
    overrides = {"llm": None, "consolidation": False, "worker": "inprocess"}
    async with await AsyncMemory.open(str(folder / f"{conv.id}.db"), embedder=embedder, **overrides) as mem:
        for session in conv.sessions:
            batch = [
                {
                    "role": "user",
                    "content": t.content,
                    "name": t.speaker,
                    "metadata": {"dia_id": t.raw_dia_id},
                    "created_at": session.at + timedelta(seconds=i),
                }
                for i, t in enumerate(session.turns)
            ]
            stored = await mem.add(conv.id, f"session_{session.number}", batch)
            for message, turn in zip(stored, session.turns, strict=True):
                dia_of_message[message.id] = turn.dia_id
        await mem.flush(timeout=3600)
        for q in conv.questions:
            if q.category not in CATEGORIES or not q.evidence:
                continue
            ranked = await rank_candidates(deps_of(mem), Scope("default", conv.id), q.text, SearchOptions())
            rows = []
            for h in ranked.hits:
                m = h.memory
                dias = {dia_of_message[i] for i in m.source_message_ids if i in dia_of_message}
                dias.update(normalise_dia_ids(str(m.metadata.get("dia_id", ""))) if m.kind.value == "turn" else ())
                # A summary lists a whole session among its sources, but states few of its details.
                label = int(bool(dias & set(q.evidence))) if m.kind.value != "summary" else 0
                rows.append({"label": label, "features": h.explanation.features})
            out.append({"source": f"locomo:{conv.id}", "category": q.category, "query": q.text, "candidates": rows})
    return out


async def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--locomo", default=None)
    ap.add_argument("--scenarios", nargs="*", default=[])
    ap.add_argument("--cache", default="/tmp/hipocampo-ranker-vectors.sqlite")
    ap.add_argument("--locomo-cache", default=None, help="the LoCoMo bench's --embed-cache file (its vectors, shared)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    embedder = DiskCachedEmbedder(build_embedder(Settings()), args.cache)
    data: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="hipocampo-ranker-") as tmp:
        for scenario in load(args.scenarios):
            await run_one(scenario, embedder, Path(tmp), data)
        print(f"scenarios: {len(data)} probes", file=sys.stderr)
        if args.locomo:
            if args.locomo_cache:
                from hipocampo_bench.embed_cache import DiskCachedEmbedder as BenchCache

                embedder = BenchCache(build_embedder(Settings()), args.locomo_cache)
            for path in sorted(Path(args.locomo).glob("*.json")):
                data += await locomo_rows(path, embedder, Path(tmp))
                print(f"{path.name}: {len(data)} queries", file=sys.stderr)
    Path(args.out).write_text(json.dumps(data), encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
