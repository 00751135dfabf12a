"""An agent's memory in a hipocampo HTTP service (``hipocampo serve``): :class:`RemoteAgentMemory`.

::

    memory = RemoteAgentMemory("https://memory.example.com", api_key="hk_...")
    graph = build_agent_graph(memory, SessionConfig(user_id="ana", thread_id="t1"), model)
    await graph.ainvoke({"messages": [HumanMessage("hi")]})
    await memory.aclose()

The tenant is always the API key's (``SessionConfig.tenant_id`` is not sent). Refusals come back
as the errors the engine raises in process (``InvalidInput``, ``NotFound``, ``Unauthorized``,
``Forbidden``, ``Conflict``, ``QuotaExceeded``...); a service that cannot be reached, times out
or fails raises :class:`ServiceUnavailable`. Every call is safe to retry, and transient failures
are retried: turns carry their message ids, tool writes an ``Idempotency-Key``.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import datetime
from enum import Enum
from typing import Any, Literal
from urllib.parse import quote

from ..domain.errors import (
    WIRE_ERRORS,
    ConfigurationError,
    Conflict,
    Forbidden,
    HipocampoError,
    InvalidInput,
    NotFound,
    QuotaExceeded,
    Unauthorized,
)
from ..domain.limits import MAX_MESSAGES_PER_CALL, MAX_QUERY_CHARS
from .context import MemoryFlags
from .session import SessionConfig
from .tools import GetMemoryResult, WriteResult

try:
    import httpx
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ConfigurationError("RemoteAgentMemory needs httpx: pip install 'hipocampo[langgraph]'") from exc


class ServiceUnavailable(HipocampoError):
    """The hipocampo service could not be reached, timed out, or failed (5xx)."""


_BY_CODE: dict[str, type[HipocampoError]] = {code: cls for cls, _, code in WIRE_ERRORS} | {
    "malformed_json": InvalidInput,
    "payload_too_large": InvalidInput,
}
_BY_STATUS: dict[int, type[HipocampoError]] = {
    400: InvalidInput,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: InvalidInput,
    422: InvalidInput,
    429: QuotaExceeded,
}
_TRANSIENT = {502, 503, 504}


def error_from(response: httpx.Response) -> HipocampoError:
    """The domain error for a service's ``{"error": code, "detail": message}`` answer."""
    try:
        body = response.json()
        code, detail = body.get("error"), body.get("detail")
    except (ValueError, AttributeError):
        code, detail = None, None
    status = response.status_code
    cls = (
        _BY_CODE.get(code or "") or _BY_STATUS.get(status) or (ServiceUnavailable if status >= 500 else HipocampoError)
    )
    message = str(detail or f"hipocampo answered HTTP {status}")
    if cls is QuotaExceeded:
        try:
            retry_after = float(response.headers.get("Retry-After", ""))
        except ValueError:
            retry_after = None
        return QuotaExceeded(message, retry_after)
    return cls(message)


class RemoteAgentMemory:
    """An :class:`~hipocampo.agent.backend.AgentMemory` served by a hipocampo HTTP service.

    ``http_client`` is used as given (its own timeout, proxies, base URL; you close it);
    otherwise one is made per event loop with ``timeout`` seconds per request, and closed by
    :meth:`aclose`. ``retries`` more attempts follow a connection failure, a timeout or a
    502/503/504, ``backoff`` seconds apart, doubling.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        retries: int = 2,
        backoff: float = 0.2,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = timeout
        self._retries = max(retries, 0)
        self._backoff = backoff
        self._given = http_client
        self._owned: httpx.AsyncClient | None = None
        self._owned_loop: asyncio.AbstractEventLoop | None = None

    async def context(self, session: SessionConfig, query: str, flags: MemoryFlags | None = None) -> str:
        """``POST /v1/users/{user_id}/context``: what the in-process ``load_context`` renders."""
        body: dict[str, Any] = {
            "thread_id": session.thread_id,
            "query": query[:MAX_QUERY_CHARS],  # as in process: a pasted document is recalled from its start
            "flags": (flags or MemoryFlags()).model_dump(),
        }
        if session.agent_id is not None:
            body["agent_id"] = session.agent_id
        answer = await self.post(f"/v1/users/{_segment(session.user_id)}/context", body)
        return str(answer["context"])

    async def persist(self, session: SessionConfig, turns: list[dict[str, Any]]) -> None:
        """``POST /v1/users/{user_id}/threads/{thread_id}/messages``, in batches the service accepts."""
        path = f"/v1/users/{_segment(session.user_id)}/threads/{_segment(session.thread_id)}/messages"
        for start in range(0, len(turns), MAX_MESSAGES_PER_CALL):
            body: dict[str, Any] = {"messages": [_jsonable(t) for t in turns[start : start + MAX_MESSAGES_PER_CALL]]}
            if session.agent_id is not None:
                body["agent_id"] = session.agent_id
            await self.post(path, body)

    def tools(self, session: SessionConfig) -> RemoteMemoryTools:
        """The memory tools of ``session``, answered by ``POST /v1/tools/{name}``."""
        return RemoteMemoryTools(self, session)

    async def post(self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
        """POST JSON to the service and return the JSON answer; raises the domain error of a refusal."""
        client = self._client()
        for attempt in range(self._retries + 1):
            try:
                response = await client.post(
                    f"{self.base_url}{path}", json=body, headers={**self._headers, **(headers or {})}
                )
            except httpx.TransportError as exc:  # connection refused or reset, timeouts
                failure: HipocampoError = ServiceUnavailable(
                    f"hipocampo at {self.base_url or 'the client base URL'} did not answer: {type(exc).__name__}"
                )
                failure.__cause__ = exc
            else:
                if response.status_code < 400:
                    return response.json()
                failure = error_from(response)
                if response.status_code not in _TRANSIENT:
                    raise failure
            if attempt < self._retries:
                await asyncio.sleep(self._backoff * 2**attempt)
        raise failure

    async def aclose(self) -> None:
        """Close the HTTP client this object made (not one passed in)."""
        owned, self._owned = self._owned, None
        if owned is not None and self._owned_loop is asyncio.get_running_loop():
            await owned.aclose()

    async def __aenter__(self) -> RemoteAgentMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def _client(self) -> httpx.AsyncClient:
        if self._given is not None:
            return self._given
        loop = asyncio.get_running_loop()
        # A client's connections belong to the loop that opened them: each loop gets its own.
        if self._owned is None or self._owned_loop is not loop:
            self._owned, self._owned_loop = httpx.AsyncClient(timeout=self._timeout), loop
        return self._owned


class RemoteMemoryTools:
    """The four memory tools of one session, over HTTP. As in process, a refusal (an unknown id, a
    bad type, even the service being down) is a result with ``success=False`` the model can read."""

    def __init__(self, remote: RemoteAgentMemory, session: SessionConfig) -> None:
        self.remote = remote
        self.session = session

    async def get_memory(
        self,
        mode: Literal["semantic", "chronological"] = "semantic",
        query: str | None = None,
        memory_type: str | None = None,
        limit: int | None = None,
    ) -> GetMemoryResult:
        arguments = {"mode": mode, "query": query, "memory_type": memory_type, "limit": limit}
        try:
            answer = await self._call("get_memory", arguments)
        except HipocampoError as exc:
            return GetMemoryResult(success=False, mode=str(mode), query=query, error_message=str(exc))
        return GetMemoryResult.model_validate(answer)

    async def save_memory(self, content: str, memory_type: str) -> WriteResult:
        return await self._write("save_memory", {"content": content, "memory_type": memory_type})

    async def update_memory(self, memory_id: str, new_content: str) -> WriteResult:
        return await self._write("update_memory", {"memory_id": memory_id, "new_content": new_content}, memory_id)

    async def delete_memory(self, memory_id: str) -> WriteResult:
        return await self._write("delete_memory", {"memory_id": memory_id}, memory_id)

    async def _write(self, name: str, arguments: dict[str, Any], memory_id: str | None = None) -> WriteResult:
        try:
            # One key per call, kept across the retries: a save that timed out is not saved twice.
            answer = await self._call(name, arguments, {"Idempotency-Key": f"agent-{uuid.uuid4().hex}"})
        except HipocampoError as exc:
            return WriteResult(success=False, memory_id=memory_id, error_message=str(exc))
        return WriteResult.model_validate(answer)

    async def _call(self, name: str, arguments: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
        s = self.session
        session: dict[str, Any] = {
            "user_id": s.user_id,
            "thread_id": s.thread_id,
            "memory_limit": s.memory_limit,
            "memory_min_relevance": s.memory_min_relevance,
            "memory_types": s.memory_types,
        }
        if s.agent_id is not None:
            session["agent_id"] = s.agent_id
        body = {"session": session, "arguments": {k: v for k, v in arguments.items() if v is not None}}
        return await self.remote.post(f"/v1/tools/{name}", body, headers)


def _segment(value: str) -> str:
    return quote(value, safe="")


def _jsonable(turn: dict[str, Any]) -> dict[str, Any]:
    """A turn as the API's JSON: times in ISO-8601, enums by value, unset fields left out."""
    out = {}
    for key, value in turn.items():
        if value is None:
            continue
        if isinstance(value, datetime):
            value = value.isoformat()
        elif isinstance(value, Enum):
            value = value.value
        out[key] = value
    return out
