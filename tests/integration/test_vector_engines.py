"""ChromaDB and DuckDB as the vector index, end to end: SQLite keeps the log and the memories.

Real engines only: an embedded Chroma directory, the shared ``chroma run`` server on loopback
(``tests/vector_engines.py``), a DuckDB file; the fake embedder keeps it fast and deterministic.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from contextlib import ExitStack
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest
from vector_engines import chroma_http_url, running_chroma

from hipocampo import Memory
from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.adapters.external_vectors import SHARED
from hipocampo.backends import open_storage
from hipocampo.domain.errors import ConfigurationError
from hipocampo.domain.model import MemoryItem, MemoryKind, Role, Scope
from hipocampo.settings import Settings

pytest.importorskip("chromadb")
pytest.importorskip("duckdb_extension_vss")

ENGINES = ["chroma", "chroma-http", "duckdb"]

CONVERSATION = [
    {"role": "user", "content": "I moved to Lisbon last year"},
    {"role": "assistant", "content": "How do you like Lisbon so far?"},
    {"role": "user", "content": "I love it, but I'm allergic to peanuts and pastries here use them a lot"},
]


@pytest.fixture(params=ENGINES)
def vectors_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "chroma":
        return f"chroma:///{tmp_path / 'chroma'}"
    if request.param == "chroma-http":
        return chroma_http_url(request.getfixturevalue("chroma_server"))
    return f"duckdb:///{tmp_path / 'vectors.duckdb'}"


def open_memory(tmp_path: Path, vectors: str = "") -> Memory:
    return Memory.open(str(tmp_path / "memory.db"), embedder=FakeEmbedder(), vectors=vectors)


def test_recall_finds_turns_through_the_engine(tmp_path: Path, vectors_url: str) -> None:
    with open_memory(tmp_path, vectors_url) as mem:
        mem.add("ana", "t1", CONVERSATION)
        mem.add("bob", "t1", [{"role": "user", "content": "I am allergic to peanuts as well"}])
        mem.flush()
        health = mem.doctor()
        assert health["ok"] and health["vectors"] == health["memories"] and health["vector_coverage"] == 1.0
        result = mem.recall("ana", "t2", "which food allergy does Ana have? peanuts")
        assert result.degraded == []
        assert "allergic to peanuts" in result.context and "as well" not in result.context
        assert any(h.explanation.dense_score is not None for h in result.memories)  # the engine answered
        assert all(h.memory.scope.user_id == "ana" for h in result.memories)
        found = mem.search("ana", "Lisbon", thread_id="t1", exclude_thread=True)
        assert found.hits == []  # every memory of ana is in t1
        mem.forget("ana")
        health = mem.doctor()  # ana's vectors left the engine with her; bob's stay
        assert health["vectors"] == health["memories"] == len(mem.list("bob")) > 0


def test_memories_indexed_before_the_switch_need_a_reindex(tmp_path: Path, vectors_url: str) -> None:
    with open_memory(tmp_path) as mem:  # the built-in SQLite index first
        mem.add("ana", "t1", CONVERSATION)
        mem.flush()
        assert mem.doctor()["vector_coverage"] == 1.0
    with open_memory(tmp_path, vectors_url) as mem:
        health = mem.doctor()
        assert health["vectors"] == 0 and health["vector_coverage"] == 0.0
        assert any("reindex" in p for p in health["problems"])
        mem.reindex()
        health = mem.doctor()
        assert health["ok"] and health["vector_coverage"] == 1.0
        hits = mem.search("ana", "peanut allergy").hits
        assert hits and any(h.explanation.dense_score is not None for h in hits)


def test_recall_goes_on_by_keyword_when_the_chroma_server_is_gone(tmp_path: Path) -> None:
    with ExitStack() as server:
        url = f"chroma+http://{server.enter_context(running_chroma(tmp_path))}"
        mem = open_memory(tmp_path, url)
        try:
            mem.add("ana", "t1", CONVERSATION)
            mem.flush()
            assert mem.recall("ana", "t2", "peanuts allergy").degraded == []
            server.close()  # the Chroma server stops
            result = mem.recall("ana", "t2", "peanuts allergy")
            assert any("vector index unavailable" in d for d in result.degraded)
            assert "allergic to peanuts" in result.context  # found by keyword
        finally:
            mem.close()


def _turn(memory_id: str, scope: Scope, thread_id: str = "t1") -> MemoryItem:
    return MemoryItem(
        id=memory_id,
        scope=scope,
        kind=MemoryKind.TURN,
        content=memory_id,
        role=Role.USER,
        created_at=datetime(2024, 1, 1, tzinfo=timezone.utc),
        thread_id=thread_id,
    )


def _with_storage(tmp_path: Path, vectors: str, scenario: Callable) -> None:
    async def main() -> None:
        db = f"sqlite:///{tmp_path / 'iso.db'}"
        storage = await open_storage(db, clock=FakeClock(), settings=Settings(db=db, vectors=vectors))
        try:
            await scenario(storage)
        finally:
            await storage.close()

    asyncio.run(main())


def test_the_engine_filters_tenant_and_user_before_ranking(tmp_path: Path, vectors_url: str) -> None:
    """Other users' vectors nearer to the query than all of Alice's: a filter applied after the
    engine's top k would leave Alice nothing; applied in the engine, she gets her own k."""
    rng = np.random.default_rng(7)
    query = rng.standard_normal(16).astype(np.float32)
    alice, bob, globex = Scope("acme", "alice"), Scope("acme", "bob"), Scope("globex", "alice")

    async def scenario(s) -> None:
        crowd = {bob: 150, globex: 150}
        for scope, n in crowd.items():
            ids = [f"{scope.tenant_id}-{scope.user_id}-{i}" for i in range(n)]
            await s.memories.upsert([_turn(i, scope) for i in ids])
            near = query + 0.05 * rng.standard_normal((n, 16)).astype(np.float32)
            await s.vectors.upsert(scope, list(zip(ids, near, strict=True)), "fake/16")
        mine = [f"alice-'{i}\"-ção" for i in range(5)]  # quotes and accents reach the engines intact
        await s.memories.upsert([_turn(i, alice) for i in mine])
        await s.vectors.upsert(alice, [(i, rng.standard_normal(16)) for i in mine], "fake/16")
        hits = await s.vectors.search(alice, query, 3)
        assert len(hits) == 3 and {h.memory_id for h in hits} <= set(mine)
        assert {h.memory_id for h in await s.vectors.search(alice, query, 50)} == set(mine)
        assert await s.vectors.count(bob) == 150 and await s.vectors.count(Scope("globex", "bob")) == 0
        await s.memories.delete_user(bob)  # forgetting a user deletes their vectors in the engine
        assert await s.vectors.count(bob) == 0 and await s.vectors.count(globex) == 150
        await s.memories.delete_thread(globex, "t1")
        assert await s.vectors.count(globex) == 0 and await s.vectors.count(alice) == 5

    _with_storage(tmp_path, vectors_url, scenario)


def test_duckdb_hnsw_path_still_filters_in_scope(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the exact-scan size, DuckDB goes through HNSW with an over-fetch, and falls back to the
    exact scan when the scope's rows are not among the nearest of the whole table."""
    from hipocampo.adapters.duckdb import vectors as duck

    monkeypatch.setattr(duck, "EXACT_SCOPE_LIMIT", 0)
    rng = np.random.default_rng(3)
    query = rng.standard_normal(8).astype(np.float32)
    alice, bob = Scope("acme", "alice"), Scope("acme", "bob")

    async def scenario(s) -> None:
        bob_ids = [f"bob-{i}" for i in range(300)]
        await s.memories.upsert([_turn(i, bob) for i in bob_ids])
        near = query + 0.05 * rng.standard_normal((300, 8)).astype(np.float32)
        await s.vectors.upsert(bob, list(zip(bob_ids, near, strict=True)), "fake/8")
        mine = [f"alice-{i}" for i in range(4)]
        await s.memories.upsert([_turn(i, alice) for i in mine])
        await s.vectors.upsert(alice, [(i, -query + 0.1 * rng.standard_normal(8)) for i in mine], "fake/8")
        assert {h.memory_id for h in await s.vectors.search(alice, query, 4)} == set(mine)
        hits = await s.vectors.search(bob, query, 10)  # HNSW answers bob's own nearest
        cosine = near @ query / np.linalg.norm(near, axis=1)
        exact = {bob_ids[i] for i in np.argsort(-cosine)[:10]}
        assert len({h.memory_id for h in hits} & exact) >= 8

    _with_storage(tmp_path, f"duckdb:///{tmp_path / 'v.duckdb'}", scenario)


def test_chroma_stores_metadata_and_never_documents(tmp_path: Path) -> None:
    import chromadb

    async def scenario(s) -> None:
        sales = Scope("acme", "alice", agent_id="sales")
        await s.memories.upsert([_turn("m1", sales, thread_id="t9"), _turn("m2", Scope("acme", "alice"), "t8")])
        await s.vectors.upsert(Scope("acme", "alice"), [("m1", np.ones(4)), ("m2", np.arange(4.0))], "fake/4")

    _with_storage(tmp_path, f"chroma:///{tmp_path / 'c'}", scenario)
    client = chromadb.PersistentClient(str(tmp_path / "c"), settings=chromadb.Settings(anonymized_telemetry=False))
    (collection,) = client.list_collections()
    assert collection.configuration_json["hnsw"]["space"] == "cosine"
    got = client.get_collection(collection.name, embedding_function=None).get(include=["metadatas", "documents"])
    meta = dict(zip(got["ids"], got["metadatas"], strict=True))
    assert meta["m1"] == {
        "tenant_id": "acme",
        "user_id": "alice",
        "agent_id": "sales",
        "thread_id": "t9",
        "kind": "turn",
    }
    assert meta["m2"]["agent_id"] == SHARED
    assert got["documents"] == [None, None]  # the text stays in SQLite


def test_duckdb_file_held_by_another_process_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "held.duckdb"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import duckdb,sys,time; c=duckdb.connect({str(path)!r}); print('ready', flush=True); sys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"ready"
        with pytest.raises(ConfigurationError, match="another process"):
            open_memory(tmp_path, f"duckdb:///{path}")
    finally:
        holder.communicate(b"", timeout=30)


@pytest.mark.parametrize(
    ("vectors", "message"),
    [
        ("faiss:///x", "unsupported vector index"),
        ("nonsense", "unsupported vector index"),
        ("chroma+http://", "needs a host"),
        ("chroma:///x?collection=-bad", "collection name"),
    ],
)
def test_bad_vector_urls_are_refused_with_one_line(tmp_path: Path, vectors: str, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        open_memory(tmp_path, vectors)


def test_a_missing_extra_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m.startswith("hipocampo.adapters.chroma")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "chromadb", None)  # what an install without the extra sees
    with pytest.raises(ConfigurationError, match=r"pip install 'hipocampo\[chroma\]'"):
        open_memory(tmp_path, f"chroma:///{tmp_path / 'c'}")
