"""Poisoned metadata and text, through real HTTP on loopback, on every backend.

Python's JSON parser reads ``NaN``, ``Infinity`` and lone surrogates (``"\\ud800"``); nothing can
write them back (answers are strict JSON in UTF-8, Postgres refuses them, and NUL too). Such a
value used to be stored on SQLite and take its user's reads down for good, and to be refused on
Postgres with a 500 that logged the start of the user's metadata. Now every backend answers 422
naming the field, stores nothing, and logs none of it; and a row stored before the rule (written
straight into a SQLite file here) is repaired as it is read, with a warning that names the row.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from live_http import LiveServer, live_server

from hipocampo.client import AsyncMemory

pytestmark = pytest.mark.backends()

SECRET = "my-bank-pin-is-4321"
POISONS = {
    "nan-value": '{"score": NaN, "note": "%s"}',
    "infinity-value": '{"score": Infinity, "note": "%s"}',
    "minus-infinity-deep": '{"a": {"b": [1, -Infinity]}, "note": "%s"}',
    "lone-surrogate-value": '{"who": "\\ud800", "note": "%s"}',
    "lone-surrogate-key": '{"\\udfff": 1, "note": "%s"}',
    "nul-value": '{"who": "a\\u0000b", "note": "%s"}',
}
BAD_TEXT = {"lone-surrogate": "caf\\udce9", "nul": "a\\u0000b"}


async def no_tenants(mem: AsyncMemory) -> dict[str, str]:
    return {}


@pytest.fixture
def server(db_path: str) -> Iterator[LiveServer]:
    with live_server(db_path, no_tenants, auth=False) as live:
        yield live


def post_raw(c: httpx.Client, path: str, body: str) -> httpx.Response:
    """``body`` as sent, byte for byte: httpx's own encoder refuses NaN and escapes nothing."""
    return c.post(path, content=body.encode("utf-8"), headers={"Content-Type": "application/json"})


def strict_json(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} in an answer: not JSON")

    return json.loads(text, parse_constant=refuse)


def assert_refused(r: httpx.Response, field: str) -> None:
    assert r.status_code == 422, r.text
    body = strict_json(r.text)
    assert body["error"] == "invalid_input" and field in body["detail"], body
    assert SECRET not in r.text


def assert_nothing_stored(c: httpx.Client) -> None:
    assert strict_json(c.get("/v1/users").text) == {"users": []}


@pytest.mark.parametrize("poison", POISONS, ids=list(POISONS))
def test_poisoned_message_metadata_is_refused(
    server: LiveServer, poison: str, caplog: pytest.LogCaptureFixture
) -> None:
    c = server.client()
    meta = POISONS[poison] % SECRET
    with caplog.at_level(logging.DEBUG):
        own = post_raw(
            c, "/v1/users/ana/threads/t1/messages", f'{{"messages": [{{"content": "hi", "metadata": {meta}}}]}}'
        )
        shared = post_raw(
            c, "/v1/users/ana/threads/t1/messages", f'{{"messages": [{{"content": "hi"}}], "metadata": {meta}}}'
        )
    assert_refused(own, "messages.0.metadata")
    assert_refused(shared, "metadata")
    assert_nothing_stored(c)
    assert SECRET not in caplog.text
    ok = c.post("/v1/users/ana/threads/t1/messages", json={"messages": [{"content": "hi", "metadata": {"a": 1.5}}]})
    assert ok.status_code == 201, ok.text
    listed = c.get("/v1/users/ana/threads/t1/messages")
    assert listed.status_code == 200 and [m["metadata"] for m in listed.json()["messages"]] == [{"a": 1.5}]


@pytest.mark.parametrize("poison", POISONS, ids=list(POISONS))
def test_poisoned_memory_metadata_is_refused(server: LiveServer, poison: str, caplog: pytest.LogCaptureFixture) -> None:
    c = server.client()
    with caplog.at_level(logging.DEBUG):
        r = post_raw(
            c, "/v1/users/ana/memories", f'{{"content": "Ana likes tea", "metadata": {POISONS[poison] % SECRET}}}'
        )
    assert_refused(r, "metadata")
    assert_nothing_stored(c)
    assert SECRET not in caplog.text


@pytest.mark.parametrize("bad", BAD_TEXT, ids=list(BAD_TEXT))
def test_text_that_cannot_be_stored_is_refused(server: LiveServer, bad: str) -> None:
    """The same text gets the same answer on every backend (NUL used to pass on SQLite only)."""
    c = server.client()
    text = BAD_TEXT[bad]
    assert_refused(
        post_raw(c, "/v1/users/ana/threads/t1/messages", f'{{"messages": [{{"content": "{text}"}}]}}'), "content"
    )
    assert_refused(post_raw(c, "/v1/users/ana/memories", f'{{"content": "{text}"}}'), "content")
    assert_nothing_stored(c)
    saved = c.post("/v1/users/ana/memories", json={"content": "Ana likes tea"}).json()["id"]
    patched = c.patch(
        f"/v1/users/ana/memories/{saved}",
        content=f'{{"content": "{text}"}}'.encode(),
        headers={"Content-Type": "application/json"},
    )
    assert_refused(patched, "content")
    session = '{"user_id": "ana", "thread_id": "t1"}'
    tool = post_raw(
        c,
        "/v1/tools/save_memory",
        f'{{"session": {session}, "arguments": {{"content": "{text}", "memory_type": "preference"}}}}',
    )
    assert tool.status_code == 422 or (tool.status_code == 200 and tool.json()["success"] is False), tool.text
    for query_route in ("/v1/users/ana/search", "/v1/users/ana/recall"):
        assert_refused(post_raw(c, query_route, f'{{"query": "{text}"}}'), "query")
    assert_refused(post_raw(c, "/api/v1/memory/search", f'{{"user_id": "ana", "query": "{text}"}}'), "query")
    facts = c.get("/v1/users/ana/memories").json()["memories"]
    assert [m["content"] for m in facts] == ["Ana likes tea"]


def test_mcp_refuses_text_that_cannot_be_stored(server: LiveServer) -> None:
    pytest.importorskip("mcp")
    for text in BAD_TEXT.values():
        rpc = (
            '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "save_memory", '
            f'"arguments": {{"content": "{text}", "memory_type": "preference"}}}}}}'
        )
        headers = {"Accept": "application/json, text/event-stream", "X-Hipocampo-User": "ana"}
        r = httpx.post(
            f"{server.url}/mcp", content=rpc.encode(), headers={**headers, "Content-Type": "application/json"}
        )
        assert r.status_code < 500, r.text
        strict_json(r.text)
    assert_nothing_stored(server.client())


@pytest.fixture
def sqlite_file(store_backend: str, db_path: str) -> str:
    if store_backend != "sqlite":
        pytest.skip("Postgres never stored these values (jsonb and UTF-8 text refuse them): nothing to repair")
    return db_path


def test_rows_stored_before_the_rule_do_not_take_reads_down(
    server: LiveServer, sqlite_file: str, caplog: pytest.LogCaptureFixture
) -> None:
    c = server.client()
    assert (
        c.post("/v1/users/ana/threads/t1/messages", json={"messages": [{"content": "Ana likes green tea"}]}).status_code
        == 201
    )
    assert c.post("/v1/users/ana/memories", json={"content": "Ana is allergic to peanuts"}).status_code == 201
    server.flush()
    poison = '{"score": NaN, "big": -Infinity, "\\ud800": "x\\udfff", "note": "SECRET"}'.replace("SECRET", SECRET)
    with sqlite3.connect(sqlite_file) as db:  # what an older version let through
        db.execute("UPDATE messages SET metadata = ?", (poison,))
        db.execute("UPDATE memories SET metadata = ?", (poison,))
    with caplog.at_level(logging.WARNING):
        reads = {
            "messages": c.get("/v1/users/ana/threads/t1/messages"),
            "memories": c.get("/v1/users/ana/memories"),
            "search": c.post("/v1/users/ana/search", json={"query": "tea"}),
            "recall": c.post("/v1/users/ana/recall", json={"query": "tea", "thread_id": "t1"}),
            "compat search": c.post("/api/v1/memory/search", json={"user_id": "ana", "query": "peanuts"}),
            "conversation": c.get("/api/v1/memory/t1", params={"user_id": "ana"}),
        }
        export = c.get("/v1/users/ana/export")
    for name, r in reads.items():
        assert r.status_code == 200, (name, r.text)
        strict_json(r.text)
    assert reads["messages"].json()["messages"][0]["metadata"] == {
        "score": None,
        "big": None,
        "\ufffd": "x\ufffd",
        "note": SECRET,
    }
    assert export.status_code == 200
    lines = [strict_json(line) for line in export.text.splitlines()]
    assert lines[-1]["type"] == "end", lines[-1]
    assert any(r["type"] == "message" for r in lines) and any(r["type"] == "memory" for r in lines)
    warnings = [r.getMessage() for r in caplog.records if "repaired" in r.getMessage()]
    assert warnings, caplog.text
    assert SECRET not in caplog.text and "x\ufffd" not in caplog.text
