"""What every chat-client wrapper shares: where the memory lives, whose conversation a call is,
which of its turns are new, and how recalled memory joins the system prompt.

The rule every wrapper keeps: memory is a bonus. A memory failure (a store that is closed or down,
a remote service answering 5xx, a timeout) is logged and the chat call goes on without memory; a
failure of the chat call itself propagates unchanged, and then nothing is stored.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import uuid
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote

from ..domain.errors import ConfigurationError
from ..domain.limits import MAX_QUERY_CHARS

if TYPE_CHECKING:
    from ..agent.remote import RemoteAgentMemory
    from ..client import AsyncMemory
    from ..client_sync import Memory

log = logging.getLogger("hipocampo.integrations")
T = TypeVar("T")

MEMORY_HEADER = "Long-term memory about the user (recalled by hipocampo; use it when it helps, never invent):"
"""The line that introduces the recalled context in the system prompt."""


@dataclass(frozen=True)
class Turn:
    """A chat message reduced to what memory needs: its role and its text."""

    role: str
    text: str


@dataclass(frozen=True)
class Who:
    """Whose conversation a call belongs to. ``named``: the call (or the wrapper) named the
    thread; otherwise the wrapper names it after the conversation's first exchange."""

    user_id: str
    thread_id: str
    named: bool = True


def resolve_who(
    *,
    call_user: Any,
    call_thread: Any,
    metadata: Any,
    bound_user: str | None,
    bound_thread: str | None,
    user_field: Any,
    turns: Sequence[Turn],
) -> Who | None:
    """The user and thread of one call, most specific first: the call's own ``user_id``/``thread_id``
    arguments, then its ``metadata``, then the wrapper's, then (user only) the OpenAI ``user``
    field. ``None``: no user, no memory.

    Without a thread the conversation is named after its first exchange (see
    :func:`conversation_thread`). A call that opens a conversation does not know its answer yet:
    it recalls under a thread nothing is stored in (a new conversation has no recent turns), and
    its turns are stored under the name its answer completes (:func:`new_turns`)."""
    meta = metadata if isinstance(metadata, dict) else {}
    user = _first(call_user, meta.get("user_id"), bound_user, user_field)
    if user is None:
        return None
    thread = _first(call_thread, meta.get("thread_id"), bound_thread)
    if thread is None:
        return Who(user, conversation_thread(turns, None), named=False)
    return Who(user, thread)


def conversation_thread(turns: Sequence[Turn], reply: str | None) -> str:
    """The thread of a conversation that names none: a digest of its first exchange, the first
    user message and the first answer after it (``reply`` when the call is that exchange).

    Every later call of the conversation resends that exchange, so all its calls share the thread.
    The answer is in the name so that two conversations that open alike ("hi") get threads of
    their own, as soon as their answers differ; conversations alike in their whole first exchange
    cannot be told apart and share one (name the thread with ``thread_id=`` to keep them apart).
    Before the answer is known (``reply`` None and no answer in ``turns``), the name is one no
    turn is ever stored under."""
    said = [t for t in turns if t.role not in ("system", "developer")]
    first_user = next((i for i, t in enumerate(said) if t.role == "user"), None)
    opening = said[first_user].text if first_user is not None else (said[0].text if said else "")
    after = said[first_user + 1 :] if first_user is not None else []
    answer = next((t.text for t in after if t.role == "assistant"), reply)
    payload = json.dumps([opening, answer], ensure_ascii=False)
    return "chat-" + hashlib.sha256(payload.encode("utf-8", "replace")).hexdigest()[:16]


def _first(*values: Any) -> str | None:
    return next((str(v) for v in values if v is not None and str(v) != ""), None)


def latest_user_text(turns: Sequence[Turn]) -> str | None:
    """The recall query: the last user message with text, from its start if it is very long."""
    for t in reversed(turns):
        if t.role == "user" and t.text.strip():
            return t.text[:MAX_QUERY_CHARS]
    return None


def sends_history(turns: Sequence[Turn]) -> bool:
    """Whether the call carries its conversation (an earlier answer is in it), as chat apps over a
    stateless API do: then the thread's recent turns are already before the model and recall
    leaves them out of the context. A call that sends only its new message gets them."""
    return any(t.role == "assistant" for t in turns)


def answered(turns: Sequence[Turn]) -> bool:
    """Whether the call resends an answer to its conversation's first user message: then the
    conversation so far fixes where its new turns sit, and their ids can be digests of it."""
    first_user = next((i for i, t in enumerate(turns) if t.role == "user"), None)
    return first_user is not None and any(t.role == "assistant" for t in turns[first_user + 1 :])


def new_call_id() -> str:
    """A fresh id for one logical chat call: made once, before the call, and reused for every
    attempt to store its turns."""
    return uuid.uuid4().hex


def new_turns(
    who: Who,
    turns: Sequence[Turn],
    reply: str | None,
    source: str,
    reply_metadata: dict[str, Any] | None = None,
    *,
    call_id: str,
) -> tuple[Who, list[dict[str, Any]]]:
    """Where and what to store after a call: the user messages after the last assistant message
    (the ones this call adds; earlier ones were stored by the calls that sent them) and the reply,
    with the thread a thread-less conversation gets once its first answer is known.

    The ids make a retry store nothing twice and a repeated message a new turn:

    - a call that resends its conversation (an answer follows its first user message): each id is
      a digest of the conversation up to that turn. A call resent with the same conversation (a
      retry, a regenerated answer) stores nothing new; the same words later in the conversation
      are a new turn, since what precedes them differs.
    - a call that sends only its new message(s), or opens its conversation: nothing in it tells
      "yes" from the earlier "yes", so each call is a new turn. Its ids come from ``call_id``,
      made once per call, so a store retried (by the remote client after a lost answer) is kept
      once.
    """
    if not who.named and not answered(turns):
        who = Who(who.user_id, conversation_thread(turns, reply or ""), named=False)
    by_history = answered(turns)
    last_assistant = max((i for i, t in enumerate(turns) if t.role == "assistant"), default=-1)
    out: list[dict[str, Any]] = []
    for n, i in enumerate(range(last_assistant + 1, len(turns))):
        if turns[i].role == "user" and turns[i].text.strip():
            out.append(
                {
                    "role": "user",
                    "content": turns[i].text,
                    "id": _digest(who, turns[: i + 1], "user") if by_history else f"chat-user-{call_id}-{n}",
                    "metadata": {"source": source},
                }
            )
    if reply and reply.strip():
        out.append(
            {
                "role": "assistant",
                "content": reply,
                "id": _digest(who, turns, "reply") if by_history else f"chat-reply-{call_id}",
                "metadata": {"source": source, **(reply_metadata or {})},
            }
        )
    return who, out


def _digest(who: Who, turns: Sequence[Turn], what: str) -> str:
    # System prompts stay out: an app's prompt may change between calls (today's date, say), and
    # a retried call must still find its turns.
    said = [[t.role, t.text] for t in turns if t.role not in ("system", "developer")]
    payload = json.dumps([who.thread_id, what, said], ensure_ascii=False)
    return f"chat-{what}-{hashlib.sha256(payload.encode('utf-8', 'replace')).hexdigest()[:40]}"


def memory_block(context: str) -> str:
    return f"{MEMORY_HEADER}\n\n{context.strip()}"


class _Local:
    """The in-process engine."""

    def __init__(self, memory: AsyncMemory, tenant_id: str, agent_id: str | None) -> None:
        self.memory, self.tenant_id, self.agent_id = memory, tenant_id, agent_id

    async def context(self, who: Who, query: str, token_budget: int | None, include_recent: bool) -> str:
        result = await self.memory.recall(
            who.user_id,
            who.thread_id,
            query,
            tenant_id=self.tenant_id,
            agent_id=self.agent_id,
            token_budget=token_budget,
            include_recent=include_recent,
        )
        return result.context

    async def add(self, who: Who, turns: list[dict[str, Any]]) -> None:
        await self.memory.add(who.user_id, who.thread_id, turns, tenant_id=self.tenant_id, agent_id=self.agent_id)


class _Remote:
    """A hipocampo service, through the agent layer's HTTP client (retries, error mapping).
    The tenant is the API key's."""

    def __init__(self, remote: RemoteAgentMemory, agent_id: str | None) -> None:
        self.remote, self.agent_id = remote, agent_id

    async def context(self, who: Who, query: str, token_budget: int | None, include_recent: bool) -> str:
        body: dict[str, Any] = {"thread_id": who.thread_id, "query": query}
        if not include_recent:  # sent only when it matters: a service older than the field refuses it
            body["include_recent"] = False
        if token_budget is not None:
            body["token_budget"] = token_budget
        if self.agent_id is not None:
            body["agent_id"] = self.agent_id
        answer = await self.remote.post(f"/v1/users/{quote(who.user_id, safe='')}/recall", body)
        return str(answer["context"])

    async def add(self, who: Who, turns: list[dict[str, Any]]) -> None:
        from ..agent.session import SessionConfig

        session = SessionConfig(user_id=who.user_id, thread_id=who.thread_id, agent_id=self.agent_id)
        await self.remote.persist(session, turns)


class ChatMemory:
    """Recall before a chat call and store after it, for one wrapped client; never raises for a
    memory failure. ``memory`` is where the memory lives:

    - ``None``: the embedded store of the settings (``HIPOCAMPO_DB``), opened now;
    - a path or ``sqlite:///``/``postgresql://`` URL: that embedded store, opened now;
    - an ``http(s)://`` URL: a hipocampo service (``hipocampo serve``), with ``memory_api_key``;
    - a :class:`~hipocampo.client.Memory`, an :class:`~hipocampo.client.AsyncMemory` or a
      :class:`~hipocampo.agent.remote.RemoteAgentMemory` you opened (and close).

    What this object opened, :meth:`close` closes. ``timeout`` bounds each recall and each store.
    """

    def __init__(
        self,
        memory: Memory | AsyncMemory | RemoteAgentMemory | str | None = None,
        *,
        memory_api_key: str | None = None,
        tenant_id: str = "default",
        agent_id: str | None = None,
        token_budget: int | None = None,
        timeout: float = 10.0,
    ) -> None:
        from ..client import AsyncMemory
        from ..client_sync import Memory

        # Caught here, once, rather than as a memory failure logged on every call.
        if token_budget is not None and (
            isinstance(token_budget, bool) or not isinstance(token_budget, int) or token_budget < 50
        ):
            raise ConfigurationError(f"token_budget must be a whole number of at least 50, got {token_budget!r}")
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not timeout > 0:
            raise ConfigurationError(f"memory_timeout must be a positive number of seconds, got {timeout!r}")
        if memory_api_key is not None and not (isinstance(memory, str) and memory.startswith(("http://", "https://"))):
            raise ConfigurationError("memory_api_key goes with a hipocampo service URL: memory='https://...'")
        self.token_budget = token_budget
        self.timeout = timeout
        self._owned: Memory | RemoteAgentMemory | None = None
        self._runner: Any = None  # a private loop thread, for a remote service
        self._warned_no_user = False
        if memory is None or (isinstance(memory, str) and not memory.startswith(("http://", "https://"))):
            memory = self._owned = Memory.open(memory)
        elif isinstance(memory, str):
            memory = self._owned = _remote(memory, memory_api_key, timeout)
        if isinstance(memory, Memory):
            self._backend: _Local | _Remote = _Local(memory._inner, tenant_id, agent_id)
            self._loop: asyncio.AbstractEventLoop | None = memory._runner.loop
        elif isinstance(memory, AsyncMemory):
            self._backend, self._loop = _Local(memory, tenant_id, agent_id), None
        elif _is_remote(memory):
            from ..client_sync import _LoopThread

            # One loop of its own: the service's HTTP connections serve sync and async callers alike.
            self._runner = _LoopThread()
            self._backend, self._loop = _Remote(memory, agent_id), self._runner.loop
        else:
            raise ConfigurationError(
                "memory must be a path or URL, a Memory, an AsyncMemory or a RemoteAgentMemory, "
                f"got {type(memory).__name__}"
            )

    @property
    def sync_capable(self) -> bool:
        """Whether sync callers can use it (an ``AsyncMemory`` lives on its caller's event loop)."""
        return self._loop is not None

    def missing_user(self) -> None:
        """Log, once per wrapper, that a call named no user and so ran without memory."""
        if not self._warned_no_user:
            self._warned_no_user = True
            log.warning("hipocampo: a chat call named no user (user_id=...), so it ran without memory")

    # -- recall and store, each bounded by the timeout and never raising ----------------------
    def recall(self, who: Who, turns: Sequence[Turn]) -> str | None:
        """The memory context for a call that sends ``turns``; ``None`` without a user message."""
        query = latest_user_text(turns)
        if not query:
            return None
        window = not sends_history(turns)
        return self._guard("recall", lambda: self._run(self._backend.context, who, query, self.token_budget, window))

    async def arecall(self, who: Who, turns: Sequence[Turn]) -> str | None:
        query = latest_user_text(turns)
        if not query:
            return None
        window = not sends_history(turns)
        return await self._aguard("recall", self._arun(self._backend.context, who, query, self.token_budget, window))

    def store(self, who: Who, turns: list[dict[str, Any]]) -> None:
        if turns:
            self._guard("store", lambda: self._run(self._backend.add, who, turns))

    async def astore(self, who: Who, turns: list[dict[str, Any]]) -> None:
        if turns:
            await self._aguard("store", self._arun(self._backend.add, who, turns))

    def _run(self, fn: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
        if self._loop is None:
            raise ConfigurationError("this memory is an AsyncMemory: use the async client, or a sync Memory")
        return self._submit(fn, args).result()

    async def _arun(self, fn: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
        if self._loop is None:
            return await asyncio.wait_for(fn(*args), self.timeout)
        return await asyncio.wrap_future(self._submit(fn, args))

    def _submit(self, fn: Callable[..., Coroutine[Any, Any, T]], args: tuple[Any, ...]) -> Any:
        """Run ``fn(*args)`` on the memory's loop thread, within the timeout."""
        assert self._loop is not None

        async def bounded() -> T:
            return await asyncio.wait_for(fn(*args), self.timeout)

        coro = bounded()  # made here, started there: closed unstarted if it cannot be scheduled
        try:
            return asyncio.run_coroutine_threadsafe(coro, self._loop)
        except BaseException:  # the loop is closed (the memory was closed): the coroutine never runs
            coro.close()
            raise

    @staticmethod
    def _guard(what: str, fn: Callable[[], T]) -> T | None:
        try:
            return fn()
        except Exception as exc:  # any memory failure: the chat call goes on without memory
            _log_failure(what, exc)
            return None

    @staticmethod
    async def _aguard(what: str, coro: Coroutine[Any, Any, T]) -> T | None:
        try:
            return await coro
        except Exception as exc:  # any memory failure: the chat call goes on without memory
            _log_failure(what, exc)
            return None

    # -- closing ------------------------------------------------------------------------------
    def close(self) -> None:
        """Close what this object opened (not a memory passed in)."""
        owned, self._owned = self._owned, None
        runner, self._runner = self._runner, None
        if runner is not None:
            # The HTTP client made on the private loop closes there (one given by you stays open).
            runner.run(self._backend.remote.aclose())  # type: ignore[union-attr]
            runner.stop()
        elif owned is not None:
            owned.close()  # type: ignore[union-attr]

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)


def _log_failure(what: str, exc: BaseException) -> None:
    kind = "timed out" if isinstance(exc, (TimeoutError, asyncio.TimeoutError)) else f"failed: {exc!r}"
    log.warning("hipocampo: memory %s %s; the chat call goes on without it", what, kind)


def _is_remote(memory: object) -> bool:
    try:
        from ..agent.remote import RemoteAgentMemory
    except ConfigurationError:  # httpx missing: it cannot be one
        return False
    return isinstance(memory, RemoteAgentMemory)


def _remote(url: str, api_key: str | None, timeout: float) -> RemoteAgentMemory:
    from ..agent.remote import RemoteAgentMemory

    # One retry within the call's timeout: a chat call should not wait long for its memory.
    return RemoteAgentMemory(url, api_key, timeout=timeout, retries=1)
