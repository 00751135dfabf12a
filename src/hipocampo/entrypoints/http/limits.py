"""Request size limit: 413 before reading a body that announces itself too large, and 413 as
soon as a streamed (chunked) body goes past the limit, so nobody can make the server buffer an
unbounded request."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import error_response


class _TooLarge(HTTPException):
    """An HTTPException, so that FastAPI's body reader passes it on instead of calling it a 400."""

    def __init__(self, max_bytes: int) -> None:
        detail = f"request body is larger than {max_bytes} bytes (HIPOCAMPO_MAX_REQUEST_BYTES)"
        super().__init__(413, detail, {"Connection": "close"})


class BodySizeLimit:
    """ASGI middleware: at most ``max_bytes`` of request body."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None:
            try:
                size = int(declared)
            except ValueError:
                await error_response(400, "bad_request", "Content-Length is not a number")(scope, receive, send)
                return
            if size > self.max_bytes:
                await self._reject(scope, receive, send)
                return
        seen = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge(self.max_bytes)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except _TooLarge:
            if started:
                raise
            await self._reject(scope, receive, send)

    async def _reject(self, scope: Scope, receive: Receive, send: Send) -> None:
        exc = _TooLarge(self.max_bytes)
        await error_response(413, "payload_too_large", exc.detail, exc.headers)(scope, receive, send)
