"""`hipocampo tenants` and `hipocampo keys`, end to end on a real store (each backend)."""

from __future__ import annotations

import asyncio

import pytest

from hipocampo.bootstrap import bootstrap
from hipocampo.domain.errors import Unauthorized
from hipocampo.domain.tenancy import Principal
from hipocampo.services.tenancy import authenticate
from hipocampo.settings import Settings

pytestmark = pytest.mark.backends()


def _one_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def _authenticate(db: str, token: str) -> Principal:
    async def main() -> Principal:
        res = await bootstrap(Settings(db=db, embedder="fake"))
        try:
            return await authenticate(res.deps, token)
        finally:
            await res.close()

    return asyncio.run(main())


def test_create_list_and_update_tenants(cli) -> None:
    created = cli.json("tenants", "create", "acme", "--name", "ACME Inc", "--plan", "free", "--rpm", "unlimited")
    assert created["id"] == "acme" and created["name"] == "ACME Inc" and created["plan"] == "free"
    assert (created["requests_per_minute"], created["max_memories"]) == (None, 10_000)
    human = cli("tenants", "create", "globex", "--max-memories", "500")
    assert "created globex: plan standard, 600 requests/minute, 500 memories" in human.stdout

    listed = cli.json("tenants", "list")
    assert [t["id"] for t in listed] == ["acme", "globex"]
    table = cli("tenants", "list").stdout
    assert "ACME Inc" in table and "unlimited" in table

    updated = cli.json("tenants", "update", "acme", "--plan", "standard", "--max-memories", "42", "--disable")
    assert (updated["plan"], updated["requests_per_minute"], updated["max_memories"]) == ("standard", 600, 42)
    assert updated["disabled"] is True and updated["name"] == "ACME Inc"
    enabled = cli("tenants", "update", "acme", "--enable").stdout
    assert "updated acme: plan standard" in enabled and "disabled" not in enabled


def test_tenant_errors_are_one_line_and_exit_non_zero(cli) -> None:
    cli("tenants", "create", "acme")
    taken = cli("tenants", "create", "acme", code=1)
    assert "tenant 'acme' already exists" in _one_error_line(taken.stderr)
    bad_plan = cli("tenants", "create", "x", "--plan", "gold", code=2)
    assert "plan must be one of free, standard, unlimited" in _one_error_line(bad_plan.stderr)
    bad_rpm = cli("tenants", "create", "x", "--rpm", "lots", code=2)
    assert "--rpm must be a positive integer or 'unlimited'" in _one_error_line(bad_rpm.stderr)
    cli("tenants", "create", "x", "--max-memories", "0", code=2)
    missing = cli("tenants", "update", "nobody", "--name", "x", code=2)
    assert "no tenant 'nobody'" in _one_error_line(missing.stderr)
    assert "no tenants yet" not in cli("tenants", "list").stdout


def test_a_created_key_is_shown_once_and_authenticates(cli, db_path) -> None:
    cli("tenants", "create", "acme")
    created = cli("keys", "create", "--tenant", "acme", "--admin", "--name", "ops")
    token = created.stdout.strip()
    assert token.startswith("hk_") and len(token.splitlines()) == 1  # stdout holds the token alone
    assert "will not be shown again" in created.stderr
    principal = _authenticate(db_path, token)
    assert principal.tenant_id == "acme" and principal.is_admin

    as_json = cli.json("keys", "create", "--tenant", "acme")
    assert as_json["role"] == "user" and as_json["token"].startswith(f"hk_{as_json['id']}_")

    keys = cli.json("keys", "list", "--tenant", "acme")
    assert [k["role"] for k in keys] == ["admin", "user"] and keys[0]["name"] == "ops"
    listing = cli("keys", "list").stdout
    for secret_bearing in (token, as_json["token"], token.split("_", 2)[2]):
        assert secret_bearing not in listing
    assert all("token" not in k and "secret_hash" not in k for k in keys)


def test_revoke_a_key(cli, db_path) -> None:
    cli("tenants", "create", "acme")
    key = cli.json("keys", "create", "--tenant", "acme")
    revoked = cli("keys", "revoke", key["id"])
    assert f"revoked key {key['id']} of tenant acme" in revoked.stdout
    listed = cli.json("keys", "list")
    assert listed[0]["active"] is False and listed[0]["revoked_at"] is not None
    assert cli.json("keys", "revoke", key["id"])["active"] is False  # again: nothing changes
    with pytest.raises(Unauthorized):
        _authenticate(db_path, key["token"])


def test_key_errors(cli) -> None:
    unknown_tenant = cli("keys", "create", "--tenant", "nobody", code=2)
    assert "no tenant 'nobody'" in _one_error_line(unknown_tenant.stderr)
    unknown_key = cli("keys", "revoke", "nope", code=2)
    assert "no API key 'nope'" in _one_error_line(unknown_key.stderr)
    assert "no API keys yet" in cli("keys", "list").stdout
    assert cli.json("keys", "list") == []
