"""Tenants, API keys and quotas: who may call the service, as whom, and how much.

The HTTP and MCP entry points call :func:`authenticate` on every request, then
:func:`count_request`; the write services enforce the memory quota themselves. Administrators manage
tenants and keys through the other functions (``hipocampo tenants``, ``hipocampo keys``).
"""

from __future__ import annotations

import hmac
import logging
from dataclasses import replace
from datetime import timedelta
from types import EllipsisType

from ..domain.errors import InvalidInput, NotFound, QuotaExceeded, Unauthorized
from ..domain.ids import check_path_id
from ..domain.model import utcnow
from ..domain.tenancy import (
    PLANS,
    ApiKey,
    KeyRole,
    Principal,
    Quotas,
    Tenant,
    hash_secret,
    new_token,
    secret_matches,
    split_token,
)
from . import quota
from .deps import Deps

log = logging.getLogger(__name__)

Limit = int | None | EllipsisType
"""A quota argument: a positive int, ``None`` for unlimited, ``...`` for "leave as it is"."""

MAX_NAME_CHARS = 200
TOUCH_EVERY = timedelta(minutes=1)
"""A key's ``last_used_at`` is written at most this often: it is bookkeeping, not an audit log."""
INVALID_KEY = "invalid or revoked API key"
"""One message for an unknown key id, a wrong secret and a revoked key: the answer must not tell a
caller which key ids exist."""

_UNKNOWN_KEY_HASH = hash_secret("no such key")


# -- tenants ------------------------------------------------------------------------------------
async def create_tenant(
    deps: Deps,
    tenant_id: str,
    *,
    name: str | None = None,
    plan: str = "standard",
    requests_per_minute: Limit = ...,
    max_memories: Limit = ...,
) -> Tenant:
    """Create a tenant on ``plan``; quotas start as the plan's, then the ones given here win.

    ``name`` defaults to the id. Raises :class:`Conflict` when the id is taken.
    """
    tenant_id = check_path_id("tenant_id", tenant_id) or tenant_id  # NFC, as stored; no "/" (domain.ids)
    quotas = _quotas(_plan(plan), requests_per_minute, max_memories)
    tenant = Tenant(
        id=tenant_id,
        name=_name(tenant_id if name is None else name),
        plan=plan,
        quotas=quotas,
        created_at=deps.clock.now(),
    )
    await deps.tenants.create_tenant(tenant)
    return tenant


async def update_tenant(
    deps: Deps,
    tenant_id: str,
    *,
    name: str | None = None,
    plan: str | None = None,
    disabled: bool | None = None,
    requests_per_minute: Limit = ...,
    max_memories: Limit = ...,
) -> Tenant:
    """Change what is given and keep the rest. A new ``plan`` resets the quotas to that plan's,
    except those given in the same call. A disabled tenant's keys stop working at once."""
    tenant = await get_tenant(deps, tenant_id)
    base = tenant.quotas if plan is None else _plan(plan)
    updated = replace(
        tenant,
        name=tenant.name if name is None else _name(name),
        plan=tenant.plan if plan is None else plan,
        quotas=_quotas(base, requests_per_minute, max_memories),
        disabled=tenant.disabled if disabled is None else bool(disabled),
    )
    await deps.tenants.update_tenant(updated)
    return updated


async def get_tenant(deps: Deps, tenant_id: str) -> Tenant:
    """The tenant; :class:`NotFound` when there is none with this id."""
    tenant = await deps.tenants.get_tenant(tenant_id)
    if tenant is None:
        raise NotFound(f"no tenant {tenant_id!r}")
    return tenant


async def list_tenants(deps: Deps) -> list[Tenant]:
    """Every tenant, by id."""
    return await deps.tenants.list_tenants()


def _plan(plan: str) -> Quotas:
    if plan not in PLANS:
        raise InvalidInput(f"plan must be one of {', '.join(PLANS)}, got {plan!r}")
    return PLANS[plan]


def _quotas(base: Quotas, requests_per_minute: Limit, max_memories: Limit) -> Quotas:
    given = {"requests_per_minute": requests_per_minute, "max_memories": max_memories}
    return replace(base, **{k: v for k, v in given.items() if v is not ...})  # validated by Quotas


def _name(name: str) -> str:
    if not isinstance(name, str) or len(name) > MAX_NAME_CHARS or any(ord(c) < 32 for c in name):
        raise InvalidInput(f"name must be text of at most {MAX_NAME_CHARS} characters, without control characters")
    return name.strip()


# -- keys ---------------------------------------------------------------------------------------
async def issue_key(deps: Deps, tenant_id: str, *, role: KeyRole = KeyRole.USER, name: str = "") -> tuple[ApiKey, str]:
    """A new key for the tenant: ``(key, token)``. The token is returned here and never again;
    only its hash is stored. :class:`NotFound` when the tenant does not exist."""
    tenant = await get_tenant(deps, tenant_id)
    try:
        role = KeyRole(role)
    except ValueError:
        raise InvalidInput(f"role must be one of {', '.join(r.value for r in KeyRole)}, got {role!r}") from None
    key_id, token, secret_hash = new_token()
    key = ApiKey(
        id=key_id,
        tenant_id=tenant.id,
        role=role,
        secret_hash=secret_hash,
        name=_name(name),
        created_at=deps.clock.now(),
    )
    await deps.tenants.add_key(key)
    return key, token


async def revoke_key(deps: Deps, key_id: str) -> ApiKey:
    """Revoke a key for good (revoking it again changes nothing); :class:`NotFound` when unknown."""
    key = await deps.tenants.get_key(key_id)
    if key is None:
        raise NotFound(f"no API key {key_id!r}")
    if key.active:
        now = deps.clock.now()
        if await deps.tenants.revoke_key(key_id, now):
            key = replace(key, revoked_at=now)
        else:  # revoked meanwhile by someone else
            key = await deps.tenants.get_key(key_id) or key
    return key


async def list_keys(deps: Deps, tenant_id: str | None = None) -> list[ApiKey]:
    """Every key, or the tenant's, oldest first; revoked ones included (see ``active``)."""
    if tenant_id is not None:
        await get_tenant(deps, tenant_id)
    return await deps.tenants.list_keys(tenant_id)


# -- requests -----------------------------------------------------------------------------------
async def authenticate(deps: Deps, token: str | None) -> Principal:
    """Who is calling, from the ``hk_<id>_<secret>`` token of the request.

    :class:`Unauthorized` for a missing or malformed token, an unknown, wrong or revoked key, and
    a disabled tenant.
    """
    if token is None or not token.strip():
        raise Unauthorized("missing API key")
    key_id, secret = split_token(token)
    key = await deps.tenants.get_key(key_id)
    if key is None:
        # Hash and compare anyway, so an unknown id answers in the time a wrong secret does.
        hmac.compare_digest(_UNKNOWN_KEY_HASH, hash_secret(secret))
        raise Unauthorized(INVALID_KEY)
    if not secret_matches(key, secret) or not key.active:
        raise Unauthorized(INVALID_KEY)
    tenant = await deps.tenants.get_tenant(key.tenant_id)
    if tenant is None:
        raise Unauthorized(INVALID_KEY)
    if tenant.disabled:
        raise Unauthorized(f"tenant {tenant.id!r} is disabled")
    await _note_use(deps, key)
    return Principal(tenant=tenant, key_id=key.id, role=key.role)


async def _note_use(deps: Deps, key: ApiKey) -> None:
    now = deps.clock.now()
    if key.last_used_at is not None and now - key.last_used_at < TOUCH_EVERY:
        return
    marker = f"key-used:{key.id}"  # stops a burst of requests from writing it once each
    if await deps.cache.get(marker) is not None:
        return
    await deps.cache.set(marker, True, TOUCH_EVERY.total_seconds())
    try:
        await deps.tenants.touch_key(key.id, now)
    except Exception:  # bookkeeping: a failed write must not fail the request it describes
        log.warning("could not record the use of API key %s", key.id, exc_info=True)


def local_principal(tenant_id: str = "default") -> Principal:
    """The caller when the service runs without authentication (``hipocampo serve --no-auth``):
    an administrator of ``tenant_id`` with no quotas."""
    tenant = Tenant(id=tenant_id, name=tenant_id, plan="unlimited", quotas=PLANS["unlimited"], created_at=utcnow())
    return Principal(tenant=tenant, key_id=None, role=KeyRole.ADMIN)


async def count_request(deps: Deps, tenant: Tenant) -> None:
    """Count one request of ``tenant`` against its ``requests_per_minute`` (``deps.limiter``:
    in process, or in Redis and then across every server process); :class:`QuotaExceeded`, with
    the seconds until a slot frees up, when the tenant already made that many in the last minute.
    Unlimited tenants are not counted. A limiter whose Redis is down lets requests through."""
    per_minute = tenant.quotas.requests_per_minute
    if per_minute is None:
        return
    wait = await deps.limiter.hit(f"tenant:{tenant.id}", per_minute)
    if wait is not None:
        raise QuotaExceeded(
            f"tenant {tenant.id!r} made more than {per_minute} requests in a minute; retry later",
            retry_after_seconds=wait,
        )


async def check_memory_quota(deps: Deps, tenant: Tenant, adding: int = 1) -> None:
    """:class:`QuotaExceeded` when storing ``adding`` more memories would take the tenant over its
    ``max_memories``: a look before costly work (an LLM call) that would be refused anyway.

    The write services enforce the quota themselves, exactly, in the write's transaction
    (:mod:`hipocampo.services.quota`); this check only spares work and needs no lock.
    """
    limit = tenant.quotas.max_memories
    if limit is None:
        return
    if isinstance(adding, bool) or not isinstance(adding, int) or adding < 0:
        raise InvalidInput("adding must be a non-negative integer")
    used = await deps.tenants.memory_usage(tenant.id)
    if used + adding > limit:
        raise quota.exhausted(tenant.id, used, limit)
