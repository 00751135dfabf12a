"""`hipocampo mcp` over stdio, driven by the MCP SDK's own client: one server process per user."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.backends()]  # starts processes

TOOLS = {"get_memory", "save_memory", "update_memory", "delete_memory", "recall"}


def server(db_path: str, user: str, *args: str, **env: str) -> StdioServerParameters:
    """``hipocampo mcp --user USER`` on this interpreter, the store named by HIPOCAMPO_DB (and the
    Redis of a Postgres store: the SDK passes on only the environment it is given)."""
    redis = {k: v for k, v in os.environ.items() if k == "HIPOCAMPO_REDIS_URL"}
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "hipocampo.entrypoints.cli", "mcp", "--user", user, *args],
        env={"HIPOCAMPO_DB": db_path, "HIPOCAMPO_EMBEDDER": "fake", **redis, **env},
    )


async def call(client: Client, tool: str, **arguments: Any) -> tuple[bool, dict[str, Any]]:
    """``(is_error, structured result)``; the text the model reads must carry the same answer."""
    result = await client.call_tool(tool, arguments)
    assert result.content and result.content[0].type == "text"
    return bool(result.is_error), result.structured_content or {}


async def found_semantically(client: Client, query: str, memory_id: str, timeout: float = 15.0) -> dict[str, Any]:
    """Saved memories are indexed by the server's background worker: ask until it has caught up."""
    deadline = time.monotonic() + timeout
    while True:
        is_error, got = await call(client, "get_memory", mode="semantic", query=query)
        assert not is_error, got
        if any(m["memory_id"] == memory_id for m in got["memories"]):
            return got
        assert time.monotonic() < deadline, f"{memory_id} never found for {query!r}: {got}"
        await asyncio.sleep(0.1)


def test_one_session_lists_saves_finds_corrects_and_deletes(db_path: str) -> None:
    async def main() -> None:
        async with Client(server(db_path, "ana", "--thread", "desk"), mode="legacy") as ana:
            assert "critical_info:" in (ana.instructions or "")  # the memory types reach the client
            tools = {t.name: t for t in (await ana.list_tools()).tools}
            assert set(tools) == TOOLS
            save_schema = tools["save_memory"].input_schema
            assert save_schema["required"] == ["content", "memory_type"]
            assert "preference" in save_schema["properties"]["memory_type"]["enum"]
            assert tools["save_memory"].output_schema["properties"]["memory_id"]
            assert tools["get_memory"].annotations.read_only_hint
            assert tools["delete_memory"].annotations.destructive_hint

            is_error, saved = await call(
                ana, "save_memory", content="Ana is allergic to peanuts", memory_type="critical_info"
            )
            assert not is_error and saved["success"], saved
            memory_id = saved["memory_id"]
            assert saved["memory"]["thread_id"] == "desk"

            is_error, newest = await call(ana, "get_memory", mode="chronological")
            assert [m["memory_id"] for m in newest["memories"]] == [memory_id]
            is_error, typed = await call(ana, "get_memory", mode="chronological", memory_type="preference")
            assert not is_error and typed["memories"] == []
            hits = await found_semantically(ana, "peanuts allergy", memory_id)
            assert hits["memories"][0]["relevance_score"] > 0

            recalled = await ana.call_tool("recall", {"query": "what is Ana allergic to?"})
            assert not recalled.is_error and "peanuts" in recalled.content[0].text
            assert memory_id in recalled.structured_content["memory_ids"]
            prompt = await ana.get_prompt("memory_system_prompt", {"query": "can I eat satay?"})
            assert "peanuts" in prompt.messages[0].content.text
            resource = await ana.read_resource("hipocampo://system-prompt")
            assert "Memory types you can save" in resource.contents[0].text

            is_error, updated = await call(
                ana, "update_memory", memory_id=memory_id, new_content="Ana is allergic to cashews"
            )
            assert not is_error and updated["memory"]["content"] == "Ana is allergic to cashews"
            is_error, deleted = await call(ana, "delete_memory", memory_id=memory_id)
            assert not is_error and deleted["memory_id"] == memory_id
            is_error, newest = await call(ana, "get_memory", mode="chronological")
            assert newest["memories"] == []

    asyncio.run(main())


def test_model_mistakes_come_back_as_error_results(db_path: str) -> None:
    coach_types = '{"*": {"preference": ""}, "coach": {"goal": "training goals"}}'

    async def main() -> None:
        coach = server(db_path, "ana", "--agent", "coach", HIPOCAMPO_MEMORY_TYPES=coach_types)
        async with Client(coach) as ana:  # mode="auto": the 2026 protocol
            tools = {t.name: t for t in (await ana.list_tools()).tools}
            assert tools["save_memory"].input_schema["properties"]["memory_type"]["enum"] == ["goal"]
            assert "- goal: training goals" in tools["save_memory"].description
            is_error, got = await call(ana, "save_memory", content="likes jazz", memory_type="preference")
            assert is_error and "memory_type must be one of goal" in got["error_message"]
            is_error, got = await call(ana, "update_memory", memory_id="no-such-id", new_content="x")
            assert is_error and not got["success"] and got["error_message"]
            is_error, got = await call(ana, "delete_memory", memory_id="no-such-id")
            assert is_error and got["error_message"]
            is_error, got = await call(ana, "get_memory", mode="semantic")
            assert is_error and "needs a query" in got["error_message"]
            is_error, got = await call(ana, "get_memory", mode="chronological", memory_type="hobby")
            assert is_error and "memory_type must be one of" in got["error_message"]
            bad_mode = await ana.call_tool("get_memory", {"mode": "random"})
            assert bad_mode.is_error  # refused by the schema before the tool runs

    asyncio.run(main())


def test_a_server_bound_to_bob_cannot_see_or_change_anas_memory(db_path: str) -> None:
    async def main() -> None:
        async with Client(server(db_path, "ana")) as ana:
            _, saved = await call(ana, "save_memory", content="Ana lives in Lisbon", memory_type="user_profile")
            await found_semantically(ana, "Lisbon", saved["memory_id"])
        async with Client(server(db_path, "bob")) as bob:
            _, newest = await call(bob, "get_memory", mode="chronological")
            assert newest["memories"] == []
            _, hits = await call(bob, "get_memory", mode="semantic", query="Lisbon")
            assert hits["memories"] == []
            is_error, _ = await call(bob, "update_memory", memory_id=saved["memory_id"], new_content="Bob's now")
            assert is_error
            is_error, _ = await call(bob, "delete_memory", memory_id=saved["memory_id"])
            assert is_error
        async with Client(server(db_path, "ana", "--tenant", "acme")) as other_tenant:
            _, newest = await call(other_tenant, "get_memory", mode="chronological")
            assert newest["memories"] == []
        async with Client(server(db_path, "ana")) as ana:
            _, newest = await call(ana, "get_memory", mode="chronological")
            assert [m["content"] for m in newest["memories"]] == ["Ana lives in Lisbon"]

    asyncio.run(main())


def test_command_line_mistakes(cli) -> None:  # noqa: ANN001 - the e2e conftest's Cli
    assert "--user is required" in cli("mcp", code=2).stderr
    assert "--user and --agent are for stdio" in cli("mcp", "--transport", "http", "--user", "ana", code=2).stderr
