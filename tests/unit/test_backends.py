"""The backend registry: a database setting names its backend by URL scheme."""

from __future__ import annotations

import asyncio

import pytest

from hipocampo.adapters.clock import SystemClock
from hipocampo.backends import BACKENDS, open_storage, redact, scheme_of
from hipocampo.domain.errors import ConfigurationError
from hipocampo.domain.model import NewMessage, Role, Scope
from hipocampo.settings import Settings


@pytest.mark.parametrize(
    ("target", "scheme"),
    [
        ("/tmp/x.db", "sqlite"),
        ("relative/x.db", "sqlite"),
        ("sqlite:////tmp/x.db", "sqlite"),
        ("memory://", "memory"),
        ("memory://shared", "memory"),
        ("postgresql://u:p@localhost/db", "postgresql"),
        ("postgres://u@localhost/db", "postgresql"),
    ],
)
def test_a_target_names_its_backend(target: str, scheme: str) -> None:
    assert scheme_of(target) == scheme
    assert scheme in BACKENDS


def test_an_unknown_scheme_is_refused_with_the_choices() -> None:
    with pytest.raises(ConfigurationError, match="unsupported database URL mysql://"):
        scheme_of("mysql://localhost/db")


def test_passwords_never_reach_messages() -> None:
    assert redact("postgresql://app:s3cret@db:5432/mem") == "postgresql://app:***@db:5432/mem"
    assert redact("postgresql://app@db/mem") == "postgresql://app@db/mem"
    assert redact("/tmp/x.db") == "/tmp/x.db"


def test_named_memory_stores_are_shared_in_a_process_and_fresh_ones_are_not(tmp_path) -> None:
    async def main() -> None:
        clock, settings = SystemClock(), Settings(db="memory://")
        a = await open_storage("memory://registry-test", clock=clock, settings=settings)
        b = await open_storage("memory://registry-test", clock=clock, settings=settings)
        fresh = await open_storage("memory://", clock=clock, settings=settings)
        await a.tenants.memory_usage("acme")
        await a.log.append(Scope("acme", "u"), "t", [NewMessage(role=Role.USER, content="hi")], [])
        assert await b.log.count(Scope("acme", "u")) == 1
        assert await fresh.log.count(Scope("acme", "u")) == 0
        sqlite = await open_storage(f"sqlite:///{tmp_path / 'x.db'}", clock=clock, settings=settings)
        assert sqlite.backend == "sqlite"
        await sqlite.close()

    asyncio.run(main())
