"""The inspector's read pages: users, a user's memory, a thread, a memory with its history, and
the recall playground. They call the same facade and services as the JSON routes."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from ....domain.errors import InvalidInput, NotFound
from ....domain.model import MemoryKind, MemoryType, Scope
from ....domain.retrieval.recall import RecencyMode
from ..schemas import MemoryIdPath, ThreadIdPath, UserIdPath
from .charts import neutral_boosts, score_bars, stacked_bars
from .core import Form, Looker, link, redirect, ui_of

router = APIRouter()
USERS_PER_PAGE = 50
MAX_QUERY_CHARS = 4000


@router.get("/", name="home")
async def home(request: Request, viewer: Looker) -> Response:
    if viewer.session.user_id is not None:
        return redirect(link(request, "user", user_id=viewer.session.user_id))
    return redirect(link(request, "users"))


@router.get("/users", name="users")
async def users(request: Request, viewer: Looker, page: Annotated[int, Query(ge=1, le=1_000_000)] = 1) -> Response:
    """The tenant's users with their counts and last activity (admin keys)."""
    viewer.require_admin()
    rows, total = await viewer.mem.user_rows(viewer.tenant_id, offset=(page - 1) * USERS_PER_PAGE, limit=USERS_PER_PAGE)
    pages = max(1, -(-total // USERS_PER_PAGE))
    return ui_of(request).page(request, "users.html", rows=rows, total=total, page=page, pages=pages)


async def _existing(viewer: Looker, user_id: str) -> Scope:
    scope = viewer.scope(user_id)
    if not await viewer.mem.user_exists(scope):
        raise NotFound(f"no user {user_id!r}")
    return scope


@router.get("/users/{user_id}", name="user")
async def user(request: Request, user_id: UserIdPath, viewer: Looker) -> Response:
    scope = await _existing(viewer, user_id)
    data = await viewer.mem.user_memory(scope)
    return ui_of(request).page(
        request,
        "user.html",
        user_id=user_id,
        data=data,
        chart=stacked_bars(data.by_period),
    )


@router.get("/users/{user_id}/threads/{thread_id}", name="thread")
async def thread(request: Request, user_id: UserIdPath, thread_id: ThreadIdPath, viewer: Looker) -> Response:
    scope = viewer.scope(user_id)
    view = await viewer.mem.thread_view(scope, thread_id)
    return ui_of(request).page(request, "thread.html", user_id=user_id, thread=view)


@router.get("/users/{user_id}/memories/{memory_id}", name="memory")
async def memory(request: Request, user_id: UserIdPath, memory_id: MemoryIdPath, viewer: Looker) -> Response:
    scope = viewer.scope(user_id)
    item = await viewer.mem.get(user_id, memory_id, tenant_id=scope.tenant_id)
    history = await viewer.mem.history(user_id, memory_id, tenant_id=scope.tenant_id)
    now = viewer.mem.now()
    types = [t.value for t in MemoryType] + sorted(viewer.mem.custom_types())
    return ui_of(request).page(
        request,
        "memory.html",
        user_id=user_id,
        item=item,
        history=history,
        current=item.is_current(now),
        editable=item.kind is not MemoryKind.TURN,
        types=types,
    )


@router.get("/users/{user_id}/recall", name="playground")
async def playground(request: Request, user_id: UserIdPath, viewer: Looker) -> Response:
    scope = await _existing(viewer, user_id)
    threads = await viewer.mem.list_threads(scope)
    return ui_of(request).page(
        request,
        "playground.html",
        user_id=user_id,
        threads=threads,
        result=None,
        asked={},
        modes=list(RecencyMode),
    )


@router.post("/users/{user_id}/recall", name="recall")
async def recall(request: Request, user_id: UserIdPath, viewer: Looker, form: Form) -> Response:
    """Recall as the agent would for this user (it counts as an access to the memories returned,
    as the agent's recall does), with every hit's score drawn part by part."""
    scope = await _existing(viewer, user_id)
    threads = await viewer.mem.list_threads(scope)
    query = str(form.get("query", "")).strip()
    thread_id = str(form.get("thread_id", "")) or None
    recency = str(form.get("recency", "")) or None
    if not query:
        raise InvalidInput("type a query")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidInput(f"a query is at most {MAX_QUERY_CHARS} characters")
    if thread_id is not None and thread_id not in threads:
        raise NotFound(f"no thread {thread_id!r} for user {user_id!r}")
    start = time.perf_counter()
    result = await viewer.mem.recall(
        user_id,
        thread_id,
        query,
        tenant_id=scope.tenant_id,
        recency=recency,
    )
    elapsed = time.perf_counter() - start
    ui_of(request).service.metrics.recall.labels("recall").observe(elapsed)
    max_keyword = max((h.explanation.keyword_score or 0.0 for h in result.memories), default=0.0)
    max_score = max((h.score for h in result.memories), default=0.0)
    hits = [(h, score_bars(h, max_keyword, max_score), neutral_boosts(h)) for h in result.memories]
    return ui_of(request).page(
        request,
        "playground.html",
        user_id=user_id,
        threads=threads,
        result=result,
        hits=hits,
        ms=1000 * elapsed,
        asked={"query": query, "thread_id": thread_id or "", "recency": recency or ""},
        modes=list(RecencyMode),
    )
