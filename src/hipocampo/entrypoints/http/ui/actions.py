"""The inspector's changes: signing in and out, and curation as the API allows it (edit or delete
a fact, forget a thread or a user). Every POST carries the session's CSRF token; forgetting asks
for a confirmation first, on a page of its own, so it works without JavaScript."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.datastructures import FormData
from starlette.responses import Response

from ....domain.errors import Forbidden, InvalidInput, NotFound, QuotaExceeded, Unauthorized
from ....domain.model import check_id
from ....domain.tenancy import KeyRole
from ..schemas import MemoryIdPath, ThreadIdPath, UserIdPath
from .core import Form, Looker, form_text, link, redirect, ui_of
from .sessions import clear_cookie, set_cookie

router = APIRouter()


@router.get("/login", name="login")
async def login_page(request: Request) -> Response:
    ui = ui_of(request)
    session = ui.sessions.get(request)
    if session is not None and session.signed_in:
        return redirect(link(request, "home"))
    if session is None:
        session = ui.sessions.new()
    response = ui.templates.TemplateResponse(
        request,
        "login.html",
        {"viewer": None, "csrf": session.csrf, "notices": [], "error": None, "auth": ui.service.auth, "user_id": ""},
    )
    set_cookie(request, response, session)
    return response


@router.post("/login", name="sign_in")
async def sign_in(request: Request) -> Response:
    """Check the key through the API's own authentication; the key goes in the POST body only,
    never in a URL, and is never logged. A sign-in counts against the key's tenant's rate limit,
    as any request does; failed ones also count against the client's address
    (:class:`.sessions.FailedSignIns`)."""
    ui = ui_of(request)
    pending = ui.sessions.get(request)
    form = await request.form()
    if pending is None or not pending.csrf_ok(form.get("csrf")):
        raise Forbidden("the sign-in form expired or cookies are blocked: reload the page and try again")
    token, user_id = form_text(form, "key").strip() or None, form_text(form, "user_id").strip() or None
    address = request.client.host if request.client else ""
    try:
        if user_id is not None:
            user_id = check_id("user_id", user_id)
        if ui.service.auth:
            ui.failed_sign_ins.check(address)
            try:
                principal = await ui.memory.authenticate(token)
            except Unauthorized:
                ui.failed_sign_ins.record(address)
                raise
            try:
                await ui.memory.count_request(principal.tenant)
            except QuotaExceeded:
                ui.service.metrics.rejected.labels("rate_limited").inc()
                raise
        else:
            principal, token = ui.memory.local_principal(ui.service.local_tenant), None
        if principal.role is not KeyRole.ADMIN and user_id is None:
            raise InvalidInput("a user key shows one user: name the user it acts for")
    except (Unauthorized, InvalidInput) as exc:
        status = 401 if isinstance(exc, Unauthorized) else 422
        return ui.templates.TemplateResponse(
            request,
            "login.html",
            {
                "viewer": None,
                "csrf": pending.csrf,
                "notices": [],
                "error": str(exc),
                "auth": ui.service.auth,
                "user_id": user_id or "",
            },
            status_code=status,
        )
    ui.sessions.end(pending)
    session = ui.sessions.sign_in(
        token, None if principal.role is KeyRole.ADMIN else user_id, tenant_id=principal.tenant_id
    )
    target = "users" if session.user_id is None else "user"
    params = {} if session.user_id is None else {"user_id": session.user_id}
    if principal.role is KeyRole.ADMIN and user_id is not None:  # an admin who named a user goes there
        target, params = "user", {"user_id": user_id}
    response = redirect(link(request, target, **params))
    set_cookie(request, response, session)
    return response


@router.post("/logout", name="logout")
async def logout(request: Request, viewer: Looker, form: Form) -> Response:
    ui_of(request).sessions.end(viewer.session)
    response = redirect(link(request, "login"))
    clear_cookie(request, response)
    return response


@router.post("/users/{user_id}/memories/{memory_id}/edit", name="edit_memory")
async def edit_memory(
    request: Request, user_id: UserIdPath, memory_id: MemoryIdPath, viewer: Looker, form: Form
) -> Response:
    """Edit a fact's text, type or importance, as ``PATCH /v1/users/{u}/memories/{id}`` does; the
    old text goes into its history."""
    scope = viewer.scope(user_id)
    content = form_text(form, "content")
    memory_type = form_text(form, "memory_type") or None
    try:
        importance = float(form_text(form, "importance").strip() or "nan")
    except ValueError:
        raise InvalidInput("importance must be a number between 0 and 1") from None
    await viewer.mem.update(
        user_id,
        memory_id,
        content,
        tenant_id=scope.tenant_id,
        memory_type=memory_type,
        importance=None if importance != importance else importance,  # NaN: left as it is
        actor=viewer.actor,
    )
    viewer.session.flash("Saved. The old text is in the history below.")
    return redirect(link(request, "memory", user_id=user_id, memory_id=memory_id) + "#history")


@router.post("/users/{user_id}/memories/{memory_id}/delete", name="delete_memory")
async def delete_memory(
    request: Request, user_id: UserIdPath, memory_id: MemoryIdPath, viewer: Looker, form: Form
) -> Response:
    scope = viewer.scope(user_id)
    _confirmed(form)
    item = await viewer.mem.delete(user_id, memory_id, tenant_id=scope.tenant_id)
    viewer.session.flash(f"Deleted {item.kind.value} “{_short(item.content)}” and its history.")
    return redirect(link(request, "user", user_id=user_id))


@router.get("/users/{user_id}/threads/{thread_id}/forget", name="confirm_forget_thread")
async def confirm_forget_thread(
    request: Request, user_id: UserIdPath, thread_id: ThreadIdPath, viewer: Looker
) -> Response:
    scope = viewer.scope(user_id)
    await viewer.mem.thread_page(scope, thread_id, limit=1)  # 404 for a thread not there
    action = link(request, "forget_thread", user_id=user_id, thread_id=thread_id)
    return ui_of(request).page(
        request,
        "confirm.html",
        user_id=user_id,
        action=action,
        back=link(request, "user", user_id=user_id),
        what=f"thread “{thread_id}”",
        detail="its messages, summary, memories and vectors",
    )


@router.post("/users/{user_id}/threads/{thread_id}/forget", name="forget_thread")
async def forget_thread(
    request: Request, user_id: UserIdPath, thread_id: ThreadIdPath, viewer: Looker, form: Form
) -> Response:
    scope = viewer.scope(user_id)
    _confirmed(form)
    counts = await viewer.mem.forget_in(scope, thread_id)
    if counts["messages"] == 0 and counts["memories"] == 0:
        raise NotFound(f"no thread {thread_id!r} for user {user_id!r}")
    viewer.session.flash(f"Forgot thread “{thread_id}”: {counts['messages']} messages, {counts['memories']} memories.")
    if await viewer.mem.user_exists(scope):
        return redirect(link(request, "user", user_id=user_id))
    return redirect(link(request, "home"))


@router.get("/users/{user_id}/forget", name="confirm_forget_user")
async def confirm_forget_user(request: Request, user_id: UserIdPath, viewer: Looker) -> Response:
    scope = viewer.scope(user_id)
    if not await viewer.mem.user_exists(scope):
        raise NotFound(f"no user {user_id!r}")
    return ui_of(request).page(
        request,
        "confirm.html",
        user_id=user_id,
        action=link(request, "forget_user", user_id=user_id),
        back=link(request, "user", user_id=user_id),
        what=f"user “{user_id}”",
        detail="every thread, message, summary, memory and vector of this user",
    )


@router.post("/users/{user_id}/forget", name="forget_user")
async def forget_user(request: Request, user_id: UserIdPath, viewer: Looker, form: Form) -> Response:
    """Forget the whole user, as ``DELETE /v1/users/{u}`` does (one of the heavy operations)."""
    scope = viewer.scope(user_id)
    _confirmed(form)
    async with ui_of(request).service.heavy.slot(scope.tenant_id, "erase"):
        counts = await viewer.mem.forget_in(scope, None)
    if counts["messages"] == 0 and counts["memories"] == 0:
        raise NotFound(f"no user {user_id!r}")
    viewer.session.flash(f"Forgot user “{user_id}”: {counts['threads']} threads, {counts['memories']} memories.")
    if viewer.session.user_id is not None:
        return redirect(link(request, "user", user_id=user_id))
    return redirect(link(request, "users"))


def _confirmed(form: FormData) -> None:
    if form.get("confirm") != "yes":
        raise InvalidInput("tick the box to confirm")


def _short(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
