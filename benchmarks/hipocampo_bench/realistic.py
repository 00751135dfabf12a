"""Recall on realistic chat: does the answer reach the agent when users write as they do?

The chats (``benchmarks/data/realistic/``, the scenario JSON format, split ``realistic``) are
colloquial and mixed-language, with requests and small talk between the things users say about
their lives; their probes carry the checks, their facts may be empty. Each chat is played through
the real API on a fresh SQLite file, exactly as the fact-lifecycle scenarios are
(:func:`~.scenarios.open_memory`, :func:`~.scenarios.play`: the default embedder, rule-based
extraction, no LLM), on a clock standing on the day after its last turn, so that a rerun months
later measures the same thing. Then every probe is asked in a new thread (``recall``) and of
``search``, and checked by the scenario harness's own probe checks (:func:`~.scenario_probes.check_probe`).

Per probe, counted per language and overall:

- **answer in context**: some ``current`` value is in the rendered context (case- and
  accent-folded, as a whole word): the headline, since an agent cannot answer from what it is not shown;
- **top hit answers**: the first search hit states one;
- **empty memory**: the context shows no memory at all (the agent is told nothing);
- **stale as current**: a superseded value stated as current, in the context or by the top hit;
- **foreign leaked**: another user's value in the context or the search results;
- **memory tokens**: the context's tokens (in a new thread it holds only memories), median and p90.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from hipocampo.bootstrap import build_embedder
from hipocampo.settings import Settings

from .scenario_files import LANGUAGES, load_dir
from .scenario_model import Scenario
from .scenario_probes import MODES, ProbeOutcome, check_probe
from .scenarios import USER, open_memory, play

MODE = next(m for m in MODES if m.next_day and not m.consolidate)
"""The day after the chat's last turn, no consolidation: a user coming back the next day."""
CHECKS = ("answer_in_context", "top_hit_answers", "empty_memory", "stale_as_current", "foreign_leaked")
HEADINGS = {
    "answer_in_context": "in ctx",
    "top_hit_answers": "top hit",
    "empty_memory": "empty",
    "stale_as_current": "stale",
    "foreign_leaked": "foreign",
}
GOOD = {"answer_in_context", "top_hit_answers"}
"""The checks where more is better; for the others every count is a failure."""


def run_realistic(
    data: Path | str | Sequence[Scenario], *, embedder: str | None = None, progress: bool = False
) -> dict[str, Any]:
    """Play every chat of ``data`` (a folder of JSON files, or the chats themselves) and ask its
    probes; per-probe records, per-language and overall figures (see the module docstring)."""
    chats = load_dir(Path(data)) if isinstance(data, (str, Path)) else tuple(data)
    settings = Settings(embedder=embedder) if embedder else Settings()
    started = time.perf_counter()
    model = build_embedder(settings)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="hipocampo-realistic-") as tmp:
        for i, chat in enumerate(chats, 1):
            t0 = time.perf_counter()
            mem = open_memory(Path(tmp) / f"{chat.name}.db", model, MODE, chat)
            try:
                play(mem, chat)
                rows += [_row(chat, check_probe(mem, USER, probe)) for probe in chat.probes]
            finally:
                mem.close()
            if progress:
                print(f"[{i}/{len(chats)}] {chat.name} {time.perf_counter() - t0:.1f}s", file=sys.stderr, flush=True)
    return {
        "embedder": settings.embedder,
        "mode": MODE.name,
        "chats": len(chats),
        "probes": rows,
        "by_language": {lang: _aggregate([r for r in rows if r["language"] == lang]) for lang in LANGUAGES},
        "overall": _aggregate(rows),
        "seconds": round(time.perf_counter() - started, 1),
    }


def _row(chat: Scenario, outcome: ProbeOutcome) -> dict[str, Any]:
    return {
        "chat": chat.name,
        "language": chat.language,
        "query": outcome.query,
        "current": list(outcome.current),
        "answer_in_context": outcome.answer_in_context,
        "top_hit_answers": outcome.top_hit_answers,
        "empty_memory": outcome.memories == 0,
        "stale_as_current": bool(outcome.stale_lines or outcome.top_hit_stale),
        "foreign_leaked": bool(outcome.foreign_in_context or outcome.foreign_in_search),
        "memory_tokens": outcome.context_tokens,
        "failures": outcome.failures() + ([] if outcome.top_hit_answers else ["the top hit does not state it"]),
        "top_hit": outcome.top_hit,
        "context": outcome.context,
        "outcome": {k: v for k, v in asdict(outcome).items() if k not in ("context", "top_hit")},
    }


def _aggregate(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The checks over the probes that have an answer; a probe about nothing the user said
    (``current`` empty: "what's the capital of Peru?") counts only under ``unrelated``, by the
    memory it was shown, since "the answer is in the context" holds for it trivially."""
    answered = [r for r in rows if r["current"]]
    unrelated = [r for r in rows if not r["current"]]
    out: dict[str, Any] = {"chats": len({r["chat"] for r in rows}), "probes": len(answered)}
    for check in CHECKS:
        count = sum(bool(r[check]) for r in answered)
        out[check] = {"count": count, "rate": round(count / len(answered), 4) if answered else None}
    out["memory_tokens"] = _tokens(answered)
    if unrelated:
        out["unrelated"] = {
            "probes": len(unrelated),
            "memory_tokens": _tokens(unrelated),
            "empty_memory": sum(bool(r["empty_memory"]) for r in unrelated),
        }
    return out


def _tokens(rows: list[dict[str, Any]]) -> dict[str, Any]:
    tokens = sorted(r["memory_tokens"] for r in rows)
    return {
        "median": statistics.median(tokens) if tokens else None,
        "p90": tokens[min(len(tokens) - 1, int(0.9 * len(tokens)))] if tokens else None,
    }


def _cell(agg: dict[str, Any], check: str) -> str:
    return f"{agg[check]['rate']:.0%}"


def render_realistic(result: dict[str, Any], console: Console, *, verbose: bool = False) -> None:
    """The per-check table per language and overall; with ``verbose``, every failing probe with
    what the context held."""
    table = Table(
        title=f"Recall on realistic chat (embedder: {result['embedder']}, clock: {result['mode']})",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("", no_wrap=True, min_width=7)
    for col in ("chats", "asked", *(HEADINGS[c] for c in CHECKS), "tok p50", "tok p90"):
        table.add_column(col, justify="right", no_wrap=True)
    groups = [(lang, result["by_language"][lang]) for lang in LANGUAGES]
    for name, agg in [*groups, ("overall", result["overall"])]:
        if not agg["probes"]:
            continue
        tokens = agg["memory_tokens"]
        table.add_row(
            name,
            str(agg["chats"]),
            str(agg["probes"]),
            *(_cell(agg, c) for c in CHECKS),
            f"{tokens['median']:g}",
            str(tokens["p90"]),
            style="bold" if name == "overall" else None,
        )
    console.print(table)
    if unrelated := result["overall"].get("unrelated"):
        tokens = unrelated["memory_tokens"]
        console.print(
            f"{unrelated['probes']} question(s) about nothing the user said (not in the table): memory "
            f"tokens p50 {tokens['median']:g}, p90 {tokens['p90']}; {unrelated['empty_memory']} shown no memory"
        )
    console.print(
        "[dim]in ctx: the answer is in the context; top hit: the first search hit states it; empty: no "
        "memory shown; stale: a superseded value shown as current; foreign: another user's value shown; "
        "tok: the context's tokens, in a new thread[/dim]"
    )
    failing = [r for r in result["probes"] if r["failures"]]
    if verbose:
        for r in failing:
            console.print(f"\n[bold]{escape(r['chat'])}[/bold] ({r['language']}): {escape(r['query'])!s}")
            console.print(f"  expected one of: {escape(', '.join(r['current']))}")
            for why in r["failures"]:
                console.print(f"  [red]x[/red] {escape(why)}")
            console.print(f"  top hit: {escape(repr((r['top_hit'] or '')[:200]))}")
            held = r["context"].strip() or "(empty)"
            console.print("  context:\n" + "\n".join(f"    {escape(line)}" for line in held.splitlines()))
    elif failing:
        console.print(f"[dim]{len(failing)} question(s) with a failed check: --verbose lists them[/dim]")
    console.print(f"[dim]{result['chats']} chats in {result['seconds']:.0f}s[/dim]")
