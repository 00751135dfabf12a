"""The memory tools as LangChain tools, sync (Memory) and async (AsyncMemory), on each backend."""

from __future__ import annotations

import asyncio
import json

import pytest

from hipocampo import Memory
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.agent import SessionConfig
from hipocampo.agent.langchain_tools import langchain_tools
from hipocampo.client import AsyncMemory

pytestmark = pytest.mark.backends()

SESSION = SessionConfig(user_id="ana", thread_id="t1", memory_min_relevance=0.0)


def by_name(tools):
    return {t.name: t for t in tools}


def test_sync_memory_tools_invoke(db_path):
    with Memory.open(db_path, embedder=FakeEmbedder(), extraction=False) as mem:
        tools = by_name(langchain_tools(mem, SESSION))
        assert set(tools) == {"get_memory", "save_memory", "update_memory", "delete_memory"}
        saved = json.loads(tools["save_memory"].invoke({"content": "Ana loves jazz", "memory_type": "preference"}))
        assert saved["success"]
        mem.flush()
        found = json.loads(tools["get_memory"].invoke({"mode": "semantic", "query": "jazz music"}))
        assert found["memories"][0]["memory_id"] == saved["memory_id"]
        assert json.loads(tools["delete_memory"].invoke({"memory_id": saved["memory_id"]}))["success"]


def test_async_memory_tools_ainvoke_and_tool_call_artifact(db_path):
    async def main():
        mem = await AsyncMemory.open(db_path, embedder=FakeEmbedder(), extraction=False)
        try:
            tools = by_name(langchain_tools(mem, SESSION))
            msg = await tools["save_memory"].ainvoke(
                {
                    "type": "tool_call",
                    "id": "c1",
                    "name": "save_memory",
                    "args": {"content": "Ana's goal is a marathon", "memory_type": "goal"},
                }
            )
            assert msg.artifact["success"] and json.loads(msg.content)["memory_id"] == msg.artifact["memory_id"]
            bad = json.loads(await tools["update_memory"].ainvoke({"memory_id": "mem_x", "new_content": "y"}))
            assert not bad["success"] and bad["error_message"]
        finally:
            await mem.close()

    asyncio.run(main())
