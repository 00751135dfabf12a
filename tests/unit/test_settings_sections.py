"""Settings by concern: every variable feeds one section, and a plugin gets its section only."""

from __future__ import annotations

import asyncio
import dataclasses
import typing

import pytest

from hipocampo import plugins
from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.backend_port import Backend
from hipocampo.backends import backend_for, open_storage
from hipocampo.bootstrap import build_embedder
from hipocampo.ports import Clock, Storage
from hipocampo.settings import SECTION_FIELDS, EmbedderSettings, Sections, Settings, StorageSettings


def test_every_variable_feeds_exactly_one_section() -> None:
    placed = [name for names in SECTION_FIELDS.values() for name in names]
    assert sorted(placed) == sorted(Settings.model_fields), "a setting in no section, or in two"
    assert list(SECTION_FIELDS) == [f.name for f in dataclasses.fields(Sections)]


def test_each_section_has_its_fields_in_the_tables_order() -> None:
    """The table's variables and the section's attributes pair up one to one, in order, and the
    section holds the variable's value: the section of a variable is read from one place."""
    settings = Settings(embedder="fake", llm_api_key="sk-x", redis_url="redis://localhost/1")
    sections = settings.sections
    for name, cls in typing.get_type_hints(Sections).items():
        attributes = [f.name for f in dataclasses.fields(cls)]
        variables = SECTION_FIELDS[name]
        assert len(attributes) == len(variables), name
        for attribute, variable in zip(attributes, variables, strict=True):
            value = getattr(settings, variable)
            value = value.get_secret_value() if hasattr(value, "get_secret_value") else value
            assert getattr(getattr(sections, name), attribute) == value, (name, attribute, variable)


def test_the_sections_read_the_same_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPOCAMPO_PG_POOL_SIZE", "7")
    monkeypatch.setenv("HIPOCAMPO_EMBED_THREADS", "3")
    monkeypatch.setenv("HIPOCAMPO_WORKER", "external")
    monkeypatch.setenv("HIPOCAMPO_LLM_API_KEY", "sk-not-shown")
    monkeypatch.setenv("HIPOCAMPO_ALLOWED_HOSTS", "a.example, b.example:8765")
    s = Settings(embedder="fake").sections
    assert s.storage.pg_pool_size == 7
    assert s.embedder.threads == 3 and s.embedder.name == "fake"
    assert s.worker.mode == "external"
    assert s.http.allowed_hosts == ("a.example", "b.example:8765")
    assert s.llm.api_key == "sk-not-shown"
    assert "sk-not-shown" not in repr(s)  # a logged section never shows a secret


def test_a_section_cannot_be_changed_behind_the_settings() -> None:
    section = Settings(embedder="fake").sections.storage
    with pytest.raises(dataclasses.FrozenInstanceError):
        section.pg_pool_size = 99  # type: ignore[misc]


def test_an_embedder_plugin_gets_its_section_and_nothing_else() -> None:
    seen: list[object] = []

    def factory(section: object) -> FakeEmbedder:
        seen.append(section)
        return FakeEmbedder()

    with plugins.embedders.registered("sectioned", factory):
        build_embedder(Settings(embedder="sectioned", embed_threads=5, llm_api_key="sk-secret"))
    (section,) = seen
    assert isinstance(section, EmbedderSettings)
    assert section.threads == 5
    assert not hasattr(section, "api_key") and not hasattr(section, "db")


def test_a_storage_backend_gets_the_storage_section_only() -> None:
    seen: list[object] = []

    class Recording(Backend):
        async def open(self, url: str, *, clock: Clock, settings: StorageSettings) -> Storage:
            seen.append(settings)
            return await backend_for("memory://").open("memory://", clock=clock, settings=settings)

    async def scenario() -> None:
        with plugins.backends.registered("sectioned", Recording()):
            storage = await open_storage(
                "sectioned://x", clock=FakeClock(), settings=Settings(pg_pool_size=3, llm_api_key="sk-secret")
            )
            await storage.close()

    asyncio.run(scenario())
    (section,) = seen
    assert isinstance(section, StorageSettings) and section.pg_pool_size == 3
    assert not hasattr(section, "api_key")
