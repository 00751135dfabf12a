"""The LoCoMo harness: date parsing, evidence ids, recall@k, and a tiny end-to-end run."""

from __future__ import annotations

import io
import json
from datetime import datetime, timezone

import pytest
from rich.console import Console
from typer.testing import CliRunner

from hipocampo.domain.model import MemoryItem, MemoryKind, Scope
from hipocampo.entrypoints.cli import app
from hipocampo_bench.locomo import (
    context_recall,
    load_conversation,
    normalise_dia_ids,
    parse_budgets,
    parse_session_time,
    recall_at_k,
    render_locomo,
    run_locomo,
)
from hipocampo_bench.locomo_layers import LAYERS, hit_turns, parse_layers, question_measures


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1:56 pm on 8 May, 2023", utc(2023, 5, 8, 13, 56)),
        ("12:09 am on 13 September, 2023", utc(2023, 9, 13, 0, 9)),
        ("12:30 pm on 1 January, 2024", utc(2024, 1, 1, 12, 30)),
        ("10:37 AM on 27 June, 2023", utc(2023, 6, 27, 10, 37)),
        ("9 am on 3 Sept 2023", utc(2023, 9, 3, 9, 0)),
        ("4:04 p.m. on 20 Jan, 2023", utc(2023, 1, 20, 16, 4)),
        ("May 8, 2023 at 7:05 pm", utc(2023, 5, 8, 19, 5)),
        ("8th May 2023", utc(2023, 5, 8)),
        ("2023-05-08 18:30", utc(2023, 5, 8, 18, 30)),
    ],
)
def test_parse_session_time(text, expected):
    assert parse_session_time(text) == expected


@pytest.mark.parametrize("text", ["", "sometime in spring", "1:56 pm on 8 Smarch, 2023"])
def test_parse_session_time_refuses_text_without_a_date(text):
    with pytest.raises(ValueError):
        parse_session_time(text)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (["D1:3"], ["D1:3"]),
        (["D1:3 "], ["D1:3"]),
        (["D8:6; D9:17"], ["D8:6", "D9:17"]),
        (["D9:1 D4:4 D4:6", "D9:1"], ["D9:1", "D4:4", "D4:6"]),
        (["D10:07", "d 2 : 3"], ["D10:7", "D2:3"]),
        ("D5:1,D5:2", ["D5:1", "D5:2"]),
        ([], []),
        (["no id here"], []),
    ],
)
def test_normalise_dia_ids(raw, expected):
    assert normalise_dia_ids(raw) == expected


def test_recall_at_k_counts_evidence_among_the_first_k_hits():
    hits = [{"D1:1"}, {"D2:2", "D1:3"}, set(), {"D4:4"}]
    assert recall_at_k(["D1:1"], hits, 1) == 1.0
    assert recall_at_k(["D1:3", "D4:4"], hits, 2) == 0.5
    assert recall_at_k(["D1:3", "D4:4"], hits, 4) == 1.0
    assert recall_at_k(["D9:9"], hits, 20) == 0.0
    assert recall_at_k(["D1:1"], [], 5) == 0.0
    with pytest.raises(ValueError):
        recall_at_k([], hits, 5)


def test_context_recall_matches_turn_text_verbatim():
    contents = {"D1:1": "I adopted a puppy", "D1:2": "What is its name?"}
    context = "## Relevant memories\n- [2023-05-08 13:56] Ana: I adopted a puppy"
    assert context_recall(["D1:1"], contents, context) == 1.0
    assert context_recall(["D1:1", "D1:2"], contents, context) == 0.5
    assert context_recall(["D7:7"], contents, context) == 0.0


def _conversation() -> dict:
    return {
        "speaker_a": "Ana",
        "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "Hi Ben! How was your week?"},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "Busy, work was hectic. And you?"},
            {
                "speaker": "Ana",
                "dia_id": "D1:3",
                "text": "I adopted a golden retriever puppy named Biscuit!",
            },
            {
                "speaker": "Ben",
                "dia_id": "D1:4",
                "text": "Congrats!",
                "blip_caption": "a photo of a cake",
            },
        ],
        "session_2_date_time": "7:10 pm on 2 June, 2023",
        "session_2": [
            {
                "speaker": "Ben",
                "dia_id": "D2:1",
                "text": "I started learning the cello last Tuesday.",
            },
            {
                "speaker": "Ana",
                "dia_id": "D2:2",
                "text": "Cool! Biscuit chewed my shoes again, by the way.",
            },
            {"speaker": "Ben", "dia_id": "D2:3", "text": "Ha, puppies will be puppies."},
        ],
        "session_3_date_time": "9:00 am on 9 June, 2023",
        "session_3": [],
        "session_1_summary": "SECRETSUMMARY Ana adopted a dog.",
        "session_1_observation": {"Ana": [["SECRETOBSERVATION", "D1:3"]]},
        "events_session_1": {"Ana": ["SECRETEVENT"]},
        "qa": [
            {
                "question": "What is the name of the golden retriever puppy Ana adopted?",
                "answer": "Biscuit",
                "evidence": ["D1:3 "],
                "category": 4,
            },
            {
                "question": "Which instrument did Ben start learning?",
                "answer": "cello",
                "evidence": ["D2:1"],
                "category": 2,
            },
            {
                "question": "What did Ana's puppy chew?",
                "answer": "shoes",
                "evidence": [],
                "category": 1,
            },
            {
                "question": "What is Ben's cat called?",
                "adversarial_answer": "Tom",
                "evidence": ["D1:2"],
                "category": 5,
            },
        ],
    }


def test_load_conversation_keeps_only_the_dialogue(tmp_path):
    path = tmp_path / "conv-x.json"
    path.write_text(json.dumps(_conversation()))
    conv = load_conversation(path)
    assert conv.id == "conv-x"
    assert [s.number for s in conv.sessions] == [1, 2]  # the empty session is dropped
    assert conv.sessions[1].at == utc(2023, 6, 2, 19, 10)
    assert conv.turns[3].content == "Congrats! [shares a photo: a photo of a cake]"
    assert conv.questions[0].evidence == ["D1:3"]
    assert "SECRET" not in " ".join(t.content for t in conv.turns)


def _long_conversation() -> dict:
    """The conversation above plus a session long enough to be folded into a thread summary."""
    data = _conversation()
    data["session_3"] = [
        {
            "speaker": "Ana" if i % 2 else "Ben",
            "dia_id": f"D3:{i}",
            "text": f"Chat line {i} about the garden, the weather and weekend plans number {i}.",
        }
        for i in range(1, 31)
    ]
    data["session_3"][4]["text"] = "I love painting, it relaxes me after work."
    data["qa"].append({"question": "What does Ana love?", "answer": "painting", "evidence": ["D3:5"], "category": 4})
    return data


@pytest.fixture(scope="module")
def layered(tmp_path_factory) -> tuple[dict, object]:
    """One run of both layers over the long conversation (shared: ingest is the slow part)."""
    tmp = tmp_path_factory.mktemp("locomo")
    data = tmp / "data"
    data.mkdir()
    (data / "conv-x.json").write_text(json.dumps(_long_conversation()))
    result = run_locomo(str(data), embedder="fake", progress=False, db_dir=str(tmp / "dbs"))
    return result, tmp


def test_run_locomo_end_to_end_with_the_fake_embedder(layered):
    result, tmp = layered
    for key in (
        "recall_at_5",
        "recall_at_10",
        "recall_at_20",
        "context_recall",
        "context_recall_k20",
        "context_tokens_median",
        "context_tokens_p95",
        "full_context_tokens",
        "questions",
        "per_category",
        "baselines",
        "embedder",
        "conversations",
        "timings",
        "layers",
    ):
        assert key in result, key
    assert result["conversations"] == 1
    assert result["questions"] == 3 and result["skipped"] == 1  # category 5 excluded, no-evidence skipped
    assert set(result["per_category"]) == {"1", "2", "3", "4"}
    assert result["per_category"]["4"]["questions"] == 2
    assert result["per_category"]["4"]["recall_at_5"] == 1.0
    assert result["per_category"]["4"]["context_recall"] == 1.0
    assert set(result["baselines"]) == {"bm25", "dense", "rrf"}
    assert result["baselines"]["bm25"]["per_category"]["4"]["recall_at_5"] == 1.0
    assert 0 < result["context_tokens_median"] <= 2000
    assert result["full_context_tokens"] > 0
    for layer in ("turns", "full"):
        assert (tmp / "dbs" / f"conv-x-{layer}.db").exists()
    biscuit = next(r for r in result["per_question"] if r["category"] == 4)
    assert biscuit["evidence_ranks"]["D1:3"] is not None
    assert set(biscuit["layers"]) == {"turns", "full"}


def test_the_headline_is_the_full_layer_and_each_layer_is_scored_apart(layered):
    result, _ = layered
    layers = result["layers"]
    assert result["headline_layer"] == "full" and list(layers) == ["turns", "full"]
    for key in ("recall_at_5", "recall_at_10", "recall_at_20", "context_recall"):
        assert result[key] == layers["full"][key]
    assert result["timings"]["index_seconds"] == layers["full"]["timings"]["index_seconds"]
    for layer in layers.values():
        assert layer["questions"] == 3
        assert set(layer["per_category"]) == {"1", "2", "3", "4"}
        assert layer["per_category"]["2"]["context_recall"] is not None
        for key in ("recall_at_10", "turn_recall_at_10", "context_recall_derived"):
            assert 0 <= layer[key] <= 1
        assert layer["context_recall_derived"] >= layer["context_recall"]
        assert layer["context_tokens_median"] > 0
        assert set(layer["derived_hit_sources_median"]) == {"fact", "summary", "consolidated"}
        assert layer["turn_recall_at_20_plus_summary"] >= layer["turn_recall_at_20"]
        assert layer["timings"]["index_seconds"] > 0

    turns, full = layers["turns"], layers["full"]
    assert turns["extraction"] is False and turns["both_speakers_user"] is False
    assert all(n == 0 for n in turns["derived"].values())  # dead_jobs too
    assert turns["derived_hits_at_20"] == 0 and turns["turn_recall_at_10"] == turns["recall_at_10"]
    assert full["extraction"] and full["summaries"] and full["consolidate"]
    assert turns["derived"]["dead_jobs"] == full["derived"]["dead_jobs"] == 0
    assert full["derived"]["facts"] >= 2  # Ana's puppy and her love of painting
    assert full["derived"]["summaries"] == 1  # only the 30-turn session is long enough
    assert full["derived"]["memories_seen"] > 30  # consolidation saw the 2023 turns: long lookback
    assert full["timings"]["consolidate_seconds"] > 0
    # A fact ranks just below the turn it restates and takes no slot of its own (the context adds
    # it beside that turn), so in this small fixture none needs to reach the search's top 20.
    assert full["derived_hits_at_20"] >= 0


def test_render_shows_the_layers_side_by_side(layered):
    result, _ = layered
    console = Console(file=io.StringIO(), width=200)
    render_locomo(result, console)
    text = console.file.getvalue()
    for expected in ("hipocampo turns", "hipocampo full", "Memory layers side by side", "summaries"):
        assert expected in text


def test_one_layer_only(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "conv-x.json").write_text(json.dumps(_conversation()))
    result = run_locomo(str(data), embedder="fake", progress=False, db_dir=str(tmp_path), layers=("turns",))
    assert result["headline_layer"] == "turns" and list(result["layers"]) == ["turns"]
    assert result["recall_at_10"] == result["layers"]["turns"]["recall_at_10"]
    assert not (tmp_path / "conv-x-full.db").exists()


def test_parse_layers():
    assert parse_layers("turns,full") == ("turns", "full")
    assert parse_layers(" Full , turns,full") == ("full", "turns")
    assert parse_layers(["turns"]) == ("turns",)
    for bad in ("", "turns,facts", [], ["all"]):
        with pytest.raises(ValueError):
            parse_layers(bad)


def test_layer_roles_and_settings():
    assert LAYERS["turns"].role("Ben", "Ana") == "assistant"
    assert LAYERS["turns"].role("Ana", "Ana") == "user"
    assert LAYERS["full"].role("Ben", "Ana") == "user"  # both people are the memory's subjects
    turns, full = LAYERS["turns"].overrides(), LAYERS["full"].overrides()
    assert (turns["extraction"], turns["summaries"]) == (False, False)
    assert (full["extraction"], full["summaries"]) == (True, True)
    assert turns["consolidation"] is full["consolidation"] is False  # no nightly run mid-benchmark


def _item(kind: MemoryKind, sources: list[str], **metadata: str) -> MemoryItem:
    at = utc(2023, 5, 8)
    return MemoryItem(
        f"{kind.value}-{'-'.join(sources)}",
        Scope("default", "conv-x"),
        kind,
        f"content of {kind.value} {sources}",
        at,
        source_message_ids=sources,
        metadata=dict(metadata),
    )


def test_derived_memories_cover_only_their_source_messages():
    dia = {"m1": "D1:1", "m2": "D1:2", "m3": "D1:3"}
    assert hit_turns(_item(MemoryKind.TURN, ["m1"], dia_id="D1:1"), dia) == {"D1:1"}
    assert hit_turns(_item(MemoryKind.TURN, ["other"], dia_id="D9:9 "), dia) == {"D9:9"}
    # a derived memory's copied dia_id does not count; its sources do
    assert hit_turns(_item(MemoryKind.FACT, ["m2"], dia_id="D1:3"), dia) == {"D1:2"}
    assert hit_turns(_item(MemoryKind.SUMMARY, ["m1", "m2", "unknown"]), dia) == {"D1:1", "D1:2"}
    assert hit_turns(_item(MemoryKind.CONSOLIDATED, []), dia) == set()


def test_question_measures_tell_derived_hits_from_turns():
    dia = {"m1": "D1:1", "m2": "D1:2", "m3": "D1:3"}
    contents = {"D1:1": "turn one", "D1:2": "turn two", "D1:3": "turn three"}
    fact = _item(MemoryKind.FACT, ["m2"])
    summary = _item(MemoryKind.SUMMARY, ["m1", "m3"])
    turn = _item(MemoryKind.TURN, ["m1"], dia_id="D1:1")
    top = [fact, turn, summary]
    context = f"- (fact) {fact.content}\n- turn one"
    out = question_measures(["D1:2", "D1:3"], top, [fact, summary], context, contents, dia, (1, 2, 3))
    assert out["turn_recall_at_3"] == 0.0  # only the derived hits cover the evidence
    assert out["turn_recall_at_3_plus_fact"] == out["turn_recall_at_3_plus_summary"] == 0.5
    assert out["turn_recall_at_1_plus_summary"] == 0.0 and out["turn_recall_at_3_plus_consolidated"] == 0.0
    assert recall_at_k(["D1:2", "D1:3"], [hit_turns(m, dia) for m in top], 3) == 1.0
    assert (out["derived_hits_at_1"], out["derived_hits_at_2"], out["derived_hits_at_3"]) == (1, 1, 2)
    assert out["context_recall_derived"] == 0.5  # the fact is in the context, the summary is not
    assert out["adaptive_derived"] == 2
    assert out["derived_hit_sources"] == [1, 2]
    assert out["top_kinds"] == ["fact", "turn", "summary"]


def test_cli_layers_option(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "conv-x.json").write_text(json.dumps(_conversation()))
    runner = CliRunner()
    args = ["bench", "locomo", "--data", str(data), "--embedder", "fake", "--json"]
    result = runner.invoke(app, [*args, "--layers", "turns"])
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.stdout)["layers"]) == ["turns"]
    bad = runner.invoke(app, [*args, "--layers", "turns,everything"])
    assert bad.exit_code == 2


def test_the_lean_context_is_measured_at_each_budget(layered):
    result, _ = layered
    assert result["budgets"] == [500, 1000, 2000]
    for layer in result["layers"].values():
        budgets = layer["budgets"]
        assert list(budgets) == ["500", "1000", "2000"]
        for budget, b in budgets.items():
            assert 0 <= b["context_recall"] <= 1
            assert 0 <= b["tokens_median"] <= b["tokens_p90"] <= int(budget)  # a ceiling
            assert set(b["per_category"]) == {"1", "2", "3", "4"}
        recalls = [b["context_recall"] for b in budgets.values()]
        assert recalls == sorted(recalls)  # the same memories: a larger ceiling never shows fewer
        assert budgets["2000"]["context_recall"] == layer["context_recall"]  # rendered again, same context
    record = next(r for r in result["per_question"] if not r.get("skipped"))
    assert set(record["layers"]["turns"]["budgets"]) == {"500", "1000", "2000"}
    console = Console(file=io.StringIO(), width=200)
    render_locomo(result, console)
    assert "by token budget" in console.file.getvalue()


def test_parse_budgets():
    assert parse_budgets("2000, 500,1000,500") == (500, 1000, 2000)
    assert parse_budgets([1000]) == (1000,)
    for bad in ("", "500,lots", "10", [0], "1.5"):
        with pytest.raises(ValueError):
            parse_budgets(bad)


def test_cli_budgets_option(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "conv-x.json").write_text(json.dumps(_conversation()))
    runner = CliRunner()
    args = ["bench", "locomo", "--data", str(data), "--embedder", "fake", "--json", "--layers", "turns"]
    result = runner.invoke(app, [*args, "--budgets", "300,800"])
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.stdout)["layers"]["turns"]["budgets"]) == ["300", "800"]
    bad = runner.invoke(app, [*args, "--budgets", "300,lots"])
    assert bad.exit_code == 2 and "--budgets" in bad.output
