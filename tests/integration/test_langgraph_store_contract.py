"""HipocampoStore keeps the contract LangGraph's own store tests define, written here in our words:
items indexed on several fields (each field, each array element, its own vector; an item scored
by its best one), ``index_config``, the error of a sync call an async store cannot serve, namespace
rules, listing, pages, TTLs and batches. On a real store (each backend), the fake embedder.

What differs by design is stated and checked too: hipocampo's scores are not cosines unless
``scores="cosine"`` is asked for.
"""

from __future__ import annotations

import asyncio
import threading
from datetime import datetime, timezone

import pytest
from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp, SearchOp

from hipocampo import Memory
from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.agent.langgraph import HipocampoStore
from hipocampo.client import AsyncMemory
from hipocampo.domain.errors import ConfigurationError

pytestmark = pytest.mark.backends()

FIELDS = {"fields": ["name", "notes", "tags[*]"]}


@pytest.fixture
def memory(db_path):
    with Memory.open(db_path, embedder=FakeEmbedder(), extraction=False, llm=None) as mem:
        yield mem


def scores(store, prefix, query, **kw):
    return {h.key: h.score for h in store.search(prefix, query=query, limit=20, **kw)}


def facts(memory, user="langgraph"):
    return memory.list(user, kind="fact", limit=500)


# -- several vectors per item ------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["hybrid", "cosine"])
def test_an_item_is_scored_by_its_best_field_not_by_all_of_them_joined(memory, mode):
    store = HipocampoStore(memory, index=FIELDS, scores=mode)
    long_notes = "Notes about tax returns, quarterly invoices and the accountant's office hours on weekdays"
    store.put(("people",), "ana", {"name": "Ana Souza", "notes": long_notes, "city": "Lisbon sailing club"})
    store.put(("people",), "alone", {"name": "Ana Souza"})  # the same name, and nothing else to dilute it
    store.put(("people",), "bob", {"name": "Bob Lee", "notes": "Bob sails every weekend in Cascais"})
    got = scores(store, ("people",), "Ana Souza")
    # A field that matches scores the item as much as an item made of that field alone.
    assert got["ana"] == pytest.approx(got["alone"], rel=1e-3)
    assert got["ana"] > got["bob"]
    # Another field finds the same item, as strongly as its own text would.
    assert max(scores(store, ("people",), "quarterly invoices").items(), key=lambda kv: kv[1])[0] == "ana"
    # A field outside the index is not searched: "city" holds "sailing", yet Bob's notes win.
    assert max(scores(store, ("people",), "sailing").items(), key=lambda kv: kv[1])[0] == "bob"


def test_each_array_element_is_its_own_vector(memory):
    store = HipocampoStore(memory, index=FIELDS)
    tags = ["vegetarian", "allergic to peanuts", "likes spicy food", "window seat", "early riser"]
    store.put(("prefs",), "many", {"tags": tags})
    store.put(("prefs",), "one", {"tags": ["allergic to peanuts"]})
    got = scores(store, ("prefs",), "allergic to peanuts")
    assert got["many"] == pytest.approx(got["one"], rel=1e-3)


def test_fields_per_put_override_the_stores_and_index_false_is_never_scored(memory):
    store = HipocampoStore(memory, index={"fields": ["nothing_here"]})
    store.put(("d",), "d3", {"k0": "apricot jam", "k1": "blue bicycle", "k2": "cello lessons"}, index=["k0", "k1"])
    store.put(("d",), "d4", {"k0": "granite quarry", "k1": "blue bicycle", "k3": "harbour lights"}, index=["k1", "k3"])
    store.put(("d",), "d5", {"k0": "apricot jam"}, index=False)
    assert next(iter(scores(store, ("d",), "apricot jam"))) == "d3"
    assert next(iter(scores(store, ("d",), "harbour lights"))) == "d4"
    both = scores(store, ("d",), "blue bicycle")
    assert both["d3"] == pytest.approx(both["d4"], rel=1e-3)
    assert scores(store, ("d",), "apricot jam")["d5"] is None  # listed to fill the page, unscored


def test_parts_follow_their_item_through_updates_deletes_and_batches(memory):
    store = HipocampoStore(memory, index=FIELDS)
    store.put(("people",), "ana", {"name": "Ana", "notes": "plays the cello", "tags": ["chess", "tango"]})
    assert len(facts(memory)) == 1 + 4  # the item, and one part per indexed text
    dancing = scores(store, ("people",), "tango")["ana"]
    store.put(("people",), "ana", {"name": "Ana", "notes": "plays the cello"})  # fewer texts: the rest go
    assert len(facts(memory)) == 1 + 2
    assert scores(store, ("people",), "tango")["ana"] < dancing
    store.put(("people",), "ana", {"name": "Ana"})  # one text: the item is indexed as itself
    assert len(facts(memory)) == 1
    store.batch([PutOp(("people",), "bo", {"name": "Bo", "notes": "n"}), PutOp(("people",), "cy", {"name": "Cy"})])
    store.batch([PutOp(("people",), "bo", None), GetOp(("people",), "bo")])
    assert store.get(("people",), "bo") is None
    assert sorted(m.metadata["key"] for m in facts(memory)) == ["ana", "cy"]
    # The store's own listings never show a part.
    assert sorted(i.key for i in store.search(("people",), limit=50)) == ["ana", "cy"]
    assert store.list_namespaces() == [("people",)]


def test_parts_stay_in_their_users_scope_and_expire_with_their_item(db_path):
    clock = FakeClock(datetime(2025, 1, 1, tzinfo=timezone.utc))
    with Memory.open(db_path, embedder=FakeEmbedder(), extraction=False, llm=None, clock=clock) as mem:
        store = HipocampoStore(mem, user_from_namespace=1, index=FIELDS)
        store.put(("memories", "ana"), "m", {"name": "Ana", "notes": "allergic to peanuts"}, ttl=5)
        store.put(("memories", "bob"), "m", {"name": "Bob", "notes": "allergic to shellfish"})
        assert [h.value["name"] for h in store.search(("memories", "bob"), query="peanuts")] == ["Bob"]
        assert all(m.scope.user_id == "ana" for m in mem.list("ana", kind="fact"))
        assert "peanuts" not in mem.recall("bob", None, "what is Bob allergic to?").context

        clock.advance(4 * 60)
        assert store.search(("memories", "ana"), query="peanuts")[0].key == "m"  # a read refreshes the TTL
        clock.advance(4 * 60)
        assert store.get(("memories", "ana"), "m", refresh_ttl=False) is not None
        clock.advance(2 * 60)  # ten minutes after the write, six after the refreshing read
        assert store.get(("memories", "ana"), "m") is None
        assert "peanuts" not in mem.recall("ana", None, "what is Ana allergic to?").context  # parts expired too
        assert store.sweep_ttl() == 1
        assert mem.list("ana", kind="fact") == []


# -- scores --------------------------------------------------------------------------------------
def test_cosine_scores_are_cosines_and_hybrid_scores_are_not(memory):
    docs = {"d1": "Python tutorial for programming beginners", "d2": "Recipe for fresh tomato pasta"}
    hybrid, cosine = HipocampoStore(memory), HipocampoStore(memory, scores="cosine")
    for key, text in docs.items():
        hybrid.put(("docs",), key, {"text": text})
    query = "python programming"
    embedder = FakeEmbedder()
    stored = {m.metadata["key"]: m.index_text for m in facts(memory)}
    exact = {k: float(embedder.embed_documents([t])[0] @ embedder.embed_query(query)) for k, t in stored.items()}
    theirs = scores(cosine, ("docs",), query)
    assert theirs == pytest.approx(exact, abs=1e-5) and next(iter(theirs)) == "d1"
    # The hybrid score adds keyword evidence and boosts: thresholds from LangGraph do not carry over.
    mine = scores(hybrid, ("docs",), query)
    assert next(iter(mine)) == "d1" and mine["d1"] != pytest.approx(theirs["d1"], abs=1e-3)
    with pytest.raises(ConfigurationError, match="scores"):
        HipocampoStore(memory, scores="bm25")  # type: ignore[arg-type]


# -- index_config --------------------------------------------------------------------------------
def test_index_config_says_what_is_indexed(memory):
    embed = object()
    store = HipocampoStore(memory, index={"dims": 4096, "embed": embed, "fields": ["text"]})
    config = store.index_config
    assert config["fields"] == ["text"] and config["embed"] is embed
    assert config["dims"] == FakeEmbedder().dim  # the embedder that really embeds
    plain = HipocampoStore(memory).index_config
    assert plain is not None and plain["fields"] == ["$"]  # searches are always by meaning


# -- sync calls to an async store ----------------------------------------------------------------
def test_a_sync_call_an_async_store_cannot_serve_raises_invalid_state(db_path):
    holder: dict[str, HipocampoStore] = {}

    async def main() -> None:
        mem = await AsyncMemory.open(db_path, embedder=FakeEmbedder(), extraction=False, llm=None)
        try:
            store = holder["store"] = HipocampoStore(mem)
            await store.aput(("docs",), "d", {"text": "hello"})
            for call in (
                lambda: store.put(("docs",), "e", {"text": "x"}),
                lambda: store.get(("docs",), "d"),
                lambda: store.delete(("docs",), "d"),
                lambda: store.search(("docs",)),
                lambda: store.list_namespaces(prefix=("docs",)),
                lambda: store.batch([GetOp(("docs",), "d")]),
            ):
                with pytest.raises(asyncio.InvalidStateError):  # on the loop: it would wait on itself
                    call()
            assert (await asyncio.to_thread(store.get, ("docs",), "d")).key == "d"  # from a worker thread: fine
        finally:
            await mem.close()

    asyncio.run(main())
    # The loop is gone: a thread with no running loop cannot be served either, and is told so.
    errors: list[BaseException] = []

    def late() -> None:
        try:
            holder["store"].get(("docs",), "d")
        except BaseException as exc:
            errors.append(exc)

    worker = threading.Thread(target=late)
    worker.start()
    worker.join()
    assert len(errors) == 1
    assert isinstance(errors[0], asyncio.InvalidStateError) and isinstance(errors[0], ConfigurationError)


# -- namespaces, listing, pages, batches ---------------------------------------------------------
def test_namespace_rules(memory):
    store = HipocampoStore(memory)
    for bad in [(), ("the", "thing.about"), ("some", "fun", ""), ("langgraph", "foo")]:
        with pytest.raises(InvalidNamespaceError):
            store.put(bad, "k", {"v": 1})
    store.put(("foo", "langgraph", "foo"), "bar", {"foo": "bar"})  # "langgraph" is reserved at the root only
    assert store.get(("foo", "langgraph", "foo"), "bar").value == {"foo": "bar"}
    assert store.search(("foo", "langgraph", "foo"), query="bar")[0].value == {"foo": "bar"}


def test_listing_namespaces(memory):
    store = HipocampoStore(memory)
    assert store.list_namespaces() == []
    spaces = [("test", "docs", "v1"), ("test", "docs", "v2"), ("test", "images", "v1"), ("prod", "docs", "v1")]
    spaces += [("users", str(i)) for i in range(10)]
    for ns in spaces:
        store.put(ns, "k", {"v": 1})
    assert store.list_namespaces(prefix=("test", "*", "v1")) == [("test", "docs", "v1"), ("test", "images", "v1")]
    assert store.list_namespaces(suffix=("docs", "*")) == [
        ("prod", "docs", "v1"),
        ("test", "docs", "v1"),
        ("test", "docs", "v2"),
    ]
    assert store.list_namespaces(prefix=("test",), max_depth=2) == [("test", "docs"), ("test", "images")]
    assert store.list_namespaces(max_depth=1) == [("prod",), ("test",), ("users",)]
    users = sorted(("users", str(i)) for i in range(10))
    assert store.list_namespaces(prefix=("users",), limit=3, offset=4) == users[4:7]
    assert store.list_namespaces(prefix=("users",), limit=5, offset=8) == users[8:]


def test_search_pages_and_filters_with_a_query(memory):
    store = HipocampoStore(memory)
    for i in range(7):
        store.put(("docs",), f"d{i}", {"text": f"note {i} about gardening", "n": i})
    first = store.search(("docs",), query="gardening", limit=3)
    rest = store.search(("docs",), query="gardening", limit=10, offset=3)
    assert len(first) == 3 and len(rest) == 4
    assert {h.key for h in first} | {h.key for h in rest} == {f"d{i}" for i in range(7)}
    assert {h.key for h in store.search(("docs",), query="gardening", filter={"n": {"$gte": 5}})} == {"d5", "d6"}
    for lang, text in [("zh", "这是中文"), ("ja", "これは日本語です"), ("ru", "Это русский")]:
        store.put(("intl",), lang, {"text": text})
    for lang, text in [("zh", "这是中文"), ("ja", "これは日本語です"), ("ru", "Это русский")]:
        assert store.search(("intl",), query=text)[0].key == lang


def test_async_batches_run_concurrently_and_in_order(memory):
    store = HipocampoStore(memory, index=FIELDS)

    async def main() -> None:
        await asyncio.gather(*(store.aput(("b",), f"k{i}", {"name": f"item {i}", "notes": "x"}) for i in range(8)))
        got = await asyncio.gather(*(store.aget(("b",), f"k{i}") for i in range(8)))
        assert [g.value["name"] for g in got] == [f"item {i}" for i in range(8)]
        results = await store.abatch(
            [SearchOp(("b",), query="item 3", limit=1), GetOp(("b",), "k0"), GetOp(("b",), "zz")]
        )
        assert results[0][0].key == "k3" and results[1].key == "k0" and results[2] is None

    asyncio.run(main())
