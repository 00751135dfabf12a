"""Training data for the learned ranker: every candidate of every question, with its features
and whether it holds the answer.

Two sources, both dev data (never the held-out sets):

- **LoCoMo dev** (``--locomo DIR``): each conversation written into a fresh store as the benchmark
  does (both speakers as users, facts and summaries on, no consolidation), then every question of
  categories 1-4 ranked; a candidate is positive when one of the question's evidence turns is
  the candidate or among its sources.
- **Scenario folders** (``--scenarios DIR...``): the realistic dev chats, the tuned scenarios and
  the chats written to train relevance (``benchmarks/data/relevance-train``), played as
  ``realistic_recall.py`` plays them; a candidate is positive when the user said it (or it is a
  fact) and it states one of the probe's current values.

``--vectors FILE.npz`` also keeps the embedder's vectors: every query's, and every candidate's
stored one (each row then names its ``vector``, and each query its ``query_vector``, by index), for
``benchmarks/fit_match.py``.

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

import numpy as np
from realistic_recall import USER, DiskCachedEmbedder, load, played, states

from hipocampo.bootstrap import build_embedder
from hipocampo.client import AsyncMemory
from hipocampo.domain.model import Scope
from hipocampo.services.retrieval import SearchOptions, SearchResult, rank_candidates
from hipocampo.settings import Settings
from hipocampo.testing import deps_of

CATEGORIES = (1, 2, 3, 4)


class Vectors:
    """The vectors a dump refers to by index (``--vectors``); None when they are not kept."""

    def __init__(self) -> None:
        self.rows: list[np.ndarray] = []

    def add(self, v: np.ndarray) -> int:
        self.rows.append(np.asarray(v, dtype=np.float32))
        return len(self.rows) - 1

    def save(self, path: str) -> None:
        np.savez_compressed(path, vectors=np.stack(self.rows).astype(np.float16))


async def _ranked(
    mem: AsyncMemory, scope: Scope, query: str, vectors: Vectors | None
) -> tuple[SearchResult, dict[str, Any]]:
    """Every candidate of ``query``, and (with ``vectors``) the query's vector and the stored ones."""
    deps = deps_of(mem)
    ranked = await rank_candidates(deps, scope, query, SearchOptions())
    extra: dict[str, Any] = {}
    if vectors is not None:
        stored = await deps.vectors.get(scope, [h.memory.id for h in ranked.hits])
        extra["query_vector"] = vectors.add(deps.embedder.embed_query(query))
        extra["stored"] = {i: vectors.add(v) for i, v in stored.items()}
    return ranked, extra


def _row(label: int, h: Any, extra: dict[str, Any]) -> dict[str, Any]:
    row = {"label": label, "features": h.explanation.features}
    if h.memory.id in extra.get("stored", {}):
        row["vector"] = extra["stored"][h.memory.id]
    return row


async def locomo_rows(path: Path, embedder: Any, folder: Path, vectors: Vectors | None = None) -> list[dict[str, Any]]:
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
            ranked, extra = await _ranked(mem, Scope("default", conv.id), q.text, vectors)
            rows = []
            for h in ranked.hits:
                m = h.memory
                dias = {dia_of_message[i] for i in m.source_message_ids if i in dia_of_message}
                dias.update(normalise_dia_ids(str(m.metadata.get("dia_id", ""))) if m.kind.value == "turn" else ())
                # A summary lists a whole session among its sources, but states few of its details.
                label = int(bool(dias & set(q.evidence))) if m.kind.value != "summary" else 0
                rows.append(_row(label, h, extra))
            query = {"source": f"locomo:{conv.id}", "category": q.category, "query": q.text, "candidates": rows}
            if "query_vector" in extra:
                query["query_vector"] = extra["query_vector"]
            out.append(query)
    return out


async def scenario_rows(
    scenario: dict[str, Any], embedder: Any, folder: Path, vectors: Vectors | None = None, group: str = "realistic"
) -> list[dict[str, Any]]:
    """A scenario played as ``realistic_recall.py`` plays it (a fresh store, a clock on the day
    after its last turn), and every probe's candidates."""
    out: list[dict[str, Any]] = []
    async with await played(scenario, embedder, folder) as mem:
        for p in scenario["probes"]:
            ranked, extra = await _ranked(mem, Scope("default", USER), p["query"], vectors)
            rows = []
            for h in ranked.hits:
                # What the user said, or a fact from it: an assistant's echo ("Welcome to Porto!") is
                # not what a question about the user should lead with, even when it repeats the value.
                said = h.memory.role is None or h.memory.role.value != "assistant"
                rows.append(_row(int(said and bool(states(h.memory.content, p["current"]))), h, extra))
            query = {"source": f"{group}:{scenario['name']}", "query": p["query"], "candidates": rows}
            if "query_vector" in extra:
                query["query_vector"] = extra["query_vector"]
            out.append(query)
    return out


def _group(folder: str) -> str:
    """The source name of a scenario folder's queries (``realistic`` for the dev chats, as before)."""
    name = Path(folder).name
    return "realistic" if name == "realistic-dev" else name


async def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--locomo", default=None)
    ap.add_argument("--scenarios", nargs="*", default=[])
    ap.add_argument("--cache", default="/tmp/hipocampo-ranker-vectors.sqlite")
    ap.add_argument("--locomo-cache", default=None, help="the LoCoMo bench's --embed-cache file (its vectors, shared)")
    ap.add_argument("--vectors", default=None, help="keep the query and candidate vectors in this .npz file")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    embedder = DiskCachedEmbedder(build_embedder(Settings()), args.cache)
    vectors = Vectors() if args.vectors else None
    data: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="hipocampo-ranker-") as tmp:
        for folder in args.scenarios:
            for scenario in load([folder]):
                data += await scenario_rows(scenario, embedder, Path(tmp), vectors, _group(folder))
        print(f"scenarios: {len(data)} probes", file=sys.stderr)
        if args.locomo:
            if args.locomo_cache:
                from hipocampo_bench.embed_cache import DiskCachedEmbedder as BenchCache

                embedder = BenchCache(build_embedder(Settings()), args.locomo_cache)
            for path in sorted(Path(args.locomo).glob("*.json")):
                data += await locomo_rows(path, embedder, Path(tmp), vectors)
                print(f"{path.name}: {len(data)} queries", file=sys.stderr)
    Path(args.out).write_text(json.dumps(data), encoding="utf-8")
    if vectors is not None and args.vectors:
        vectors.save(args.vectors)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
