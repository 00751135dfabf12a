"""Measure each extraction rule family's precision by value and write the precision gate's table.

Run: ``.venv/bin/python benchmarks/rule_confidence.py [--write]``

What it counts, with the gate open (``confidence.MEASURING``):

- every current fact the rules leave on the **tuned**, **earlier-blind** and **dev-precision** scenario splits (one
  mode: the real clock, no consolidation), read right when its value is one the scenario expects
  or allows under any key (the harness's "precision by value") or one the user stated and later
  changed or took back (the reading was sound; noticing the change is the ending detector's job,
  and a gate that held the rule back would lose the value while it was true); facts the scenario
  allows by triple are left out, as the harness does;
- every fact ``extract_facts`` returns inside the extraction unit tests, right when its test
  passes, weighted :data:`UNIT_WEIGHT` (those sentences were written with the rules, so they count
  for less than a scenario).

The never-tuned split is never played here: it stays blind.

The threshold is chosen by leave-one-scenario-out cross-validation on the earlier-blind and
dev-precision splits:
each scenario's facts are judged by the families' confidence counted without that scenario, and
the lowest threshold whose pooled held-out precision by value (of the facts current at the end,
as the harness scores them) reaches :data:`TARGET` is taken; when none does, the highest with the
best such precision among those still writing :data:`KEEP` of the right facts (precision first). It is then capped
so that every right fact of the tuned split is still written (the tuned split stays at 100%).
The sweep is printed; ``--write`` stores the counts, the threshold and the sweep in
``src/hipocampo/domain/extraction/rule_confidence.json``, shipped in the package and read by
:mod:`hipocampo.domain.extraction.confidence`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import pytest  # noqa: E402

import hipocampo.domain.extraction as extraction  # noqa: E402
from hipocampo.domain.extraction import confidence  # noqa: E402
from hipocampo.domain.truth.reconcile import FACT_VALUE, normalise_value  # noqa: E402
from hipocampo_bench.scenario_files import SCENARIOS_DIR, load_dir  # noqa: E402
from hipocampo_bench.scenario_probes import MODES  # noqa: E402
from hipocampo_bench.scenarios import SCENARIOS, USER, open_memory, play  # noqa: E402

OUT = ROOT / "src" / "hipocampo" / "domain" / "extraction" / confidence.TABLE
SPLITS = ("tuned", "earlier-blind", "dev-precision")
DEV = load_dir(SCENARIOS_DIR / "dev-precision")
"""Scenarios written for precision and tuned on openly (hypotheticals, questions, other people's facts)."""
HELD = ("earlier-blind", "dev-precision")
"""The splits whose scenarios are held out one at a time to choose the threshold."""
UNIT_TESTS = sorted(str(p) for p in (ROOT / "tests" / "unit").glob("test_extraction*.py") if "confidence" not in p.name)
UNIT_WEIGHT = 0.5
TARGET = 0.95
KEEP = 0.9
GRID = [round(0.5 + 0.025 * i, 3) for i in range(20)]

Observation = tuple[str, str, str, bool, bool]
"""(source: a scenario's name or "unit", family, value shape, read right, right by value now)."""


def scenario_observations() -> list[tuple[str, str, Observation]]:
    """(split, scenario, observation) for every current fact the rules leave, gate open."""
    out = []
    with tempfile.TemporaryDirectory(prefix="rule-confidence-") as tmp:
        for scenario in (s for s in (*SCENARIOS, *DEV) if s.split in SPLITS):
            mem = open_memory(Path(tmp) / f"{scenario.name}.db", mode=MODES[0], scenario=scenario)
            try:
                play(mem, scenario)
                current = [f for f in mem.list(USER, kind="fact", limit=1000) if f.valid_to is None]
            finally:
                mem.close()
            expected = {(f.memory_type, f.key, normalise_value(f.value)) for f in scenario.facts}
            allowed = {(f.memory_type, f.key, normalise_value(f.value)) for f in scenario.allowed} - expected
            values = {t[2] for t in expected | allowed}
            # Read right, though since changed: the rule's reading was sound, the change is the
            # ending detector's to notice (a gate that held it would also lose the value while true).
            said = values | {normalise_value(c.old) for c in scenario.superseded}
            said |= {normalise_value(r.value) for r in scenario.retracted}
            for f in current:
                raw = str(f.metadata.get(FACT_VALUE) or "")
                value = normalise_value(raw)
                triple = (f.memory_type.value if f.memory_type else "", f.key or "", value)
                if triple in allowed:
                    continue
                fam, kind = confidence.family(f.key or ""), confidence.shape(raw)
                out.append((scenario.split, scenario.name, (scenario.name, fam, kind, value in said, value in values)))
    return out


class _Recorder:
    """A pytest plugin that notes the families of the facts each extraction unit test reads."""

    def __init__(self) -> None:
        self.current: str | None = None
        self.seen: dict[str, list[tuple[str, str]]] = defaultdict(list)
        self.passed: set[str] = set()
        original = extraction.extract_facts

        def recording(*args: Any, **kwargs: Any) -> Any:
            facts = original(*args, **kwargs)
            if self.current:
                self.seen[self.current] += [
                    (confidence.family(f.key), confidence.shape(f.value)) for f in facts if not f.negated
                ]
            return facts

        extraction.extract_facts = recording  # before the test modules are collected and import it

    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        self.current = item.nodeid

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call" and report.passed:
            self.passed.add(report.nodeid)


def unit_observations() -> list[Observation]:
    recorder = _Recorder()
    pytest.main(["-q", "-p", "no:cacheprovider", *UNIT_TESTS], plugins=[recorder])
    passed = recorder.passed
    return [
        ("unit", fam, kind, node in passed, node in passed)
        for node, seen in recorder.seen.items()
        for fam, kind in seen
    ]


def counts(observations: list[Observation]) -> dict[str, tuple[float, float]]:
    """(right, seen) per family and per "family/shape", unit-test facts weighted less."""
    table: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for source, fam, kind, right, _ in observations:
        weight = UNIT_WEIGHT if source == "unit" else 1.0
        for name in (fam, f"{fam}/{kind}"):
            table[name][0] += weight * right
            table[name][1] += weight
    return {name: (r, n) for name, (r, n) in table.items()}


def smoothed(table: dict[str, tuple[float, float]], fam: str, kind: str) -> float:
    return confidence.smoothed(table, fam, kind)


def cross_validate(observations: list[Observation], held: list[str]) -> list[dict[str, Any]]:
    """Leave one earlier-blind scenario out: its facts judged by the others' counts, per threshold."""
    sweep = []
    for t in GRID:
        kept = right = total_right = 0
        for name in held:
            table = counts([o for o in observations if o[0] != name])
            for _, fam, kind, _, ok in (o for o in observations if o[0] == name):
                total_right += ok
                if smoothed(table, fam, kind) >= t:
                    kept, right = kept + 1, right + ok
        sweep.append(
            {"threshold": t, "kept": kept, "right": right, "precision": round(right / kept, 4) if kept else None,
             "right_kept_share": round(right / total_right, 4) if total_right else None}
        )  # fmt: skip
    return sweep


def choose(sweep: list[dict[str, Any]]) -> float:
    """The lowest threshold whose held-out precision reaches the target; when none does, the highest
    that reaches the best precision among those still writing :data:`KEEP` of the right facts (on a
    tie, the stricter gate: a family that has not earned its place writes nothing)."""
    good = [s for s in sweep if s["precision"] is not None and s["precision"] >= TARGET]
    if good:
        return float(min(good, key=lambda s: s["threshold"])["threshold"])
    keeping = [s for s in sweep if (s["right_kept_share"] or 0.0) >= KEEP and s["precision"] is not None]
    best = max(s["precision"] for s in keeping)
    return float(max(s["threshold"] for s in keeping if s["precision"] == best))


def tuned_ceiling(played: list[tuple[str, str, Observation]], table: dict[str, tuple[float, float]]) -> float:
    """The highest threshold that still writes every right fact of the tuned split (kept at 100%)."""
    right = [smoothed(table, fam, kind) for split, _, (_, fam, kind, _, ok) in played if split == "tuned" and ok]
    return min(right, default=1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    args = parser.parse_args()
    confidence.MEASURING = True
    played = scenario_observations()
    observations = [o for _, _, o in played] + unit_observations()
    held = sorted({name for split, name, _ in played if split in HELD})
    sweep = cross_validate(observations, held)
    table = counts(observations)
    chosen = choose(sweep)
    ceiling = tuned_ceiling(played, table)
    threshold = min(chosen, math.floor(ceiling * 1000) / 1000)
    by_source: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for fam_kind, src, ok in [((o[1], o[2]), split, o[3]) for split, _, o in played] + [
        ((o[1], o[2]), "unit", o[3]) for o in observations if o[0] == "unit"
    ]:
        for name in (fam_kind[0], "/".join(fam_kind)):
            by_source[name][src][0] += ok
            by_source[name][src][1] += 1
    families: dict[str, Any] = {}
    for name in sorted(n for n in table if "/" not in n):
        shapes = sorted(n.split("/", 1)[1] for n in table if n.startswith(f"{name}/"))
        families[name] = {
            "right": round(table[name][0], 2), "seen": round(table[name][1], 2),
            **{src: {"right": a, "seen": b} for src, (a, b) in sorted(by_source[name].items())},
            "shapes": {k: {"right": round(table[f"{name}/{k}"][0], 2), "seen": round(table[f"{name}/{k}"][1], 2),
                           "confidence": round(smoothed(table, name, k), 4),
                           **{src: {"right": a, "seen": b} for src, (a, b) in sorted(by_source[f"{name}/{k}"].items())}}
                       for k in shapes},
        }  # fmt: skip
    print(f"{'family/shape':30} {'conf':>6}  per source")
    rows = [(f"{n}/{k}", v["confidence"], v) for n, f in families.items() for k, v in f["shapes"].items()]
    for name, conf, row in sorted(rows, key=lambda r: r[1]):
        detail = " ".join(f"{s}={row[s]['right']}/{row[s]['seen']}" for s in (*SPLITS, "unit") if s in row)
        print(f"{name:30} {conf:6.3f}  {detail}")
    print("\nleave-one-scenario-out on earlier-blind:")
    for s in sweep:
        print(
            f"  t={s['threshold']:.3f} kept={s['kept']:3} right={s['right']:3}"
            f" P={s['precision']} share={s['right_kept_share']}"
        )
    print(f"\ncross-validated threshold {chosen} (target {TARGET}); tuned ceiling {ceiling:.4f}; used {threshold}")
    if args.write:
        doc = {"threshold": threshold, "cross_validated": chosen, "tuned_ceiling": round(ceiling, 4),
               "prior": {"right": confidence.PRIOR_RIGHT, "seen": confidence.PRIOR_SEEN},
               "shape_weight": confidence.SHAPE_WEIGHT, "unit_weight": UNIT_WEIGHT, "target": TARGET,
               "families": families, "cross_validation": sweep}  # fmt: skip
        OUT.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
