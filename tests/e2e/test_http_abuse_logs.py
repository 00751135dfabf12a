"""What users say stays out of the access log: `hipocampo serve` logs paths without their query
strings, and the conversation-memory search also takes its query in a POST body."""

from __future__ import annotations

import time

import httpx
import pytest
from serve_process import serve_process

pytestmark = [pytest.mark.slow, pytest.mark.backends()]  # starts a server process

SECRET = "my-bank-pin-is-4321"


def test_the_access_log_never_carries_query_strings(cli_command: list[str]) -> None:
    with serve_process(cli_command, "--no-auth") as s:
        c = httpx.Client(base_url=s.url, timeout=30)
        assert c.post("/v1/users/ana/memories", json={"content": "Ana keeps her PIN in her head"}).status_code == 201
        deadline = time.monotonic() + 30
        while not (by_post := c.post("/api/v1/memory/search", json={"user_id": "ana", "query": "PIN"})).json()["hits"]:
            assert by_post.status_code == 200 and time.monotonic() < deadline, by_post.text  # still indexing
            time.sleep(0.1)
        by_post = c.post("/api/v1/memory/search", json={"user_id": "ana", "query": SECRET, "k": 3})
        by_get = c.get("/api/v1/memory/search", params={"user_id": "ana", "query": SECRET, "k": 3})
        assert by_get.status_code == by_post.status_code == 200, (by_get.text, by_post.text)
        assert by_get.json()["query"] == by_post.json()["query"] == SECRET
        assert [h["id"] for h in by_get.json()["hits"]] == [h["id"] for h in by_post.json()["hits"]] != []
        assert c.get("/v1/users/ana/memories", params={"kind": "fact", "limit": 5}).status_code == 200
        c.close()
        s.wait_for_output('"GET /api/v1/memory/search HTTP/1.1" 200')
        s.wait_for_output('"POST /api/v1/memory/search HTTP/1.1" 200')
        s.wait_for_output('"GET /v1/users/ana/memories HTTP/1.1" 200')
    assert SECRET not in s.output
    assert "?" not in "".join(line for line in s.lines if "HTTP/1.1" in line), s.output
