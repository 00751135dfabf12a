"""Any JSON value in any metadata or text field, through real HTTP on loopback, on every backend:
the answer is a 4xx, or the value is stored and reads back as sent; never a 5xx.

Values are drawn by hypothesis from all of JSON as Python's parser reads it, which is more than
JSON: ``NaN``, ``Infinity``, lone surrogates (``"\\ud800"``), NUL, huge integers, deep nesting,
and strings, numbers, lists and objects where the field wants another type. The body is sent as
written by ``json.dumps`` (``allow_nan``, surrogates escaped), byte for byte. A value accepted must
come back equal from a read (messages, memories) or in the answer (queries); the store must then
still answer that user's reads (a value stored but not readable took a user down before).

The examples per backend are few (``HIPOCAMPO_PROPERTY_EXAMPLES``, default 40) so that CI stays
quick; the server is shared by a module's examples.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from live_http import LiveServer, live_server

from hipocampo.client import AsyncMemory

pytestmark = pytest.mark.backends()

EXAMPLES = int(os.environ.get("HIPOCAMPO_PROPERTY_EXAMPLES", "40"))
_users = itertools.count()

# Every code point, surrogates and NUL included (hypothesis leaves surrogates out by default).
any_text = st.text(st.characters(exclude_categories=()), max_size=40)
# What broke stores before, drawn as often as the rest: random draws reach them too rarely.
poison = st.sampled_from([math.nan, math.inf, -math.inf, "\ud800", "a\udfffb", "\x00", "a\x00b", 2**5000])
any_text = st.one_of(any_text, poison.filter(lambda p: isinstance(p, str)))
scalars = st.one_of(
    poison,
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**200), max_value=2**200),
    st.floats(allow_nan=True, allow_infinity=True),
    any_text,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(any_text, inner, max_size=4)),
    max_leaves=12,
)
metadata_values = st.one_of(
    st.dictionaries(any_text, json_values, max_size=5),
    st.dictionaries(st.text(max_size=5), poison, min_size=1, max_size=2),  # one kind of poison at a time
    json_values,
)
text_values = st.one_of(any_text, any_text.map(lambda s: f"Ana {s} tea"), json_values)


async def no_tenants(mem: AsyncMemory) -> dict[str, str]:
    return {}


@pytest.fixture(scope="module")
def live(module_db: str) -> Iterator[LiveServer]:
    with live_server(module_db, no_tenants, auth=False) as server:
        yield server


def wire(body: Any) -> bytes:
    """``body`` as Python writes JSON: NaN and Infinity as such, lone surrogates as ``\\udXXX``."""
    return json.dumps(body, allow_nan=True).encode("ascii")


@dataclass
class Field:
    """One field: how to send a value in it, and how to read an accepted value back."""

    name: str
    send: Callable[[httpx.Client, str, Any], httpx.Response]
    read_back: Callable[[httpx.Client, str, httpx.Response, Any], None]


def post(c: httpx.Client, path: str, body: Any) -> httpx.Response:
    return c.post(path, content=wire(body), headers={"Content-Type": "application/json"})


def _message(c: httpx.Client, user: str, answer: httpx.Response) -> dict[str, Any]:
    (sent,) = answer.json()["messages"]
    r = c.get(f"/v1/users/{user}/threads/t1/messages")
    assert r.status_code == 200, r.text
    return next(m for m in r.json()["messages"] if m["id"] == sent["id"])


def _memory(c: httpx.Client, user: str, memory_id: str) -> dict[str, Any]:
    r = c.get(f"/v1/users/{user}/memories/{memory_id}")
    assert r.status_code == 200, r.text
    return r.json()


def _saved(c: httpx.Client, user: str) -> str:
    r = c.post(f"/v1/users/{user}/memories", json={"content": "Ana likes tea"})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


_edited: dict[str, str] = {}
"""The memory each user's edit went to, by user."""


def _patch(c: httpx.Client, user: str, value: Any) -> httpx.Response:
    # Edited while its indexing job may be embedding it: such an edit used to be lost (the job
    # wrote back the row it had read; tests/integration/test_index_keeps_edits.py).
    _edited[user] = memory_id = _saved(c, user)
    headers = {"Content-Type": "application/json"}
    return c.patch(f"/v1/users/{user}/memories/{memory_id}", content=wire({"content": value}), headers=headers)


FIELDS = [
    Field(
        "message metadata",
        lambda c, u, v: post(c, f"/v1/users/{u}/threads/t1/messages", {"messages": [{"content": "hi", "metadata": v}]}),
        lambda c, u, r, v: _assert_equal(_message(c, u, r)["metadata"], v),
    ),
    Field(
        "messages' shared metadata",
        lambda c, u, v: post(c, f"/v1/users/{u}/threads/t1/messages", {"messages": [{"content": "hi"}], "metadata": v}),
        lambda c, u, r, v: _assert_equal(_message(c, u, r)["metadata"], v or {}),
    ),
    Field(
        "message content",
        lambda c, u, v: post(c, f"/v1/users/{u}/threads/t1/messages", {"messages": [{"content": v}]}),
        lambda c, u, r, v: _assert_equal(_message(c, u, r)["content"], v),
    ),
    Field(
        "speaker name",
        lambda c, u, v: post(c, f"/v1/users/{u}/threads/t1/messages", {"messages": [{"content": "hi", "name": v}]}),
        lambda c, u, r, v: _assert_equal(_message(c, u, r)["name"], unicodedata.normalize("NFC", v)),  # ids are NFC
    ),
    Field(
        "memory metadata",
        lambda c, u, v: post(c, f"/v1/users/{u}/memories", {"content": "Ana likes tea", "metadata": v}),
        lambda c, u, r, v: _assert_equal(_memory(c, u, r.json()["id"])["provenance"]["metadata"], v or {}),
    ),
    Field(
        "memory content",
        lambda c, u, v: post(c, f"/v1/users/{u}/memories", {"content": v}),
        lambda c, u, r, v: _assert_equal(_memory(c, u, r.json()["id"])["content"], v.strip()),
    ),
    Field(
        "memory edit",
        _patch,
        lambda c, u, r, v: _assert_equal(_memory(c, u, _edited[u])["content"], v.strip()),
    ),
    Field(
        "save_memory tool",
        lambda c, u, v: post(
            c,
            "/v1/tools/save_memory",
            {"session": {"user_id": u, "thread_id": "t1"}, "arguments": {"content": v, "memory_type": "preference"}},
        ),
        lambda c, u, r, v: (
            r.json()["success"] is False or _assert_equal(_memory(c, u, r.json()["memory_id"])["content"], v.strip())
        ),
    ),
    Field(
        "search query",
        lambda c, u, v: post(c, f"/v1/users/{u}/search", {"query": v}),
        lambda c, u, r, v: _assert_equal(r.json()["query"], v),
    ),
    Field(
        "recall query",
        lambda c, u, v: post(c, f"/v1/users/{u}/recall", {"query": v, "thread_id": "t1"}),
        lambda c, u, r, v: None,
    ),
    Field(
        "conversation search query",
        lambda c, u, v: post(c, "/api/v1/memory/search", {"user_id": u, "query": v}),
        lambda c, u, r, v: _assert_equal(r.json()["query"], v),
    ),
    Field(
        "context query",
        lambda c, u, v: post(c, f"/v1/users/{u}/context", {"thread_id": "t1", "query": v}),
        lambda c, u, r, v: None,
    ),
]
METADATA = {"message metadata", "messages' shared metadata", "memory metadata"}


def _assert_equal(got: Any, sent: Any) -> None:
    assert got == sent, (got, sent)


def strict(text: str) -> Any:
    """An answer's JSON, as a strict parser reads it: NaN or Infinity in it fails the test."""

    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} in an answer")

    return json.loads(text, parse_constant=refuse)


@settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None
)
@given(field=st.sampled_from(FIELDS), data=st.data())
def test_any_json_in_any_field_is_stored_as_sent_or_refused(
    live: LiveServer, field: Field, data: st.DataObject
) -> None:
    value = data.draw(metadata_values if field.name in METADATA else text_values, label=field.name)
    user = f"p{next(_users)}"
    c = live.client()
    r = field.send(c, user, value)
    assert r.status_code < 500, (field.name, r.status_code, r.text)
    body = strict(r.text)
    if r.status_code >= 400:
        assert body["error"] and body["detail"], body
    else:
        field.read_back(c, user, r, value)
    # Whatever was sent, the user's reads still answer, as strict JSON.
    for read in (c.get(f"/v1/users/{user}/memories"), c.get(f"/v1/users/{user}/export")):
        assert read.status_code in (200, 404), (field.name, read.status_code, read.text)
        for line in read.text.split("\n"):  # NDJSON lines end at \n only (U+2028 may sit in a string)
            if line:
                strict(line)
    c.close()
