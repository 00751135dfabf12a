"""The web inspector: people look into a tenant's memories at ``/ui`` (see docs/inspector.md).

A FastAPI app of its own, mounted by the service under ``/ui``: its errors are HTML pages rather
than JSON, every answer carries a strict Content-Security-Policy, and it signs in with a session
cookie rather than a key header. It reaches the core like the JSON routes do, through the
:class:`~hipocampo.AsyncMemory` facade and the services, with the same key checks and rate limits.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from ..security import ServiceState
from . import actions, operations, pages
from .core import ERROR_HANDLERS, HERE, UI, SecurityHeaders, http_page, make_templates, validation_page
from .operations import LatencySampler
from .sessions import SESSIONS_PER_TENANT, SessionStore

PATH = "/ui"


def create_ui(
    state: ServiceState, *, sample_seconds: float = 30.0, sessions_per_tenant: int = SESSIONS_PER_TENANT
) -> FastAPI:
    """The inspector over the service's state. Its latency sampler runs while
    ``app.state.sampler.running()`` is entered (the service's lifespan does it)."""
    app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
    app.state.ui = UI(state, SessionStore(per_tenant=sessions_per_tenant), make_templates())
    app.state.sampler = LatencySampler(state.metrics, interval=sample_seconds)
    for exc, handler in ERROR_HANDLERS.items():
        app.add_exception_handler(exc, handler)
    app.add_exception_handler(RequestValidationError, validation_page)
    app.add_exception_handler(HTTPException, http_page)
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    for module in (actions, pages, operations):
        app.include_router(module.router)
    return app
