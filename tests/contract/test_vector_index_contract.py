"""The VectorIndex port contract: cosine search in scope, fresh across connections, dimensions."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import numpy as np
import pytest

from hipocampo.domain.errors import DimensionMismatch
from hipocampo.domain.model import Scope

# The storage backends, and the engines HIPOCAMPO_VECTORS can name (with SQLite as the log).
pytestmark = pytest.mark.parametrize(
    "backend", ["sqlite", "memory", "postgresql", "chroma", "chroma-http", "duckdb", "plugin"], indirect=True
)

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
ALICE_GLOBEX = Scope("globex", "alice")
MODEL = "fake/3"


async def stored(s, memory: Callable, scope: Scope, *ids: str, thread_id: str = "t1") -> None:
    """Vectors index memories, so the memories exist first."""
    await s.memories.upsert([memory(i, scope, f"memory {i}", thread_id=thread_id) for i in ids])


def test_search_returns_the_nearest_first_with_cosine_scores(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        await stored(s, memory, ALICE, "x", "xy", "y", "z")
        await s.vectors.upsert(
            ALICE,
            [("x", vec(1, 0, 0)), ("xy", vec(1, 1, 0)), ("y", vec(0, 1, 0)), ("z", vec(0, 0, 1))],
            MODEL,
        )
        hits = await s.vectors.search(ALICE, vec(1, 0.2, 0), 4)
        assert [h.memory_id for h in hits] == ["x", "xy", "y", "z"]
        expected = [float(vec(1, 0.2, 0) @ v) for v in (vec(1, 0, 0), vec(1, 1, 0), vec(0, 1, 0), vec(0, 0, 1))]
        assert [h.score for h in hits] == pytest.approx(expected, abs=1e-5)
        (exact,) = await s.vectors.search(ALICE, vec(0, 0, 1), 1)
        assert exact.memory_id == "z" and exact.score == pytest.approx(1.0, abs=1e-5)

    run(scenario)


def test_k_bounds_the_hits(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        await stored(s, memory, ALICE, "a", "b", "c")
        await s.vectors.upsert(ALICE, [("a", vec(1, 0, 0)), ("b", vec(1, 1, 0)), ("c", vec(0, 1, 0))], MODEL)
        assert [h.memory_id for h in await s.vectors.search(ALICE, vec(1, 0, 0), 2)] == ["a", "b"]
        assert [h.memory_id for h in await s.vectors.search(ALICE, vec(1, 0, 0), 1)] == ["a"]
        assert len(await s.vectors.search(ALICE, vec(1, 0, 0), 50)) == 3
        assert await s.vectors.search(ALICE, vec(1, 0, 0), 0) == []

    run(scenario)


def test_searching_an_empty_scope_finds_nothing(run: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        assert await s.vectors.search(ALICE, vec(1, 0, 0), 5) == []

    run(scenario)


def test_users_and_tenants_never_see_each_others_vectors(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        for scope, mid in ((ALICE, "alice-1"), (BOB, "bob-1"), (ALICE_GLOBEX, "globex-1")):
            await stored(s, memory, scope, mid)
            await s.vectors.upsert(scope, [(mid, vec(1, 0, 0))], MODEL)  # identical vectors
        for scope, mid in ((ALICE, "alice-1"), (BOB, "bob-1"), (ALICE_GLOBEX, "globex-1")):
            assert [h.memory_id for h in await s.vectors.search(scope, vec(1, 0, 0), 10)] == [mid]
        assert await s.vectors.search(Scope("acme", "carol"), vec(1, 0, 0), 10) == []

    run(scenario)


def test_indexing_another_scopes_memory_cannot_change_it(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        await stored(s, memory, ALICE, "alice-1")
        await s.vectors.upsert(ALICE, [("alice-1", vec(1, 0, 0))], MODEL)
        with contextlib.suppress(LookupError):  # refusing is fine; replacing alice's vector is not
            await s.vectors.upsert(BOB, [("alice-1", vec(0, 1, 0))], MODEL)
        assert await s.vectors.search(BOB, vec(0, 1, 0), 10) == []
        (hit,) = await s.vectors.search(ALICE, vec(1, 0, 0), 10)
        assert hit.memory_id == "alice-1" and hit.score == pytest.approx(1.0, abs=1e-5)

    run(scenario)


def test_exclude_thread(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        await stored(s, memory, ALICE, "here", thread_id="current")
        await stored(s, memory, ALICE, "there", thread_id="older")
        await s.vectors.upsert(ALICE, [("here", vec(1, 0, 0)), ("there", vec(0.9, 0.1, 0))], MODEL)
        hits = await s.vectors.search(ALICE, vec(1, 0, 0), 10, exclude_thread="current")
        assert [h.memory_id for h in hits] == ["there"]
        assert len(await s.vectors.search(ALICE, vec(1, 0, 0), 10, exclude_thread="nope")) == 2

    run(scenario)


def test_agent_only_scopes_see_their_own_and_shared_vectors(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        sales = Scope("acme", "alice", agent_id="sales")
        support = Scope("acme", "alice", agent_id="support")
        await stored(s, memory, ALICE, "shared")
        await stored(s, memory, sales, "sales")
        await stored(s, memory, support, "support")
        await s.vectors.upsert(ALICE, [("shared", vec(1, 0, 0))], MODEL)
        await s.vectors.upsert(sales, [("sales", vec(1, 1, 0))], MODEL)
        await s.vectors.upsert(support, [("support", vec(1, 0, 0.1))], MODEL)
        sales_only = Scope("acme", "alice", agent_id="sales", agent_only=True)
        hits = await s.vectors.search(sales_only, vec(1, 0, 0), 10)
        assert [h.memory_id for h in hits] == ["shared", "sales"]
        assert len(await s.vectors.search(sales, vec(1, 0, 0), 10)) == 3

    run(scenario)


def test_delete_removes_vectors_in_scope_only(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        await stored(s, memory, ALICE, "a", "b")
        await stored(s, memory, BOB, "c")
        await s.vectors.upsert(ALICE, [("a", vec(1, 0, 0)), ("b", vec(0, 1, 0))], MODEL)
        await s.vectors.upsert(BOB, [("c", vec(1, 0, 0))], MODEL)
        assert len(await s.vectors.search(ALICE, vec(1, 0, 0), 10)) == 2  # warm any cache
        await s.vectors.delete(BOB, ["a"])
        assert len(await s.vectors.search(ALICE, vec(1, 0, 0), 10)) == 2
        await s.vectors.delete(ALICE, ["a", "c", "unknown"])
        assert [h.memory_id for h in await s.vectors.search(ALICE, vec(1, 0, 0), 10)] == ["b"]
        assert [h.memory_id for h in await s.vectors.search(BOB, vec(1, 0, 0), 10)] == ["c"]
        await s.vectors.delete(ALICE, [])
        assert (await s.vectors.info())["vectors"] == 2

    run(scenario)


def test_reupserting_a_vector_replaces_it(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        await stored(s, memory, ALICE, "a", "b")
        await s.vectors.upsert(ALICE, [("a", vec(1, 0, 0)), ("b", vec(0, 1, 0))], MODEL)
        assert (await s.vectors.search(ALICE, vec(1, 0, 0), 1))[0].memory_id == "a"
        await s.vectors.upsert(ALICE, [("a", vec(0, 0, 1))], MODEL)
        hits = await s.vectors.search(ALICE, vec(1, 0, 0), 10)
        assert len(hits) == 2  # replaced, not duplicated
        top = await s.vectors.search(ALICE, vec(0, 0, 1), 1)
        assert top[0].memory_id == "a" and top[0].score == pytest.approx(1.0, abs=1e-5)
        assert (await s.vectors.info())["vectors"] == 2

    run(scenario)


def test_vectors_written_through_another_connection_are_seen(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        await stored(s, memory, ALICE, "first", "second", "third")
        await s.vectors.upsert(ALICE, [("first", vec(1, 0, 0))], MODEL)
        assert [h.memory_id for h in await s.vectors.search(ALICE, vec(0, 1, 0), 10)] == ["first"]  # cached now
        async with s.another_connection() as other:
            await other.vectors.upsert(ALICE, [("second", vec(0, 1, 0))], MODEL)  # an append
            assert [h.memory_id for h in await s.vectors.search(ALICE, vec(0, 1, 0), 10)] == [
                "second",
                "first",
            ]
            await other.vectors.upsert(ALICE, [("first", vec(0, 0, 1))], MODEL)  # a rewrite
            top = await s.vectors.search(ALICE, vec(0, 0, 1), 1)
            assert top[0].memory_id == "first" and top[0].score == pytest.approx(1.0, abs=1e-5)
            await other.vectors.delete(ALICE, ["second"])  # a deletion
            assert [h.memory_id for h in await s.vectors.search(ALICE, vec(0, 1, 0), 10)] == ["first"]
            await other.memories.delete(ALICE, ["first"])  # deleting the memory takes its vector along
            assert await s.vectors.search(ALICE, vec(0, 1, 0), 10) == []
            await other.vectors.upsert(ALICE, [("third", vec(1, 0, 0))], MODEL)
            assert [h.memory_id for h in await s.vectors.search(ALICE, vec(1, 0, 0), 10)] == ["third"]

    run(scenario)


def test_a_vector_of_another_dimension_is_refused(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        await stored(s, memory, ALICE, "a", "b")
        await s.vectors.upsert(ALICE, [("a", vec(1, 0, 0))], MODEL)
        with pytest.raises(DimensionMismatch, match="reindex"):
            await s.vectors.upsert(ALICE, [("b", vec(1, 0, 0, 0))], MODEL)
        with pytest.raises(DimensionMismatch, match="reindex"):
            await s.vectors.search(ALICE, vec(1, 0, 0, 0), 5)
        with pytest.raises(DimensionMismatch):  # one batch, two dimensions
            await s.vectors.upsert(ALICE, [("a", vec(1, 0, 0)), ("b", vec(1, 0, 0, 0))], MODEL)
        assert (await s.vectors.info()) == {"models": {MODEL: 3}, "vectors": 1}

    run(scenario)


def test_a_vector_from_another_model_is_refused(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        await stored(s, memory, ALICE, "a", "b")
        await stored(s, memory, BOB, "c")
        await s.vectors.upsert(ALICE, [("a", vec(1, 0, 0))], MODEL)
        with pytest.raises(DimensionMismatch, match="reindex"):
            await s.vectors.upsert(ALICE, [("b", vec(1, 0, 0))], "other/3")
        with pytest.raises(DimensionMismatch, match="reindex"):  # the index is one model for everyone
            await s.vectors.upsert(BOB, [("c", vec(1, 0, 0))], "other/3")

    run(scenario)


def test_reset_clears_everything_and_accepts_a_new_model(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        await stored(s, memory, ALICE, "a", "b")
        await s.vectors.upsert(ALICE, [("a", vec(1, 0, 0))], MODEL)
        assert len(await s.vectors.search(ALICE, vec(1, 0, 0), 5)) == 1
        await s.vectors.reset()
        assert await s.vectors.info() == {"models": {}, "vectors": 0}
        assert await s.vectors.search(ALICE, vec(1, 0, 0), 5) == []
        await s.vectors.upsert(ALICE, [("b", vec(0, 1, 0, 0, 0))], "bigger/5")
        hits = await s.vectors.search(ALICE, vec(0, 1, 0, 0, 0), 5)
        assert [h.memory_id for h in hits] == ["b"]
        assert await s.vectors.info() == {"models": {"bigger/5": 5}, "vectors": 1}

    run(scenario)


def test_reset_through_another_connection_is_seen(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        await stored(s, memory, ALICE, "a", "b")
        await s.vectors.upsert(ALICE, [("a", vec(1, 0, 0))], MODEL)
        assert len(await s.vectors.search(ALICE, vec(1, 0, 0), 5)) == 1
        async with s.another_connection() as other:
            await other.vectors.reset()
            await other.vectors.upsert(ALICE, [("b", vec(1, 0))], "small/2")
        assert [h.memory_id for h in await s.vectors.search(ALICE, vec(1, 0), 5)] == ["b"]

    run(scenario)


def test_info_reports_models_and_counts(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        assert await s.vectors.info() == {"models": {}, "vectors": 0}
        await stored(s, memory, ALICE, "a", "b")
        await stored(s, memory, BOB, "c")
        await s.vectors.upsert(ALICE, [("a", vec(1, 0, 0)), ("b", vec(0, 1, 0))], MODEL)
        await s.vectors.upsert(BOB, [("c", vec(0, 0, 1))], MODEL)
        assert await s.vectors.info() == {"models": {MODEL: 3}, "vectors": 3}

    run(scenario)


def test_get_returns_the_stored_vectors_of_the_scope(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        await stored(s, memory, ALICE, "a", "b", "c")
        await stored(s, memory, BOB, "bob-1")
        await s.vectors.upsert(ALICE, [("a", vec(1, 0, 0)), ("b", vec(3, 4, 0))], MODEL)
        await s.vectors.upsert(BOB, [("bob-1", vec(0, 0, 1))], MODEL)
        found = await s.vectors.get(ALICE, ["a", "b", "c", "bob-1", "nope", "a"])
        assert set(found) == {"a", "b"}  # no vector, another user's, unknown: absent
        assert found["a"].dtype == np.float32 and found["a"].shape == (3,)
        np.testing.assert_allclose(found["b"], [0.6, 0.8, 0.0], atol=1e-6)
        found["a"][:] = 0  # callers get copies
        np.testing.assert_allclose((await s.vectors.get(ALICE, ["a"]))["a"], [1, 0, 0], atol=1e-6)
        assert await s.vectors.get(ALICE, []) == {}
        assert await s.vectors.get(ALICE_GLOBEX, ["a"]) == {}
        await s.vectors.delete(ALICE, ["a"])
        assert set(await s.vectors.get(ALICE, ["a", "b"])) == {"b"}

    run(scenario)
