"""Probes and metrics for operators: liveness, readiness, Prometheus."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from ..responses import HealthOut, ReadyOut
from ..security import service

router = APIRouter(tags=["operations"])
log = logging.getLogger("hipocampo.http")


@router.get("/healthz", response_model=HealthOut)
async def healthz() -> JSONResponse:
    """Liveness: the process answers. No authentication."""
    return JSONResponse({"status": "ok"})


@router.get("/readyz", response_model=ReadyOut, responses={503: {"model": ReadyOut, "description": "Not ready."}})
async def readyz(request: Request) -> JSONResponse:
    """Readiness: the store is open and can be read (the job queue answers). No authentication."""
    mem = service(request).memory
    if mem is None:
        return JSONResponse({"status": "starting", "detail": "the store is not open yet"}, status_code=503)
    try:
        jobs = await mem.deps.jobs.stats()
    except Exception as exc:
        log.warning("readiness check failed", exc_info=True)
        return JSONResponse({"status": "unavailable", "detail": type(exc).__name__}, status_code=503)
    return JSONResponse({"status": "ready", "jobs": jobs})


async def metrics(request: Request) -> Response:
    """Prometheus text exposition: request and recall latency, queue depth, dead letters."""
    state = service(request)
    if state.memory is None:
        return Response("store not open\n", status_code=503, media_type="text/plain")
    body = await state.metrics.render(state.memory.deps)
    return Response(body, media_type=state.metrics.content_type)
