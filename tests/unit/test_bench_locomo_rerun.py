"""The LoCoMo re-run harness: questions asked again of kept stores score as the full run did."""

from __future__ import annotations

import asyncio
import json

import pytest
from rich.console import Console

from hipocampo_bench.locomo import run_locomo
from hipocampo_bench.locomo_rerun import main, rerun, table

CONVERSATION = {
    "sample_id": "conv-r",
    "speaker_a": "Ana",
    "speaker_b": "Ben",
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [
        {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a grey cat called Miso last week."},
        {"speaker": "Ben", "dia_id": "D1:2", "text": "Lovely! Does Miso like the garden?"},
        {"speaker": "Ana", "dia_id": "D1:3", "text": "She loves chasing butterflies among the roses."},
    ],
    "session_2_date_time": "7:10 pm on 2 June, 2023",
    "session_2": [
        {"speaker": "Ben", "dia_id": "D2:1", "text": "I started rowing on the river on Saturdays."},
        {"speaker": "Ana", "dia_id": "D2:2", "text": "Rowing sounds great, I prefer painting at home."},
    ],
    "qa": [
        {"question": "What is Ana's cat called?", "answer": "Miso", "evidence": ["D1:1"], "category": 4},
        {"question": "What does Ben do on Saturdays?", "answer": "rowing", "evidence": ["D2:1"], "category": 1},
    ],
}


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("rerun")
    (tmp / "data").mkdir()
    (tmp / "data" / "conv-r.json").write_text(json.dumps(CONVERSATION))
    result = run_locomo(str(tmp / "data"), embedder="fake", progress=False, db_dir=str(tmp / "dbs"), layers=("turns",))
    return tmp, result


def test_rerun_scores_the_kept_stores_as_the_full_run_did(kept) -> None:
    tmp, result = kept
    records = asyncio.run(rerun(str(tmp / "data"), str(tmp / "dbs"), ["turns"], None, embedder="fake"))
    assert [r["category"] for r in records] == [4, 1]
    by_question = {r["question"]: r for r in result["per_question"]}
    for r in records:
        full = by_question[r["question"]]["layers"]["turns"]
        for key in ("recall_at_5", "recall_at_10", "recall_at_20", "context_recall", "context_recall_k20"):
            assert r[key] == pytest.approx(full[key]), key
        assert "total_ms" in r["timings_ms"]
    console = Console(record=True, width=120)
    console.print(table(records, "re-run"))
    assert "multi-hop" in console.export_text()


def test_a_missing_store_is_a_one_line_error(kept, tmp_path, capsys) -> None:
    tmp, _ = kept
    code = main(["--data", str(tmp / "data"), "--db-dir", str(tmp_path), "--layers", "turns", "--embedder", "fake"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no kept store") and err.count("\n") == 1
