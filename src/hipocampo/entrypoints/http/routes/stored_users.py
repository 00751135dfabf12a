"""Export and forget a user named in the query string: how users stored with a ``/`` in their id
are reached.

Tenant, user, thread and agent ids may not hold ``/`` (:func:`~hipocampo.domain.ids.check_path_id`):
a path segment cannot carry one, however it is encoded (``/v1/users/sl%2Fash`` is read as
``/v1/users/sl/ash``). Older versions stored such users through the tools, MCP and the query-string
routes, and ``GET /v1/users`` lists them; these two routes take the id as ``?user_id=sl%2Fash`` so
that they can still be exported and forgotten. They do exactly what ``GET /v1/users/{user_id}/export``
and ``DELETE /v1/users/{user_id}`` do, for any user.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..errors import ERROR_RESPONSES
from ..idempotent import CONFLICT, IdempotencyKey
from ..responses import ForgetOut
from ..schemas import StoredUserIdQuery
from ..security import Caller, Mem
from . import users

router = APIRouter(prefix="/v1/users", tags=["users"], responses=ERROR_RESPONSES)


@router.get(
    "/export",
    response_class=users.ExportStream,
    status_code=200,
    responses={200: {"description": "JSON Lines, as `GET /v1/users/{user_id}/export`."}, **users._JSON_ERRORS},
)
async def export_stored_user(
    request: Request, user_id: StoredUserIdQuery, principal: Caller, mem: Mem
) -> users.ExportStream:
    """`GET /v1/users/{user_id}/export` with the user in the query string: the way to export a user
    whose id holds a `/` (stored by an older version; new ids cannot hold one)."""
    return await users.export_user(request=request, user_id=user_id, principal=principal, mem=mem)


@router.delete("", response_model=ForgetOut, responses=CONFLICT)
async def forget_stored_user(
    request: Request, user_id: StoredUserIdQuery, principal: Caller, mem: Mem, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """`DELETE /v1/users/{user_id}` with the user in the query string: the way to forget a user
    whose id holds a `/` (stored by an older version; new ids cannot hold one)."""
    return await users.forget_user(
        request=request, user_id=user_id, principal=principal, mem=mem, idempotency_key=idempotency_key
    )
