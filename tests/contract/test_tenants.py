"""The TenantStore port contract: tenants with their quotas, API keys stored by hash, revocation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from hipocampo.domain.errors import Conflict, NotFound
from hipocampo.domain.tenancy import PLANS, ApiKey, KeyRole, Quotas, Tenant, hash_secret

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


def tenant(tenant_id: str = "acme", **extra) -> Tenant:
    return Tenant(
        **(
            {
                "id": tenant_id,
                "name": tenant_id.title(),
                "plan": "standard",
                "quotas": PLANS["standard"],
                "created_at": T0,
            }
            | extra
        )
    )


def key(key_id: str, tenant_id: str = "acme", **extra) -> ApiKey:
    return ApiKey(
        **(
            {
                "id": key_id,
                "tenant_id": tenant_id,
                "role": KeyRole.USER,
                "secret_hash": hash_secret(f"secret-{key_id}"),
                "name": "",
                "created_at": T0,
            }
            | extra
        )
    )


def test_create_get_and_list_tenants(run: Callable) -> None:
    async def scenario(s) -> None:
        assert await s.tenants.get_tenant("acme") is None
        assert await s.tenants.list_tenants() == []
        acme = tenant("acme", quotas=Quotas(requests_per_minute=None, max_memories=5), plan="free")
        await s.tenants.create_tenant(tenant("globex"))
        await s.tenants.create_tenant(acme)
        assert await s.tenants.get_tenant("acme") == acme  # None quotas (unlimited) survive
        assert [t.id for t in await s.tenants.list_tenants()] == ["acme", "globex"]

    run(scenario)


def test_a_tenant_id_is_taken_once(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.tenants.create_tenant(tenant("acme", name="First"))
        with pytest.raises(Conflict):
            await s.tenants.create_tenant(tenant("acme", name="Second"))
        assert (await s.tenants.get_tenant("acme")).name == "First"

    run(scenario)


def test_update_replaces_plan_quotas_name_and_status(run: Callable) -> None:
    async def scenario(s) -> None:
        original = tenant("acme")
        await s.tenants.create_tenant(original)
        changed = replace(original, name="ACME Inc", plan="free", quotas=PLANS["free"], disabled=True)
        await s.tenants.update_tenant(changed)
        assert await s.tenants.get_tenant("acme") == changed
        with pytest.raises(NotFound):
            await s.tenants.update_tenant(tenant("nobody"))

    run(scenario)


def test_keys_are_stored_and_listed_per_tenant(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.tenants.create_tenant(tenant("acme"))
        await s.tenants.create_tenant(tenant("globex"))
        first = key("k1", role=KeyRole.ADMIN, name="ops")
        await s.tenants.add_key(first)
        await s.tenants.add_key(key("k2", created_at=T0 + timedelta(seconds=1)))
        await s.tenants.add_key(key("k3", "globex"))
        assert await s.tenants.get_key("k1") == first
        assert await s.tenants.get_key("nope") is None
        assert [k.id for k in await s.tenants.list_keys("acme")] == ["k1", "k2"]
        assert [k.id for k in await s.tenants.list_keys()] == ["k1", "k3", "k2"]
        assert await s.tenants.list_keys("initech") == []

    run(scenario)


def test_a_key_needs_its_tenant_and_a_free_id(run: Callable) -> None:
    async def scenario(s) -> None:
        with pytest.raises(NotFound):
            await s.tenants.add_key(key("k1", "nobody"))
        await s.tenants.create_tenant(tenant("acme"))
        await s.tenants.add_key(key("k1"))
        with pytest.raises(Conflict):
            await s.tenants.add_key(key("k1", secret_hash=hash_secret("another")))
        assert (await s.tenants.get_key("k1")).secret_hash == hash_secret("secret-k1")

    run(scenario)


def test_revoke_once_and_touch(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.tenants.create_tenant(tenant("acme"))
        await s.tenants.add_key(key("k1"))
        later = T0 + timedelta(hours=1)
        await s.tenants.touch_key("k1", later)
        assert (await s.tenants.get_key("k1")).last_used_at == later
        assert await s.tenants.revoke_key("k1", later) is True
        assert await s.tenants.revoke_key("k1", later + timedelta(hours=1)) is False
        assert await s.tenants.revoke_key("nope", later) is False
        revoked = await s.tenants.get_key("k1")
        assert revoked.revoked_at == later and not revoked.active
        await s.tenants.touch_key("nope", later)  # nothing to record, no error

    run(scenario)


def test_what_one_connection_writes_another_reads(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.tenants.create_tenant(tenant("acme"))
        await s.tenants.add_key(key("k1"))
        async with s.another_connection() as other:
            assert (await other.tenants.get_tenant("acme")).id == "acme"
            await other.tenants.revoke_key("k1", T0)
        assert not (await s.tenants.get_key("k1")).active

    run(scenario)


def test_writes_inside_a_rolled_back_transaction_vanish(run: Callable) -> None:
    async def scenario(s) -> None:
        with pytest.raises(RuntimeError):
            async with s.uow.transaction():
                await s.tenants.create_tenant(tenant("acme"))
                assert await s.tenants.get_tenant("acme") is not None
                raise RuntimeError("boom")
        assert await s.tenants.get_tenant("acme") is None

    run(scenario)
