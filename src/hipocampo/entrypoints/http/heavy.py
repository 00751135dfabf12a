"""A per-process limit on heavy requests: exports, per-user metrics, forgetting a user.

Each of these walks a whole user (100k messages is 100 MB of JSON and minutes of work), so a few
callers at once could starve every other request of the one SQLite reader and the event loop. Past
``HIPOCAMPO_MAX_HEAVY_REQUESTS`` running at once, another is refused at once with 503 ``busy`` and
``Retry-After`` instead of queued: a caller that retries later is better served than one whose
request times out in a queue. The count is per process, not per tenant.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterable, AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from starlette.requests import ClientDisconnect
from starlette.responses import StreamingResponse
from starlette.types import Message, Receive, Scope, Send

from ...domain.errors import ServerBusy

RETRY_AFTER_SECONDS = 5.0
STALLED_CLIENT_SECONDS = 60.0
"""A client that takes no bytes for this long loses its stream, and the slot goes back."""

log = logging.getLogger("hipocampo.http")


class HeavyLimit:
    """At most ``limit`` heavy requests at once. A plain counter: the event loop is one thread."""

    def __init__(self, limit: int = 2) -> None:
        self.limit = limit
        self.running = 0

    def acquire(self) -> Callable[[], None]:
        """Take a slot or raise :class:`ServerBusy`; returns the release (safe to call twice)."""
        if self.running >= self.limit:
            raise ServerBusy(
                f"the server is already running {self.running} heavy requests (exports, user metrics, "
                "forgetting users), its limit (HIPOCAMPO_MAX_HEAVY_REQUESTS); retry shortly",
                RETRY_AFTER_SECONDS,
            )
        self.running += 1
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self.running -= 1

        return release

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold a slot for the block."""
        release = self.acquire()
        try:
            yield
        finally:
            release()


class SlotStream(StreamingResponse):
    """A streamed answer that holds a heavy slot until its last byte is sent, or the client goes.

    The slot is released and the body closed when the response finishes for any reason, rather
    than whenever the garbage collector finalises an abandoned generator. A client that stops
    reading without closing would otherwise hold its slot forever: one that takes nothing for
    ``stalled_after`` seconds is cut off."""

    stalled_after = STALLED_CLIENT_SECONDS

    def __init__(self, body: AsyncIterable[Any], release: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(body, **kwargs)
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def patient_send(message: Message) -> None:
            try:
                await asyncio.wait_for(send(message), self.stalled_after)
            except asyncio.TimeoutError:  # an OSError from Python 3.11, which Starlette would take for a disconnect
                raise _Stalled from None

        try:
            await super().__call__(scope, receive, patient_send)
        except _Stalled:
            log.warning(
                "%s %s: the client read nothing for %.0f s; stream cut",
                scope.get("method"),
                scope.get("path"),
                self.stalled_after,
            )
        except ClientDisconnect:  # the client went away midway: nothing to answer
            log.info("%s %s: the client left before the end of the stream", scope.get("method"), scope.get("path"))
        finally:
            self._release()
            close = getattr(self.body_iterator, "aclose", None)
            if close is not None:
                await close()


class _Stalled(Exception):
    """The client took no bytes for ``SlotStream.stalled_after`` seconds."""
