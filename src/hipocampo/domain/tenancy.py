"""Tenants, plans and API keys: who may call the service and how much.

A tenant owns everything under it: user ids are namespaced inside it (``Scope.tenant_id``), and an
API key belongs to exactly one tenant. Keys are shown once, at creation, and stored only as a hash.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, replace
from datetime import datetime
from enum import Enum
from typing import Any

from .errors import InvalidInput, Unauthorized
from .model import check_id

TOKEN_PREFIX = "hk"


class KeyRole(str, Enum):
    USER = "user"  # reads and writes the tenant's memories
    ADMIN = "admin"  # everything a user key does, plus the tenant's admin routes (metrics)


@dataclass(frozen=True)
class Quotas:
    """Per-tenant limits; ``None`` means unlimited."""

    requests_per_minute: int | None = 600
    max_memories: int | None = 100_000

    def __post_init__(self) -> None:
        for name in ("requests_per_minute", "max_memories"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise InvalidInput(f"{name} must be a positive integer or unlimited")


PLANS: dict[str, Quotas] = {
    "free": Quotas(requests_per_minute=60, max_memories=10_000),
    "standard": Quotas(requests_per_minute=600, max_memories=1_000_000),
    "unlimited": Quotas(requests_per_minute=None, max_memories=None),
}
"""Plans a tenant can be created on (a plan sets a tenant's quotas). A tenant's quotas
start as its plan's and can be overridden one by one."""


@dataclass
class Tenant:
    id: str
    name: str
    plan: str
    quotas: Quotas
    created_at: datetime
    disabled: bool = False

    def __post_init__(self) -> None:
        check_id("tenant_id", self.id)
        if self.plan not in PLANS:
            raise InvalidInput(f"plan must be one of {', '.join(PLANS)}, got {self.plan!r}")


@dataclass
class ApiKey:
    """A stored key: never the secret itself, only its SHA-256."""

    id: str  # public part of the token, also its primary key
    tenant_id: str
    role: KeyRole
    secret_hash: str
    name: str
    created_at: datetime
    revoked_at: datetime | None = None
    last_used_at: datetime | None = None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


@dataclass(frozen=True)
class Principal:
    """Who is calling: the tenant every request is scoped to, and the key's role."""

    tenant: Tenant
    key_id: str | None
    role: KeyRole

    @property
    def tenant_id(self) -> str:
        return self.tenant.id

    @property
    def is_admin(self) -> bool:
        return self.role is KeyRole.ADMIN


def new_token() -> tuple[str, str, str]:
    """A fresh key: ``(key_id, token, secret_hash)``. The token is ``hk_<key_id>_<secret>``.

    The secret is 256 random bits, so a plain SHA-256 is enough to store it: slow password hashes
    (bcrypt, argon2) exist to protect guessable passwords, and nobody can guess this one.
    """
    key_id = secrets.token_hex(8)
    secret = secrets.token_urlsafe(32)
    return key_id, f"{TOKEN_PREFIX}_{key_id}_{secret}", hash_secret(secret)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def split_token(token: str) -> tuple[str, str]:
    """``(key_id, secret)`` of a token; :class:`Unauthorized` when it is not shaped like one."""
    parts = token.strip().split("_", 2) if isinstance(token, str) else []
    if len(parts) != 3 or parts[0] != TOKEN_PREFIX or not parts[1] or not parts[2]:
        raise Unauthorized("malformed API key: expected hk_<id>_<secret>")
    return parts[1], parts[2]


def secret_matches(key: ApiKey, secret: str) -> bool:
    return hmac.compare_digest(key.secret_hash, hash_secret(secret))


def with_quotas(tenant: Tenant, **overrides: int | None) -> Tenant:
    return replace(tenant, quotas=replace(tenant.quotas, **overrides))


def tenant_to_dict(tenant: Tenant) -> dict[str, Any]:
    """JSON-ready view of a tenant (``None`` quotas mean unlimited)."""
    return {
        "id": tenant.id,
        "name": tenant.name,
        "plan": tenant.plan,
        "requests_per_minute": tenant.quotas.requests_per_minute,
        "max_memories": tenant.quotas.max_memories,
        "disabled": tenant.disabled,
        "created_at": tenant.created_at.isoformat(),
    }


def key_to_dict(key: ApiKey) -> dict[str, Any]:
    """JSON-ready view of a key: never its secret, nor the secret's hash."""
    return {
        "id": key.id,
        "tenant_id": key.tenant_id,
        "role": key.role.value,
        "name": key.name,
        "active": key.active,
        "created_at": key.created_at.isoformat(),
        "revoked_at": key.revoked_at.isoformat() if key.revoked_at else None,
        "last_used_at": key.last_used_at.isoformat() if key.last_used_at else None,
    }
