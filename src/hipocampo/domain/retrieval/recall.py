"""What recall and search return: ranked memories with their explanation, and the context."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from enum import Enum
from typing import TYPE_CHECKING, Any

from ..dates import temporal_buckets
from ..model import MemoryItem, Message, Summary
from ..truth.validity import Validity

if TYPE_CHECKING:
    from .context import ContextPiece


class RecencyMode(str, Enum):
    """How much the age of a memory matters (recent-focused, balanced or archaeological)."""

    RECENT_FOCUSED = "recent_focused"
    BALANCED = "balanced"
    ARCHEOLOGICAL = "archeological"


@dataclass
class Explanation:
    """Why a memory ranked where it did. ``final = base_score * product(boosts.values())``.

    ``base_score`` is the learned ranker's odds that the memory answers the query
    (:mod:`~hipocampo.domain.retrieval.learned`), and ``contributions`` what moved it: each
    signal's part of its logit (positive up, negative down). ``boosts`` are the multipliers the
    model does not learn (recency, importance, validity). ``relevance`` is the calibrated,
    absolute one (domain/retrieval/relevance.py: the same scale for every query and user), which
    ``min_relevance`` filters on.
    """

    dense_score: float | None = None  # cosine similarity, None when not a dense candidate
    dense_rank: int | None = None
    keyword_score: float | None = None  # BM25 (higher is better), None when no keyword hit
    keyword_rank: int | None = None
    fused_score: float = 0.0  # reciprocal rank fusion of the two lists
    neighbour_score: float = 0.0  # support from adjacent turns of the same thread
    relevance: float = 0.0  # calibrated: 0.6 = pairs this close were related 3 times in 5
    base_score: float = 0.0  # the learned ranker's odds: exp(bias + sum of ``contributions``)
    boosts: dict[str, float] = field(default_factory=dict)
    matched_terms: list[str] = field(default_factory=list)
    matched_names: list[str] = field(default_factory=list)
    speech_act: str | None = None  # a turn's: disclosure, request or filler (domain/retrieval/speech_acts.py)
    contributions: dict[str, float] = field(default_factory=dict)  # each signal's part of the ranker's logit
    features: dict[str, float] = field(default_factory=dict, repr=False)  # the ranker's inputs


@dataclass
class Provenance:
    thread_id: str | None
    source_message_ids: list[str]
    created_at: datetime
    metadata: dict[str, Any]


@dataclass
class ScoredMemory:
    memory: MemoryItem
    score: float
    explanation: Explanation
    current: bool = True  # False: a later fact replaced what it says (see domain/truth/validity.py)
    outdated_note: str | None = None  # what replaced it and since when: "earlier; since 2024-06-02: ..."

    @property
    def provenance(self) -> Provenance:
        m = self.memory
        return Provenance(m.thread_id, list(m.source_message_ids), m.created_at, dict(m.metadata))

    def to_dict(self) -> dict[str, Any]:
        return memory_to_dict(self.memory) | {
            "score": round(self.score, 6),
            "current": self.current,
            "outdated_note": self.outdated_note,
            "explanation": _rounded({k: v for k, v in asdict(self.explanation).items() if k != "features"}),
        }


def memory_to_dict(m: MemoryItem) -> dict[str, Any]:
    """A memory as JSON-ready data, with its provenance."""
    return {
        "id": m.id,
        "kind": m.kind.value,
        "memory_type": m.type_name,  # a built-in type, else a custom one (campaign, metric...)
        "content": m.content,
        "name": m.name,
        "role": m.role.value if m.role else None,
        "importance": m.importance,
        "updated_at": m.updated_at.isoformat() if m.updated_at else None,
        "key": m.key,
        "confidence": m.confidence,
        "mention_count": m.mention_count,
        "access_count": m.access_count,
        "last_accessed": m.last_accessed.isoformat() if m.last_accessed else None,
        "valid_to": m.valid_to.isoformat() if m.valid_to else None,
        "expires_at": m.expires_at.isoformat() if m.expires_at else None,
        "event_start": m.event_start.date().isoformat() if m.event_start else None,
        "event_end": m.event_end.date().isoformat() if m.event_end else None,
        "time_buckets": temporal_buckets(m.event_start or m.created_at),
        "provenance": {
            "thread_id": m.thread_id,
            "source_message_ids": list(m.source_message_ids),
            "created_at": m.created_at.isoformat(),
            "metadata": m.metadata,
        },
    }


@dataclass
class SearchResult:
    query: str
    hits: list[ScoredMemory]
    degraded: list[str] = field(default_factory=list)  # e.g. "vector index unavailable: ..."
    timings_ms: dict[str, float] = field(default_factory=dict)
    validity: Validity | None = field(default=None, repr=False)  # the user's closed facts, for the context

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "hits": [h.to_dict() for h in self.hits],
            "degraded": list(self.degraded),
            "timings_ms": _rounded(self.timings_ms),
        }


@dataclass
class RecallResult:
    """Everything an agent needs before answering, plus the rendered prompt context."""

    query: str
    thread_id: str | None
    recent: list[Message]
    summary: Summary | None
    memories: list[ScoredMemory]  # the hits chosen by relevance: the context shows them, with neighbouring turns
    context: str
    context_tokens: int
    token_budget: int
    degraded: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    enrichment: list[str] = field(default_factory=list)  # how the query was enriched, if it was
    validity: Validity | None = field(default=None, repr=False)  # to re-render its sections with the same marks
    pieces: list[ContextPiece] = field(default_factory=list, repr=False)  # the memories + neighbours it may show

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "thread_id": self.thread_id,
            "enrichment": list(self.enrichment),
            "recent": [
                {
                    "id": m.id,
                    "role": m.role.value,
                    "name": m.name,
                    "content": m.content,
                    "created_at": m.created_at.isoformat(),
                    "metadata": m.metadata,
                }
                for m in self.recent
            ],
            "summary": None
            if self.summary is None
            else {"content": self.summary.content, "messages_summarized": self.summary.messages_summarized},
            "memories": [h.to_dict() for h in self.memories],
            "context": self.context,
            "context_tokens": self.context_tokens,
            "token_budget": self.token_budget,
            "degraded": list(self.degraded),
            "timings_ms": _rounded(self.timings_ms),
        }


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 4)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value
