"""Request bodies and path/query parameters of the HTTP API, with the examples the docs show.

Identifiers follow :func:`~hipocampo.domain.model.check_id`: 1 to 200 characters, not blank, no
control or invisible characters, compared in Unicode NFC (``valid_id`` returns that form); those of
tenants, users, threads and agents hold no ``/`` either (they are path segments). The schema's
pattern says the common part too, so generated clients and fuzzers know the rule.

Text (contents, queries) and metadata follow :mod:`hipocampo.domain.values`: no NUL, no lone
surrogates, no NaN or Infinity; the services check it too, these types name the field.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Path, Query
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from ...domain.limits import MAX_MESSAGES_PER_CALL, MAX_QUERY_CHARS
from ...domain.model import MAX_CONTENT_CHARS, MAX_ID_CHARS, MemoryKind, Role
from ...domain.retrieval.recall import RecencyMode
from ...domain.values import metadata_problem, text_problem
from ..ids import valid_id, valid_label

_BAD = r"\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff"
ID_PATTERN = rf"^[^{_BAD}]*[^\s{_BAD}][^{_BAD}]*$"
"""Not blank, no control characters, none of the usual invisible ones (the length is checked
separately, and :func:`valid_id` refuses the rarer invisible characters too)."""

ID_RULE = f"1 to {MAX_ID_CHARS} characters, not blank, without control or invisible characters"

Id = Annotated[str, AfterValidator(valid_id)]
"""A tenant, user, thread or agent id in a body: checked and put in NFC like every id, and without
``/`` (:func:`~hipocampo.domain.ids.check_path_id`: these ids are path segments elsewhere)."""
Label = Annotated[str, AfterValidator(valid_label)]
"""A message's own id or a speaker's name: the id rule, but ``/`` is allowed (never in a path)."""


def _valid_text(value: str) -> str:
    problem = text_problem(value)
    if problem is not None:  # the template takes no braces from the caller's text
        raise PydanticCustomError("invalid_text", "{problem}", {"problem": problem})
    return value


def _valid_metadata(value: dict[str, Any] | None) -> dict[str, Any] | None:
    problem = None if value is None else metadata_problem(value)
    if problem is not None:
        raise PydanticCustomError("invalid_metadata", "{problem}", {"problem": problem})
    return value


Text = Annotated[str, AfterValidator(_valid_text)]
"""Text to store or search for: valid Unicode without NUL (:mod:`hipocampo.domain.values`, the rule
the services apply too; checked here as well so that the 422 names the field's place in the body)."""
Metadata = Annotated[dict[str, Any], AfterValidator(_valid_metadata)]
"""Free JSON kept with a message or memory: finite numbers, string keys, text as :data:`Text`."""


def _id_field(description: str, **kw: Any) -> Any:
    return Field(min_length=1, max_length=MAX_ID_CHARS, pattern=ID_PATTERN, description=description, **kw)


def _id_path(description: str, example: str) -> Any:
    return Path(
        min_length=1,
        max_length=MAX_ID_CHARS,
        pattern=ID_PATTERN,
        description=f"{description} ({ID_RULE}).",
        examples=[example],
    )


_checked = AfterValidator(valid_id)
UserIdPath = Annotated[str, _id_path("The user, namespaced inside the caller's tenant", "ana"), _checked]
ThreadIdPath = Annotated[str, _id_path("The thread (conversation)", "thread-1"), _checked]
MemoryIdPath = Annotated[str, _id_path("A memory id, as returned by the API", "mem_0f4c..."), _checked]
ConversationIdPath = Annotated[str, _id_path("The conversation (a thread)", "conv-42"), _checked]


def _id_query(description: str) -> Any:
    return Query(min_length=1, max_length=MAX_ID_CHARS, pattern=ID_PATTERN, description=f"{description} ({ID_RULE}).")


UserIdQuery = Annotated[str, _id_query("The user who owns the conversation"), _checked]
StoredUserIdQuery = Annotated[
    str,
    _id_query("The user, as `GET /v1/users` lists it; ids stored before `/` was refused are reached this way"),
    AfterValidator(valid_label),
]
ThreadIdQuery = Annotated[str | None, _id_query("A thread (conversation) of the user"), _checked]
MAX_SEQ = 2**62

TypeName = Annotated[str, Field(min_length=1, max_length=40)]
"""A memory type: built in, or a custom one from ``HIPOCAMPO_MEMORY_TYPES``. Which names exist is
configuration, not schema, so the service checks them (422 naming the accepted ones)."""
TYPE_RULE = (
    "a built-in type (user_profile, preference, goal, constraint, critical_info, entity) or a custom one "
    "HIPOCAMPO_MEMORY_TYPES configures"
)
"""Bound of thread positions in queries: SQLite integers are 64-bit."""

_NUMBER = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*")


def _not_a_number(value: Any) -> Any:
    # Pydantic would read 1714564800 or "0.5" as epoch seconds; the API documents ISO-8601 only.
    if isinstance(value, (int, float)) or (isinstance(value, str) and _NUMBER.fullmatch(value)):
        raise ValueError("must be an ISO-8601 time such as 2024-05-01T12:00:00Z")
    return value


IsoTime = Annotated[datetime, BeforeValidator(_not_a_number)]
"""A time, given as ISO-8601 text; naive times are UTC."""


class Strict(BaseModel):
    """Unknown fields are refused; scalar fields are strict (``0`` is not ``false``) per field."""

    model_config = ConfigDict(extra="forbid")


class MessageIn(Strict):
    """One conversation turn. Give it an ``id`` to make retries safe: a message whose id is
    already stored for this user is returned as stored, not written twice."""

    role: Role = Field(Role.USER, description="Who said it.")
    content: Text = Field(min_length=1, max_length=MAX_CONTENT_CHARS, description="What was said.")
    created_at: IsoTime | None = Field(None, description="When it was said (ISO-8601); default: now.")
    name: Label | None = _id_field("Speaker's name, when the role alone does not say who spoke.", default=None)
    metadata: Metadata = Field(default_factory=dict, description="Free JSON kept with the message.")
    id: Label | None = _id_field("Your own id for the message (idempotent retries).", default=None)


class AddMessagesIn(Strict):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "messages": [
                        {"role": "user", "content": "Moro em Lisboa desde 2023", "id": "wa-17"},
                        {"role": "assistant", "content": "Que bom! E o trabalho?"},
                    ],
                    "metadata": {"channel": "whatsapp"},
                }
            ]
        },
    )

    messages: list[MessageIn] = Field(min_length=1, max_length=MAX_MESSAGES_PER_CALL, description="Turns, in order.")
    agent_id: Id | None = _id_field("The agent writing, to tag what is learned from these turns.", default=None)
    metadata: Metadata | None = Field(None, description="Merged into every message's own metadata.")


class RememberIn(Strict):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"content": "Ana is allergic to peanuts", "memory_type": "critical_info", "importance": 0.9}]
        },
    )

    content: Text = Field(min_length=1, max_length=MAX_CONTENT_CHARS, description="The fact, in plain words.")
    memory_type: TypeName | None = Field(None, description=f"What kind of fact it is: {TYPE_RULE}.")
    importance: float = Field(0.5, strict=True, ge=0, le=1, description="How much it matters in ranking, 0 to 1.")
    expires_at: IsoTime | None = Field(None, description="After this time it leaves recall (kept in history).")
    thread_id: Id | None = _id_field("The thread it came from, if any.", default=None)
    agent_id: Id | None = _id_field("The agent saving it.", default=None)
    metadata: Metadata | None = Field(None, description="Free JSON kept with the memory.")


class UpdateMemoryIn(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"content": "Ana lives in Porto now"}]})

    content: Text | None = Field(None, min_length=1, max_length=MAX_CONTENT_CHARS, description="New text.")
    memory_type: TypeName | None = Field(None, description=f"New type: {TYPE_RULE}.")
    importance: float | None = Field(None, strict=True, ge=0, le=1, description="New importance, 0 to 1.")


class _Filters(Strict):
    k: int | None = Field(None, strict=True, ge=1, le=200, description="How many memories; default: adaptive.")
    recency: RecencyMode | None = Field(None, description="How much age matters; default from settings.")
    min_relevance: float | None = Field(None, strict=True, ge=0, le=1, description="Drop weaker hits (0 to 1).")
    since: IsoTime | None = Field(None, description="Only memories from this time on (inclusive).")
    until: IsoTime | None = Field(None, description="Only memories before this time (exclusive).")
    agent_id: Id | None = _id_field("The agent asking.", default=None)
    agent_only: bool = Field(False, strict=True, description="Only that agent's memories plus the shared ones.")


class SearchIn(_Filters):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"query": "what is Ana allergic to?", "k": 5}]}
    )

    query: Text = Field(min_length=1, max_length=MAX_QUERY_CHARS, description="What to look for, in any language.")
    thread_id: Id | None = _id_field("The current thread.", default=None)
    exclude_thread: bool = Field(False, strict=True, description="Other threads than `thread_id` only.")
    kinds: list[MemoryKind] | None = Field(None, description="Only these kinds of memory.")


class RecallIn(_Filters):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"thread_id": "thread-2", "query": "what should I avoid cooking for Ana?", "token_budget": 1500}
            ]
        },
    )

    query: Text = Field(min_length=1, max_length=MAX_QUERY_CHARS, description="The user's new message.")
    thread_id: Id | None = _id_field("The current thread: its recent turns and summary come first.", default=None)
    token_budget: int | None = Field(None, strict=True, ge=50, le=200_000, description="Size of the rendered context.")
    exclude_current_thread: bool = Field(False, strict=True, description="Memories from other threads only.")
    include_recent: bool = Field(
        True,
        strict=True,
        description="False when the caller sends its model the conversation itself: the thread's recent turns are "
        "left out of the context, not shown twice (and not repeated among the memories either).",
    )


class MemorySearchIn(Strict):
    """The ``/api/v1/memory/search`` query in a body: the user's words stay out of URLs and logs."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"user_id": "ana", "query": "peanut allergy", "k": 5}]}
    )

    user_id: Id = _id_field("The user whose memories to search.")
    query: Text = Field(min_length=1, max_length=MAX_QUERY_CHARS, description="What to look for.")
    k: int | None = Field(None, strict=True, ge=1, le=200, description="How many; default adaptive.")
    conversation_id: Id | None = _id_field("Only this conversation (a thread) of the user.", default=None)


class ContextFlags(Strict):
    """The memory layers to render (``hipocampo.agent.langgraph.MemoryFlags``): every memory layer
    on by default, the tenant's quotas off."""

    summaries: bool = Field(True, strict=True, description="The current thread's rolling summary.")
    recent: bool = Field(True, strict=True, description="The thread's last turns, from the log.")
    vectors: bool = Field(True, strict=True, description="Past conversation: turns, episodes, other summaries.")
    entities: bool = Field(True, strict=True, description="Facts about the user and their consolidations.")
    cross_thread: bool = Field(True, strict=True, description="Memories from the user's other threads.")
    quotas: bool = Field(False, strict=True, description="A line with the tenant's plan and quotas (operator data).")


class ContextIn(Strict):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"thread_id": "thread-2", "query": "dinner ideas?", "flags": {"recent": False}}]
        },
    )

    thread_id: Id = _id_field("The thread the agent is in: its summary and recent turns come first.")
    query: Text = Field(min_length=1, max_length=MAX_QUERY_CHARS, description="The user's new message.")
    agent_id: Id | None = _id_field("The agent asking.", default=None)
    flags: ContextFlags = Field(default_factory=ContextFlags, description="Which memory layers to render.")


class ToolSession(Strict):
    """The agent session a tool call runs in. The tenant is always the API key's."""

    user_id: Id = _id_field("Whose memory the tools touch.")
    thread_id: Id = _id_field("The conversation the agent is in.")
    agent_id: Id | None = _id_field("The agent calling.", default=None)
    memory_limit: int = Field(20, strict=True, ge=1, le=200, description="Most memories get_memory returns.")
    memory_min_relevance: float = Field(0.6, strict=True, ge=0, le=1, description="Weaker hits are dropped.")
    memory_types: list[TypeName] | dict[TypeName, Annotated[str, Field(max_length=2000)]] | None = Field(
        None,
        max_length=64,
        description=f"Types save_memory accepts (a list, or a map to descriptions), each {TYPE_RULE}; default: "
        "the agent's types from HIPOCAMPO_MEMORY_TYPES, else the six built-in ones.",
    )


class GetMemoryArgs(Strict):
    mode: Literal["semantic", "chronological"] = Field("semantic", description="Rank by a query, or newest first.")
    query: Text | None = Field(None, max_length=MAX_QUERY_CHARS, description="Needed in semantic mode.")
    memory_type: str | None = Field(None, max_length=50, description="A fact type or a memory kind.")
    limit: int | None = Field(None, strict=True, ge=1, le=200, description="At most the session's memory_limit.")


class SaveMemoryArgs(Strict):
    content: Text = Field(max_length=MAX_CONTENT_CHARS, description="The fact to save.")
    memory_type: str = Field(max_length=50, description="One of the session's memory types.")


class UpdateMemoryArgs(Strict):
    memory_id: str = Field(max_length=MAX_ID_CHARS, description="The memory to change.")
    new_content: Text = Field(max_length=MAX_CONTENT_CHARS, description="Its new text.")


class DeleteMemoryArgs(Strict):
    memory_id: str = Field(max_length=MAX_ID_CHARS, description="The memory to delete.")


_SESSION_EXAMPLE: dict[str, Any] = {"user_id": "ana", "thread_id": "thread-1"}


def _call_config(arguments: dict[str, Any]) -> ConfigDict:
    return ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"session": _SESSION_EXAMPLE, "arguments": arguments}]}
    )


class GetMemoryCall(Strict):
    model_config = _call_config({"mode": "semantic", "query": "food allergies"})

    session: ToolSession
    arguments: GetMemoryArgs = Field(default_factory=GetMemoryArgs)


class SaveMemoryCall(Strict):
    model_config = _call_config({"content": "Ana is vegetarian", "memory_type": "preference"})

    session: ToolSession
    arguments: SaveMemoryArgs


class UpdateMemoryCall(Strict):
    model_config = _call_config({"memory_id": "mem_0f4c...", "new_content": "Ana is vegan"})

    session: ToolSession
    arguments: UpdateMemoryArgs


class DeleteMemoryCall(Strict):
    model_config = _call_config({"memory_id": "mem_0f4c..."})

    session: ToolSession
    arguments: DeleteMemoryArgs


class ChatSession(ToolSession):
    """The chat session: whose memory, which thread, and how the agent uses its memory."""

    system_prompt: Text | None = Field(None, max_length=20_000, description="Replaces the default system prompt.")
    use_pre_memory_load: bool = Field(True, strict=True, description="Inject recalled memory before the model runs.")


class ChatIn(Strict):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"session": _SESSION_EXAMPLE, "message": "Can you suggest a dinner for me tonight?"}]
        },
    )

    session: ChatSession
    message: Text = Field(min_length=1, max_length=MAX_CONTENT_CHARS, description="The user's new message.")
