"""Rolling thread summaries (seed 000, phase 1): fold old turns into a summary kept per thread.

When a thread has more than ``threshold`` non-system messages past its summary, all but the
newest ``keep_recent`` are folded in: the previous summary and the folded turns become the new
summary, within ``max_tokens``. The log stays the source of truth; the summary records how many
messages it covers and the position of the last one, so each update reads only what is new.

The summary is also a memory (kind SUMMARY, one per thread, with every covered message as its
source), indexed in the background like any other, so recall can find it with provenance.

Offline, :func:`~hipocampo.domain.summarize.extractive_summary` writes it; with a chat model, the
model writes an abstractive one, and the extractive one stands in if the call fails.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import numpy as np

from ..domain.model import (
    Job,
    MemoryItem,
    MemoryKind,
    Message,
    Role,
    Scope,
    Summary,
    content_hash,
    turn_memory_id,
)
from ..domain.summarize import SummaryTurn, extractive_summary
from ..ports import ChatModel
from ..settings import Settings
from .deps import Deps
from .ingest import INDEX_MEMORIES_JOB, SUMMARIZE_JOB

log = logging.getLogger(__name__)

__all__ = [
    "SUMMARIZE_JOB",
    "SummaryPolicy",
    "maybe_summarize",
    "summary_memory_id",
]

SUMMARY_IMPORTANCE = 0.6
FOLD_CHUNK = 100
"""Messages folded per pass. A thread imported whole is folded in several incremental passes,
so neither the embedder batch nor an LLM prompt grows with the thread."""
PAGE = 1000
LLM_TURN_CHARS = 2000  # longer turns are cut in the LLM prompt

LLM_SYSTEM = (
    "You maintain the running summary of a conversation, kept as an assistant's long-term memory. "
    "Rewrite the summary so that it covers both the previous summary and the new turns. Keep names, "
    "numbers, money, dates, decisions, commitments, plans, preferences and constraints; drop "
    "greetings and small talk. Never invent anything. Write in the language of the conversation, "
    "as plain text, one fact per line, each line starting with '- [YYYY-MM-DD] ' (the day it was said)."
)


@dataclass
class SummaryPolicy:
    """When to fold a thread, how much to leave out, and how long the summary may be."""

    threshold: int = 20  # fold when more non-system messages than this are past the summary
    keep_recent: int = 10  # the newest messages stay out of the summary (they are the recent window)
    max_tokens: int = 500

    def __post_init__(self) -> None:
        if self.threshold < 1:
            raise ValueError("threshold must be at least 1")
        if self.keep_recent < 0:
            raise ValueError("keep_recent must not be negative")
        if self.max_tokens < 1:
            raise ValueError("max_tokens must be at least 1")

    @classmethod
    def from_settings(cls, settings: Settings) -> SummaryPolicy:
        return cls(settings.summarization_threshold, settings.summary_keep_recent, settings.summary_max_tokens)


def summary_memory_id(scope: Scope, thread_id: str) -> str:
    """Deterministic: each update of a thread's summary upserts the same memory."""
    return "summary_" + content_hash(f"{scope.tenant_id}\0{scope.user_id}\0{thread_id}")[:32]


async def maybe_summarize(
    deps: Deps, scope: Scope, thread_id: str, policy: SummaryPolicy, *, llm: ChatModel | None = None
) -> Summary | None:
    """Fold the thread's older turns into its summary if enough are waiting; else do nothing.

    Returns the new summary, or None when there was nothing to fold (or another worker folded
    the same turns first). With ``llm``, the model writes the summary; without one, or when it
    fails, the summary is extractive.
    """
    previous = await deps.summaries.get(scope, thread_id)
    after = previous.last_message_seq if previous is not None else -1
    pending = [m for m in await _thread_after(deps, scope, thread_id, after) if m.role is not Role.SYSTEM]
    if len(pending) <= policy.threshold:
        return None
    folded = pending[: len(pending) - policy.keep_recent]
    if not folded:  # keep_recent >= threshold: wait until something is older than the window
        return None
    text, summarizer = await _fold(deps, previous.content if previous else None, folded, policy, llm)
    summary = Summary(
        scope=scope,
        thread_id=thread_id,
        content=text,
        messages_summarized=(previous.messages_summarized if previous else 0) + len(folded),
        last_message_seq=folded[-1].seq,
        token_count=deps.tokenizer.count(text),
        updated_at=deps.clock.now(),
    )
    memory_id = summary_memory_id(scope, thread_id)
    async with deps.uow.transaction():
        current = await deps.summaries.get(scope, thread_id)
        if (current.last_message_seq if current is not None else -1) != after:
            log.info("thread %s was summarized meanwhile; dropping this update", thread_id)
            return None
        await deps.summaries.put(summary)
        if text:
            sources = await _covered(deps, scope, thread_id, memory_id, after if previous else None)
            item = MemoryItem(
                id=memory_id,
                scope=scope,
                kind=MemoryKind.SUMMARY,
                content=text,
                created_at=folded[-1].created_at,
                thread_id=thread_id,
                importance=SUMMARY_IMPORTANCE,
                source_message_ids=list(dict.fromkeys([*sources, *(m.id for m in folded)])),
                metadata={
                    "summarizer": summarizer,
                    "messages_summarized": summary.messages_summarized,
                    "last_message_seq": summary.last_message_seq,
                },
                updated_at=summary.updated_at,
            )
            await deps.memories.upsert([item])
            await deps.jobs.enqueue(
                [Job(INDEX_MEMORIES_JOB, {"memory_ids": [memory_id]}, scope.tenant_id, scope.user_id)]
            )
        else:  # nothing worth keeping (or nothing fits): no stale summary memory either
            await deps.memories.delete(scope, [memory_id])
    return summary


async def _thread_after(deps: Deps, scope: Scope, thread_id: str, after_seq: int) -> list[Message]:
    messages: list[Message] = []
    while True:
        page = await deps.log.list_thread(scope, thread_id, after_seq=after_seq, limit=PAGE)
        messages += page
        if len(page) < PAGE:
            return messages
        after_seq = page[-1].seq


async def _covered(
    deps: Deps, scope: Scope, thread_id: str, memory_id: str, up_to_seq: int | None
) -> list[str]:
    """Messages the previous summary covered: its memory's sources, or, if that memory is gone,
    the thread's non-system messages up to its last position (read again from the log)."""
    if up_to_seq is None:
        return []
    found = await deps.memories.get_many(scope, [memory_id])
    if found:
        return found[0].source_message_ids
    older = await _thread_after(deps, scope, thread_id, -1)
    return [m.id for m in older if m.seq <= up_to_seq and m.role is not Role.SYSTEM]


def _speaker(message: Message) -> str:
    return message.name or message.role.value.capitalize()


async def _fold(
    deps: Deps, previous: str | None, messages: list[Message], policy: SummaryPolicy, llm: ChatModel | None
) -> tuple[str, str]:
    """The new summary text, and what wrote it ("extractive" or "llm")."""
    text, summarizer = previous, "extractive"
    for start in range(0, len(messages), FOLD_CHUNK):
        chunk = messages[start : start + FOLD_CHUNK]
        written = await _ask_llm(deps, llm, text, _turns(chunk), policy) if llm is not None else None
        if written is not None:
            text, summarizer = written, "llm"
        else:
            turns = _turns(chunk, await _stored_vectors(deps, chunk))
            text, summarizer = await asyncio.to_thread(_extractive, deps, text, turns, policy), "extractive"
    return text or "", summarizer


def _turns(messages: list[Message], vectors: dict[str, np.ndarray] | None = None) -> list[SummaryTurn]:
    vectors = vectors or {}
    return [
        SummaryTurn(_speaker(m), m.content, m.created_at, vectors.get(turn_memory_id(m.id))) for m in messages
    ]


async def _stored_vectors(deps: Deps, messages: list[Message]) -> dict[str, np.ndarray]:
    """The index's vectors of these turns: the worker embedded each turn once already, so the
    summary reuses them (only turns not indexed yet are embedded again). Vectors of another
    model (an index awaiting ``reindex``) cannot mix with fresh ones and are left out."""
    if not messages:
        return {}
    found = await deps.vectors.get(messages[0].scope, [turn_memory_id(m.id) for m in messages])
    return {k: v for k, v in found.items() if v.shape == (deps.embedder.dim,)}


def _extractive(deps: Deps, previous: str | None, turns: list[SummaryTurn], policy: SummaryPolicy) -> str:
    size = deps.settings.embed_batch_size

    def embed(texts: list[str]) -> np.ndarray:
        parts = [deps.embedder.embed_documents(texts[i : i + size]) for i in range(0, len(texts), size)]
        return np.concatenate(parts) if parts else np.zeros((0, deps.embedder.dim), dtype=np.float32)

    return extractive_summary(previous, turns, max_tokens=policy.max_tokens, count=deps.tokenizer.count, embed=embed)


async def _ask_llm(
    deps: Deps, llm: ChatModel, previous: str | None, turns: list[SummaryTurn], policy: SummaryPolicy
) -> str | None:
    """The model's summary, cut to the budget; None (and a warning) if it fails or says nothing."""
    conversation = "\n".join(f"[{t.when:%Y-%m-%d}] {t.speaker}: {t.text[:LLM_TURN_CHARS]}" for t in turns)
    prompt = (
        f"Write at most {policy.max_tokens} tokens.\n\n"
        f"Previous summary:\n{previous or '(none)'}\n\n"
        f"New turns:\n{conversation}\n\n"
        "Updated summary:"
    )
    try:
        answer = await llm.complete(LLM_SYSTEM, prompt)
        text = answer if isinstance(answer, str) else getattr(answer, "content", None)
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"the model returned no summary text ({type(answer).__name__})")
    except Exception as exc:  # any provider error: the extractive summary stands in
        log.warning("LLM summary failed, using the extractive one: %s: %s", type(exc).__name__, exc)
        return None
    return _fit(deps, text.strip(), policy.max_tokens)


def _fit(deps: Deps, text: str, max_tokens: int) -> str:
    """``text`` within ``max_tokens``, cut at a line break when one is near."""
    if deps.tokenizer.count(text) <= max_tokens:
        return text
    cut = deps.tokenizer.truncate(text, max_tokens)
    newline = cut.rfind("\n")
    return cut[:newline].rstrip() if newline > len(cut) // 2 else cut.rstrip()
