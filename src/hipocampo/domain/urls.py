"""Database and service URLs as they may be shown: in logs, errors and banners.

Pure and import-free, so that every layer may use it (a storage adapter's error message, the
worker's banner, ``hipocampo migrate``) without reaching up to the backends' registry.
"""

from __future__ import annotations

__all__ = ["redact"]


def redact(target: str) -> str:
    """The URL without its password, for logs and messages."""
    if "://" not in target or "@" not in target:
        return target
    scheme, rest = target.split("://", 1)
    creds, host = rest.rsplit("@", 1)
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}" if ":" in creds else target
