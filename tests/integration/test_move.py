"""``hipocampo move``: a realistic store, written through the public API, moved between backends
(SQLite file to SQLite file, to memory:// and back, to Postgres and back) and found identical;
an interrupted move resumes without duplicates; the check catches a tampered row."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import re
import sqlite3
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from hipocampo import AsyncMemory
from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.adapters.memory import _NAMED
from hipocampo.backends import open_storage
from hipocampo.domain.errors import Unauthorized
from hipocampo.domain.model import Scope
from hipocampo.domain.tenancy import KeyRole
from hipocampo.entrypoints.cli import app
from hipocampo.ports import Storage
from hipocampo.services import tenancy
from hipocampo.services.move import move
from hipocampo.services.move_verify import verify
from hipocampo.settings import Settings
from hipocampo.testing import deps_of

T0 = datetime(2024, 3, 4, 10, 0, tzinfo=timezone.utc)
NOW = T0 + timedelta(days=30)
USERS = [("default", "ana"), ("acme", "bob"), ("acme", "carol")]
QUERIES = [
    ("default", "ana", "week3", "Where does Ana live now?"),
    ("default", "ana", "week2", "which food allergy does Ana have? peanuts"),
    ("acme", "bob", None, "seat preference on flights"),
]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command reads settings from the environment: none of the developer's may leak in."""
    for name in list(os.environ):
        if name.startswith("HIPOCAMPO_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HIPOCAMPO_EMBEDDER", "fake")


@pytest.fixture
def memory_url() -> Iterator[str]:
    """A named memory:// store, shared by every open in this process, dropped afterwards."""
    name = f"move-{uuid.uuid4().hex}"
    yield f"memory://{name}"
    _NAMED.pop(name, None)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The source store, built once (a template each test copies): its path and API tokens."""
    path = tmp_path_factory.mktemp("move") / "template.db"
    return path, asyncio.run(_build(str(path)))


@pytest.fixture
def source(built: tuple[Path, dict[str, str]], tmp_path: Path) -> Path:
    path = tmp_path / "source.db"
    with sqlite3.connect(built[0]) as template, sqlite3.connect(path) as copy:
        template.backup(copy)
    return path


def _open(url: str, **kw: Any) -> Any:
    return AsyncMemory.open(url, embedder=FakeEmbedder(), clock=FakeClock(NOW), **kw)


async def _build(url: str) -> dict[str, str]:
    """Threads, messages with caller ids and metadata, facts stated, superseded and retracted, a
    summary, saved facts edited (history), an agent's turns, tenants and keys, accessed memories."""
    async with await _open(url, summarization_threshold=4, summary_keep_recent=2) as mem:
        deps = deps_of(mem)
        await tenancy.create_tenant(deps, "acme", plan="free", max_memories=500)
        _, user_token = await tenancy.issue_key(deps, "acme", name="app")
        _, admin_token = await tenancy.issue_key(deps, "acme", role=KeyRole.ADMIN)
        old, old_token = await tenancy.issue_key(deps, "acme", name="old")
        await tenancy.revoke_key(deps, old.id)
        await mem.add(
            "ana",
            "week1",
            [
                {"role": "user", "name": "Ana", "content": "Oi! Moro em São Paulo e sou vegetariana."},
                {"role": "assistant", "content": "Que legal!"},
                {"role": "user", "name": "Ana", "content": "I'm allergic to peanuts.", "metadata": {"src": "wa-1"}},
            ],
            at=T0,
        )
        await mem.add(
            "ana",
            "week2",
            [
                {"role": "user", "name": "Ana", "content": "Me mudei de São Paulo para Lisboa ontem!", "id": "c-1"},
                {"role": "assistant", "content": "Parabéns pela mudança!"},
                {"role": "user", "name": "Ana", "content": "Não sou mais vegetariana."},
                {"role": "user", "name": "Ana", "content": "Lembrando: sou alérgica a amendoim."},
                {"role": "assistant", "content": "Claro, anotado."},
                {"role": "user", "name": "Ana", "content": "Vou ao Porto no sábado que vem."},
            ],
            at=T0 + timedelta(days=7),
        )
        await mem.add(
            "bob",
            "t1",
            [
                {"role": "user", "content": "Book me a flight to Berlin, I like the aisle", "id": "b-1"},
                {"role": "assistant", "content": "Booked, aisle seat."},
            ],
            tenant_id="acme",
            agent_id="planner",
            at=T0 + timedelta(days=2),
            metadata={"channel": "app"},
        )
        saved = await mem.remember("bob", "Bob prefers aisle seats", tenant_id="acme", memory_type="preference")
        await mem.update("bob", saved.id, "Bob prefers window seats", tenant_id="acme", importance=0.9)
        await mem.remember("carol", "Carol only has saved facts", tenant_id="acme")
        await mem.flush()
        turns = await mem.list("ana", kind="turn", limit=3)
        await mem.mark_accessed("ana", [t.id for t in turns])
    return {"user": user_token, "admin": admin_token, "revoked": old_token}


async def _snapshot(url: str, *, recall: bool = True) -> dict[str, Any]:
    """What a user of the store sees: exports, threads, usage, keys and, with ``retrieval.recall``, recall's
    rankings (equal only on backends with the same keyword engine; scores to 1e-4, since the learned
    ranker's sum of signals carries float noise from the stored vectors' round trip).

    Recall marks memories accessed, so access counts are left out of the exports here (the
    first test checks that they are moved)."""
    async with await _open(url) as mem:
        seen: dict[str, Any] = {}
        for tenant, user in USERS:
            export = await mem.export(user, tenant_id=tenant)
            for part in ("memories", "derived"):
                for item in export[part]:
                    del item["access_count"], item["last_accessed"]
            seen[f"{tenant}/{user}"] = export, await mem.threads(user, tenant_id=tenant)
        summary = await deps_of(mem).summaries.get(Scope("default", "ana"), "week2")
        seen["summary"] = summary and (summary.content, summary.last_message_seq, summary.updated_at)
        seen["usage"] = [await deps_of(mem).tenants.memory_usage(t) for t in ("default", "acme")]
        seen["keys"] = [(k.id, k.secret_hash, k.active, k.role) for k in await deps_of(mem).tenants.list_keys()]
        for tenant, user, thread, query in QUERIES if recall else ():
            result = await mem.recall(user, thread, query, tenant_id=tenant)
            seen[query] = [(m.memory.id, pytest.approx(m.score, rel=1e-4)) for m in result.memories], result.context
        return seen


async def _principal(url: str, token: str) -> tuple[str, KeyRole]:
    async with await _open(url) as mem:
        who = await tenancy.authenticate(deps_of(mem), token)
        return who.tenant_id, who.role


def cli(*args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    return result


async def _stores(a: str, b: str) -> tuple[Storage, Storage]:
    clock = FakeClock(NOW)
    return (
        await open_storage(a, clock=clock, settings=Settings(db=a)),
        await open_storage(b, clock=clock, settings=Settings(db=b)),
    )


async def _accesses(url: str) -> list[tuple[str, int, datetime | None]]:
    async with await _open(url) as mem:
        return [(m.id, m.access_count, m.last_accessed) for m in await mem.list("ana", limit=100)]


def test_sqlite_to_sqlite_keeps_everything(source: Path, built: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    target = tmp_path / "moved" / "target.db"
    done = cli("move", "--from", str(source), "--to", f"sqlite:///{target}")
    assert "MISMATCH" not in done.stdout and "REINDEX" not in done.stdout
    assert "copied 1 tenants, 3 api keys, 11 messages" in done.stdout
    accesses = asyncio.run(_accesses(str(source)))
    assert sum(n for _, n, _ in accesses) == 3 and asyncio.run(_accesses(str(target))) == accesses
    assert asyncio.run(_snapshot(str(target))) == asyncio.run(_snapshot(str(source)))
    tokens = built[1]
    assert asyncio.run(_principal(str(target), tokens["user"])) == ("acme", KeyRole.USER)
    assert asyncio.run(_principal(str(target), tokens["admin"])) == ("acme", KeyRole.ADMIN)
    with pytest.raises(Unauthorized):
        asyncio.run(_principal(str(target), tokens["revoked"]))
    again = cli("move", "--from", str(source), "--to", str(target))  # nothing left to copy
    assert "copied 0 tenants, 0 api keys, 0 messages, 0 memories" in again.stdout


def test_to_memory_and_back(source: Path, memory_url: str, tmp_path: Path) -> None:
    before = asyncio.run(_snapshot(str(source)))
    cli("move", "--from", str(source), "--to", memory_url)
    assert asyncio.run(_snapshot(memory_url)) == before
    back = tmp_path / "back.db"
    cli("move", "--from", memory_url, "--to", str(back))
    assert asyncio.run(_snapshot(str(back))) == before
    assert "OK" in cli("move", "--from", str(source), "--to", str(back), "--verify-only").stdout


@pytest.mark.parametrize("stop_in", ["messages", "memories"])
def test_an_interrupted_move_resumes_without_duplicates(source: Path, tmp_path: Path, stop_in: str) -> None:
    class Interrupted(Exception):
        pass

    stopped_at = []

    def stop_after_two_pages(phase: str, done: int, total: int) -> None:
        if phase == stop_in and done >= 8:
            stopped_at.append(done)
            raise Interrupted

    async def scenario() -> None:
        src, dst = await _stores(str(source), str(tmp_path / "target.db"))
        try:
            with pytest.raises(Interrupted):
                await move(src, dst, progress=stop_after_two_pages, page_size=4)
            assert 0 < await getattr(dst, "log" if stop_in == "messages" else "memories").count()
            report = await move(src, dst, page_size=4)
            assert report.present[stop_in] == stopped_at[0] and report.copied[stop_in] > 0
            assert await dst.log.count() == await src.log.count() == 11
            assert await dst.memories.count() == await src.memories.count()
            assert (await verify(src, dst, expect_vectors=True)).ok
        finally:
            await src.close()
            await dst.close()

    asyncio.run(scenario())
    assert asyncio.run(_snapshot(str(tmp_path / "target.db"))) == asyncio.run(_snapshot(str(source)))


@pytest.mark.parametrize(
    ("tamper", "table"),
    [
        ("UPDATE messages SET content = 'edited' WHERE external_id = 'b-1'", "messages"),
        ("UPDATE memories SET valid_to = NULL WHERE valid_to IS NOT NULL", "memories"),
        ("DELETE FROM memory_history WHERE id = (SELECT max(id) FROM memory_history)", "history"),
        ("UPDATE summaries SET content = content || '!'", "summaries"),
        ("UPDATE api_keys SET revoked_at = NULL", "api keys"),
        ("DELETE FROM vectors WHERE rowid = (SELECT max(rowid) FROM vectors)", "vectors"),
    ],
)
def test_the_check_catches_a_tampered_row(source: Path, tmp_path: Path, tamper: str, table: str) -> None:
    target = tmp_path / "target.db"
    cli("move", "--from", str(source), "--to", str(target))
    with sqlite3.connect(target) as conn:
        assert conn.execute(tamper).rowcount >= 1
    checked = cli("move", "--from", str(source), "--to", str(target), "--verify-only", code=1)
    bad = [line for line in checked.stdout.splitlines() if "MISMATCH" in line]
    assert len(bad) == 1, checked.stdout
    assert [c.strip() for c in re.split(r"[│|┃]", bad[0]) if c.strip()][0] == table, checked.stdout
    assert "the destination differs from the source" in checked.stderr


def test_a_destination_with_other_content_for_the_same_ids_is_refused(source: Path, tmp_path: Path) -> None:
    target = tmp_path / "target.db"
    cli("move", "--from", str(source), "--to", str(target))
    with sqlite3.connect(target) as conn:
        conn.execute("UPDATE memories SET content = 'not the same' WHERE kind = 'fact' AND key = 'home_city'")
    refused = cli("move", "--from", str(source), "--to", str(target), code=1)
    assert "already holds a different memory with the same id" in refused.stderr


def test_refusals_are_clear(source: Path, tmp_path: Path) -> None:
    same = cli("move", "--from", str(source), "--to", f"sqlite:///{source}", code=2)
    assert "the same store" in same.stderr
    unknown = cli("move", "--from", str(source), "--to", "mysql://db/x", code=2)
    assert "unsupported database URL mysql://" in unknown.stderr
    missing = cli("move", "--from", str(tmp_path / "nope.db"), "--to", str(tmp_path / "t.db"), code=2)
    assert "no database at" in missing.stderr
    assert not (tmp_path / "nope.db").exists()


def test_queued_jobs_stop_a_move_unless_skipped(tmp_path: Path) -> None:
    src, target = tmp_path / "busy.db", tmp_path / "target.db"

    async def write_without_indexing() -> None:
        async with await _open(str(src), worker="external") as mem:
            await mem.add("ana", "t1", ["I have a cat named Miso"])

    asyncio.run(write_without_indexing())
    refused = cli("move", "--from", str(src), "--to", str(target), code=1)
    assert "background job(s) queued" in refused.stderr and "--skip-pending" in refused.stderr
    moved = cli("move", "--from", str(src), "--to", str(target), "--skip-pending")
    assert "run `hipocampo reindex` on the destination" in moved.stdout


def test_vectors_of_another_model_are_left_to_a_reindex(source: Path, tmp_path: Path) -> None:
    target = tmp_path / "target.db"

    async def other_model() -> None:  # the destination already indexes with 32-dim vectors
        async with await AsyncMemory.open(str(target), embedder=FakeEmbedder(dim=32)) as mem:
            await mem.add("zoe", "t1", ["Zoe was here first"])
            await mem.flush()

    asyncio.run(other_model())
    moved = cli("move", "--from", str(source), "--to", str(target))
    assert "vectors were not copied" in moved.stdout and "REINDEX" in moved.stdout
    assert "also holds 1 other user(s)" in moved.stdout


def _postgres_backend_ready() -> bool:
    """Whether every Postgres store is there (the backend is being written alongside this)."""
    stores = ("messages", "memories", "vectors", "keywords", "jobs", "summaries", "tenants", "idempotency")
    if any(importlib.util.find_spec(f"hipocampo.adapters.postgres.{name}") is None for name in stores):
        return False
    return Path(__file__).resolve().parents[1].joinpath("engines.py").exists()


@pytest.mark.skipif(not _postgres_backend_ready(), reason="waiting for the Postgres adapters (memories, vectors...)")
def test_sqlite_to_postgres_and_back(
    source: Path, built: tuple[Path, dict[str, str]], tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    from engines import fresh_pg_database

    from hipocampo.adapters.postgres.schema import migrate

    with fresh_pg_database(request.getfixturevalue("pg_url"), prefix="hipo_move") as url:
        unmigrated = cli("move", "--from", str(source), "--to", url, code=2)
        assert "hipocampo migrate" in unmigrated.stderr
        asyncio.run(migrate(url))
        moved = cli("move", "--from", str(source), "--to", url)
        assert "MISMATCH" not in moved.stdout and "REINDEX" not in moved.stdout
        # Postgres ranks keywords with its own engine: recall's scores differ, what it stores must not
        assert asyncio.run(_snapshot(url, recall=False)) == asyncio.run(_snapshot(str(source), recall=False))
        assert asyncio.run(_principal(url, built[1]["user"])) == ("acme", KeyRole.USER)
        back = tmp_path / "back.db"
        cli("move", "--from", url, "--to", str(back))
        assert asyncio.run(_snapshot(str(back))) == asyncio.run(_snapshot(str(source)))
