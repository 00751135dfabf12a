"""The memory layers the LoCoMo benchmark compares, and what is measured per layer.

* ``turns``: the store opened with ``extraction=False, summaries=False``: only the turns are
  indexed (speaker_a's turns as ``user``, speaker_b's as ``assistant``).
* ``full``: extraction and summaries on, and both speakers' turns as ``user`` (both people are
  the memory's subjects, and facts are only extracted from user turns); after the ingest, one
  explicit ``consolidate(user)`` and ``flush()`` (consolidation on demand).

In both the nightly consolidation is off (``consolidation=False``): a run crossing its hour
must not consolidate one layer behind the benchmark's back. The explicit call ignores that
switch, and uses the longest lookback (:data:`LOOKBACK_DAYS`), because LoCoMo's conversations
are dated years before the run and the default 30-day window would see none of them.

A derived memory (fact, summary, consolidated memory) counts as covering an evidence turn only
when that turn's message is among its ``source_message_ids``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from hipocampo.adapters.embedders.cached import CachingEmbedder
from hipocampo.client import AsyncMemory
from hipocampo.domain.model import MemoryItem, MemoryKind
from hipocampo.services.indexing import turn_memory
from hipocampo.services.recall import rerender
from hipocampo.settings import Settings
from hipocampo.testing import deps_of

from .locomo import (
    CATEGORIES,
    PRODUCT_KEYS,
    RECALL_KS,
    SECONDS_PER_TURN,
    TOKEN_BUDGET,
    Conversation,
    Question,
    context_recall,
    normalise_dia_ids,
    percentile,
    recall_at_k,
    scores_of,
    timing_stats,
)

LOOKBACK_DAYS = 3650
"""The longest consolidation lookback the settings allow (LoCoMo is dated 2022-2023)."""
DERIVED_KINDS = (MemoryKind.FACT, MemoryKind.SUMMARY, MemoryKind.CONSOLIDATED)
PAGE = 1000


@dataclass(frozen=True)
class Layer:
    name: str
    extraction: bool
    summaries: bool
    consolidate: bool  # an explicit consolidate(user) + flush() after the ingest
    both_speakers_user: bool  # speaker_b's turns as "user" too (else "assistant")
    description: str

    def overrides(self) -> dict[str, Any]:
        """Settings overrides for ``AsyncMemory.open``."""
        return {
            "extraction": self.extraction,
            "summaries": self.summaries,
            "consolidation": False,  # no nightly run during the benchmark; the explicit call still runs
            "consolidation_lookback_days": LOOKBACK_DAYS,
        }

    def role(self, speaker: str, speaker_a: str) -> str:
        return "user" if self.both_speakers_user or speaker == speaker_a else "assistant"

    def describe(self) -> dict[str, Any]:
        return {
            "description": self.description,
            "extraction": self.extraction,
            "summaries": self.summaries,
            "consolidate": self.consolidate,
            "both_speakers_user": self.both_speakers_user,
        }


LAYERS: dict[str, Layer] = {
    "turns": Layer(
        name="turns",
        extraction=False,
        summaries=False,
        consolidate=False,
        both_speakers_user=False,
        description="turns only (extraction and summaries off); speaker_a user, speaker_b assistant",
    ),
    "full": Layer(
        name="full",
        extraction=True,
        summaries=True,
        consolidate=True,
        both_speakers_user=True,
        description="turns, facts, rolling summaries, then consolidate(user); both speakers user",
    ),
}
LAYER_KEYS = (
    *PRODUCT_KEYS,
    "context_recall_derived",
    *(f"turn_recall_at_{k}" for k in RECALL_KS),
    *(f"turn_recall_at_{k}_plus_{kind.value}" for kind in DERIVED_KINDS for k in RECALL_KS),
    *(f"derived_hits_at_{k}" for k in RECALL_KS),
    "adaptive_derived",
)
"""Per-question measures averaged per layer (overall and per category)."""


def parse_layers(layers: str | Iterable[str]) -> tuple[str, ...]:
    """``"turns,full"`` or ``["full"]`` -> known layer names, in the given order, no duplicates."""
    parts = layers.split(",") if isinstance(layers, str) else list(layers)
    names = tuple(dict.fromkeys(p.strip().lower() for p in parts if p.strip()))
    unknown = [n for n in names if n not in LAYERS]
    if unknown or not names:
        raise ValueError(f"layers must be among {', '.join(LAYERS)}; got {layers!r}")
    return names


def headline(layers: Sequence[str]) -> str:
    """The layer whose scores are the result's top-level keys: "full" if run, else the first."""
    return "full" if "full" in layers else layers[0]


def is_derived(memory: MemoryItem) -> bool:
    return memory.kind is not MemoryKind.TURN


def hit_turns(memory: MemoryItem, dia_of_message: Mapping[str, str]) -> set[str]:
    """The evidence turns a hit covers: a turn, its own ``dia_id`` (and source); a derived memory,
    only the turns among its source messages (never a ``dia_id`` it merely copied)."""
    found = {dia_of_message[m] for m in memory.source_message_ids if m in dia_of_message}
    if not is_derived(memory):
        found.update(normalise_dia_ids(str(memory.metadata.get("dia_id", ""))))
    return found


async def derived_counts(mem: AsyncMemory, user: str) -> dict[str, int]:
    """How many derived memories the store holds for ``user``, current and all (with superseded)."""
    counts: dict[str, int] = {}
    for kind in DERIVED_KINDS:
        items: list[MemoryItem] = []
        while True:
            page = await mem.list(user, kind=kind.value, limit=PAGE, offset=len(items))
            items += page
            if len(page) < PAGE:
                break
        name = {"fact": "facts", "summary": "summaries", "consolidated": "consolidated"}[kind.value]
        counts[name] = sum(m.valid_to is None for m in items)
        counts[f"{name}_written"] = len(items)
    return counts


def question_measures(
    evidence: Sequence[str],
    top: Sequence[MemoryItem],
    adaptive: Sequence[MemoryItem],
    adaptive_context: str,
    contents: Mapping[str, str],
    dia_of_message: Mapping[str, str],
    ks: Sequence[int],
) -> dict[str, Any]:
    """Per-question measures that tell derived hits from turns (``top``: the k=20 call's hits,
    ``adaptive``: the product default's, whose rendered context is ``adaptive_context``)."""
    hits = [hit_turns(m, dia_of_message) for m in top]
    turn_hits = [set() if is_derived(m) else h for m, h in zip(top, hits, strict=True)]
    behind = {
        e for m in adaptive if is_derived(m) and m.content in adaptive_context for e in hit_turns(m, dia_of_message)
    }
    shown = [e in behind or (e in contents and contents[e] in adaptive_context) for e in evidence]
    out: dict[str, Any] = {f"turn_recall_at_{k}": recall_at_k(evidence, turn_hits, k) for k in ks}
    for kind in DERIVED_KINDS:  # what each kind of derived memory adds to the turn hits
        with_kind = [h if m.kind in (kind, MemoryKind.TURN) else set() for m, h in zip(top, hits, strict=True)]
        out |= {f"turn_recall_at_{k}_plus_{kind.value}": recall_at_k(evidence, with_kind, k) for k in ks}
    out |= {f"derived_hits_at_{k}": sum(is_derived(m) for m in top[:k]) for k in ks}
    out["context_recall_derived"] = sum(shown) / len(evidence)
    out["adaptive_derived"] = sum(is_derived(m) for m in adaptive)
    out["derived_hit_sources"] = [len(m.source_message_ids) for m in top if is_derived(m)]
    out["top_kinds"] = [m.kind.value for m in top]
    return out


def kind_shares(kinds: Iterable[Sequence[str]], k: int) -> dict[str, float]:
    """Mean number of hits of each kind among the first ``k``, over questions."""
    rows = list(kinds)
    if not rows:
        return {}
    names = sorted({kind for row in rows for kind in row[:k]})
    return {n: statistics.fmean(row[:k].count(n) for row in rows) for n in names}


# -- running ---------------------------------------------------------------------------------


async def run_layer(
    conv: Conversation,
    layer: Layer,
    settings: Settings,
    embedder: CachingEmbedder,
    db: Path | str,
    asked: Sequence[tuple[Question, dict[str, Any]]],
    console: Console,
    budgets: Sequence[int] = (TOKEN_BUDGET,),
) -> tuple[dict[str, Any], list[str], list[str]]:
    """Ingest ``conv`` into a fresh store of this layer, then ask every question of ``asked``,
    writing the scores into each record's ``layers[layer.name]``. Returns the layer's summary and
    the indexed turn texts with their dia ids (for the baselines). The product default's context
    is rendered again within each of ``budgets`` (same search, :func:`rerender`): its context
    recall and tokens there are the record's ``budgets``."""
    for suffix in ("", "-wal", "-shm") if isinstance(db, Path) else ():  # a URL: a fresh database
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    acks: list[tuple[float, int]] = []
    dia_of_message: dict[str, str] = {}
    index_texts: list[str] = []
    text_dia: list[str] = []
    contents = {t.dia_id: t.content for t in conv.turns}
    async with await AsyncMemory.open(
        str(db), settings=settings, embedder=embedder, worker="inprocess", **layer.overrides()
    ) as mem:
        started = time.perf_counter()
        for session in conv.sessions:
            batch = [
                {
                    "role": layer.role(t.speaker, conv.speaker_a),
                    "content": t.content,
                    "name": t.speaker,
                    "metadata": {"dia_id": t.raw_dia_id},
                    "created_at": session.at + timedelta(seconds=SECONDS_PER_TURN * i),
                }
                for i, t in enumerate(session.turns)
            ]
            t0 = time.perf_counter()
            stored = await mem.add(conv.id, f"session_{session.number}", batch)
            acks.append(((time.perf_counter() - t0) * 1000, len(batch)))
            for message, turn in zip(stored, session.turns, strict=True):
                dia_of_message[message.id] = turn.dia_id
                index_texts.append(turn_memory(message).index_text)
                text_dia.append(turn.dia_id)
        queue = await mem.flush(timeout=3600)
        ingest_seconds = time.perf_counter() - started
        consolidation: dict[str, Any] = {"clusters": 0, "merged_duplicates": 0, "memories_seen": 0}
        if layer.consolidate:
            t0 = time.perf_counter()
            report = (await mem.consolidate(conv.id))[f"default/{conv.id}"]
            queue = await mem.flush(timeout=3600)
            consolidation = {
                "consolidate_seconds": time.perf_counter() - t0,
                "clusters": report.clusters,
                "merged_duplicates": len(report.merged_duplicates),
                "memories_seen": report.memories_seen,
            }
        index_seconds = time.perf_counter() - started
        # A failed job (say, extraction) would quietly shrink a layer: count the dead letters.
        derived = await derived_counts(mem, conv.id) | {"dead_jobs": queue.get("dead", 0)}

        for q, record in asked:
            t0 = time.perf_counter()  # the product default first, so it pays for the query embedding
            adaptive = await mem.recall(conv.id, None, q.text, token_budget=TOKEN_BUDGET)
            recall_ms = (time.perf_counter() - t0) * 1000
            by_budget: dict[str, dict[str, float]] = {}
            for budget in budgets:
                text, tokens = rerender(deps_of(mem), adaptive, budget)
                shown = context_recall(q.evidence, contents, text)
                by_budget[str(budget)] = {"context_recall": shown, "tokens": tokens}
            t0 = time.perf_counter()
            # Ranking alone: no relevance floor, so R@k means what it always meant.
            top = await mem.recall(conv.id, None, q.text, k=20, token_budget=TOKEN_BUDGET, min_relevance=0.0)
            recall_k20_ms = (time.perf_counter() - t0) * 1000
            top_items = [h.memory for h in top.memories]
            hits = [hit_turns(m, dia_of_message) for m in top_items]
            scores: dict[str, Any] = {
                "recall_ms": recall_ms,
                "recall_k20_ms": recall_k20_ms,
                "query_embed_ms": adaptive.timings_ms.get("query_embed_ms"),
                **{f"recall_at_{k}": recall_at_k(q.evidence, hits, k) for k in RECALL_KS},
                "context_recall": context_recall(q.evidence, contents, adaptive.context),
                "context_recall_k20": context_recall(q.evidence, contents, top.context),
                "context_tokens": adaptive.context_tokens,
                "context_tokens_k20": top.context_tokens,
                "adaptive_k": len(adaptive.memories),
                "budgets": by_budget,
                "evidence_ranks": {e: next((r + 1 for r, h in enumerate(hits) if e in h), None) for e in q.evidence},
            }
            scores |= question_measures(
                q.evidence,
                top_items,
                [h.memory for h in adaptive.memories],
                adaptive.context,
                contents,
                dia_of_message,
                RECALL_KS,
            )
            record.setdefault("layers", {})[layer.name] = scores
    answered = [r["layers"][layer.name] for _, r in asked]
    recall = statistics.fmean(r["recall_at_10"] for r in answered) if answered else 0.0
    made = ", ".join(f"{derived[k]} {k}" for k in ("facts", "summaries", "consolidated"))
    console.log(
        f"{conv.id}, layer {layer.name}: {len(index_texts)} turns indexed in {index_seconds:.1f} s "
        f"({made}); {len(answered)} questions, recall@10 {recall:.3f}"
    )
    summary = {
        "ingest_seconds": round(ingest_seconds, 3),
        "consolidate_seconds": round(consolidation.pop("consolidate_seconds", 0.0), 3),
        "index_seconds": round(index_seconds, 3),
        "derived": derived | consolidation,
        "acks": acks,
    }
    return summary, index_texts, text_dia


def layer_result(name: str, answered: Sequence[dict[str, Any]], summaries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    rows = [r["layers"][name] for r in answered]
    runs = [s["layers"][name] for s in summaries]
    scores = scores_of(answered, LAYER_KEYS, lambda r, k: r["layers"][name][k])

    def column(key: str) -> list[float]:
        return [r[key] for r in rows if r.get(key) is not None]

    sizes: dict[str, list[int]] = {kind.value: [] for kind in DERIVED_KINDS}
    for r in rows:  # top_kinds and derived_hit_sources list the derived hits in the same order
        derived_kinds = [kind for kind in r["top_kinds"] if kind != MemoryKind.TURN.value]
        for kind, n in zip(derived_kinds, r["derived_hit_sources"], strict=True):
            sizes.setdefault(kind, []).append(n)
    derived: dict[str, int] = {}
    for run in runs:
        for key, value in run["derived"].items():
            derived[key] = derived.get(key, 0) + value
    turns = sum(s["turns"] for s in summaries)
    index_seconds = sum(run["index_seconds"] for run in runs)
    return {
        **LAYERS[name].describe(),
        "questions": scores["questions"],
        **{k: scores[k] for k in LAYER_KEYS},
        "per_category": scores["per_category"],
        "context_tokens_median": percentile(column("context_tokens"), 50),
        "context_tokens_p95": percentile(column("context_tokens"), 95),
        "context_tokens_k20_median": percentile(column("context_tokens_k20"), 50),
        "context_tokens_k20_p95": percentile(column("context_tokens_k20"), 95),
        "adaptive_k_median": percentile(column("adaptive_k"), 50),
        "budgets": budget_scores([(r["category"], r["layers"][name]) for r in answered]),
        "derived_hit_sources_median": {kind.value: percentile(sizes[kind.value], 50) for kind in DERIVED_KINDS},
        "hit_kinds_at_10": kind_shares((r["top_kinds"] for r in rows), 10),
        "derived": derived,
        "timings": {
            **timing_stats([a for run in runs for a in run.pop("acks")], column),
            "ingest_seconds": sum(run["ingest_seconds"] for run in runs),
            "consolidate_seconds": sum(run["consolidate_seconds"] for run in runs),
            "index_seconds": index_seconds,
            "index_turns_per_second": turns / index_seconds if index_seconds else None,
        },
    }


def budget_scores(rows: Sequence[tuple[int, Mapping[str, Any]]]) -> dict[str, Any]:
    """Per budget, over (category, layer scores) rows: mean context recall (overall and per
    category) and tokens used (median, p90).

    The budget is a ceiling: a lean context stops where relevance does, so the tokens used say
    what a budget costs, and the recall at each budget what it buys."""
    out: dict[str, Any] = {}
    for budget in rows[0][1].get("budgets", {}) if rows else ():
        per = [(c, r["budgets"][budget]) for c, r in rows]
        tokens = [b["tokens"] for _, b in per]
        by_category = {str(c): [b["context_recall"] for cat, b in per if cat == c] for c in CATEGORIES}
        out[budget] = {
            "context_recall": statistics.fmean(b["context_recall"] for _, b in per),
            "tokens_median": percentile(tokens, 50),
            "tokens_p90": percentile(tokens, 90),
            "per_category": {c: statistics.fmean(v) if v else None for c, v in by_category.items()},
        }
    return out


# -- showing -----------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}"


def _num(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def render_layers(result: Mapping[str, Any], console: Console) -> None:
    """One column per layer: what it built, what it cost, what it recalled."""
    layers: Mapping[str, Mapping[str, Any]] = result.get("layers") or {}
    if not layers:
        return
    table = Table(title="Memory layers side by side (recall in %; derived = facts, summaries, consolidated)")
    table.add_column("measure")
    for name in layers:
        table.add_column(name, justify="right")

    def row(label: str, get: Any) -> None:
        table.add_row(label, *(get(v) for v in layers.values()))

    row("facts (current / written)", lambda v: f"{v['derived']['facts']} / {v['derived']['facts_written']}")
    row("summaries", lambda v: str(v["derived"]["summaries"]))
    row(
        "consolidated (current / written)",
        lambda v: f"{v['derived']['consolidated']} / {v['derived']['consolidated_written']}",
    )
    row("merged duplicate facts", lambda v: str(v["derived"]["merged_duplicates"]))
    row("failed (dead) background jobs", lambda v: str(v["derived"].get("dead_jobs", 0)))
    row("ingest + indexing, s", lambda v: _num(v["timings"]["index_seconds"]))
    row("  of which consolidate + its indexing, s", lambda v: _num(v["timings"]["consolidate_seconds"]))
    table.add_section()
    for key, label in (
        ("recall_at_5", "R@5"),
        ("recall_at_10", "R@10"),
        ("recall_at_20", "R@20"),
        ("turn_recall_at_10", "R@10 counting turn hits only"),
        ("turn_recall_at_10_plus_fact", "  turn hits + facts"),
        ("turn_recall_at_10_plus_summary", "  turn hits + summaries"),
        ("turn_recall_at_10_plus_consolidated", "  turn hits + consolidated"),
        ("turn_recall_at_20", "R@20 counting turn hits only"),
        ("context_recall", "context recall (turn text verbatim)"),
        ("context_recall_derived", "  + evidence behind derived hits in it"),
        ("context_recall_k20", "context recall, k=20"),
    ):
        row(label, lambda v, key=key: _pct(v[key]))
    table.add_section()
    row(
        "derived hits in top 5 / 10 / 20",
        lambda v: " / ".join(_num(v[f"derived_hits_at_{k}"]) for k in RECALL_KS),
    )
    row("derived hits in adaptive k", lambda v: _num(v["adaptive_derived"]))
    row(
        "sources per hit, median: fact / summary / consolidated",
        lambda v: " / ".join(_num(n, 0) for n in v["derived_hit_sources_median"].values()),
    )
    row("context tokens (median)", lambda v: _num(v["context_tokens_median"], 0))
    row("adaptive k (median)", lambda v: _num(v["adaptive_k_median"], 0))
    table.add_section()
    first = next(iter(layers.values()))
    for c, cat in first["per_category"].items():
        row(
            f"{c} {cat['name']} (n={cat['questions']}): R@10 / context",
            lambda v, c=c: (
                f"{_pct(v['per_category'][c]['recall_at_10'])} / {_pct(v['per_category'][c]['context_recall'])}"
            ),
        )
    console.print(table)


def render_budgets(result: Mapping[str, Any], console: Console) -> None:
    """Context recall (%) and tokens used per token budget, per layer: what each ceiling buys."""
    layers: Mapping[str, Mapping[str, Any]] = result.get("layers") or {}
    if not any(v.get("budgets") for v in layers.values()):
        return
    table = Table(title="Lean context: context recall (%) and tokens used, by token budget (a ceiling)")
    short = {"multi-hop": "multi", "temporal": "temp", "open-domain": "open", "single-hop": "single"}
    for col in ("layer", "budget", "all", *(short.get(n, n) for n in CATEGORIES.values()), "tok p50", "tok p90"):
        table.add_column(col, justify="left" if col == "layer" else "right")
    for name, layer in layers.items():
        for i, (budget, b) in enumerate(layer.get("budgets", {}).items()):
            table.add_row(
                "" if i else name,
                f"{int(budget):,}",
                _pct(b["context_recall"]),
                *(_pct(b["per_category"][str(c)]) for c in CATEGORIES),
                _num(b["tokens_median"], 0),
                _num(b["tokens_p90"], 0),
            )
        table.add_section()
    console.print(table)
