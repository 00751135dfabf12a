"""Long-term memory for any LangChain chat model: :class:`MemoryChatModel`.

::

    model = with_memory(ChatOpenAI(model="gpt-4o-mini"), user_id="ana")
    model.invoke("Can I eat satay?", config={"configurable": {"thread_id": "t1"}})

It is a chat model itself, so it drops into chains, agents and LangGraph where the wrapped one
was. Each call (``invoke``, ``ainvoke``, ``stream``, ``astream``, ``batch``) recalls the user's
memory into the system prompt and stores the new turns after the answer, then delegates to the
wrapped model's own generation methods within this model's run, so callbacks and tracing see
one chat-model run (with the memory in its prompt), not two.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

from pydantic import ConfigDict, Field

from ..domain.errors import ConfigurationError
from ._core import ChatMemory, Turn, Who, memory_block, new_call_id, new_turns, resolve_who

try:
    from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
    from langchain_core.language_models import BaseChatModel, LanguageModelInput
    from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, SystemMessage
    from langchain_core.outputs import ChatGenerationChunk, ChatResult
    from langchain_core.runnables import Runnable, RunnableBinding, RunnableConfig, ensure_config
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ConfigurationError("MemoryChatModel needs langchain-core: pip install 'hipocampo[langchain]'") from exc

SOURCE = "langchain"
_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}
_IDS = ("user_id", "thread_id")
_META_ARG = "hipocampo_run_ids"


class MemoryChatModel(BaseChatModel):
    """``model`` with hipocampo's memory. Build it with :func:`~hipocampo.integrations.with_memory`
    (which opens the memory) or directly with a :class:`~hipocampo.integrations.ChatMemory`.

    Whose memory: the call's ``user_id=``/``thread_id=`` keyword arguments, else the run config's
    ``metadata`` or ``configurable`` (LangGraph's ``thread_id`` is picked up), else the fields
    here. No user: the call runs without memory.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model: BaseChatModel
    chat_memory: ChatMemory = Field(exclude=True)
    user_id: str | None = None
    thread_id: str | None = None

    @property
    def _llm_type(self) -> str:
        return f"hipocampo-{self.model._llm_type}"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return dict(self.model._identifying_params)

    def close(self) -> None:
        """Close the memory :func:`with_memory` opened (not one passed in)."""
        self.chat_memory.close()

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[LanguageModelInput, AIMessage]:
        """The wrapped model's tool binding, with memory: its converted tool arguments are bound here."""
        bound = self.model.bind_tools(tools, **kwargs)
        if not isinstance(bound, RunnableBinding) or bound.bound is not self.model:
            raise NotImplementedError(f"{type(self.model).__name__}.bind_tools does not return a plain binding")
        return self.bind(**bound.kwargs)

    # -- the run config's ids reach the model as metadata ---------------------------------------
    def invoke(self, input: LanguageModelInput, config: RunnableConfig | None = None, **kwargs: Any) -> AIMessage:
        return super().invoke(input, _ids_in_metadata(config), **kwargs)

    async def ainvoke(
        self, input: LanguageModelInput, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AIMessage:
        return await super().ainvoke(input, _ids_in_metadata(config), **kwargs)

    # LangChain's stream() calls _stream without a run manager: the ids travel as an argument.
    def stream(
        self, input: LanguageModelInput, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        config = _ids_in_metadata(config)
        kwargs[_META_ARG] = _ids_of(config)
        return super().stream(input, config, **kwargs)

    def astream(
        self, input: LanguageModelInput, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[AIMessageChunk]:
        config = _ids_in_metadata(config)
        kwargs[_META_ARG] = _ids_of(config)
        return super().astream(input, config, **kwargs)

    # -- the calls --------------------------------------------------------------------------------
    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        plan = self._plan(messages, run_manager, kwargs)
        if plan is not None:
            messages = with_system(messages, self.chat_memory.recall(plan.who, plan.turns))
        result = self.model._generate(messages, stop=stop, run_manager=run_manager, **kwargs)
        if plan is not None:
            self.chat_memory.store(*plan.turns_to_store(_first(result)))
        return result

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        plan = self._plan(messages, run_manager, kwargs)
        if plan is not None:
            messages = with_system(messages, await self.chat_memory.arecall(plan.who, plan.turns))
        result = await self.model._agenerate(messages, stop=stop, run_manager=run_manager, **kwargs)
        if plan is not None:
            await self.chat_memory.astore(*plan.turns_to_store(_first(result)))
        return result

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        plan = self._plan(messages, run_manager, kwargs)
        if plan is not None:
            messages = with_system(messages, self.chat_memory.recall(plan.who, plan.turns))
        if type(self.model)._stream is BaseChatModel._stream:  # a model that cannot stream answers at once
            chunks: Iterator[ChatGenerationChunk] = iter(
                [_as_chunk(self.model._generate(messages, stop=stop, run_manager=run_manager, **kwargs))]
            )
        else:
            chunks = self.model._stream(messages, stop=stop, run_manager=run_manager, **kwargs)
        seen: list[AIMessageChunk] = []
        try:
            for chunk in chunks:
                seen.append(chunk.message)  # type: ignore[arg-type]
                yield chunk
        except GeneratorExit:  # closed early: what arrived is stored, marked incomplete
            if plan is not None:
                self.chat_memory.store(*plan.turns_to_store(_joined(seen), incomplete=True))
            raise
        if plan is not None:
            self.chat_memory.store(*plan.turns_to_store(_joined(seen)))

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        plan = self._plan(messages, run_manager, kwargs)
        if plan is not None:
            messages = with_system(messages, await self.chat_memory.arecall(plan.who, plan.turns))
        seen: list[AIMessageChunk] = []
        try:
            if _cannot_stream(self.model):
                result = await self.model._agenerate(messages, stop=stop, run_manager=run_manager, **kwargs)
                seen.append(_as_chunk(result).message)  # type: ignore[arg-type]
                yield _as_chunk(result)
            else:
                async for chunk in self.model._astream(messages, stop=stop, run_manager=run_manager, **kwargs):
                    seen.append(chunk.message)  # type: ignore[arg-type]
                    yield chunk
        except GeneratorExit:
            if plan is not None:
                await self.chat_memory.astore(*plan.turns_to_store(_joined(seen), incomplete=True))
            raise
        if plan is not None:
            await self.chat_memory.astore(*plan.turns_to_store(_joined(seen)))

    def _plan(self, messages: list[BaseMessage], run_manager: Any, kwargs: dict[str, Any]) -> _Plan | None:
        """Take the call's own ids out of ``kwargs`` (the wrapped model must not see them)."""
        call_user, call_thread = (kwargs.pop(name, None) for name in _IDS)
        metadata = kwargs.pop(_META_ARG, None) or getattr(run_manager, "metadata", None)
        turns = [Turn(_ROLES.get(m.type, m.type), m.text) for m in messages]
        who = resolve_who(
            call_user=call_user,
            call_thread=call_thread,
            metadata=metadata,
            bound_user=self.user_id,
            bound_thread=self.thread_id,
            user_field=None,
            turns=turns,
        )
        if who is None:
            self.chat_memory.missing_user()
            return None
        return _Plan(who, turns)


class _Plan:
    """One call's memory work; its id names the turns of every attempt to store them."""

    def __init__(self, who: Who, turns: list[Turn]) -> None:
        self.who, self.turns = who, turns
        self.call_id = new_call_id()

    def turns_to_store(self, reply: AIMessage | None, incomplete: bool = False) -> tuple[Who, list[dict[str, Any]]]:
        meta: dict[str, Any] = {}
        model = (reply.response_metadata or {}).get("model_name") if reply is not None else None
        if isinstance(model, str) and model:
            meta["model"] = model
        if incomplete:
            meta["incomplete"] = True
        text = reply.text if reply is not None else None
        return new_turns(self.who, self.turns, text, SOURCE, meta, call_id=self.call_id)


def with_system(messages: list[BaseMessage], context: str | None) -> list[BaseMessage]:
    """``messages`` with the recalled context after the text of a leading system message (the
    app's instructions stay a stable prefix), or in a new system message first."""
    if not context:
        return messages
    block = memory_block(context)
    out = list(messages)
    head = out[0] if out else None
    if isinstance(head, SystemMessage) and isinstance(head.content, str):
        text = f"{head.content}\n\n{block}" if head.content.strip() else block
        out[0] = head.model_copy(update={"content": text})
    elif isinstance(head, SystemMessage):
        out[0] = head.model_copy(update={"content": [*head.content, {"type": "text", "text": f"\n\n{block}"}]})
    else:
        out.insert(0, SystemMessage(block))
    return out


def _joined(chunks: list[AIMessageChunk]) -> AIMessage | None:
    if not chunks:
        return None
    total = chunks[0]
    for c in chunks[1:]:
        total = total + c
    return total  # a chunk is an AIMessage


def _cannot_stream(model: BaseChatModel) -> bool:
    return type(model)._stream is BaseChatModel._stream and type(model)._astream is BaseChatModel._astream


def _first(result: ChatResult) -> AIMessage | None:
    message = result.generations[0].message if result.generations else None
    return message if isinstance(message, AIMessage) else None


def _as_chunk(result: ChatResult) -> ChatGenerationChunk:
    message = _first(result) or AIMessage("")
    return ChatGenerationChunk(message=AIMessageChunk(**message.model_dump(exclude={"type"})))


def _ids_of(config: RunnableConfig) -> dict[str, Any]:
    metadata = config.get("metadata") or {}
    return {k: metadata[k] for k in _IDS if metadata.get(k) is not None}


def _ids_in_metadata(config: RunnableConfig | None) -> RunnableConfig:
    """``configurable`` user and thread ids copied into the run's metadata (metadata's win), where
    the model's run manager passes them on."""
    config = ensure_config(config)
    configurable = config.get("configurable") or {}
    ids = {k: configurable[k] for k in _IDS if configurable.get(k) is not None}
    if ids:
        config["metadata"] = {**ids, **(config.get("metadata") or {})}
    return config


def wrap_chat_model(model: BaseChatModel, memory: ChatMemory, user_id: str | None, thread_id: str | None) -> Any:
    # The wrapped model's own rate limit and streaming choice hold; its cache does not (a cached
    # answer would skip the memory), and its callbacks fire once, as this model's.
    return MemoryChatModel(
        model=model,
        chat_memory=memory,
        user_id=user_id,
        thread_id=thread_id,
        rate_limiter=model.rate_limiter,
        disable_streaming=model.disable_streaming,
    )
