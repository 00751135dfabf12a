"""``hipocampo move`` from a SQLite store an older version wrote, into each backend: rows no store
should hold are named (ids, never content) and skipped or repaired on request, and the check after
a move sees every table it copies (an overwritten vector, a deleted keyword entry).

The source is written through real HTTP on loopback; the rows an older version let through (NUL
in a message, NUL or NaN in metadata) are then written into its file directly, since every write
path refuses them now. The destination is read back through real HTTP too.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live_http import live_server
from typer.testing import CliRunner, Result

from hipocampo.client import AsyncMemory
from hipocampo.entrypoints.cli import app

pytestmark = pytest.mark.backends()

SECRET = "my-bank-pin-is-4321"


async def no_tenants(mem: AsyncMemory) -> dict[str, str]:
    return {}


def cli(*args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    return result


@pytest.fixture
def source(tmp_path: Path) -> Iterator[Path]:
    """A SQLite store written over HTTP: two users, turns, saved facts, all indexed."""
    path = tmp_path / "source.db"
    with live_server(str(path), no_tenants, auth=False) as live:
        c = live.client()
        for user, words in (
            ("ana", ["Ana lives in Lisbon", "Ana is allergic to peanuts", "Ana likes tea"]),
            ("bob", ["Bob flies"]),
        ):
            msgs = [{"content": w, "metadata": {"n": i}} for i, w in enumerate(words)]
            assert c.post(f"/v1/users/{user}/threads/t1/messages", json={"messages": msgs}).status_code == 201
            assert c.post(f"/v1/users/{user}/memories", json={"content": f"{words[0]}, saved"}).status_code == 201
        live.flush()
    yield path


def poison(path: Path) -> dict[str, str]:
    """What an older version stored: NUL in a message and in metadata, NaN in metadata. The ids
    of the rows, by what they hold."""
    with sqlite3.connect(path) as db:
        nul, meta = [r[0] for r in db.execute("SELECT id FROM messages WHERE user_id = 'ana' ORDER BY seq")][:2]
        db.execute("UPDATE messages SET content = ? WHERE id = ?", (f"{SECRET}\x00 Ana lives in Lisbon", nul))
        db.execute(
            "UPDATE memories SET content = ? WHERE ? IN (SELECT value FROM json_each(source_ids))",
            (f"{SECRET}\x00", nul),
        )
        db.execute("UPDATE messages SET metadata = ? WHERE id = ?", (json.dumps({"who": f"{SECRET}\x00"}), meta))
        (bob,) = db.execute("SELECT id FROM messages WHERE user_id = 'bob'").fetchone()
        db.execute("UPDATE messages SET metadata = ? WHERE id = ?", ('{"score": NaN}', bob))
    return {"nul": nul, "nul-metadata": meta, "nan": bob}


def messages_of(url: str, user: str) -> dict[str, dict[str, Any]]:
    with live_server(url, no_tenants, auth=False) as live:
        r = live.client().get(f"/v1/users/{user}/threads/t1/messages")
        assert r.status_code == 200, r.text
        export = live.client().get(f"/v1/users/{user}/export")
        assert export.status_code == 200 and json.loads(export.text.splitlines()[-1])["type"] == "end", export.text
        return {m["id"]: m for m in r.json()["messages"]}


def test_invalid_rows_are_named_then_skipped_or_repaired(source: Path, db_path: str, tmp_path: Path) -> None:
    bad = poison(source)
    refused = cli("move", "--from", str(source), "--to", db_path, code=1)
    error = refused.stderr.strip().splitlines()[-1]  # after the progress bars: one line
    assert error.startswith("error:") and "Traceback" not in refused.output, refused.output
    assert f"message {bad['nul']} (user default/ana, thread t1): content" in error, error
    assert f"message {bad['nul-metadata']} (user default/ana, thread t1): metadata" in error, error
    assert "--skip-invalid" in error and "--repair" in error
    assert SECRET not in refused.output

    if db_path.endswith(".db"):  # a SQLite destination: a fresh file for the second try
        db_path = str(tmp_path / "skipped.db")
    skipped = cli("move", "--from", str(source), "--to", db_path, "--skip-invalid")
    assert "MISMATCH" not in skipped.stdout and SECRET not in skipped.output
    assert f"message {bad['nul']}" in skipped.stdout and "left out" in skipped.stdout
    ana = messages_of(db_path, "ana")
    assert bad["nul"] not in ana and bad["nul-metadata"] not in ana  # left out
    assert messages_of(db_path, "bob")[bad["nan"]]["metadata"] == {"score": None}  # repaired as read
    cli("move", "--from", str(source), "--to", db_path, "--verify-only", "--skip-invalid")


def test_repair_stores_them_with_replacement_characters(source: Path, db_path: str) -> None:
    bad = poison(source)
    repaired = cli("move", "--from", str(source), "--to", db_path, "--repair")
    assert "repaired" in repaired.stdout and "MISMATCH" not in repaired.stdout, repaired.stdout
    ana = messages_of(db_path, "ana")
    assert ana[bad["nul"]]["content"] == f"{SECRET}\ufffd Ana lives in Lisbon"
    assert ana[bad["nul-metadata"]]["metadata"] == {"who": f"{SECRET}\ufffd"}


def run_sql(url: str, sql: str) -> int:
    if url.startswith("postgresql"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            return conn.execute(sql).rowcount
    with sqlite3.connect(url) as db:
        return db.execute(sql).rowcount


# Another row's vector that differs from the one replaced: two memories of the same text (a
# repeated message) share a vector, and copying one over the other would change nothing.
TAMPER = {
    "vectors": {
        "sqlite": "UPDATE vectors SET vec = (SELECT vec FROM vectors v WHERE v.vec <> vectors.vec LIMIT 1)"
        " WHERE rid = (SELECT max(rid) FROM vectors)",
        "postgresql": "UPDATE vectors SET embedding = (SELECT embedding FROM vectors v WHERE v.embedding <>"
        " vectors.embedding LIMIT 1) WHERE memory_id = (SELECT max(memory_id) FROM vectors)",
    },
    "keywords": {
        "sqlite": "DELETE FROM memory_fts WHERE rowid = (SELECT max(rowid) FROM memory_fts)",
        "postgresql": "DELETE FROM keywords WHERE memory_id = (SELECT max(memory_id) FROM keywords)",
    },
}


@pytest.mark.parametrize("table", TAMPER)
def test_the_check_sees_an_overwritten_vector_and_a_deleted_keyword_entry(
    source: Path, db_path: str, store_backend: str, table: str
) -> None:
    moved = cli("move", "--from", str(source), "--to", db_path)
    assert "MISMATCH" not in moved.stdout, moved.stdout
    assert run_sql(db_path, TAMPER[table][store_backend]) == 1
    checked = cli("move", "--from", str(source), "--to", db_path, "--verify-only", code=1)
    bad = [line for line in checked.stdout.splitlines() if "MISMATCH" in line]
    assert len(bad) == 1, checked.stdout
    assert [c.strip() for c in re.split(r"[│|┃]", bad[0]) if c.strip()][0] == table, checked.stdout
    assert "not compared:" in checked.stdout  # what the check leaves out, it says
