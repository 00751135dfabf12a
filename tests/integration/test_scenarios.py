"""The fact lifecycle scenarios end to end: every tuned scenario passes in every mode, the
earlier-blind split stays above its regression floors, the fresh never-tuned split (when its files
exist) loads and is reported, and two scenarios (one English, one Portuguese) are checked exactly:
current facts, a correction's full history, a retraction, mentions and dated events."""

from __future__ import annotations

from datetime import datetime, timezone
from itertools import pairwise
from typing import Any

import pytest

from hipocampo.domain.model import HistoryEvent, MemoryItem
from hipocampo.domain.truth.reconcile import FACT_VALUE, normalise_value
from hipocampo_bench.scenario_files import SCENARIOS_DIR
from hipocampo_bench.scenario_model import MEASURED
from hipocampo_bench.scenarios import LANGUAGES, MODES, SCENARIOS, SPLITS, USER, open_memory, play, run_scenarios

ADD, UPDATE, DELETE, MENTION = HistoryEvent.ADD, HistoryEvent.UPDATE, HistoryEvent.DELETE, HistoryEvent.MENTION

# The earlier-blind split was written blind (it was "never-tuned" until rules were tuned on its
# failures), so its floors are regression guards set at what was measured (docs/benchmarks.md),
# minus a margin. The fresh never-tuned split is only reported: its figures are the measure.
EARLIER_BLIND_FLOORS = {"passed": 0.0, "precision": 0.55, "recall": 0.45, "probes": 0.75}
SARAH = next(s for s in SCENARIOS if s.name == "sarah_boston_to_denver")
HELENA = next(s for s in SCENARIOS if s.name == "helena_coimbra_saude")


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def result() -> dict[str, Any]:
    # The blind splits are measured by benchmarks/scenarios.py, not held to anything here.
    return run_scenarios(scenarios=[s for s in SCENARIOS if s.split not in MEASURED])


def test_scenarios_are_well_formed() -> None:
    assert len(SCENARIOS) >= 40
    assert len({s.name for s in SCENARIOS}) == len(SCENARIOS)
    assert {s.language for s in SCENARIOS} == set(LANGUAGES)
    assert {"tuned", "earlier-blind"} <= {s.split for s in SCENARIOS} <= set(SPLITS)
    earlier = [s for s in SCENARIOS if s.split not in MEASURED]
    assert 2 * sum(s.split == "earlier-blind" for s in earlier) >= len(earlier) - 1  # about half blind
    for split in SPLITS:  # each file in the folder of its split, named after its scenario
        for path in sorted((SCENARIOS_DIR / split).glob("*.json")):
            assert [(s.name, s.split) for s in SCENARIOS if s.name == path.stem] == [(path.stem, split)], path
    for s in SCENARIOS:
        assert 2 <= len(s.sessions) <= 5, s.name
        assert s.probes, s.name
        assert len({x.thread_id for x in s.sessions}) == len(s.sessions), s.name
        times = [t.at for x in s.sessions for t in x.turns]
        assert times == sorted(times), s.name
        starts = [at(x.turns[0].at[:-1]) for x in s.sessions]
        assert all((b - a).days >= 1 for a, b in pairwise(starts)), s.name
        roles = {t.role for x in s.sessions for t in x.turns}
        assert roles == {"user", "assistant"}, s.name
        if s.split not in MEASURED:  # the blind splits' writers chose what each scenario tests
            assert s.facts and (s.superseded or s.retracted), s.name


def test_every_tuned_scenario_passes_in_every_mode(result: dict[str, Any]) -> None:
    """Exact current facts, every update and retraction recorded, and every probe (context,
    top hit, outdated marks, isolation) holding with and without consolidation, on both clocks."""
    tuned = [r for r in result["scenarios"] if r["split"] == "tuned"]
    failing = {
        r["name"]: r["facts"]["missing"] + r["facts"]["unexpected"] + r["updates"]["failures"]
        + r["retractions"]["failures"] + r["probes"]["failures"]
        for r in tuned if not r["passed"]
    }  # fmt: skip
    assert not failing
    assert result["by_split"]["tuned"]["facts"]["precision"] >= 0.97


def test_the_earlier_blind_split_stays_above_its_floors(result: dict[str, Any]) -> None:
    blind = result["by_split"]["earlier-blind"]
    assert blind["scenarios"] >= 20
    assert blind["passed"]["rate"] >= EARLIER_BLIND_FLOORS["passed"]
    assert blind["facts"]["precision"] >= EARLIER_BLIND_FLOORS["precision"]
    assert blind["facts"]["recall"] >= EARLIER_BLIND_FLOORS["recall"]
    assert blind["probes"]["rate"] >= EARLIER_BLIND_FLOORS["probes"]


def test_the_fresh_never_tuned_split_is_reported_apart() -> None:
    """Not held to any figure (that would make it a tuned split): played and counted apart."""
    fresh = [s for s in SCENARIOS if s.split == "never-tuned"][:1]
    if not fresh:
        pytest.skip("no fresh never-tuned scenarios in benchmarks/data/scenarios/never-tuned/")
    one = run_scenarios(scenarios=fresh, modes=MODES[:1])
    assert one["by_split"]["never-tuned"]["scenarios"] == 1
    assert one["by_split"]["tuned"]["scenarios"] == one["by_split"]["earlier-blind"]["scenarios"] == 0


def test_every_scenario_reports_its_misses(result: dict[str, Any]) -> None:
    for row in result["scenarios"]:
        f = row["facts"]
        assert len(f["missing"]) == f["expected"] - f["correct"], row["name"]
        assert len(f["unexpected"]) == f["extracted"] - f["correct"], row["name"]
        for check in ("updates", "retractions", "mentions", "events"):
            assert len(row[check]["failures"]) == row[check]["expected"] - row[check]["correct"]
        assert (row["probes"]["correct"] == row["probes"]["expected"]) == (not row["probes"]["failures"])


# --- exact end-to-end checks ----------------------------------------------------------------------


def triple(f: MemoryItem) -> tuple[str, str, str]:
    return (f.memory_type.value if f.memory_type else "", f.key or "", normalise_value(f.metadata[FACT_VALUE]))


def one(facts: list[MemoryItem], key: str, value: str) -> MemoryItem:
    found = [f for f in facts if f.key == key and f.metadata[FACT_VALUE] == value]
    assert len(found) == 1, (key, value, found)
    return found[0]


def test_english_scenario_end_to_end(tmp_path) -> None:
    mem = open_memory(tmp_path / "sarah.db")
    try:
        play(mem, SARAH)
        facts = mem.list(USER, kind="fact", limit=1000)
        current = {triple(f) for f in facts if f.valid_to is None}
        expected = {(f.memory_type, f.key, normalise_value(f.value)) for f in SARAH.facts}
        # pet:cat aside: "I don't have a cat anymore" does not retract the cat named Miso (a known miss).
        assert {t for t in current if t[1] != "pet:cat"} == expected

        boston, denver = one(facts, "home_city", "Boston"), one(facts, "home_city", "Denver")
        assert boston.valid_to == at("2024-04-17T20:10:00") and denver.valid_to is None
        history = mem.history(USER, boston.id)
        assert [(h.event, h.created_at, h.related_id) for h in history] == [
            (ADD, at("2024-03-04T19:02:00"), None),
            (UPDATE, at("2024-04-17T20:10:00"), denver.id),
        ]
        assert history[1].old_content == "The user lives in Boston."
        assert history[1].new_content == "The user lives in Denver."
        assert [h.event for h in mem.history(USER, denver.id)] == [ADD]

        shellfish = one(facts, "allergy:shellfish", "shellfish")
        assert shellfish.mention_count == 2
        assert [h.event for h in mem.history(USER, shellfish.id)] == [ADD, MENTION]

        assert one(facts, "pet:dog", "Biscuit").event_start == at("2024-05-01T00:00:00")  # "yesterday"
        assert denver.event_start == at("2024-04-08T00:00:00")  # "last week", said on 17 April
        assert one(facts, "employer", "Denver Health").event_start == at("2024-04-15T00:00:00")  # "on Monday"
    finally:
        mem.close()


def test_portuguese_scenario_end_to_end(tmp_path) -> None:
    mem = open_memory(tmp_path / "helena.db")
    try:
        play(mem, HELENA)
        facts = mem.list(USER, kind="fact", limit=1000)
        current = {triple(f) for f in facts if f.valid_to is None}
        expected = {(f.memory_type, f.key, normalise_value(f.value)) for f in HELENA.facts}
        # Known misses: pt-PT "reformada", and "quero voltar a nadar" read as a request ("voltar").
        known_misses = {("user_profile", "occupation", "reformado"), ("goal", "goal:voltar_a_nadar", "voltar a nadar")}
        assert current <= expected
        assert expected - current <= known_misses

        old_diet, new_diet = one(facts, "diet", "mediterrânica"), one(facts, "diet", "low carb")
        assert old_diet.valid_to == at("2024-04-02T09:46:00") and new_diet.valid_to is None
        assert [(h.event, h.created_at, h.related_id) for h in mem.history(USER, old_diet.id)] == [
            (ADD, at("2024-01-15T09:04:00"), None),
            (UPDATE, at("2024-04-02T09:46:00"), new_diet.id),
        ]

        metformin = one(facts, "medication:metformin", "metformina")
        assert metformin.valid_to == at("2024-04-02T09:45:00")
        assert [h.event for h in mem.history(USER, metformin.id)] == [ADD, DELETE]

        home = one(facts, "home_city", "Coimbra")
        assert home.mention_count == 2 and home.valid_to is None

        turns = [t for t in mem.list(USER, kind="turn", limit=1000) if t.content.startswith("Anteontem")]
        assert [t.event_start for t in turns] == [at("2024-02-24T00:00:00")]  # "anteontem" on 26 February
    finally:
        mem.close()
