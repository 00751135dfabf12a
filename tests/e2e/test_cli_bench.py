"""``hipocampo bench``: the benchmarks ship apart from the product, and the realistic-chat benchmark
plays chats through the real API and reports its checks; the chat files it reads are well formed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from hipocampo.entrypoints.cli import app
from hipocampo_bench.scenario_files import REALISTIC_DIR, load_dir
from hipocampo_bench.scenario_model import REALISTIC

CHAT: dict[str, Any] = {
    "name": "tiny_en_ana_moves",
    "language": "en",
    "split": "realistic",
    "summary": "Ana moves from Leeds to York; another user of the tenant lives in Bristol.",
    "sessions": [
        {
            "thread_id": "ana-1",
            "day": "2025-03-03",
            "turns": [
                ["09:00", "u", "hi, I'm Ana, I live in Leeds and work as a nurse"],
                ["09:01", "a", "Hi Ana! How can I help?"],
                ["09:02", "u", "can u suggest a quick lunch?"],
            ],
        },
        {
            "thread_id": "ana-2",
            "day": "2025-03-20",
            "turns": [
                ["18:00", "u", "big news lol, I moved to York last week"],
                ["18:01", "a", "Congrats on the move!"],
            ],
        },
    ],
    "facts": [],
    "probes": [
        {"query": "where do I live now?", "current": ["York"], "stale": ["Leeds"], "foreign": ["Bristol"]},
        {"query": "what's my job?", "current": ["nurse"], "stale": [], "foreign": []},
    ],
    "other_user": [
        {
            "thread_id": "bo-1",
            "day": "2025-03-01",
            "turns": [["10:00", "u", "I'm Bo and I live in Bristol"], ["10:01", "a", "Hi Bo!"]],
        }
    ],
}


def test_bench_realistic_plays_the_chats_and_reports_every_check(tmp_path: Path) -> None:
    (tmp_path / "tiny_en_ana_moves.json").write_text(json.dumps(CHAT), encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["bench", "realistic", "--data", str(tmp_path), "--embedder", "fake", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["chats"] == 1 and report["embedder"] == "fake" and report["mode"] == "next-day"
    overall = report["overall"]
    assert overall["probes"] == 2 and report["by_language"]["en"] == overall
    assert report["by_language"]["pt"]["probes"] == 0
    for check in ("answer_in_context", "top_hit_answers", "empty_memory", "stale_as_current", "foreign_leaked"):
        assert 0 <= overall[check]["count"] <= 2
    assert overall["foreign_leaked"]["count"] == 0  # tenants' users never see each other's memories
    assert overall["memory_tokens"]["median"] >= 0
    first = report["probes"][0]
    assert first["query"] == "where do I live now?" and first["current"] == ["York"]
    assert first["answer_in_context"] == ("York" in first["context"])
    clean = first["answer_in_context"] and first["top_hit_answers"]
    assert (not first["failures"]) == (clean and not first["stale_as_current"] and not first["foreign_leaked"])

    shown = runner.invoke(app, ["bench", "realistic", "--data", str(tmp_path), "--embedder", "fake", "--verbose"])
    assert shown.exit_code == 0, shown.output
    assert "Recall on realistic chat" in shown.stdout and "overall" in shown.stdout


def test_bench_realistic_refuses_a_malformed_chat_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text(json.dumps({**CHAT, "sessions": [{"thread_id": "x", "day": "2025-03-03"}]}))
    result = subprocess.run(
        [sys.executable, "-m", "hipocampo.entrypoints.cli", "bench", "realistic", "--data", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "bad.json" in lines[0]


def test_without_the_benchmarks_bench_says_how_to_install_them() -> None:
    """The product does not need them: ``pip install hipocampo`` alone, and a bench command exits 2
    with one line on how to get them (an import of None in sys.modules is Python's own "not
    installed")."""
    code = (
        "import sys; sys.modules['hipocampo_bench'] = None; sys.argv = ['hipocampo', 'bench', 'realistic']\n"
        "from hipocampo.entrypoints.cli import main; main()"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install -e benchmarks" in lines[0], result.stderr


def test_the_realistic_chats_load_and_are_well_formed() -> None:
    chats = load_dir(REALISTIC_DIR)
    for path in sorted(REALISTIC_DIR.glob("*.json")):
        assert [(c.name, c.split) for c in chats if c.name == path.stem] == [(path.stem, REALISTIC)], path
    for chat in chats:
        assert chat.probes and all(p.current for p in chat.probes), chat.name
        assert len({s.thread_id for s in chat.sessions}) == len(chat.sessions), chat.name
        times = [t.at for s in chat.sessions for t in s.turns]
        assert times == sorted(times), chat.name


def test_bench_scenarios_reports_the_splits_apart() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["bench", "scenarios", "--only", "sarah_boston_to_denver", "--quick", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["modes"] == ["real-clock"] and [r["name"] for r in report["scenarios"]] == ["sarah_boston_to_denver"]
    assert report["by_split"]["tuned"]["scenarios"] == 1
    assert report["by_split"]["earlier-blind"]["scenarios"] == report["by_split"]["never-tuned"]["scenarios"] == 0
    bad = runner.invoke(app, ["bench", "scenarios", "--split", "blind"])
    assert bad.exit_code == 2 and "--split" in bad.output
