"""The core runs without the ``langgraph`` extra; its modules say how to install it. A chat turn
without a model (what ``hipocampo chat`` and ``POST /v1/chat`` do on a bare install) still works."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
for name in ("langgraph", "langchain_core"):
    sys.modules[name] = None  # import fails as if not installed
import hipocampo, hipocampo.agent, hipocampo.entrypoints.cli
from hipocampo.domain.errors import ConfigurationError
for module in ("hipocampo.agent.langgraph", "hipocampo.agent.chat_graph", "hipocampo.agent.scripted_chat"):
    try:
        __import__(module)
    except ConfigurationError as exc:
        assert "pip install 'hipocampo[langgraph]'" in str(exc), exc
    else:
        raise AssertionError(module + " imported without langgraph")

import asyncio, os, tempfile
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.agent import SessionConfig
from hipocampo.agent.chat import run_chat
from hipocampo.client import AsyncMemory

async def chat_without_model():
    mem = await AsyncMemory.open(os.path.join(tempfile.mkdtemp(), "m.db"), embedder=FakeEmbedder(), llm=None)
    try:
        await mem.add("ana", "t1", "I am allergic to peanuts")
        await mem.flush()
        reply = await run_chat(mem, SessionConfig(user_id="ana", thread_id="t2"), "what can't I eat?")
        assert reply.answer is None and "HIPOCAMPO_LLM" in reply.notice, reply
        assert "peanuts" in reply.memory_context and reply.messages[-1]["content"] == "what can't I eat?"
        assert [m.content for m in await mem.messages("ana", "t2")] == ["what can't I eat?"]
    finally:
        await mem.close()

asyncio.run(chat_without_model())
print("ok")
"""


def test_core_imports_and_chats_without_langgraph_and_the_extra_is_named():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
