"""services.tenancy over the in-memory adapters: tenants and plans, keys, authentication, quotas."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone

import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.domain.errors import Conflict, InvalidInput, NotFound, QuotaExceeded, Unauthorized
from hipocampo.domain.model import MemoryItem, MemoryKind, Scope
from hipocampo.domain.tenancy import PLANS, KeyRole, Quotas, key_to_dict
from hipocampo.services import tenancy
from hipocampo.services.deps import Deps
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


def run(scenario: Callable[[Deps], Awaitable[None]]) -> None:
    deps = build_memory_deps(Settings(embedder="fake", tokenizer="chars"), clock=FakeClock(T0))
    asyncio.run(scenario(deps))


def clock(deps: Deps) -> FakeClock:
    assert isinstance(deps.clock, FakeClock)
    return deps.clock


# -- tenants ------------------------------------------------------------------------------------
def test_a_tenant_starts_with_its_plans_quotas_and_overrides() -> None:
    async def scenario(deps: Deps) -> None:
        acme = await tenancy.create_tenant(deps, "acme")
        assert (acme.name, acme.plan, acme.quotas, acme.disabled) == ("acme", "standard", PLANS["standard"], False)
        free = await tenancy.create_tenant(deps, "free-co", name="Free Co", plan="free", max_memories=None)
        assert free.quotas == Quotas(requests_per_minute=60, max_memories=None)
        assert await tenancy.get_tenant(deps, "free-co") == free
        assert [t.id for t in await tenancy.list_tenants(deps)] == ["acme", "free-co"]

    run(scenario)


def test_creating_a_tenant_refuses_taken_ids_and_bad_values() -> None:
    async def scenario(deps: Deps) -> None:
        await tenancy.create_tenant(deps, "acme")
        with pytest.raises(Conflict):
            await tenancy.create_tenant(deps, "acme")
        with pytest.raises(InvalidInput, match="plan must be one of"):
            await tenancy.create_tenant(deps, "x", plan="gold")
        for bad in (0, -5, True, 1.5):
            with pytest.raises(InvalidInput, match="requests_per_minute"):
                await tenancy.create_tenant(deps, "x", requests_per_minute=bad)
        with pytest.raises(InvalidInput, match="tenant_id"):
            await tenancy.create_tenant(deps, "  ")
        with pytest.raises(NotFound):
            await tenancy.get_tenant(deps, "nobody")

    run(scenario)


def test_update_changes_only_what_is_given_and_a_new_plan_resets_quotas() -> None:
    async def scenario(deps: Deps) -> None:
        await tenancy.create_tenant(deps, "acme", requests_per_minute=5)
        renamed = await tenancy.update_tenant(deps, "acme", name="ACME")
        assert (renamed.name, renamed.quotas.requests_per_minute) == ("ACME", 5)
        unlimited = await tenancy.update_tenant(deps, "acme", max_memories=None)
        assert unlimited.quotas == Quotas(requests_per_minute=5, max_memories=None)
        free = await tenancy.update_tenant(deps, "acme", plan="free", requests_per_minute=10)
        assert (free.plan, free.quotas) == ("free", Quotas(requests_per_minute=10, max_memories=10_000))
        disabled = await tenancy.update_tenant(deps, "acme", disabled=True)
        assert disabled.disabled and disabled.name == "ACME"
        assert await tenancy.get_tenant(deps, "acme") == disabled
        with pytest.raises(NotFound):
            await tenancy.update_tenant(deps, "nobody", name="x")

    run(scenario)


# -- keys and authentication --------------------------------------------------------------------
def test_an_issued_token_authenticates_as_its_tenant_and_role() -> None:
    async def scenario(deps: Deps) -> None:
        await tenancy.create_tenant(deps, "acme")
        key, token = await tenancy.issue_key(deps, "acme", role=KeyRole.ADMIN, name="ops")
        assert token.startswith(f"hk_{key.id}_") and key.secret_hash not in token
        principal = await tenancy.authenticate(deps, token)
        assert (principal.tenant_id, principal.key_id, principal.is_admin) == ("acme", key.id, True)
        user_key, user_token = await tenancy.issue_key(deps, "acme")
        assert (await tenancy.authenticate(deps, f"  {user_token} ")).role is KeyRole.USER
        assert "secret_hash" not in key_to_dict(user_key)
        with pytest.raises(NotFound):
            await tenancy.issue_key(deps, "nobody")
        with pytest.raises(InvalidInput, match="role"):
            await tenancy.issue_key(deps, "acme", role="root")  # type: ignore[arg-type]

    run(scenario)


def test_authentication_failures_do_not_tell_which_key_ids_exist() -> None:
    async def scenario(deps: Deps) -> None:
        await tenancy.create_tenant(deps, "acme")
        key, token = await tenancy.issue_key(deps, "acme")
        for missing in (None, "", "   "):
            with pytest.raises(Unauthorized, match="missing"):
                await tenancy.authenticate(deps, missing)
        for malformed in ("Bearer x", "hk_only", "xx_a_b", "hk__secret"):
            with pytest.raises(Unauthorized, match="malformed"):
                await tenancy.authenticate(deps, malformed)
        wrong_secret = f"hk_{key.id}_not-the-secret"
        unknown_id = "hk_0000000000000000_" + token.split("_", 2)[2]
        messages = set()
        for bad in (wrong_secret, unknown_id):
            with pytest.raises(Unauthorized) as caught:
                await tenancy.authenticate(deps, bad)
            messages.add(str(caught.value))
        await tenancy.revoke_key(deps, key.id)
        with pytest.raises(Unauthorized) as caught:
            await tenancy.authenticate(deps, token)
        messages.add(str(caught.value))
        assert messages == {tenancy.INVALID_KEY}

    run(scenario)


def test_a_disabled_tenants_keys_stop_working_until_it_is_enabled() -> None:
    async def scenario(deps: Deps) -> None:
        await tenancy.create_tenant(deps, "acme")
        _, token = await tenancy.issue_key(deps, "acme")
        await tenancy.update_tenant(deps, "acme", disabled=True)
        with pytest.raises(Unauthorized, match="disabled"):
            await tenancy.authenticate(deps, token)
        await tenancy.update_tenant(deps, "acme", disabled=False)
        assert (await tenancy.authenticate(deps, token)).tenant_id == "acme"

    run(scenario)


def test_last_use_is_recorded_at_most_once_a_minute() -> None:
    async def scenario(deps: Deps) -> None:
        await tenancy.create_tenant(deps, "acme")
        key, token = await tenancy.issue_key(deps, "acme")
        assert key.last_used_at is None
        await tenancy.authenticate(deps, token)
        assert (await deps.tenants.get_key(key.id)).last_used_at == T0
        clock(deps).advance(30)
        await tenancy.authenticate(deps, token)
        assert (await deps.tenants.get_key(key.id)).last_used_at == T0
        clock(deps).advance(31)
        await tenancy.authenticate(deps, token)
        assert (await deps.tenants.get_key(key.id)).last_used_at == clock(deps).now()

    run(scenario)


def test_recording_last_use_is_best_effort(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario(deps: Deps) -> None:
        await tenancy.create_tenant(deps, "acme")
        _, token = await tenancy.issue_key(deps, "acme")

        async def broken(key_id: str, when: datetime) -> None:
            raise OSError("disk full")

        deps.tenants.touch_key = broken  # type: ignore[method-assign]
        assert (await tenancy.authenticate(deps, token)).tenant_id == "acme"

    run(scenario)
    assert "could not record the use of API key" in caplog.text


def test_revoke_and_list_keys() -> None:
    async def scenario(deps: Deps) -> None:
        await tenancy.create_tenant(deps, "acme")
        await tenancy.create_tenant(deps, "globex")
        k1, _ = await tenancy.issue_key(deps, "acme", name="first")
        clock(deps).advance(1)
        k2, _ = await tenancy.issue_key(deps, "globex")
        revoked = await tenancy.revoke_key(deps, k1.id)
        assert revoked.revoked_at == clock(deps).now() and not revoked.active
        clock(deps).advance(1)
        assert (await tenancy.revoke_key(deps, k1.id)).revoked_at == revoked.revoked_at  # once
        assert [k.id for k in await tenancy.list_keys(deps)] == [k1.id, k2.id]
        assert [k.id for k in await tenancy.list_keys(deps, "globex")] == [k2.id]
        with pytest.raises(NotFound):
            await tenancy.revoke_key(deps, "nope")
        with pytest.raises(NotFound):
            await tenancy.list_keys(deps, "nobody")

    run(scenario)


def test_the_local_principal_is_an_unlimited_admin() -> None:
    principal = tenancy.local_principal()
    assert (principal.tenant_id, principal.is_admin, principal.key_id) == ("default", True, None)
    assert principal.tenant.quotas == Quotas(requests_per_minute=None, max_memories=None)
    assert tenancy.local_principal("acme").tenant_id == "acme"


# -- quotas -------------------------------------------------------------------------------------
def test_requests_are_counted_per_minute_per_tenant() -> None:
    async def scenario(deps: Deps) -> None:
        acme = await tenancy.create_tenant(deps, "acme", requests_per_minute=3)
        globex = await tenancy.create_tenant(deps, "globex", requests_per_minute=1)
        unlimited = await tenancy.create_tenant(deps, "big", plan="unlimited")
        for _ in range(3):
            await tenancy.count_request(deps, acme)
        with pytest.raises(QuotaExceeded) as caught:
            await tenancy.count_request(deps, acme)
        assert 0 < caught.value.retry_after_seconds <= 60
        await tenancy.count_request(deps, globex)  # tenants are counted apart
        with pytest.raises(QuotaExceeded):
            await tenancy.count_request(deps, globex)
        for _ in range(1000):
            await tenancy.count_request(deps, unlimited)

    run(scenario)


def test_the_memory_quota_counts_messages_and_direct_facts_of_the_whole_tenant_exactly() -> None:
    async def scenario(deps: Deps) -> None:
        acme = await tenancy.create_tenant(deps, "acme", max_memories=3)
        scopes = [Scope("acme", "alice"), Scope("acme", "bob")]
        await deps.memories.upsert([_memory(f"m{i}", scopes[i % 2]) for i in range(2)])
        await deps.memories.upsert([_memory("other", Scope("globex", "alice"))])
        derived = _memory("derived", scopes[0])
        derived.source_message_ids = ["msg_1"]  # extracted from a turn: the product's work, not counted
        await deps.memories.upsert([derived])
        await tenancy.check_memory_quota(deps, acme)
        with pytest.raises(QuotaExceeded, match="stores 2 memories and its plan allows 3") as caught:
            await tenancy.check_memory_quota(deps, acme, adding=2)
        assert caught.value.retry_after_seconds is None  # waiting frees nothing
        await deps.memories.upsert([_memory("m2", scopes[0])])
        with pytest.raises(QuotaExceeded, match="stores 3"):  # no cache: the next look sees it
            await tenancy.check_memory_quota(deps, acme)
        await tenancy.check_memory_quota(deps, acme, adding=0)
        unlimited = await tenancy.update_tenant(deps, "acme", max_memories=None)
        await tenancy.check_memory_quota(deps, unlimited, adding=10**9)

    run(scenario)


def _memory(memory_id: str, scope: Scope) -> MemoryItem:
    return MemoryItem(id=memory_id, scope=scope, kind=MemoryKind.FACT, content="x", created_at=T0)
