"""Errors the public API raises. Every one carries a message fit to show a user as is."""


class HipocampoError(Exception):
    """Base class: entry points turn these into one-line messages or HTTP 4xx answers."""


class InvalidInput(HipocampoError, ValueError):
    """The caller sent something we cannot store or answer (empty text, bad time, bad id)."""


class NotFound(HipocampoError, LookupError):
    """No such memory, thread or user in the caller's scope."""


class DimensionMismatch(HipocampoError):
    """The embedder's vectors do not match the vectors already stored in the index."""


class IndexUnavailable(HipocampoError):
    """The vector index cannot be read; recall degrades to keyword search."""


class ConfigurationError(HipocampoError):
    """Settings name something that is not installed or cannot work together."""


class LLMError(HipocampoError):
    """The language model failed, timed out or kept answering in the wrong shape."""


class LLMBudgetExceeded(LLMError):
    """A job made more model calls than ``max_calls_per_job`` allows; it is not retried."""


class Conflict(HipocampoError):
    """The request clashes with what is stored (an existing tenant, an idempotency key reused with
    another body)."""


class Unauthorized(HipocampoError):
    """No credentials, or credentials that are unknown or revoked."""


class Forbidden(HipocampoError):
    """Valid credentials that may not do this (a user key on an admin route)."""


class QuotaExceeded(HipocampoError):
    """A tenant went over its plan: requests per minute or stored memories."""

    def __init__(self, message: str, retry_after_seconds: float | None = None) -> None:
        super().__init__(message)
        self.retry_after_seconds = retry_after_seconds


class StorageUnavailable(HipocampoError):
    """The store cannot take writes right now (read-only file, full disk, I/O error, or locked
    past the busy timeout). Not the caller's fault and usually not permanent: retry after
    ``retry_after_seconds``; the store recovers without a restart once the cause is gone."""

    def __init__(self, message: str, retry_after_seconds: float | None = None) -> None:
        super().__init__(message)
        self.retry_after_seconds = retry_after_seconds


class ServerBusy(HipocampoError):
    """The process is already running as many heavy requests (exports, user metrics, forgetting
    a user) as it allows; the request was not started. Retry after ``retry_after_seconds``."""

    def __init__(self, message: str, retry_after_seconds: float | None = None) -> None:
        super().__init__(message)
        self.retry_after_seconds = retry_after_seconds


WIRE_ERRORS: list[tuple[type[HipocampoError], int, str]] = [
    (InvalidInput, 422, "invalid_input"),
    (NotFound, 404, "not_found"),
    (Conflict, 409, "conflict"),
    (Unauthorized, 401, "unauthorized"),
    (Forbidden, 403, "forbidden"),
    (QuotaExceeded, 429, "quota_exceeded"),
    (LLMError, 503, "llm_unavailable"),
    (StorageUnavailable, 503, "storage_unavailable"),
    (ServerBusy, 503, "busy"),
]
"""How errors cross the HTTP API as ``{"error": code, "detail": message}``: the service answers
with these, and the remote client turns them back into the same exceptions. Subclasses first."""
