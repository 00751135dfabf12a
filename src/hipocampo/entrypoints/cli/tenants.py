"""CLI commands for tenants and API keys (`hipocampo tenants`, `hipocampo keys`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from rich import box
from rich.table import Table

from ...domain.errors import InvalidInput
from ...domain.tenancy import PLANS, ApiKey, KeyRole, Tenant, key_to_dict, tenant_to_dict
from .support import JsonOpt, err, out, print_json, state

if TYPE_CHECKING:
    from ...client import AsyncMemory, Limit

T = TypeVar("T")

tenants_app = typer.Typer(
    help="Tenants of the HTTP service: plans, quotas, disabling.", no_args_is_help=True, rich_markup_mode="markdown"
)
keys_app = typer.Typer(
    help="API keys of the HTTP service: shown once at creation, stored hashed.",
    no_args_is_help=True,
    rich_markup_mode="markdown",
)

PlanOpt = Annotated[str | None, typer.Option("--plan", help=f"Plan: {', '.join(PLANS)}; sets its quotas.")]
NameOpt = Annotated[str | None, typer.Option("--name", help="Display name.")]
RpmOpt = Annotated[
    str | None, typer.Option("--rpm", metavar="N|unlimited", help="Requests per minute (overrides the plan's).")
]
MaxMemoriesOpt = Annotated[
    str | None,
    typer.Option("--max-memories", metavar="N|unlimited", help="Stored memories (overrides the plan's)."),
]
TenantArg = Annotated[str, typer.Argument(help="The tenant's id.", show_default=False)]


def _run(ctx: typer.Context, work: Callable[[AsyncMemory], Awaitable[T]]) -> T:
    # These commands touch no vectors: the fake embedder spares loading a model, and no worker runs.
    return state(ctx).run(work, worker="external", embedder="fake")


def _limit(value: str | None, option: str) -> Limit:
    if value is None:
        return ...
    if value.strip().lower() in ("unlimited", "none"):
        return None
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise InvalidInput(f"{option} must be a positive integer or 'unlimited', got {value!r}")
    return number


def _quota(value: int | None) -> str:
    return "unlimited" if value is None else f"{value:,}"


def _when(value: datetime | None) -> str:
    return "" if value is None else f"{value:%Y-%m-%d %H:%M}"


def _tenant_line(t: Tenant) -> str:
    q = t.quotas
    status = " (disabled)" if t.disabled else ""
    return (
        f"{t.id}{status}: plan {t.plan}, {_quota(q.requests_per_minute)} requests/minute, "
        f"{_quota(q.max_memories)} memories"
    )


# -- tenants ------------------------------------------------------------------------------------
@tenants_app.command("create")
def create_tenant(
    ctx: typer.Context,
    tenant_id: TenantArg,
    name: NameOpt = None,
    plan: Annotated[str, typer.Option("--plan", help=f"Plan: {', '.join(PLANS)}.")] = "standard",
    rpm: RpmOpt = None,
    max_memories: MaxMemoriesOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Create tenant TENANT_ID; then give it a key with `hipocampo keys create --tenant TENANT_ID`."""

    rpm_limit, memories_limit = _limit(rpm, "--rpm"), _limit(max_memories, "--max-memories")
    tenant = _run(
        ctx,
        lambda mem: mem.create_tenant(
            tenant_id, name=name, plan=plan, requests_per_minute=rpm_limit, max_memories=memories_limit
        ),
    )
    if json_out:
        print_json(tenant_to_dict(tenant))
        return
    out().print(f"created {_tenant_line(tenant)}")


@tenants_app.command("update")
def update_tenant(
    ctx: typer.Context,
    tenant_id: TenantArg,
    name: NameOpt = None,
    plan: PlanOpt = None,
    rpm: RpmOpt = None,
    max_memories: MaxMemoriesOpt = None,
    disabled: Annotated[
        bool | None,
        typer.Option("--disable/--enable", help="Disable the tenant (its keys stop working) or enable it again."),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Change TENANT_ID's name, plan, quotas or status; what is not given stays as it is.

    A new --plan resets both quotas to the plan's, except one given with it."""

    rpm_limit, memories_limit = _limit(rpm, "--rpm"), _limit(max_memories, "--max-memories")
    tenant = _run(
        ctx,
        lambda mem: mem.update_tenant(
            tenant_id,
            name=name,
            plan=plan,
            disabled=disabled,
            requests_per_minute=rpm_limit,
            max_memories=memories_limit,
        ),
    )
    if json_out:
        print_json(tenant_to_dict(tenant))
        return
    out().print(f"updated {_tenant_line(tenant)}")


@tenants_app.command("list")
def list_tenants(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """List every tenant with its plan and quotas."""

    tenants = _run(ctx, lambda mem: mem.list_tenants())
    if json_out:
        print_json([tenant_to_dict(t) for t in tenants])
        return
    if not tenants:
        out().print("no tenants yet; create one with `hipocampo tenants create TENANT_ID`")
        return
    table = Table(box=box.SIMPLE_HEAD)
    for column in ("tenant", "name", "plan", "requests/min", "max memories", "status", "created"):
        table.add_column(column, overflow="fold")
    for t in tenants:
        table.add_row(
            t.id,
            t.name,
            t.plan,
            _quota(t.quotas.requests_per_minute),
            _quota(t.quotas.max_memories),
            "disabled" if t.disabled else "active",
            _when(t.created_at),
        )
    out().print(table)


# -- keys ---------------------------------------------------------------------------------------
@keys_app.command("create")
def create_key(
    ctx: typer.Context,
    tenant: Annotated[str, typer.Option("--tenant", help="The tenant the key belongs to.", show_default=False)],
    admin: Annotated[bool, typer.Option("--admin", help="Also allow the tenant's admin routes (metrics).")] = False,
    name: Annotated[str, typer.Option("--name", help="What the key is for (shown in `keys list`).")] = "",
    json_out: JsonOpt = False,
) -> None:
    """Create an API key for --tenant and print its token, once: only its hash is stored.

    The token alone goes to stdout, so `TOKEN=$(hipocampo keys create --tenant acme)` works."""

    role = KeyRole.ADMIN if admin else KeyRole.USER
    key, token = _run(ctx, lambda mem: mem.issue_key(tenant, role=role, name=name))
    if json_out:
        print_json({**key_to_dict(key), "token": token})
        return
    typer.echo(token)
    err().print(
        f"[yellow]Created {role.value} key {key.id} for tenant {key.tenant_id}. Store the token now: "
        "it will not be shown again.[/yellow]",
        soft_wrap=True,
    )


@keys_app.command("list")
def list_keys(
    ctx: typer.Context,
    tenant: Annotated[str | None, typer.Option("--tenant", help="Only this tenant's keys.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """List API keys (ids, roles, last use; never their secrets)."""

    keys: list[ApiKey] = _run(ctx, lambda mem: mem.list_keys(tenant))
    if json_out:
        print_json([key_to_dict(k) for k in keys])
        return
    if not keys:
        out().print("no API keys yet; create one with `hipocampo keys create --tenant TENANT_ID`")
        return
    table = Table(box=box.SIMPLE_HEAD)
    for column in ("key id", "tenant", "role", "name", "status", "created", "last used"):
        table.add_column(column, overflow="fold")
    for k in keys:
        status = "active" if k.active else f"revoked {_when(k.revoked_at)}"
        table.add_row(k.id, k.tenant_id, k.role.value, k.name, status, _when(k.created_at), _when(k.last_used_at))
    out().print(table)


@keys_app.command("revoke")
def revoke_key(
    ctx: typer.Context,
    key_id: Annotated[str, typer.Argument(help="The key's id (see `hipocampo keys list`).", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Revoke KEY_ID for good: requests with it are refused from now on."""

    key = _run(ctx, lambda mem: mem.revoke_key(key_id))
    if json_out:
        print_json(key_to_dict(key))
        return
    out().print(f"revoked key {key.id} of tenant {key.tenant_id}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.add_typer(tenants_app, name="tenants")
    app.add_typer(keys_app, name="keys")
