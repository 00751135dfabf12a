"""The LoCoMo harness: date parsing, evidence ids, recall@k, and a tiny end-to-end run."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from hipocampo.bench.locomo import (
    context_recall,
    load_conversation,
    normalise_dia_ids,
    parse_session_time,
    recall_at_k,
    run_locomo,
)


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


def test_run_locomo_end_to_end_with_the_fake_embedder(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "conv-x.json").write_text(json.dumps(_conversation()))
    result = run_locomo(str(data), embedder="fake", progress=False, db_dir=str(tmp_path / "dbs"))

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
    ):
        assert key in result, key
    assert result["conversations"] == 1
    assert (
        result["questions"] == 2 and result["skipped"] == 1
    )  # category 5 excluded, no-evidence skipped
    assert set(result["per_category"]) == {"1", "2", "3", "4"}
    assert result["per_category"]["4"]["questions"] == 1
    assert result["per_category"]["4"]["recall_at_5"] == 1.0
    assert result["per_category"]["4"]["context_recall"] == 1.0
    assert set(result["baselines"]) == {"bm25", "dense", "rrf"}
    assert result["baselines"]["bm25"]["per_category"]["4"]["recall_at_5"] == 1.0
    assert 0 < result["context_tokens_median"] <= 2000
    assert result["full_context_tokens"] > 0
    assert (tmp_path / "dbs" / "conv-x.db").exists()
    biscuit = next(r for r in result["per_question"] if r["category"] == 4)
    assert biscuit["evidence_ranks"]["D1:3"] is not None
