"""Core entities of hipocampo. Plain dataclasses: no I/O, no framework imports."""

from __future__ import annotations

import hashlib
import re
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, time, timezone
from enum import Enum
from typing import Any

from .errors import InvalidInput
from .ids import MAX_ID_CHARS, check_id, id_problem, normal_id  # noqa: F401 - part of this module's face
from .values import check_metadata, check_text

MAX_CONTENT_CHARS = 100_000
"""Longest message we accept. Longer turns are almost always pasted documents, which belong in a
document store, not in conversational memory."""

EMBED_MAX_CHARS = 4096
"""Default of how much of a text is embedded: its first characters, never more (the setting
``embed_max_chars``). The whole text is still stored, returned and keyword-searchable. Embedding
costs grow with length (a 100,000-character message took 35 s on two cores when embedded window
by window) while a chat turn's meaning sits in its start; 4,096 characters also cover the
512-token window of the default model, so nothing it could read is cut away."""


class Role(str, Enum):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


class MemoryKind(str, Enum):
    """Where a memory comes from: turns come from the log; extraction, summaries and consolidation
    add the others."""

    TURN = "turn"  # one conversation message, indexed as-is
    FACT = "fact"  # an atomic, typed fact extracted from turns
    SUMMARY = "summary"  # a rolling thread summary
    EPISODE = "episode"  # an episodic memory spanning several turns
    CONSOLIDATED = "consolidated"  # a cluster of memories merged over time


class MemoryType(str, Enum):
    """Semantic type of a fact."""

    USER_PROFILE = "user_profile"
    PREFERENCE = "preference"
    GOAL = "goal"
    CONSTRAINT = "constraint"
    CRITICAL_INFO = "critical_info"
    ENTITY = "entity"


CUSTOM_TYPE_KEY = "memory_type"
"""Metadata key of a fact's custom memory type: one a deployment configures beyond the built-in
ones (a marketing agent's campaign, metric, threshold, insight). Such a fact's ``memory_type`` is
None, so stores, indexes and every reader of the built-in enum keep working unchanged."""

_CUSTOM_TYPE_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")


def custom_type_problem(name: object, description: object) -> str | None:
    """What is wrong with a custom memory type ``name`` and its ``description``, or None. A name
    is a lowercase identifier that is neither a built-in type nor a kind of memory; the description
    is required, since it is all a model has to tell when to use the type."""
    if not isinstance(name, str) or not _CUSTOM_TYPE_NAME.fullmatch(name):
        return f"memory type {name!r} must be a lowercase identifier (campaign, metric, ...)"
    if name in {k.value for k in MemoryKind}:
        return f"{name} names a kind of memory, not a memory type"
    if name not in {t.value for t in MemoryType} and not (isinstance(description, str) and description.strip()):
        return f"custom memory type {name!r} needs a description"
    return None


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def as_utc(value: datetime) -> datetime:
    """Naive datetimes are taken to be UTC; aware ones are converted."""
    if value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def day_start(day: date) -> datetime:
    """Midnight UTC of a calendar day: how event dates are stored."""
    return datetime.combine(day, time(0), tzinfo=timezone.utc)


def new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex}"


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Scope:
    """Whose memory this is. Every read and write is filtered by tenant and user first.

    ``agent_id`` is optional: ``None`` means memories shared by every agent of the user; a value
    keeps writes tagged with that agent and, when ``agent_only`` is set, limits reads to it.
    """

    tenant_id: str
    user_id: str
    agent_id: str | None = None
    agent_only: bool = False

    def __post_init__(self) -> None:
        # Stored in NFC (check_id's form), so every way of writing an id reaches the same rows.
        object.__setattr__(self, "tenant_id", check_id("tenant_id", self.tenant_id))
        object.__setattr__(self, "user_id", check_id("user_id", self.user_id))
        object.__setattr__(self, "agent_id", check_id("agent_id", self.agent_id, required=False))


@dataclass
class Message:
    """One conversation turn, as written to the log (the source of truth)."""

    id: str
    scope: Scope
    thread_id: str
    role: Role
    content: str
    created_at: datetime
    seq: int = 0  # position in the thread, assigned by the log
    name: str | None = None  # speaker name, when the role alone does not say who spoke
    metadata: dict[str, Any] = field(default_factory=dict)
    external_id: str | None = None  # the caller's own id, unique per tenant and user (idempotency)


def message_to_dict(m: Message) -> dict[str, Any]:
    """JSON-ready form (for caches and exports)."""
    return {
        "id": m.id,
        "tenant_id": m.scope.tenant_id,
        "user_id": m.scope.user_id,
        "agent_id": m.scope.agent_id,
        "thread_id": m.thread_id,
        "seq": m.seq,
        "role": m.role.value,
        "name": m.name,
        "content": m.content,
        "created_at": m.created_at.isoformat(),
        "metadata": m.metadata,
        "external_id": m.external_id,
    }


def message_from_dict(d: dict[str, Any]) -> Message:
    return Message(
        id=d["id"],
        scope=Scope(d["tenant_id"], d["user_id"], d.get("agent_id")),
        thread_id=d["thread_id"],
        role=Role(d["role"]),
        content=d["content"],
        created_at=parse_time(d["created_at"]),
        seq=d["seq"],
        name=d.get("name"),
        metadata=d.get("metadata") or {},
        external_id=d.get("external_id"),
    )


@dataclass
class NewMessage:
    """A message as the caller gives it, before the log assigns ids and positions."""

    role: Role
    content: str
    created_at: datetime | None = None
    name: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    id: str | None = None

    @classmethod
    def parse(cls, raw: NewMessage | dict[str, Any] | str) -> NewMessage:
        """Accept a NewMessage, a ``{"role", "content", ...}`` dict or a bare string (a user turn)."""
        if isinstance(raw, NewMessage):
            msg = raw
        elif isinstance(raw, str):
            msg = cls(role=Role.USER, content=raw)
        elif isinstance(raw, dict):
            unknown = set(raw) - {"role", "content", "timestamp", "created_at", "name", "metadata", "id"}
            if unknown:
                raise InvalidInput(f"unknown message field(s): {', '.join(sorted(unknown))}")
            try:
                role = Role(raw.get("role", "user"))
            except ValueError:
                raise InvalidInput(
                    f"role must be one of {', '.join(r.value for r in Role)}, got {raw.get('role')!r}"
                ) from None
            when = raw.get("created_at", raw.get("timestamp"))
            meta = raw.get("metadata")
            if meta is not None and not isinstance(meta, dict):
                raise InvalidInput("message metadata must be an object")
            msg = cls(
                role=role,
                content=raw.get("content"),  # type: ignore[arg-type]
                created_at=parse_time(when) if when is not None else None,
                name=raw.get("name"),
                metadata=dict(meta or {}),
                id=raw.get("id"),
            )
        else:
            raise InvalidInput(f"a message must be a dict or a string, got {type(raw).__name__}")
        msg.validate()
        return msg

    def stored(self, scope: Scope, thread_id: str, seq: int, now: datetime) -> Message:
        """The message as the log stores it: a new id, its position, and ``now`` if it had no time."""
        return Message(
            id=new_id("msg"),
            scope=scope,
            thread_id=thread_id,
            role=self.role,
            content=self.content,
            created_at=self.created_at or now,
            seq=seq,
            name=self.name,
            metadata=self.metadata,
            external_id=self.id,
        )

    def validate(self) -> None:
        if not isinstance(self.content, str):
            raise InvalidInput("message content must be a string")
        if not self.content.strip():
            raise InvalidInput("message content must not be empty")
        if len(self.content) > MAX_CONTENT_CHARS:
            raise InvalidInput(f"message content is {len(self.content)} characters; the limit is {MAX_CONTENT_CHARS}")
        check_text("message content", self.content)
        self.metadata = check_metadata("message metadata", self.metadata)
        self.id = check_id("message id", self.id, required=False)
        self.name = check_id("name", self.name, required=False)


def parse_time(value: Any) -> datetime:
    """Parse an ISO-8601 string, epoch seconds or datetime into an aware UTC datetime."""
    try:
        if isinstance(value, datetime):
            return as_utc(value)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if abs(value) > 1e11:
                raise InvalidInput(f"{value!r} looks like epoch milliseconds; give seconds or ISO-8601")
            return datetime.fromtimestamp(float(value), tz=timezone.utc)
        if isinstance(value, str):
            return as_utc(datetime.fromisoformat(value.strip().replace("Z", "+00:00")))
    except (ValueError, OverflowError, OSError):
        pass
    raise InvalidInput(f"cannot read {value!r} as a time: use ISO-8601, e.g. 2024-05-01T12:00:00Z")


@dataclass
class MemoryItem:
    """Anything recall can return: a turn, a fact, a summary, an episode."""

    id: str
    scope: Scope
    kind: MemoryKind
    content: str
    created_at: datetime  # when it was said, not when it was stored
    thread_id: str | None = None
    memory_type: MemoryType | None = None
    importance: float = 0.5
    source_message_ids: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    name: str | None = None  # the speaker, for turns
    role: Role | None = None
    seq: int | None = None  # position in the thread, for turns
    updated_at: datetime | None = None
    valid_to: datetime | None = None  # set when superseded or retracted; the memory stays, with history
    key: str | None = None  # a fact's slot ("home_city", "allergy:peanuts"): how an update finds what it supersedes
    confidence: float | None = None
    mention_count: int = 1  # restating a known fact counts here instead of duplicating it
    access_count: int = 0
    last_accessed: datetime | None = None
    expires_at: datetime | None = None  # e.g. critical_info valid until a date; leaves recall after it
    event_start: datetime | None = None  # the day(s) a dated event happened, resolved at extraction
    event_end: datetime | None = None

    @property
    def type_name(self) -> str | None:
        """The fact's memory type: a built-in one, else its custom one (:data:`CUSTOM_TYPE_KEY`)."""
        if self.memory_type is not None:
            return self.memory_type.value
        custom = self.metadata.get(CUSTOM_TYPE_KEY) if self.kind is MemoryKind.FACT else None
        return custom if isinstance(custom, str) and custom else None

    def is_current(self, now: datetime) -> bool:
        """Not superseded, retracted or expired at ``now``."""
        return (self.valid_to is None or self.valid_to > now) and (self.expires_at is None or self.expires_at > now)

    @property
    def index_text(self) -> str:
        """The text the keyword and vector indexes see: speaker and day help both."""
        who = f"{self.name}: " if self.name else ""
        return f"[{self.created_at:%d %B %Y}] {who}{self.content}"


PREVIOUS_TURN_CHARS = 200


def embedding_text(item: MemoryItem, previous: Message | MemoryItem | None) -> str:
    """What the dense index embeds: the memory, preceded by the start of the turn it answers.

    A reply like "Yes, last Saturday!" means little alone; with the question before it, its
    vector lands near questions about that event (+3 points of recall@10 on LoCoMo dev). A turn
    that follows the same speaker is not a reply, and gets no prefix: unrelated statements in a
    row must not blur into each other.
    """
    if previous is None or (previous.name, previous.role) == (item.name, item.role):
        return item.index_text
    who = previous.name or (previous.role.value if previous.role else "")
    return f"{who}: {previous.content[:PREVIOUS_TURN_CHARS]}\n{item.index_text}"


def turn_memory_id(message_id: str) -> str:
    """Deterministic, so re-indexing a message after a crash upserts instead of duplicating."""
    return f"turn_{message_id}"


@dataclass
class Summary:
    scope: Scope
    thread_id: str
    content: str
    messages_summarized: int
    last_message_seq: int
    token_count: int
    updated_at: datetime


class HistoryEvent(str, Enum):
    ADD = "ADD"
    UPDATE = "UPDATE"  # superseded by a newer memory (``related_id``)
    DELETE = "DELETE"  # retracted: still stored, no longer current
    MENTION = "MENTION"  # said again; the mention count went up


@dataclass
class HistoryEntry:
    """One change to a memory: who changed it, when, from what to what, and why."""

    memory_id: str
    event: HistoryEvent
    created_at: datetime
    old_content: str | None = None
    new_content: str | None = None
    actor: str = "system"  # "heuristic", "llm:<model>", "api"
    reason: str | None = None
    related_id: str | None = None  # the memory that superseded this one, or that it superseded


class JobStatus(str, Enum):
    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"
    DEAD = "dead"


@dataclass
class Job:
    """A unit of background work in the durable outbox."""

    kind: str
    payload: dict[str, Any]
    tenant_id: str
    user_id: str
    id: int | None = None
    status: JobStatus = JobStatus.PENDING
    attempts: int = 0
    last_error: str | None = None
    run_after: datetime | None = None

    def with_message_ids(self, ids: list[str]) -> Job:
        """This job with the ``"$ids"`` placeholder of its payload replaced by stored message ids."""
        payload = {k: (ids if v == "$ids" else v) for k, v in self.payload.items()}
        return Job(self.kind, payload, self.tenant_id, self.user_id, run_after=self.run_after)
