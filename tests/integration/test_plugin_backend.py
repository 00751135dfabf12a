"""A third-party storage backend, installed as users install one (the example plugin's
``example:///path``), is migrated, opened, identified and sized like a built-in one: the commands
ask its backend object and know no scheme."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hipocampo import Memory, plugins
from hipocampo.backends import Backend, backend_for
from hipocampo.client import AsyncMemory
from hipocampo.entrypoints.cli import app

pytest.importorskip("hipocampo_example_plugin", reason="scripts/test.sh installs tests/plugins/hipocampo-example-*")


def test_the_plugins_backend_is_registered_beside_the_builtins() -> None:
    assert "example" in plugins.backends.names() and "example" not in plugins.backends.builtin_names()
    assert isinstance(backend_for("example:///x.db"), Backend)


def test_hipocampo_migrate_migrates_a_plugins_store_as_a_builtin_one(tmp_path: Path) -> None:
    url = f"example:///{tmp_path / 'm.db'}"
    first = CliRunner().invoke(app, ["migrate", "--db", url])
    assert first.exit_code == 0, first.output
    assert "migrated" in first.output and "from schema version 0 to" in first.output
    again = CliRunner().invoke(app, ["migrate", "--db", url])
    assert again.exit_code == 0 and "is up to date" in again.output
    builtin = CliRunner().invoke(app, ["migrate", "--db", str(tmp_path / "b.db")])
    assert builtin.output.split("to ")[-1].strip() == first.output.split("to ")[-1].strip()  # the same version


def test_a_plugins_store_opens_keeps_memory_and_is_identified(tmp_path: Path) -> None:
    url = f"example:///{tmp_path / 'm.db'}"
    with Memory.open(url, embedder="fake", extraction=False) as mem:
        mem.add("ana", "t1", ["I have a dog called Rex"])
        mem.flush()
        assert mem.search("ana", "dog called Rex").hits[0].memory.content == "I have a dog called Rex"
        assert (mem.doctor())["database_bytes"] > 0  # doctor asks the backend for the file's size
    assert AsyncMemory.store_exists(url) and not AsyncMemory.store_exists(f"example:///{tmp_path / 'none.db'}")
    same = f"example:///{tmp_path / '.' / 'm.db'}"
    assert AsyncMemory.store_identity(url) == AsyncMemory.store_identity(same)
    assert (AsyncMemory.store_identity(url) or ("",))[0] == "example"


def test_builtin_backends_identify_their_stores_without_a_fixed_port() -> None:
    pg = backend_for("postgresql://u:p@db/mem")
    assert pg.identity("postgresql://u:p@DB/mem") == pg.identity("postgres://u:q@db:5432/mem")
    assert pg.identity("postgresql://u:p@db:5433/mem") != pg.identity("postgresql://u:p@db/mem")
    assert backend_for("memory://").identity("memory://") is None
    assert backend_for("memory://a").identity("memory://a") == ("memory", "a")
