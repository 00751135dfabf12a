"""From exceptions to HTTP answers: every client mistake is a 4xx with a readable ``detail``.

Bodies are ``{"error": <code>, "detail": <message>}``. Anything unexpected is logged with its
traceback and answered with a bare 500: no exception text, no stack, no SQL reaches the client.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ...domain.errors import (
    WIRE_ERRORS,
    HipocampoError,
    QuotaExceeded,
    ServerBusy,
    StorageUnavailable,
    Unauthorized,
)
from .responses import ErrorOut
from .schemas import ID_PATTERN, ID_RULE

log = logging.getLogger("hipocampo.http")

_HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}


def error_response(status: int, code: str, detail: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": code, "detail": detail}, status_code=status, headers=headers)


def retry_after(seconds: float | None) -> str:
    return str(max(1, math.ceil(seconds or 1)))


async def _hipocampo_error(request: Request, exc: Exception) -> JSONResponse:
    for cls, status, code in WIRE_ERRORS:
        if isinstance(exc, cls):
            headers = None
            if isinstance(exc, Unauthorized):
                headers = {"WWW-Authenticate": 'Bearer realm="hipocampo"'}
            elif isinstance(exc, QuotaExceeded) and exc.retry_after_seconds is not None:
                # A quota that frees up with time says when; an exhausted memory quota does not
                # (waiting will not help), so a client is not invited into a retry loop.
                headers = {"Retry-After": retry_after(exc.retry_after_seconds)}
            elif isinstance(exc, (StorageUnavailable, ServerBusy)):
                headers = {"Retry-After": retry_after(exc.retry_after_seconds)}
                log.warning("%s on %s %s: %s", type(exc).__name__, request.method, request.url.path, exc)
                probe = getattr(getattr(request.app.state, "hipocampo", None), "write_probe", None)
                if isinstance(exc, StorageUnavailable) and probe is not None:
                    probe.failed(exc)  # /readyz turns now, not at its next probe
            return error_response(status, code, str(exc), headers)
    # Operator-side trouble (index built by another embedder, bad configuration): the message is
    # written for people and holds no internals, but it is not the caller's fault.
    log.error("%s on %s %s: %s", type(exc).__name__, request.method, request.url.path, exc)
    return error_response(503, "unavailable", str(exc))


def _where(loc: tuple[Any, ...]) -> str:
    if len(loc) > 1 and loc[0] in ("path", "query", "header", "cookie"):
        return f"{'.'.join(str(p) for p in loc[1:])} ({loc[0]})"
    if len(loc) > 1 and loc[0] == "body":
        return ".".join(str(p) for p in loc[1:])
    return ".".join(str(p) for p in loc) or "body"


def _message(error: dict[str, Any]) -> str:
    ctx = error.get("ctx") or {}
    if error.get("type") == "string_pattern_mismatch" and ctx.get("pattern") == ID_PATTERN:
        return f"must be an id of {ID_RULE}"
    return str(error.get("msg", "is invalid"))


def describe_validation(errors: list[dict[str, Any]]) -> str:
    """``"messages.0.content: String should have at least 1 character; k: ..."``"""
    return "; ".join(f"{_where(tuple(e.get('loc', ())))}: {_message(e)}" for e in errors[:10])


BODY_SHAPES: dict[str, str] = {}
"""Routes whose body nests its fields (``{"session": ..., "arguments": ...}``), by path: an example
body, shown when a body's top level is wrong (a first try usually sends the fields flat)."""


def example_body(model: type[Any]) -> str:
    """The first example of a request model's schema, as JSON."""
    return json.dumps(model.model_config["json_schema_extra"]["examples"][0])


async def _request_validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    if any(e.get("type") == "json_invalid" for e in errors):
        return error_response(400, "malformed_json", "the request body is not valid JSON")
    detail = describe_validation(errors)
    shape = BODY_SHAPES.get(request.url.path)
    if shape and any(_top_level(e) for e in errors):
        detail += f". Expected a body like {shape} (docs/service.md)"
    return error_response(422, "invalid_input", detail)


def _top_level(error: dict[str, Any]) -> bool:
    """A field missing or unexpected at the body's top level, or a body that is no object."""
    loc = tuple(error.get("loc", ()))
    if loc == ("body",):
        return True
    return loc[:1] == ("body",) and len(loc) == 2 and error.get("type") in ("missing", "extra_forbidden")


async def _pydantic_validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ValidationError)
    return error_response(422, "invalid_input", describe_validation([dict(e) for e in exc.errors()]))


async def _http_exception(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    code = _HTTP_CODES.get(exc.status_code, "error")
    return error_response(exc.status_code, code, str(exc.detail), getattr(exc, "headers", None))


def install(app: FastAPI) -> None:
    """Register the handlers; :class:`CatchAll` must wrap the app for the rest."""
    app.add_exception_handler(HipocampoError, _hipocampo_error)
    app.add_exception_handler(RequestValidationError, _request_validation)
    app.add_exception_handler(ValidationError, _pydantic_validation)
    app.add_exception_handler(HTTPException, _http_exception)


class CatchAll:
    """Outermost of our middlewares: a bug becomes a logged, opaque 500 instead of a dropped
    connection or a framework page that may show internals."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:
            log.exception("unexpected error on %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise
            response = error_response(500, "internal_error", "internal server error; the incident was logged")
            await response(scope, receive, send)


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": description}
    for status, description in {
        400: "Malformed JSON body.",
        401: "No API key, or an unknown or revoked one.",
        404: "No such user, thread or memory in the caller's tenant.",
        413: "Request body larger than the server accepts.",
        422: "Invalid input: the detail names each bad field.",
        429: "Rate limit or stored-memories quota exceeded; see Retry-After.",
        503: "The store cannot take writes now (storage_unavailable), or the server is busy; see Retry-After.",
    }.items()
}
"""Documented on every authenticated route."""
