"""Recall on realistic chat: does the context hold the answer, does the top search hit?

Plays each scenario of one or more folders of scenario JSON files (the format of
``benchmarks/data/realistic-dev/``) into a fresh SQLite store with the default embedder, the
rule-based extraction and no LLM, on a clock standing on the day after the scenario's last turn;
then asks every probe in a new thread and checks, per probe:

- **in context**: one of the probe's ``current`` values is in the rendered context (whole words,
  case and accents folded);
- **top hit**: the first search hit states one of them;
- the tokens of the memory sections.

It also asks every store a few questions unrelated to anyone's life, and reports the memory tokens
they get (the lean context's promise: almost nothing). ``--quiet`` prints the aggregate figures and
the failure categories only: use it on held-out folders, whose phrasings must not steer a change.

    .venv/bin/python benchmarks/realistic_recall.py benchmarks/data/realistic-dev [--quiet]

``--cache FILE`` keeps query and document vectors across runs (a SQLite file); ``--dump FILE``
writes every probe's candidates with their ranking features (for ``benchmarks/fit_ranker.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from hipocampo.adapters.clock import FakeClock
from hipocampo.bootstrap import build_embedder
from hipocampo.client import AsyncMemory
from hipocampo.domain.text import fold
from hipocampo.settings import Settings

PROBE_THREAD = "realistic-probe"
USER = "realistic-user"
OVERRIDES: dict[str, Any] = {"extraction": True, "llm": None, "consolidation": False, "worker": "inprocess"}
UNRELATED = (
    "what is the speed of light?",
    "qual é a capital da Austrália?",
    "how do I boil an egg?",
    "Quem ganhou o mundial de 1994?",
    "write a haiku about autumn",
    "como funciona a fotossíntese?",
)
MEMORY_HEADS = ("## Relevant memories", "## Known facts")


class DiskCachedEmbedder:
    """The embedder's vectors kept in a SQLite file: reruns embed only what changed."""

    def __init__(self, inner: Any, path: str) -> None:
        self.inner, self.name, self.dim = inner, inner.name, inner.dim
        self.relevance_calibration = getattr(inner, "relevance_calibration", None)
        self.db = sqlite3.connect(path, check_same_thread=False)
        self.db.execute("CREATE TABLE IF NOT EXISTS v (k BLOB PRIMARY KEY, v BLOB)")

    def _key(self, kind: str, text: str) -> bytes:
        return hashlib.sha256(f"{self.name}\0{kind}\0{text}".encode()).digest()

    def _get(self, key: bytes) -> np.ndarray | None:
        row = self.db.execute("SELECT v FROM v WHERE k = ?", (key,)).fetchone()
        return np.frombuffer(row[0], dtype=np.float32).copy() if row else None

    def embed_query(self, text: str) -> np.ndarray:
        key = self._key("q", text)
        v = self._get(key)
        if v is None:
            v = np.asarray(self.inner.embed_query(text), dtype=np.float32)
            self.db.execute("INSERT OR REPLACE INTO v VALUES (?, ?)", (key, v.tobytes()))
            self.db.commit()
        return v

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        keys = [self._key("d", t) for t in texts]
        found = [self._get(k) for k in keys]
        todo = [i for i, v in enumerate(found) if v is None]
        if todo:
            fresh = np.asarray(self.inner.embed_documents([texts[i] for i in todo]), dtype=np.float32)
            for i, v in zip(todo, fresh, strict=True):
                found[i] = v
                self.db.execute("INSERT OR REPLACE INTO v VALUES (?, ?)", (keys[i], v.tobytes()))
            self.db.commit()
        return np.stack([v for v in found if v is not None]) if texts else np.zeros((0, self.dim), np.float32)


def states(text: str, values: Sequence[str]) -> list[str]:
    import re

    folded = fold(text)
    return [v for v in values if re.search(rf"(?<!\w){re.escape(fold(v))}(?!\w)", folded)]


def memory_section(context: str) -> str:
    return "\n\n".join(s for s in context.split("\n\n") if s.startswith(MEMORY_HEADS))


def load(folders: Sequence[str]) -> list[dict[str, Any]]:
    out = []
    for folder in folders:
        for path in sorted(Path(folder).glob("*.json")):
            out.append(json.loads(path.read_text(encoding="utf-8")))
    return out


def _at(day: str, hhmm: str) -> datetime:
    return datetime.fromisoformat(f"{day}T{hhmm}:00+00:00")


async def played(scenario: dict[str, Any], embedder: Any, folder: Path) -> AsyncMemory:
    """A fresh store in ``folder`` holding the scenario's chats (the other user's first), every
    turn indexed, on a clock set to the day after its last turn: where its probes are asked.
    The caller closes it."""
    last = max(_at(s["day"], t[0]) for s in scenario["sessions"] for t in s["turns"])
    clock = FakeClock(last + timedelta(days=1))
    mem = await AsyncMemory.open(str(folder / f"{scenario['name']}.db"), embedder=embedder, clock=clock, **OVERRIDES)
    try:
        sessions = [("other-user", s) for s in scenario.get("other_user") or []]
        sessions += [(USER, s) for s in scenario["sessions"]]
        for who, s in sessions:
            msgs = [
                {"role": "user" if r == "u" else "assistant", "content": c, "created_at": _at(s["day"], hm)}
                for hm, r, c in s["turns"]
            ]
            await mem.add(who, s["thread_id"], msgs)
            await mem.flush()
    except BaseException:
        await mem.close()
        raise
    return mem


async def run_one(scenario: dict[str, Any], embedder: Any, folder: Path, dump: list[Any] | None) -> dict[str, Any]:
    mem = await played(scenario, embedder, folder)
    try:
        probes = []
        for p in scenario["probes"]:
            result = await mem.recall(USER, PROBE_THREAD, p["query"])
            hits = (await mem.search(USER, p["query"])).hits
            section = memory_section(result.context)
            top = hits[0] if hits else None
            probes.append(
                {
                    "query": p["query"],
                    "in_context": bool(states(result.context, p["current"])),
                    "top_hit": bool(top and states(top.memory.content, p["current"])),
                    "answer_rank": next(
                        (i + 1 for i, h in enumerate(hits) if states(h.memory.content, p["current"])), None
                    ),
                    "tokens": mem._deps.tokenizer.count(section) if section else 0,
                    "empty": not section,
                    "top": None
                    if top is None
                    else {
                        "kind": top.memory.kind.value,
                        "role": top.memory.role.value if top.memory.role else None,
                        "content": top.memory.content[:120],
                        "act": top.explanation.speech_act if hasattr(top.explanation, "speech_act") else None,
                    },
                    "shown": len(result.memories),
                }
            )
            if not probes[-1]["in_context"]:
                probes[-1]["miss"] = await _where(mem, p)
            if dump is not None:
                await _dump(mem, scenario, p, dump)
        unrelated = []
        for q in UNRELATED:
            result = await mem.recall(USER, PROBE_THREAD, q)
            section = memory_section(result.context)
            unrelated.append(mem._deps.tokenizer.count(section) if section else 0)
        return {
            "name": scenario["name"],
            "language": scenario.get("language"),
            "probes": probes,
            "unrelated": unrelated,
        }
    finally:
        await mem.close()


async def _where(mem: AsyncMemory, probe: dict[str, Any]) -> str:
    """Where a missed answer is: whether the question reads as one about the user, and the kind,
    role and speech act of the best-ranked memory stating it, with its rank (aggregate categories)."""
    from hipocampo.domain.model import Scope
    from hipocampo.services.retrieval import SearchOptions, rank_candidates

    try:
        from hipocampo.domain.retrieval.speech_acts import about_user
    except ImportError:  # a release before speech acts (measuring the baseline)
        about = "?"
    else:
        about = "about-user" if about_user(probe["query"]) else "not-about-user"
    ranked = await rank_candidates(mem._deps, Scope("default", USER), probe["query"], SearchOptions())
    for i, h in enumerate(ranked.hits):
        if states(h.memory.content, probe["current"]):
            m = h.memory
            rank = "1-3" if i < 3 else "4-10" if i < 10 else ">10"
            act = getattr(h.explanation, "speech_act", None)
            return f"{about} {m.kind.value}/{m.role.value if m.role else '-'}/{act} rank {rank}"
    return f"{about} not a candidate"


async def _dump(mem: AsyncMemory, scenario: dict[str, Any], probe: dict[str, Any], dump: list[Any]) -> None:
    """Every candidate of the probe with its ranking features and whether it states the answer."""
    from hipocampo.domain.model import Scope
    from hipocampo.services.retrieval import SearchOptions, rank_candidates

    ranked = await rank_candidates(mem._deps, Scope("default", USER), probe["query"], SearchOptions())
    rows = []
    for h in ranked.hits:
        feats = getattr(h.explanation, "features", None)
        if feats is None:
            continue
        # What the user said, or a fact from it: an assistant's echo ("Welcome to Porto!") is not
        # what a question about the user should lead with, even when it repeats the value.
        said = h.memory.role is None or h.memory.role.value != "assistant"
        rows.append({"label": int(said and bool(states(h.memory.content, probe["current"]))), "features": feats})
    dump.append({"source": f"realistic:{scenario['name']}", "query": probe["query"], "candidates": rows})


def report(results: list[dict[str, Any]], quiet: bool) -> dict[str, Any]:
    probes = [p for r in results for p in r["probes"]]
    n = len(probes)
    by_lang: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        by_lang.setdefault(r["language"] or "?", []).extend(r["probes"])
    unrelated = [t for r in results for t in r["unrelated"]]
    summary = {
        "scenarios": len(results),
        "probes": n,
        "in_context": sum(p["in_context"] for p in probes) / n,
        "top_hit": sum(p["top_hit"] for p in probes) / n,
        "empty_context": sum(p["empty"] for p in probes),
        "tokens_median": statistics.median(p["tokens"] for p in probes),
        "unrelated_tokens_median": statistics.median(unrelated),
        "unrelated_tokens_p90": float(np.percentile(unrelated, 90)),
        "scenarios_all_in_context": sum(all(p["in_context"] for p in r["probes"]) for r in results),
        "per_language": {
            k: {
                "probes": len(v),
                "in_context": sum(p["in_context"] for p in v) / len(v),
                "top_hit": sum(p["top_hit"] for p in v) / len(v),
            }
            for k, v in sorted(by_lang.items())
        },
        "context_misses": dict(Counter(p.get("miss", "?") for p in probes if not p["in_context"])),
        "top_miss_answer_rank": dict(
            Counter(
                str(p["answer_rank"]) if p["answer_rank"] and p["answer_rank"] <= 5 else ">5"
                for p in probes
                if not p["top_hit"]
            )
        ),
        "top_miss_roles": dict(Counter(str((p["top"] or {}).get("role")) for p in probes if not p["top_hit"])),
        "top_miss_kinds": dict(
            Counter(f"{(p['top'] or {}).get('kind')}/{(p['top'] or {}).get('act')}" for p in probes if not p["top_hit"])
        ),
    }
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    if not quiet:
        for r in results:
            for p in r["probes"]:
                if not (p["in_context"] and p["top_hit"]):
                    flag = ("ctx-miss " if not p["in_context"] else "") + ("top-miss" if not p["top_hit"] else "")
                    print(f"  {r['name']}: {p['query']!r} {flag} top={p['top']} shown={p['shown']}")
    return summary


async def main(argv: Sequence[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--quiet", action="store_true", help="aggregate figures only (held-out data)")
    ap.add_argument("--cache", default=None, help="SQLite file of vectors kept across runs")
    ap.add_argument("--dump", default=None, help="write candidates' ranking features here (JSON)")
    ap.add_argument("--only", default=None, help="only scenarios whose name contains this")
    ap.add_argument("--json", default=None, help="write the summary and per-probe results here")
    args = ap.parse_args(argv)
    embedder: Any = build_embedder(Settings())
    if args.cache:
        embedder = DiskCachedEmbedder(embedder, args.cache)
    scenarios = [s for s in load(args.folders) if not args.only or args.only in s["name"]]
    dump: list[Any] | None = [] if args.dump else None
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="hipocampo-realistic-") as tmp:
        results = [await run_one(s, embedder, Path(tmp), dump) for s in scenarios]
    summary = report(results, args.quiet)
    print(f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    if args.dump and dump is not None:
        Path(args.dump).write_text(json.dumps(dump), encoding="utf-8")
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "results": results}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
