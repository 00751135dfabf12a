"""HipocampoStore against LangGraph's store behaviour, on a real store (each backend) with the fake embedder.

LangGraph ships no conformance suite, so the behaviour is checked two ways: the same operations
run on LangGraph's own ``InMemoryStore`` must give the same results (gets, filters, namespace
listing), and the cases of LangGraph's store docs and tests are ported below.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import pytest
from langgraph.store.base import GetOp, InvalidNamespaceError, ListNamespacesOp, MatchCondition, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore

from hipocampo import Memory
from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.agent.langgraph import HipocampoStore
from hipocampo.client import AsyncMemory
from hipocampo.domain.errors import ConfigurationError, InvalidInput

pytestmark = pytest.mark.backends()

NAMESPACES = [
    ("a", "b", "c"),
    ("a", "b", "d", "e"),
    ("a", "b", "d", "i"),
    ("a", "b", "f"),
    ("a", "c", "f"),
    ("b", "a", "f"),
    ("users", "123"),
    ("users", "456", "settings"),
    ("admin", "users", "789"),
]


@pytest.fixture
def memory(db_path):
    with Memory.open(db_path, embedder=FakeEmbedder(), extraction=False, llm=None) as mem:
        yield mem


@pytest.fixture
def store(memory):
    return HipocampoStore(memory)


def same(a, b):
    """Items equal in what both stores define: namespace, key and value."""
    key = lambda i: (i.namespace, i.key)  # noqa: E731
    return sorted(((i.namespace, i.key, i.value) for i in a), key=str) == sorted(
        ((i.namespace, i.key, i.value) for i in b), key=str
    ) and len({key(i) for i in a}) == len(a)


# -- differential: the same operations on LangGraph's InMemoryStore -------------------------------
def test_gets_filters_and_namespace_listing_match_langgraphs_in_memory_store(store):
    reference = InMemoryStore()
    for s in (store, reference):
        for i, ns in enumerate(NAMESPACES):
            value = {"i": i, "colour": "red" if i % 2 else "blue", "tags": ["x", str(i)], "nested": {"n": i}}
            s.put(ns, f"k{i}", value)
        s.put(("a", "b", "c"), "k0", {"i": 100, "colour": "green", "tags": [], "nested": {"n": 100}})  # overwrite
        s.put(("users", "123"), "extra", {"i": -1, "colour": "red", "tags": [], "nested": {}})
        s.delete(("users", "123"), "extra")

    for i, ns in enumerate(NAMESPACES):
        mine, theirs = store.get(ns, f"k{i}"), reference.get(ns, f"k{i}")
        assert (mine is None) == (theirs is None)
        if mine is not None:
            assert (mine.namespace, mine.key, mine.value) == (theirs.namespace, theirs.key, theirs.value)
    assert store.get(("a", "b", "c"), "missing") is None

    filters = [
        None,
        {"colour": "red"},
        {"i": {"$gt": 2}},
        {"i": {"$gte": 2, "$lt": 5}},
        {"i": {"$lte": 1}},
        {"colour": {"$ne": "red"}},
        {"colour": {"$eq": "blue"}, "i": {"$gt": 0}},
        {"nested": {"n": 3}},
        {"tags": ["x", "3"]},
    ]
    for prefix in [(), ("a",), ("a", "b"), ("users",), ("nope",)]:
        for f in filters:
            mine = store.search(prefix, filter=f, limit=100)
            assert same(mine, reference.search(prefix, filter=f, limit=100)), (prefix, f)
            assert all(i.score is None for i in mine)

    listings = [
        {},
        {"prefix": ("a",)},
        {"prefix": ("a", "b")},
        {"suffix": ("f",)},
        {"prefix": ("a", "*", "f")},
        {"prefix": ("*", "*", "f")},
        {"suffix": ("*", "f")},
        {"prefix": ("a",), "suffix": ("f",)},
        {"prefix": ("a", "b"), "max_depth": 3},
        {"max_depth": 1},
        {"max_depth": 2, "limit": 3, "offset": 1},
        {"limit": 2, "offset": 2},
        {"prefix": ("users",)},
    ]
    for kw in listings:
        assert store.list_namespaces(**kw) == reference.list_namespaces(**kw), kw


# -- ported from LangGraph's store docs and tests ---------------------------------------------
def test_put_get_update_delete_and_timestamps(store):
    store.put(("users", "123"), "prefs", {"theme": "dark"})
    item = store.get(("users", "123"), "prefs")
    assert item.value == {"theme": "dark"} and item.namespace == ("users", "123") and item.key == "prefs"
    assert isinstance(item.created_at, datetime) and item.created_at.tzinfo is not None
    store.put(("users", "123"), "prefs", {"theme": "light"})
    updated = store.get(("users", "123"), "prefs")
    assert updated.value == {"theme": "light"}
    assert updated.created_at == item.created_at and updated.updated_at >= item.updated_at
    store.delete(("users", "123"), "prefs")
    assert store.get(("users", "123"), "prefs") is None
    store.delete(("users", "123"), "prefs")  # deleting what is gone is fine
    assert store.list_namespaces() == []  # a namespace lives as long as it holds items


def test_list_namespaces_with_max_depth_as_documented(store):
    for ns in [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f"), ("a", "c", "f")]:
        store.put(ns, "k", {"v": 1})
    assert store.list_namespaces(prefix=("a", "b"), max_depth=3) == [("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]


def test_batch_returns_results_in_order_and_the_last_put_wins(store):
    results = store.batch(
        [
            PutOp(("docs",), "d1", {"text": "first"}),
            PutOp(("docs",), "d1", {"text": "second"}),
            PutOp(("docs",), "d2", {"text": "other"}),
            ListNamespacesOp(match_conditions=(MatchCondition("prefix", ("docs",)),)),
        ]
    )
    assert results == [None, None, None, []]  # reads run before the batch's writes, as in LangGraph
    got = store.batch([GetOp(("docs",), "d1"), SearchOp(("docs",), limit=10), GetOp(("docs",), "zz")])
    assert got[0].value == {"text": "second"}
    assert {i.key for i in got[1]} == {"d1", "d2"} and got[2] is None


def test_semantic_search_ranks_by_meaning_and_honours_filters_and_pages(store):
    docs = {
        "d1": {"text": "Python tutorial for programming beginners", "kind": "guide"},
        "d2": {"text": "TypeScript guide for web developers", "kind": "guide"},
        "d3": {"text": "Recipe for fresh tomato pasta", "kind": "recipe"},
        "d4": {"text": "Advanced Python programming patterns", "kind": "book"},
    }
    for key, value in docs.items():
        store.put(("docs",), key, value)
    hits = store.search(("docs",), query="python programming", limit=2)
    assert {h.key for h in hits} == {"d1", "d4"}
    assert hits[0].score >= hits[1].score and all(h.score is not None for h in hits)
    assert [h.key for h in store.search(("docs",), query="python programming", filter={"kind": "guide"}, limit=1)] == [
        "d1"
    ]
    first = store.search(("docs",), query="python programming", limit=2)
    second = store.search(("docs",), query="python programming", limit=2, offset=2)
    assert not {h.key for h in first} & {h.key for h in second}
    assert [h.key for h in store.search(("docs",), query="tomato pasta recipe", limit=1)] == ["d3"]
    assert store.search(("other",), query="python") == []


def test_updating_an_item_updates_what_search_finds(store):
    store.put(("docs",), "doc", {"text": "notes about gardening and roses"})
    store.put(("docs",), "other", {"text": "notes about sailing boats"})
    assert store.search(("docs",), query="gardening roses", limit=1)[0].key == "doc"
    store.put(("docs",), "doc", {"text": "notes about chess openings"})
    assert store.search(("docs",), query="chess openings", limit=1)[0].key == "doc"
    now = {h.key: h.score for h in store.search(("docs",), query="gardening roses")}
    assert now["doc"] < store.search(("docs",), query="chess openings", limit=1)[0].score


def test_index_fields_and_index_false(memory):
    store = HipocampoStore(memory, index={"dims": 64, "embed": "ignored", "fields": ["title"]})
    store.put(("docs",), "a", {"title": "Sourdough bread baking", "body": "quantum physics lecture"})
    store.put(("docs",), "b", {"title": "Quantum physics lecture", "body": "bread"}, index=["body"])
    store.put(("docs",), "c", {"title": "Quantum physics lecture notes"}, index=False)
    # Only the indexed text is embedded: "a" is about bread, "b" (by its body) too.
    hits = store.search(("docs",), query="quantum physics lecture", limit=10)
    scored = [h.key for h in hits if h.score is not None]
    assert "c" not in scored and [h.key for h in hits if h.score is None] == ["c"]  # unscored, at the end
    assert store.search(("docs",), query="sourdough bread baking", limit=1)[0].key == "a"
    assert {i.key for i in store.search(("docs",))} == {"a", "b", "c"}  # index=False items still list


def test_invalid_namespaces_and_ttls_are_refused(store):
    with pytest.raises(InvalidNamespaceError):
        store.put(("langgraph", "x"), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        store.put(("a.b",), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        store.batch([GetOp(("a.b",), "k")])
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp((), "k", {"v": 1})])
    with pytest.raises(InvalidInput, match="ttl"):
        store.put(("a",), "k", {"v": 1}, ttl=-5)
    with pytest.raises(InvalidInput, match="JSON"):
        store.put(("a",), "k", {"v": object()})


def test_ttls_expire_items_and_reads_refresh_them(db_path):
    """LangGraph's TTL semantics: minutes from the write, pushed back by reads unless told not to."""
    clock = FakeClock(datetime(2025, 1, 1, tzinfo=timezone.utc))
    with Memory.open(db_path, embedder=FakeEmbedder(), extraction=False, llm=None, clock=clock) as mem:
        store = HipocampoStore(mem, ttl={"default_ttl": 10, "refresh_on_read": True})
        store.put(("notes",), "short", {"text": "parking on level 3"}, ttl=1)
        store.put(("notes",), "default", {"text": "the wifi password is on the fridge"})
        store.put(("notes",), "forever", {"text": "Ana's birthday is in May"}, ttl=None)

        clock.advance(45)
        assert store.get(("notes",), "short").value == {"text": "parking on level 3"}  # refreshed: 45 s + 1 min
        clock.advance(45)
        assert store.get(("notes",), "short", refresh_ttl=False) is not None
        clock.advance(30)  # two minutes after the write, 75 s after the refreshing read
        assert store.get(("notes",), "short") is None
        assert {i.key for i in store.search(("notes",))} == {"default", "forever"}
        assert {i.key for i in store.search(("notes",), query="parking level")} == {"default", "forever"}
        assert store.list_namespaces() == [("notes",)]

        clock.advance(11 * 60)
        assert [i.key for i in store.search(("notes",))] == ["forever"]
        assert store.sweep_ttl() == 2
        assert store.sweep_ttl() == 0
        assert [i.key for i in store.search(("notes",))] == ["forever"]


# -- hipocampo specifics -------------------------------------------------------------------------
def test_items_persist_in_the_store(db_path):
    with Memory.open(db_path, embedder=FakeEmbedder(), extraction=False, llm=None) as mem:
        HipocampoStore(mem).put(("prefs",), "lang", {"text": "Ana prefers Portuguese"})
    with Memory.open(db_path, embedder=FakeEmbedder(), extraction=False, llm=None) as mem:
        store = HipocampoStore(mem)
        assert store.get(("prefs",), "lang").value == {"text": "Ana prefers Portuguese"}
        assert store.search(("prefs",), query="which language does Ana prefer")[0].key == "lang"
        mem.consolidate("langgraph")  # the nightly job leaves store items as they are
        assert store.get(("prefs",), "lang").value == {"text": "Ana prefers Portuguese"}


def test_user_from_namespace_isolates_users_and_feeds_their_recall(memory):
    store = HipocampoStore(memory, user_from_namespace=1, index={"fields": ["text"]})
    store.put(("memories", "ana"), "m1", {"text": "Ana is allergic to peanuts"})
    store.put(("memories", "bob"), "m1", {"text": "Bob is allergic to shellfish"})
    assert store.get(("memories", "ana"), "m1").value["text"] == "Ana is allergic to peanuts"
    assert [h.key for h in store.search(("memories", "bob"), query="allergy")] == ["m1"]
    assert store.search(("memories", "bob"), query="allergic")[0].value["text"].startswith("Bob")
    with pytest.raises(InvalidInput, match="user"):
        store.search(("memories",), query="allergy")
    assert store.list_namespaces() == [("memories", "ana"), ("memories", "bob")]
    assert store.list_namespaces(prefix=("memories", "bob")) == [("memories", "bob")]
    # Each item is a memory of its own user, seen by that user's recall and nobody else's.
    assert [m.content for m in memory.list("ana", kind="fact")] == ["Ana is allergic to peanuts"]
    assert "Ana is allergic to peanuts" in memory.recall("ana", None, "what is Ana allergic to?").context
    assert "peanuts" not in memory.recall("bob", None, "what is Bob allergic to?").context
    with pytest.raises(InvalidInput):
        store.put(("memories",), "k", {"v": 1})  # no element 1: no user


def test_default_scope_keeps_items_out_of_end_users_memory(memory, store):
    store.put(("memories", "ana"), "m1", {"text": "Ana likes jazz"})
    assert memory.list("ana") == []
    assert [m.metadata["key"] for m in memory.list("langgraph", kind="fact")] == ["m1"]


def test_async_store_over_an_async_memory(db_path):
    async def main():
        mem = await AsyncMemory.open(db_path, embedder=FakeEmbedder(), extraction=False, llm=None)
        try:
            store = HipocampoStore(mem)
            await store.aput(("docs",), "d1", {"text": "hello async world"})
            assert (await store.aget(("docs",), "d1")).value == {"text": "hello async world"}
            assert [h.key for h in await store.asearch(("docs",), query="async world")] == ["d1"]
            assert await store.alist_namespaces() == [("docs",)]
            # Sync calls work from another thread (a sync graph node), not from the loop itself.
            assert (await asyncio.to_thread(store.get, ("docs",), "d1")).key == "d1"
            with pytest.raises(ConfigurationError, match="async"):
                store.get(("docs",), "d1")
            await store.adelete(("docs",), "d1")
            assert await store.aget(("docs",), "d1") is None
        finally:
            await mem.close()

    asyncio.run(main())


def test_a_sync_memory_store_also_serves_async_calls(store):
    async def main():
        await store.aput(("docs",), "d1", {"text": "both ways"})
        return await store.aget(("docs",), "d1")

    assert asyncio.run(main()).value == {"text": "both ways"}
    assert store.get(("docs",), "d1").value == {"text": "both ways"}
