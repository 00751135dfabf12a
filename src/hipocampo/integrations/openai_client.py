"""Long-term memory for an OpenAI-style chat client: what :func:`~hipocampo.integrations.with_memory`
returns for one.

::

    client = with_memory(OpenAI(), user_id="ana")
    client.chat.completions.create(model="gpt-4o-mini", messages=[...], thread_id="t1")

Duck-typed on purpose: anything shaped like the ``openai`` package's clients (``OpenAI``,
``AsyncOpenAI``, the Azure ones, OpenAI-compatible SDK clients pointed at another server) works,
and hipocampo does not need ``openai`` installed to import this module.
"""

from __future__ import annotations

import inspect
from typing import Any

from ..domain.errors import ConfigurationError
from ._core import ChatMemory, Turn, Who, memory_block, new_call_id, new_turns, resolve_who

SOURCE = "openai"
_OWN_ARGS = ("user_id", "thread_id")


def wrap_openai(client: Any, memory: ChatMemory, user_id: str | None, thread_id: str | None) -> Any:
    """``client`` (sync or async) with ``memory``; see :func:`~hipocampo.integrations.with_memory`."""
    is_async = _is_async(client)
    if not is_async and not memory.sync_capable:
        raise ConfigurationError("a sync client needs a sync Memory (or a path or URL), not an AsyncMemory")
    return (AsyncMemoryClient if is_async else MemoryClient)(client, memory, user_id, thread_id)


def _is_async(client: Any) -> bool:
    create = client.chat.completions.create
    # The SDK wraps its coroutine functions in plain decorators: look beneath them.
    return inspect.iscoroutinefunction(inspect.unwrap(create)) or type(client).__name__.startswith("Async")


class MemoryClient:
    """A chat client with memory; every attribute it does not define is the wrapped client's."""

    def __init__(
        self, client: Any, memory: ChatMemory, user_id: str | None, thread_id: str | None, *, owner: bool = True
    ) -> None:
        self._client = client
        self.memory = memory
        self.user_id, self.thread_id = user_id, thread_id
        self._closes_memory = owner
        self.chat = _Chat(client.chat, self)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    def with_options(self, **options: Any) -> Any:
        """The wrapped client's ``with_options``, still with memory (the same memory)."""
        copy = self._client.with_options(**options)
        return type(self)(copy, self.memory, self.user_id, self.thread_id, owner=False)  # closing it keeps the memory

    copy = with_options

    def close(self) -> None:
        """Close the client and the memory this wrapper opened (not one passed in)."""
        try:
            self._client.close()
        finally:
            if self._closes_memory:
                self.memory.close()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncMemoryClient(MemoryClient):
    async def close(self) -> None:  # type: ignore[override]
        try:
            await self._client.close()
        finally:
            if self._closes_memory:
                await self.memory.aclose()

    async def __aenter__(self) -> Any:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class _Chat:
    def __init__(self, chat: Any, owner: MemoryClient) -> None:
        self._chat = chat
        self.completions = (_AsyncCompletions if isinstance(owner, AsyncMemoryClient) else _Completions)(
            chat.completions, owner
        )

    def __getattr__(self, name: str) -> Any:
        return getattr(self._chat, name)


class _Plan:
    """One call's memory work: whose it is, what it sent, and what to store once it is answered.
    Made once per call: its id names the turns of every attempt to store them."""

    def __init__(self, who: Who, turns: list[Turn]) -> None:
        self.who, self.turns = who, turns
        self.call_id = new_call_id()

    def inject(self, kwargs: dict[str, Any], context: str | None) -> None:
        if context:
            kwargs["messages"] = with_system(kwargs["messages"], memory_block(context))

    def store(self, memory: ChatMemory, reply: str | None, metadata: dict[str, Any]) -> None:
        memory.store(*new_turns(self.who, self.turns, reply, SOURCE, metadata, call_id=self.call_id))

    async def astore(self, memory: ChatMemory, reply: str | None, metadata: dict[str, Any]) -> None:
        await memory.astore(*new_turns(self.who, self.turns, reply, SOURCE, metadata, call_id=self.call_id))


class _Completions:
    def __init__(self, completions: Any, owner: MemoryClient) -> None:
        self._completions = completions
        self._owner = owner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._completions, name)

    def create(self, **kwargs: Any) -> Any:
        return self._call(self._completions.create, kwargs)

    def parse(self, **kwargs: Any) -> Any:
        return self._call(self._completions.parse, kwargs)

    def _call(self, fn: Any, kwargs: dict[str, Any]) -> Any:
        plan = _plan(self._owner, kwargs)
        if plan is None:
            return fn(**kwargs)
        mem = self._owner.memory
        plan.inject(kwargs, mem.recall(plan.who, plan.turns))
        response = fn(**kwargs)  # a failure here propagates, and nothing is stored
        if kwargs.get("stream"):
            return _Stream(response, lambda reply, meta: plan.store(mem, reply, meta))
        plan.store(mem, reply_text(response), _reply_meta(response))
        return response


class _AsyncCompletions(_Completions):
    async def create(self, **kwargs: Any) -> Any:
        return await self._acall(self._completions.create, kwargs)

    async def parse(self, **kwargs: Any) -> Any:
        return await self._acall(self._completions.parse, kwargs)

    async def _acall(self, fn: Any, kwargs: dict[str, Any]) -> Any:
        plan = _plan(self._owner, kwargs)
        if plan is None:
            return await fn(**kwargs)
        mem = self._owner.memory
        plan.inject(kwargs, await mem.arecall(plan.who, plan.turns))
        response = await fn(**kwargs)
        if kwargs.get("stream"):
            return _AsyncStream(response, lambda reply, meta: plan.astore(mem, reply, meta))
        await plan.astore(mem, reply_text(response), _reply_meta(response))
        return response


def _plan(owner: MemoryClient, kwargs: dict[str, Any]) -> _Plan | None:
    """Take this wrapper's own arguments out of ``kwargs`` and decide whose memory the call uses."""
    call_user, call_thread = (kwargs.pop(name, None) for name in _OWN_ARGS)
    turns = [to_turn(m) for m in kwargs.get("messages") or ()]
    who = resolve_who(
        call_user=call_user,
        call_thread=call_thread,
        metadata=kwargs.get("metadata"),
        bound_user=owner.user_id,
        bound_thread=owner.thread_id,
        user_field=kwargs.get("user"),
        turns=turns,
    )
    if who is None:
        owner.memory.missing_user()
        return None
    return _Plan(who, turns)


# -- the OpenAI message and response shapes ---------------------------------------------------
def _field(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def to_turn(message: Any) -> Turn:
    """A message dict (or an SDK message object sent back) as a :class:`Turn`; of a content made
    of parts, only the text parts count."""
    content = _field(message, "content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, (list, tuple)):
        text = "\n".join(str(_field(p, "text")) for p in content if _field(p, "type") == "text" and _field(p, "text"))
    else:
        text = ""
    return Turn(str(_field(message, "role") or ""), text)


def with_system(messages: Any, block: str) -> list[Any]:
    """``messages`` with ``block`` in the system prompt: after the text of a leading system (or
    developer) message, so the app's instructions stay a stable prefix for prompt caching, or as a
    new system message first. The caller's list is not changed."""
    out = list(messages)
    head = out[0] if out else None
    if isinstance(head, dict) and head.get("role") in ("system", "developer"):
        content = head.get("content")
        if isinstance(content, str):
            out[0] = {**head, "content": f"{content}\n\n{block}" if content.strip() else block}
            return out
        if isinstance(content, list):
            out[0] = {**head, "content": [*content, {"type": "text", "text": f"\n\n{block}"}]}
            return out
    at = 1 if _field(head, "role") in ("system", "developer") else 0
    out.insert(at, {"role": "system", "content": block})
    return out


def reply_text(response: Any) -> str | None:
    """The first choice's text (tool calls and refusals have none)."""
    choices = _field(response, "choices") or []
    message = _field(choices[0], "message") if choices else None
    content = _field(message, "content") if message is not None else None
    return content if isinstance(content, str) else None


def _reply_meta(response: Any) -> dict[str, Any]:
    model = _field(response, "model")
    return {"model": model} if isinstance(model, str) and model else {}


class _Collector:
    """The first choice's text as a stream delivers it, and whether it finished."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.finished = False
        self.model: str | None = None
        self.done = False

    def add(self, chunk: Any) -> None:
        self.model = self.model or _field(chunk, "model")
        for choice in _field(chunk, "choices") or ():
            if (_field(choice, "index") or 0) != 0:
                continue
            delta = _field(choice, "delta")
            text = _field(delta, "content") if delta is not None else None
            if isinstance(text, str):
                self.parts.append(text)
            if _field(choice, "finish_reason"):
                self.finished = True

    def result(self) -> tuple[str, dict[str, Any]]:
        """The text and the reply's metadata; a stream closed before its end is marked incomplete."""
        meta: dict[str, Any] = {"model": self.model} if self.model else {}
        if not self.finished:
            meta["incomplete"] = True
        return "".join(self.parts), meta


class _Stream:
    """The SDK's stream, chunk for chunk; when it ends (or is closed early) the turns are stored.
    An error mid-stream propagates and stores nothing."""

    def __init__(self, stream: Any, on_end: Any) -> None:
        self._stream = stream
        self._iter: Any = None
        self._on_end = on_end
        self._seen = _Collector()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def __iter__(self) -> _Stream:
        return self

    def __next__(self) -> Any:
        if self._iter is None:
            self._iter = iter(self._stream)
        try:
            chunk = next(self._iter)
        except StopIteration:
            self._end()
            raise
        except BaseException:
            self._seen.done = True  # the call failed: nothing is stored
            raise
        self._seen.add(chunk)
        return chunk

    def _end(self) -> None:
        if not self._seen.done:
            self._seen.done = True
            self._on_end(*self._seen.result())

    def close(self) -> None:
        self._stream.close()
        self._end()

    def __enter__(self) -> _Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _AsyncStream:
    """:class:`_Stream` for async clients."""

    def __init__(self, stream: Any, on_end: Any) -> None:
        self._stream = stream
        self._iter: Any = None
        self._on_end = on_end
        self._seen = _Collector()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def __aiter__(self) -> _AsyncStream:
        return self

    async def __anext__(self) -> Any:
        if self._iter is None:
            self._iter = self._stream.__aiter__()
        try:
            chunk = await self._iter.__anext__()
        except StopAsyncIteration:
            await self._end()
            raise
        except BaseException:
            self._seen.done = True
            raise
        self._seen.add(chunk)
        return chunk

    async def _end(self) -> None:
        if not self._seen.done:
            self._seen.done = True
            await self._on_end(*self._seen.result())

    async def close(self) -> None:
        await self._stream.close()
        await self._end()

    async def __aenter__(self) -> _AsyncStream:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
