"""Fact lifecycle scenarios: scripted multi-session conversations played through the real API,
then the facts left in memory compared with what each scenario expects.

Every scenario (a JSON file under ``benchmarks/data/scenarios/<split>/``, read by
:mod:`.scenario_files`) runs on a fresh SQLite file with
the heuristics only (no LLM, no nightly consolidation): its sessions are written with ``add`` in
order, with ``flush`` after each (the worker catches up between conversations weeks apart, as in
use), and then read back with ``list``, ``history`` and the stored event dates. Extraction does not
depend on the embedder, so the fast hashing one is the default.

What is measured, per scenario, per language and overall:

- **facts**: precision and recall of the current facts (``valid_to`` unset) as
  ``(memory type, key, value)``, values compared after case and accent folding;
- **updates**: expected supersessions where the old fact was closed and its history has an
  ``UPDATE`` entry pointing at the new, current one;
- **retractions**: retracted facts still stored, closed, with a ``DELETE`` entry, none current;
- **mentions**: restated facts kept as one current memory with the expected mention count;
- **events**: dated facts or turns whose event start is the expected day.
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from hipocampo import Memory
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.bootstrap import build_embedder
from hipocampo.domain.model import HistoryEvent, MemoryItem
from hipocampo.domain.text import fold
from hipocampo.domain.truth.reconcile import FACT_VALUE, normalise_value
from hipocampo.ports import Embedder
from hipocampo.settings import Settings

from .scenario_files import LANGUAGES, load_scenarios
from .scenario_model import SPLITS, Change, Event, Mention, Retraction, Scenario
from .scenario_probes import MODES, Mode, clock_for, probe_checks
from .scenario_quality import by_type, merge_types

__all__ = [
    "LANGUAGES",
    "MODES",
    "SCENARIOS",
    "SPLITS",
    "USER",
    "open_memory",
    "play",
    "render_scenarios",
    "run_scenarios",
    "score",
]


SCENARIOS: tuple[Scenario, ...] = load_scenarios()
"""Every scenario, split by split (:data:`SPLITS`), each when its files exist."""
USER = "scenario-user"
OTHER_USER = "scenario-other-user"
CHECKS = ("updates", "retractions", "mentions", "events")
BY_VALUE = ("updates_by_value", "retractions_by_value", "mentions_by_value")
"""The same changes judged by value whatever the key ("pet:cat" for the writer's "pet:miso"): key
names are a convention a scenario writer may guess differently, as with precision by value.
Reported beside the strict checks, never part of a pass."""
OVERRIDES: dict[str, Any] = {"extraction": True, "llm": None, "consolidation": False, "worker": "inprocess"}
"""The rule-based path, whatever HIPOCAMPO_* says, and nothing scheduled on the wall clock."""


def open_memory(
    path: str | Path, embedder: Embedder | None = None, mode: Mode | None = None, scenario: Scenario | None = None
) -> Memory:
    """A memory on ``path`` set up as the scenarios run it (the fake embedder unless given one),
    on the mode's clock (the real one, or the day after the scenario's last turn)."""
    clock = clock_for(mode, scenario) if mode is not None and scenario is not None else None
    return Memory.open(str(path), embedder=embedder or FakeEmbedder(), clock=clock, **OVERRIDES)


def play(mem: Memory, scenario: Scenario, user_id: str = USER) -> None:
    """Write the other user's sessions (if any), then the scenario's, in order, waiting for the
    worker after each."""
    sessions = [(OTHER_USER, s) for s in scenario.other_user] + [(user_id, s) for s in scenario.sessions]
    for who, s in sessions:
        mem.add(who, s.thread_id, [{"role": t.role, "content": t.content, "created_at": t.at} for t in s.turns])
        mem.flush()


def run_scenarios(
    *, embedder: str = "fake", scenarios: Sequence[Scenario] = SCENARIOS, modes: Sequence[Mode] = MODES
) -> dict[str, Any]:
    """Play every scenario on its own temporary store, once per mode, and score it; see the module
    docstring. The facts are scored in the first mode; the probes in every mode."""
    started = time.perf_counter()
    model = FakeEmbedder() if embedder == "fake" else build_embedder(Settings(embedder=embedder))
    rows = []
    with tempfile.TemporaryDirectory(prefix="hipocampo-scenarios-") as tmp:
        for scenario in scenarios:
            t0 = time.perf_counter()
            row: dict[str, Any] = {}
            failures: list[tuple[str, int, str]] = []  # (mode, probe index, why)
            for i, mode in enumerate(modes):
                mem = open_memory(Path(tmp) / f"{scenario.name}-{mode.name}.db", model, mode, scenario)
                try:
                    play(mem, scenario)
                    if mode.consolidate:
                        mem.consolidate(USER)
                        mem.flush()
                    if i == 0:
                        row = score(mem, scenario)
                    failures += [(mode.name, n, why) for n, why in probe_checks(mem, scenario, USER)]
                finally:
                    mem.close()
            expected = len(scenario.probes) * len(modes)
            row["probes"] = {
                "expected": expected,
                "correct": expected - len({(m, n) for m, n, _ in failures}),
                "failures": [f"[{m}] {why}" for m, _, why in failures],
            }
            row["passed"] = _passed(row)
            row["seconds"] = round(time.perf_counter() - t0, 3)
            rows.append(row)
    return {
        "embedder": embedder,
        "modes": [m.name for m in modes],
        "scenarios": rows,
        "overall": _aggregate(rows),
        "by_language": {lang: _aggregate([r for r in rows if r["language"] == lang]) for lang in LANGUAGES},
        "by_split": {split: _aggregate([r for r in rows if r["split"] == split]) for split in SPLITS},
        "seconds": round(time.perf_counter() - started, 3),
    }


def _passed(row: dict[str, Any]) -> bool:
    """A scenario passes when its current facts are exactly the expected ones (allowed extras
    aside), every update and retraction was recorded, and every probe holds in every mode."""
    f = row["facts"]
    return (
        not f["missing"] and not f["unexpected"]
        and not row["updates"]["failures"] and not row["retractions"]["failures"]
        and not row["probes"]["failures"]
    )  # fmt: skip


# --- scoring ------------------------------------------------------------------------------------


def _value(item: MemoryItem) -> str:
    return normalise_value(str(item.metadata.get(FACT_VALUE) or ""))


def _is(item: MemoryItem, key: str | None, value: str | None = None) -> bool:
    """Whether ``item`` holds ``value`` under ``key`` (any key when None: judged by value)."""
    return (key is None or item.key == key) and (value is None or _value(item) == normalise_value(value))


def _triple(memory_type: str, key: str, value: str) -> tuple[str, str, str]:
    return memory_type, key, normalise_value(value)


def _shown(t: tuple[str, str, str]) -> str:
    return f"{t[0]} {t[1]}={t[2]}"


def score(mem: Memory, scenario: Scenario, user_id: str = USER) -> dict[str, Any]:
    """Compare what ``mem`` holds for ``user_id`` with the scenario's expectations."""
    facts: list[MemoryItem] = mem.list(user_id, kind="fact", limit=1000)
    current = [f for f in facts if f.valid_to is None]
    expected = {_triple(f.memory_type, f.key, f.value) for f in scenario.facts}
    allowed = {_triple(f.memory_type, f.key, f.value) for f in scenario.allowed} - expected
    got = [_triple(f.memory_type.value if f.memory_type else "", f.key or "", _value(f)) for f in current]
    got = [t for t in got if t not in allowed]  # neither required nor counted against precision
    hits = expected & set(got)
    # Lenient: the value is one the scenario expects or allows, whatever key it was filed under
    # (key names are a convention a scenario writer may guess differently).
    values = {t[2] for t in expected | allowed}
    value_hits = sum(t[2] in values for t in got)
    types = by_type(
        (f.key or "", str(f.metadata.get(FACT_VALUE) or ""), _value(f) in values)
        for f in current
        if _triple(f.memory_type.value if f.memory_type else "", f.key or "", _value(f)) not in allowed
    )
    checks: dict[str, list[str | None]] = {
        "updates": [_update(mem, user_id, facts, current, c) for c in scenario.superseded],
        "retractions": [_retraction(mem, user_id, facts, current, r) for r in scenario.retracted],
        "updates_by_value": [_update(mem, user_id, facts, current, c, by_value=True) for c in scenario.superseded],
        "retractions_by_value": [
            _retraction(mem, user_id, facts, current, r, by_value=True) for r in scenario.retracted
        ],
        "mentions": [_mention(current, m) for m in scenario.mentions],
        "mentions_by_value": [_mention(current, m, by_value=True) for m in scenario.mentions],
        "events": [_event(mem, user_id, current, e) for e in scenario.events] if scenario.events else [],
    }
    return {
        "name": scenario.name,
        "language": scenario.language,
        "split": scenario.split,
        "summary": scenario.summary,
        "facts": {
            "expected": len(expected),
            "extracted": len(got),
            "correct": len(hits),
            "precision": _rate(len(hits), len(got)),
            "value_correct": value_hits,
            "recall": _rate(len(hits), len(expected)),
            "missing": sorted(_shown(t) for t in expected - hits),
            "unexpected": sorted(_shown(t) for t in got if t not in expected),
            "malformed": sum(t["malformed"] for t in types.values()),
        },
        "types": types,
        **{
            name: {
                "expected": len(results),
                "correct": sum(r is None for r in results),
                "failures": [r for r in results if r is not None],
            }
            for name, results in checks.items()
        },
    }


def _update(
    mem: Memory, user_id: str, facts: list[MemoryItem], current: list[MemoryItem], c: Change, *, by_value: bool = False
) -> str | None:
    label = f"{c.key}: {c.old} -> {c.new}"
    key = None if by_value else c.key
    olds = [f for f in facts if _is(f, key, c.old)]
    news = {f.id for f in current if _is(f, key, c.new)}
    if not olds:
        return f"{label}: the old value was never stored"
    if not news:
        return f"{label}: the new value is not current"
    closed = [o for o in olds if o.valid_to is not None]
    if not closed:
        return f"{label}: the old value is still current"
    for old in closed:
        if any(h.event is HistoryEvent.UPDATE and h.related_id in news for h in mem.history(user_id, old.id)):
            return None
    return f"{label}: no UPDATE entry links the old memory to the new one"


def _retraction(
    mem: Memory,
    user_id: str,
    facts: list[MemoryItem],
    current: list[MemoryItem],
    r: Retraction,
    *,
    by_value: bool = False,
) -> str | None:
    label = f"{r.key}={r.value}"
    key = None if by_value else r.key
    stored = [f for f in facts if _is(f, key, r.value)]
    if not stored:
        return f"{label}: never stored"
    if any(_is(f, key, r.value) for f in current):
        return f"{label}: still current"
    if not any(any(h.event is HistoryEvent.DELETE for h in mem.history(user_id, f.id)) for f in stored):
        return f"{label}: closed without a DELETE entry"
    return None


def _mention(current: list[MemoryItem], m: Mention, *, by_value: bool = False) -> str | None:
    """Strictly: one current fact under the key, with the count. By value (writers name keys their
    own way): some current fact of that value has the count."""
    label = f"{m.key}={m.value} x{m.count}"
    found = [f for f in current if _is(f, None if by_value else m.key, m.value)]
    if not found or (len(found) != 1 and not by_value):
        return f"{label}: {len(found)} current memories"
    if all(f.mention_count != m.count for f in found):
        return f"{label}: mention_count is {found[0].mention_count}"
    return None


def _event(mem: Memory, user_id: str, current: list[MemoryItem], e: Event) -> str | None:
    if e.key is not None:
        found = [f for f in current if _is(f, e.key, e.value)]
        what = "no current fact"
    else:
        turns: list[MemoryItem] = mem.list(user_id, kind="turn", limit=1000)
        needle = _plain(e.text or "")
        found = [t for t in turns if needle in _plain(t.content)]
        what = "no turn says it"
    if not found:
        return f"{e.label} @ {e.day}: {what}"
    days = sorted({f.event_start.date().isoformat() if f.event_start else "none" for f in found})
    return None if e.day in days else f"{e.label} @ {e.day}: event start {', '.join(days)}"


def _plain(text: str) -> str:
    """Text as an event's words are looked up in a turn: case, accents, punctuation and spacing
    aside (a scenario may quote "i'm" where the turn says "i’m", or drop a comma)."""
    return " ".join(re.findall(r"\w+", fold(text)))


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _aggregate(rows: list[dict[str, Any]]) -> dict[str, Any]:
    expected = sum(r["facts"]["expected"] for r in rows)
    extracted = sum(r["facts"]["extracted"] for r in rows)
    correct = sum(r["facts"]["correct"] for r in rows)
    value_correct = sum(r["facts"]["value_correct"] for r in rows)
    precision, recall = _rate(correct, extracted), _rate(correct, expected)
    f1 = round(2 * precision * recall / (precision + recall), 4) if precision and recall else None
    out: dict[str, Any] = {
        "scenarios": len(rows),
        "facts": {"expected": expected, "extracted": extracted, "correct": correct,
                  "precision": precision, "recall": recall, "f1": f1,
                  "value_precision": _rate(value_correct, extracted),
                  "malformed": sum(r["facts"].get("malformed", 0) for r in rows)},
        "types": merge_types(r.get("types", {}) for r in rows),
    }  # fmt: skip
    for name in (*CHECKS, *BY_VALUE, "probes"):
        want, ok = sum(r[name]["expected"] for r in rows), sum(r[name]["correct"] for r in rows)
        out[name] = {"expected": want, "correct": ok, "rate": _rate(ok, want)}
    passed = sum(bool(r.get("passed")) for r in rows)
    out["passed"] = {"expected": len(rows), "correct": passed, "rate": _rate(passed, len(rows))}
    return out


# --- rendering ----------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _ratio(check: dict[str, Any]) -> str:
    return f"{check['correct']}/{check['expected']}" if check["expected"] else "-"


def render_scenarios(result: dict[str, Any], console: Console) -> None:
    """Per-scenario and per-language tables, then every miss with its reason."""
    table = Table(title=f"Fact lifecycle scenarios (embedder: {result['embedder']})")
    table.add_column("scenario", no_wrap=True)
    for col in ("lang", "split", "pass", "fact P", "fact R", *CHECKS, "probes", "s"):
        table.add_column(col, justify="left" if col in ("lang", "split") else "right")
    for r in result["scenarios"]:
        f = r["facts"]
        table.add_row(r["name"], r["language"], r["split"], "yes" if r["passed"] else "NO",
                      _pct(f["precision"]), _pct(f["recall"]),
                      *(_ratio(r[c]) for c in (*CHECKS, "probes")), f"{r['seconds']:.2f}")  # fmt: skip
    console.print(table)

    summary = Table(title=f"By split and language (modes: {', '.join(result['modes'])})")
    summary.add_column("", no_wrap=True)
    for col in (
        "n",
        "passed",
        "fact P",
        "value P",
        "fact R",
        "fact F1",
        *CHECKS,
        "upd. by value",
        "retr. by value",
        "ment. by value",
        "probes",
    ):
        summary.add_column(col, justify="right", no_wrap=True)
    groups = [
        *((split, result["by_split"][split]) for split in SPLITS),
        *((lang, result["by_language"][lang]) for lang in LANGUAGES),
        ("overall", result["overall"]),
    ]
    for name, agg in groups:
        if not agg["scenarios"]:
            continue
        f = agg["facts"]
        summary.add_row(
            name, str(agg["scenarios"]), f"{_ratio(agg['passed'])} {_pct(agg['passed']['rate'])}",
            _pct(f["precision"]), _pct(f["value_precision"]), _pct(f["recall"]), _pct(f["f1"]),
            *(f"{_ratio(agg[c])} {_pct(agg[c]['rate'])}" for c in (*CHECKS, *BY_VALUE, "probes")),
            style="bold" if name == "overall" else None,
        )  # fmt: skip
    console.print(summary)

    misses = Table(title="Misses")
    misses.add_column("scenario", no_wrap=True)
    misses.add_column("kind", no_wrap=True)
    misses.add_column("detail", overflow="fold")
    for r in result["scenarios"]:
        for detail in r["facts"]["missing"]:
            misses.add_row(r["name"], "missing fact", detail)
        for detail in r["facts"]["unexpected"]:
            misses.add_row(r["name"], "unexpected fact", detail)
        for c in (*CHECKS, "probes"):
            for detail in r[c]["failures"]:
                misses.add_row(r["name"], c, detail)
    if misses.row_count:
        console.print(misses)
    console.print(f"[dim]{len(result['scenarios'])} scenarios in {result['seconds']:.1f}s[/dim]")
