"""Response bodies of the HTTP API, for the OpenAPI docs and for conformance tests.

Routes build their JSON with the domain's own ``to_dict`` functions (``message_to_dict``,
``memory_to_dict``, ``SearchResult.to_dict``...); these models describe that JSON, field by field.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field


class ErrorOut(BaseModel):
    error: str = Field(description="A stable code: invalid_input, not_found, conflict, unauthorized...")
    detail: str = Field(description="What went wrong, fit to show a user.")


class MessageOut(BaseModel):
    id: str
    tenant_id: str
    user_id: str
    agent_id: str | None
    thread_id: str
    seq: int = Field(description="Position in the thread, from 0.")
    role: str
    name: str | None
    content: str
    created_at: datetime
    metadata: dict[str, Any]
    external_id: str | None = Field(description="The id the caller gave the message, if any.")


class MessagesOut(BaseModel):
    messages: list[MessageOut]


class MessagePage(BaseModel):
    messages: list[MessageOut]
    next_after_seq: int | None = Field(description="Pass as `after_seq` for the next page; null at the end.")


class ThreadsOut(BaseModel):
    user_id: str
    threads: list[str]


class UsersOut(BaseModel):
    users: list[str]


class ProvenanceOut(BaseModel):
    thread_id: str | None
    source_message_ids: list[str]
    created_at: datetime
    metadata: dict[str, Any]


class MemoryOut(BaseModel):
    id: str
    kind: str = Field(description="turn, fact, summary, episode or consolidated.")
    memory_type: str | None
    content: str
    name: str | None
    role: str | None
    importance: float
    updated_at: datetime | None
    key: str | None = Field(description="A fact's slot, e.g. home_city.")
    confidence: float | None
    mention_count: int
    access_count: int
    last_accessed: datetime | None
    valid_to: datetime | None = Field(description="Set when superseded or retracted.")
    expires_at: datetime | None
    event_start: str | None = Field(description="Day the event happened (YYYY-MM-DD), when known.")
    event_end: str | None
    time_buckets: dict[str, str] = Field(description="Day, week, month and year of the event.")
    provenance: ProvenanceOut


class MemoryPage(BaseModel):
    memories: list[MemoryOut]
    next_offset: int | None = Field(description="Pass as `offset` for the next page; null at the end.")


class HistoryEntryOut(BaseModel):
    memory_id: str
    event: str = Field(description="ADD, UPDATE (superseded), DELETE (retracted) or MENTION.")
    created_at: datetime
    old_content: str | None
    new_content: str | None
    actor: str
    reason: str | None
    related_id: str | None


class HistoryOut(BaseModel):
    memory_id: str
    history: list[HistoryEntryOut]


class ExplanationOut(BaseModel):
    dense_score: float | None
    dense_rank: int | None
    keyword_score: float | None
    keyword_rank: int | None
    fused_score: float
    neighbour_score: float
    relevance: float
    boosts: dict[str, float]
    matched_terms: list[str]
    matched_names: list[str]
    speech_act: str | None = Field(None, description="A turn's act: disclosure, request (to the assistant) or filler.")
    contributions: dict[str, float] = Field(
        default_factory=dict, description="Each ranking signal's part of the learned ranker's logit: what moved it."
    )


class ScoredMemoryOut(MemoryOut):
    score: float
    current: bool = Field(
        description="False when a later fact replaced what this memory says (it ranks lower and is marked)."
    )
    outdated_note: str | None = Field(
        description="What replaced it and since when, e.g. 'earlier; since 2024-06-02: The user works at Globex'."
    )
    explanation: ExplanationOut


class SearchOut(BaseModel):
    query: str
    hits: list[ScoredMemoryOut]
    degraded: list[str] = Field(description="Why the answer may be partial (e.g. vector index unavailable).")
    timings_ms: dict[str, float]


class RecentOut(BaseModel):
    id: str
    role: str
    name: str | None
    content: str
    created_at: datetime
    metadata: dict[str, Any]


class SummaryOut(BaseModel):
    content: str
    messages_summarized: int


class RecallOut(BaseModel):
    query: str
    thread_id: str | None
    enrichment: list[str]
    recent: list[RecentOut]
    summary: SummaryOut | None
    memories: list[ScoredMemoryOut]
    context: str = Field(description="The rendered context, ready for the system prompt.")
    context_tokens: int
    token_budget: int
    degraded: list[str]
    timings_ms: dict[str, float]


class ContextOut(BaseModel):
    context: str = Field(description="The rendered memory, ready for the system prompt; empty if none.")
    flags: dict[str, bool] = Field(description="The layers it was rendered with.")


class ForgetOut(BaseModel):
    messages: int = Field(description="Messages deleted.")
    memories: int = Field(description="Memories deleted (turns, facts, summaries...).")
    threads: int


class ConversationOut(BaseModel):
    conversation_id: str
    user_id: str
    summary: str | None
    messages: list[MessageOut]
    next_after_seq: int | None


class HealthOut(BaseModel):
    status: str


class ReadyOut(BaseModel):
    status: str
    detail: str | None = None
    jobs: dict[str, int] | None = None
    cache: str | None = Field(
        None, description="`ok`, or `degraded` (Redis unreachable; still ready); `degraded: <why>` for an admin key."
    )
    rate_limits: str | None = Field(
        None, description="`ok`, or `degraded` (requests let through); `degraded: <why>` for an admin key."
    )


class ChatOut(BaseModel):
    """One chat turn (``hipocampo.agent.chat.ChatReply``)."""

    answer: str | None = Field(description="The model's answer; null when no chat model is configured.")
    llm_configured: bool
    notice: str | None = Field(description="Without a usable model: why, and how to configure one.")
    memory_context: str = Field(description="The memory injected into the system prompt.")
    system_prompt: str
    messages: list[dict[str, Any]] = Field(description="The whole trace, in OpenAI's message format.")
    tool_calls: list[dict[str, Any]] = Field(description="Memory tools the model called, with their results.")
    memory_errors: list[str]
