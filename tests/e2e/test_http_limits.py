"""The documented size limits over real HTTP: 422 past the longest message, query and write; a
message at the limit is stored whole and searchable by any of its words, though only its start
is embedded."""

from __future__ import annotations

import httpx
import pytest
from live_http import LiveServer, live_server

from hipocampo.client import AsyncMemory
from hipocampo.domain.model import MAX_CONTENT_CHARS
from hipocampo.services import tenancy
from hipocampo.services.ingest import MAX_MESSAGES_PER_CALL
from hipocampo.services.retrieval import MAX_QUERY_CHARS
from hipocampo.testing import deps_of


async def setup(mem: AsyncMemory) -> dict[str, str]:
    await tenancy.create_tenant(deps_of(mem), "acme", plan="unlimited")
    return {"acme": (await tenancy.issue_key(deps_of(mem), "acme"))[1]}


@pytest.fixture
def server(db_path: str):
    with live_server(db_path, setup) as live:  # the default body limit
        yield live


def refused(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text[:300]
    return response.json()["detail"]


def test_a_message_at_the_limit_is_stored_whole_and_keyword_searchable(server: LiveServer) -> None:
    c = server.client("acme")
    filler = "lorem ipsum dolor sit amet " * (MAX_CONTENT_CHARS // 27)
    content = (filler + " the last word is xylophonist")[-MAX_CONTENT_CHARS:]
    assert len(content) == MAX_CONTENT_CHARS
    r = c.post("/v1/users/ana/threads/t1/messages", json={"messages": [{"content": content}]})
    assert r.status_code == 201, r.text[:300]
    server.flush()
    (stored,) = c.get("/v1/users/ana/threads/t1/messages").json()["messages"]
    assert stored["content"] == content
    hits = c.post("/v1/users/ana/search", json={"query": "xylophonist", "k": 3}).json()["hits"]
    assert hits and hits[0]["content"] == content  # found by a word far past the embedded start


def test_past_the_text_limits_answers_422(server: LiveServer) -> None:
    c = server.client("acme")
    too_long = {"messages": [{"content": "x" * (MAX_CONTENT_CHARS + 1)}]}
    assert "100000" in refused(c.post("/v1/users/ana/threads/t1/messages", json=too_long), 422)
    refused(c.post("/v1/users/ana/memories", json={"content": "x" * (MAX_CONTENT_CHARS + 1)}), 422)
    refused(c.post("/v1/users/ana/recall", json={"query": "q" * (MAX_QUERY_CHARS + 1)}), 422)
    many = {"messages": [{"content": "hi"}] * (MAX_MESSAGES_PER_CALL + 1)}
    refused(c.post("/v1/users/ana/threads/t1/messages", json=many), 422)
    assert c.get("/v1/users/ana/threads").json()["threads"] == []  # nothing was written
    # Bodies past HIPOCAMPO_MAX_REQUEST_BYTES get 413: test_http_api.test_request_size_limit.
