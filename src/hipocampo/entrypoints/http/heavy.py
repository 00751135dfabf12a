"""Per-tenant limits on heavy requests: exports, per-user metrics, forgetting a user.

Each of these walks a whole user (100k messages is 100 MB of JSON and minutes of work), so a few
callers at once could starve every other request of the one SQLite reader and the event loop. Past
``HIPOCAMPO_MAX_HEAVY_REQUESTS`` running at once for one tenant, another of that tenant's is
refused at once with 503 ``busy`` and ``Retry-After`` instead of queued: a caller that retries
later is better served than one whose request times out in a queue.

The slots are the tenant's own, so one tenant holding its slots (two exports whose clients read
nothing) never makes another tenant's requests busy. Deletions have slots of their own, apart from
exports and metrics: forgetting a user must never wait behind an export, not even the same
tenant's, since the right to erasure cannot depend on someone's open socket. And a streamed
export whose client takes nothing for ``HIPOCAMPO_STREAM_IDLE_SECONDS`` is cut, giving its slot
back.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import AsyncIterable, AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Literal

from starlette.requests import ClientDisconnect
from starlette.responses import StreamingResponse
from starlette.types import Message, Receive, Scope, Send

from ...domain.errors import ServerBusy

RETRY_AFTER_SECONDS = 5.0
STREAM_IDLE_SECONDS = 30.0
"""A client that takes no bytes for this long loses its stream, and the slot goes back
(``HIPOCAMPO_STREAM_IDLE_SECONDS``)."""

Kind = Literal["read", "erase"]
"""``read``: exports and user metrics; ``erase``: forgetting a user. Each has its own slots."""

_WHAT = {"read": "exports and user metrics", "erase": "user deletions"}
log = logging.getLogger("hipocampo.http")


class HeavyLimit:
    """At most ``limit`` heavy requests of each kind at once, per tenant. A plain counter: the
    event loop is one thread. Tenants with nothing running take no room."""

    def __init__(self, limit: int = 2, idle_seconds: float = STREAM_IDLE_SECONDS) -> None:
        self.limit = limit
        self.idle_seconds = idle_seconds
        self._running: Counter[tuple[str, Kind]] = Counter()

    def running(self, tenant_id: str, kind: Kind = "read") -> int:
        return self._running[(tenant_id, kind)]

    def acquire(self, tenant_id: str, kind: Kind = "read") -> Callable[[], None]:
        """Take one of the tenant's slots or raise :class:`ServerBusy`; returns the release (safe
        to call twice)."""
        key = (tenant_id, kind)
        if self._running[key] >= self.limit:
            raise ServerBusy(
                f"this tenant is already running {self._running[key]} {_WHAT[kind]}, its limit "
                "(HIPOCAMPO_MAX_HEAVY_REQUESTS, per tenant); retry shortly",
                RETRY_AFTER_SECONDS,
            )
        self._running[key] += 1
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self._running[key] -= 1
                if self._running[key] <= 0:
                    del self._running[key]

        return release

    @asynccontextmanager
    async def slot(self, tenant_id: str, kind: Kind = "read") -> AsyncIterator[None]:
        """Hold one of the tenant's slots for the block."""
        release = self.acquire(tenant_id, kind)
        try:
            yield
        finally:
            release()


class SlotStream(StreamingResponse):
    """A streamed answer that holds a heavy slot until its last byte is sent, or the client goes.

    The slot is released and the body closed when the response finishes for any reason, rather
    than whenever the garbage collector finalises an abandoned generator. A client that stops
    reading without closing would otherwise hold its slot forever: one that takes nothing for
    ``idle_seconds`` is cut off."""

    def __init__(
        self,
        body: AsyncIterable[Any],
        release: Callable[[], None],
        idle_seconds: float = STREAM_IDLE_SECONDS,
        **kwargs: Any,
    ) -> None:
        super().__init__(body, **kwargs)
        self._release = release
        self.idle_seconds = idle_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def patient_send(message: Message) -> None:
            try:
                await asyncio.wait_for(send(message), self.idle_seconds)
            except asyncio.TimeoutError:  # an OSError from Python 3.11, which Starlette would take for a disconnect
                raise _Stalled from None

        try:
            await super().__call__(scope, receive, patient_send)
        except _Stalled:
            log.warning(
                "%s %s: the client read nothing for %.0f s (HIPOCAMPO_STREAM_IDLE_SECONDS); stream cut",
                scope.get("method"),
                scope.get("path"),
                self.idle_seconds,
            )
        except ClientDisconnect:  # the client went away midway: nothing to answer
            log.info("%s %s: the client left before the end of the stream", scope.get("method"), scope.get("path"))
        finally:
            self._release()
            close = getattr(self.body_iterator, "aclose", None)
            if close is not None:
                await close()


class _Stalled(Exception):
    """The client took no bytes for ``SlotStream.idle_seconds`` seconds."""
