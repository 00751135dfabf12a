"""Probes and metrics for operators: liveness, readiness, Prometheus."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from ..errors import retry_after
from ..responses import HealthOut, ReadyOut
from ..security import is_admin, service

router = APIRouter(tags=["operations"])
log = logging.getLogger("hipocampo.http")


@router.get("/healthz", response_model=HealthOut)
async def healthz() -> JSONResponse:
    """Liveness: the process answers. No authentication."""
    return JSONResponse({"status": "ok"})


@router.get("/readyz", response_model=ReadyOut, responses={503: {"model": ReadyOut, "description": "Not ready."}})
async def readyz(request: Request) -> JSONResponse:
    """Readiness: the store is open, can be read (the job queue answers) and takes writes (a tiny
    write of its own, at most every few seconds). No authentication.

    ``cache`` and ``rate_limits`` say ``ok`` or ``degraded`` (Redis unreachable): still ready,
    since the log is the truth; windows are then read from it and rate limits let requests
    through. Why (``degraded: <why>``, which names the Redis host and port) only for a request
    with an admin key, or with auth off: the probe itself is public."""
    state = service(request)
    mem = state.memory
    if mem is None:
        return JSONResponse({"status": "starting", "detail": "the store is not open yet"}, status_code=503)
    try:
        jobs = await mem.queue_stats()
        problem = await mem.write_problem(state.write_probe)
    except Exception as exc:
        log.warning("readiness check failed", exc_info=True)
        return JSONResponse({"status": "unavailable", "detail": type(exc).__name__}, status_code=503)
    if problem is not None:
        return JSONResponse(
            {"status": "unavailable", "detail": str(problem), "jobs": jobs},
            status_code=503,
            headers={"Retry-After": retry_after(problem.retry_after_seconds)},
        )
    components = await mem.shared_components()
    if not await is_admin(request):
        components = {name: value.split(":", 1)[0] for name, value in components.items()}
    return JSONResponse({"status": "ready", "jobs": jobs, **components})


async def metrics(request: Request) -> Response:
    """Prometheus text exposition: request and recall latency, queue depth, dead letters."""
    state = service(request)
    if state.memory is None:
        return Response("store not open\n", status_code=503, media_type="text/plain")
    body = await state.metrics.render(state.memory)
    return Response(body, media_type=state.metrics.content_type)
