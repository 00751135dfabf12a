"""Rolling thread summaries: fold old turns into a summary kept per thread.

Invariant: once the thread's summarize job has run, every non-system message of the thread is
in the summary or in the recent window (the last ``window`` messages, what recall shows
verbatim). So a thread is folded when more than ``threshold`` non-system messages wait past its
summary, and also as soon as one of them is about to leave the recent window, whatever the
threshold. A fold leaves out the newest ``keep_recent`` of them, but never one outside the
window, and a fold forced by the window leaves out at most half the window: folds come in
batches, not one per message.

The previous summary and the folded turns become the new summary, within ``ratio`` of the
folded turns' tokens (all folds so far; at most ``max_tokens``), and never less than what the
previous summary took plus ``ratio`` of the new turns: a short first fold takes the floor of a
few lines, and the next folds must still have room for what they add. Facts that the folded turns
superseded ("I moved to Lisbon" after "I live in São Paulo") are said as such. The log stays
the source of truth; the summary records how many messages it covers and the position of the
last one, so each update reads only what is new.

The summary is also a memory (kind SUMMARY, one per thread, with every covered message as its
source), indexed in the background like any other, so recall can find it with provenance.

Offline, :func:`~hipocampo.domain.summaries.summarize.extractive_summary` writes it; with a chat model, the
model writes an abstractive one, and the extractive one stands in if the call fails.
"""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from ..domain.model import (
    HistoryEvent,
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
from ..domain.summaries.coverage import is_omitted_line, omitted_in, omitted_line
from ..domain.summaries.details import details_in, missing
from ..domain.summaries.summarize import SummaryTurn, extractive_summary, fold_budget, split_sentences
from ..domain.summaries.summary_changes import FactChange, describe_change
from ..domain.text import detect_language, fold
from ..domain.truth.reconcile import FACT_VALUE, is_single_valued
from ..ports import ChatModel
from ..settings import Settings
from .deps import Deps
from .facts import SPEAKER_FEMININE
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
FOLDED_TOKENS = "folded_tokens"
"""Summary memory metadata: tokens of every turn folded so far, what the budget is a fraction of."""
MAX_FACTS_READ = 2000  # facts of the user read to find what the folded turns superseded

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
    keep_recent: int = 10  # the newest messages stay out of the summary, if they are in the window
    max_tokens: int = 500
    window: int = 10  # the recent window recall shows (settings.recent_messages): never a gap before it
    ratio: float = 0.3  # the summary's budget, as a fraction of the tokens it folds

    def __post_init__(self) -> None:
        if self.threshold < 1:
            raise ValueError("threshold must be at least 1")
        if self.keep_recent < 0:
            raise ValueError("keep_recent must not be negative")
        if self.max_tokens < 1:
            raise ValueError("max_tokens must be at least 1")
        if self.window < 0:
            raise ValueError("window must not be negative")
        if not 0 < self.ratio <= 1:
            raise ValueError("ratio must be in (0, 1]")

    @classmethod
    def from_settings(cls, settings: Settings) -> SummaryPolicy:
        return cls(
            settings.summarization_threshold,
            settings.summary_keep_recent,
            settings.summary_max_tokens,
            settings.recent_messages,
            settings.summary_max_ratio,
        )

    def to_fold(self, unsummarized: list[Message]) -> list[Message]:
        """Which of ``unsummarized`` (every message past the summary, system ones included,
        oldest first) to fold now: none, or a prefix of the non-system ones."""
        pending = [m for m in unsummarized if m.role is not Role.SYSTEM]
        leaving = sum(m.role is not Role.SYSTEM for m in unsummarized[: max(0, len(unsummarized) - self.window)])
        if len(pending) <= self.threshold and not leaving:
            return []
        keep = min(self.keep_recent, len(pending) - leaving)  # only messages inside the window stay out
        if leaving:
            # Forced by the window: fold down to half of it, so the next forced fold is window/2
            # messages away instead of one (a fold per message would rewrite, re-embed, or with a
            # model re-prompt, the summary on every write). Those messages are then both in the
            # summary and in the window: shown twice rather than missing.
            keep = min(keep, self.window // 2)
        return pending[: len(pending) - keep]


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
    folded = policy.to_fold(await _thread_after(deps, scope, thread_id, after))
    if not folded:
        return None
    memory_id = summary_memory_id(scope, thread_id)
    before = await _folded_before(deps, scope, memory_id, previous, folded)
    changes = await _changes(deps, scope, folded)
    text, summarizer, folded_tokens = await _fold(
        deps, previous.content if previous else None, folded, policy, llm, before, changes
    )
    summary = Summary(
        scope=scope,
        thread_id=thread_id,
        content=text,
        messages_summarized=(previous.messages_summarized if previous else 0) + len(folded),
        last_message_seq=folded[-1].seq,
        token_count=deps.tokenizer.count(text),
        updated_at=deps.clock.now(),
    )
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
                    FOLDED_TOKENS: folded_tokens,
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


async def _covered(deps: Deps, scope: Scope, thread_id: str, memory_id: str, up_to_seq: int | None) -> list[str]:
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


async def _folded_before(
    deps: Deps, scope: Scope, memory_id: str, previous: Summary | None, folded: list[Message]
) -> int:
    """Tokens of the turns the previous summary folded: recorded on its memory, or, if that is
    gone, estimated from how many messages it covers."""
    if previous is None or previous.messages_summarized == 0:
        return 0
    found = await deps.memories.get_many(scope, [memory_id])
    recorded = found[0].metadata.get(FOLDED_TOKENS) if found else None
    if isinstance(recorded, int) and recorded >= 0:
        return recorded
    mean = sum(deps.tokenizer.count(_said(m)) for m in folded) / max(len(folded), 1)
    return round(previous.messages_summarized * mean)


async def _changes(deps: Deps, scope: Scope, folded: list[Message]) -> list[FactChange]:
    """Single-valued facts that a folded message superseded: the old value, the new one (the
    fact the message stated), the day and the speaker, oldest first."""
    said = {m.id: m for m in folded}
    facts: list[MemoryItem] = []
    while len(facts) < MAX_FACTS_READ:
        page = await deps.memories.list(scope, kind=MemoryKind.FACT, limit=PAGE, offset=len(facts))
        facts += page
        if len(page) < PAGE:
            break
    successors = {
        f.id: f for f in facts if f.key and is_single_valued(f.key) and any(s in said for s in f.source_message_ids)
    }
    if not successors:
        return []
    keys = {f.key for f in successors.values()}
    found: list[FactChange] = []
    for old in facts:
        if old.valid_to is None or old.key not in keys:
            continue
        for entry in await deps.memories.history(scope, old.id):
            new = successors.get(entry.related_id or "") if entry.event is HistoryEvent.UPDATE else None
            if new is None:
                continue
            source = next(said[s] for s in new.source_message_ids if s in said)
            old_value, new_value = _fact_value(old), _fact_value(new)
            if fold(old_value) != fold(new_value):
                feminine = bool(new.metadata.get(SPEAKER_FEMININE))
                found.append(
                    FactChange(new.key or "", old_value, new_value, source.created_at, source.name or "", feminine)
                )
    return sorted(found, key=lambda c: c.when)


def _fact_value(m: MemoryItem) -> str:
    return str(m.metadata.get(FACT_VALUE) or m.content)


def _said(m: Message) -> str:
    return f"{_speaker(m)}: {m.content}"


async def _fold(
    deps: Deps,
    previous: str | None,
    messages: list[Message],
    policy: SummaryPolicy,
    llm: ChatModel | None,
    folded_before: int,
    changes: list[FactChange],
) -> tuple[str, str, int]:
    """The new summary text, what wrote it ("extractive" or "llm"), and the tokens of every turn
    it folds so far."""
    text, summarizer, total = previous, "extractive", folded_before
    language = detect_language(" ".join(m.content for m in messages[:FOLD_CHUNK]))
    for start in range(0, len(messages), FOLD_CHUNK):
        chunk = messages[start : start + FOLD_CHUNK]
        new = sum(deps.tokenizer.count(_said(m)) for m in chunk)
        total += new
        budget = fold_budget(policy.max_tokens, policy.ratio, total)
        # The floor of a short first fold must not leave the next folds no room: what is new
        # always gets its share on top of what the summary already says (within max_tokens).
        grown = deps.tokenizer.count(text or "") + math.ceil(policy.ratio * new)
        budget = max(budget, min(policy.max_tokens, grown))
        last = chunk[-1].created_at
        mine = [c for c in changes if chunk[0].created_at <= c.when <= last]
        updates = [(c.when, describe_change(c, language, reference=last)) for c in mine]
        written = await _ask_llm(deps, llm, text, _turns(chunk), budget, updates, mine) if llm else None
        if written is not None:
            text, summarizer = written, "llm"
        else:
            turns = _turns(chunk, await _stored_vectors(deps, chunk))
            text = await asyncio.to_thread(_extractive, deps, text, turns, budget, updates)
            summarizer = "extractive"
    return text or "", summarizer, total


def _turns(messages: list[Message], vectors: dict[str, np.ndarray] | None = None) -> list[SummaryTurn]:
    vectors = vectors or {}
    return [
        SummaryTurn(_speaker(m), m.content, m.created_at, vectors.get(turn_memory_id(m.id)), m.role.value)
        for m in messages
    ]


async def _stored_vectors(deps: Deps, messages: list[Message]) -> dict[str, np.ndarray]:
    """The index's vectors of these turns: the worker embedded each turn once already, so the
    summary reuses them (only turns not indexed yet are embedded again). Vectors of another
    model (an index awaiting ``reindex``) cannot mix with fresh ones and are left out."""
    if not messages:
        return {}
    found = await deps.vectors.get(messages[0].scope, [turn_memory_id(m.id) for m in messages])
    return {k: v for k, v in found.items() if v.shape == (deps.embedder.dim,)}


def _extractive(
    deps: Deps, previous: str | None, turns: list[SummaryTurn], budget: int, updates: list[tuple[datetime, str]]
) -> str:
    size = deps.settings.embed_batch_size

    def embed(texts: list[str]) -> np.ndarray:
        parts = [deps.embedder.embed_documents(texts[i : i + size]) for i in range(0, len(texts), size)]
        return np.concatenate(parts) if parts else np.zeros((0, deps.embedder.dim), dtype=np.float32)

    return extractive_summary(
        previous, turns, max_tokens=budget, count=deps.tokenizer.count, embed=embed, updates=updates
    )


async def _ask_llm(
    deps: Deps,
    llm: ChatModel,
    previous: str | None,
    turns: list[SummaryTurn],
    budget: int,
    updates: list[tuple[datetime, str]],
    changes: list[FactChange],
) -> str | None:
    """The model's summary, cut to the budget; None (and a warning) if it fails or says nothing.
    An update the model left out (its old or new value missing) is added as a line of its own."""
    conversation = "\n".join(f"[{t.when:%Y-%m-%d}] {t.speaker}: {t.text[:LLM_TURN_CHARS]}" for t in turns)
    changed = "".join(f"- [{when:%Y-%m-%d}] {line}\n" for when, line in updates)
    prompt = (
        f"Write at most {budget} tokens.\n\n"
        f"Previous summary:\n{previous or '(none)'}\n\n"
        f"New turns:\n{conversation}\n\n"
        + (f"Facts that changed in these turns (say so in the summary):\n{changed}\n" if changed else "")
        + "Updated summary:"
    )
    try:
        answer = await llm.complete(LLM_SYSTEM, prompt)
        text = answer if isinstance(answer, str) else getattr(answer, "content", None)
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"the model returned no summary text ({type(answer).__name__})")
    except Exception as exc:  # any provider error: the extractive summary stands in
        log.warning("LLM summary failed, using the extractive one: %s: %s", type(exc).__name__, exc)
        return None
    text = text.strip()
    said = fold(text)
    left_out = [
        f"- [{when:%Y-%m-%d}] {line}"
        for (when, line), c in zip(updates, changes, strict=True)
        if fold(c.old) not in said or fold(c.new) not in said
    ]
    if left_out:  # first, so that cutting to the budget drops the model's lines, not these
        text = "\n".join([*left_out, text])
    return _counted(deps, previous, turns, _fit(deps, text, budget), budget)


def _counted(deps: Deps, previous: str | None, turns: list[SummaryTurn], text: str, budget: int) -> str:
    """The model's summary, ending with how many numbers, dates, names and decisions of the
    users' turns (and of the previous summary's count) it does not say, as the extractive one
    does: a model that drops the €300 budget is held to the same account. Cut to leave room."""
    speakers = {t.speaker for t in turns} | {"User", "Assistant"}
    keys = [
        d.key
        for t in turns
        if t.role != "assistant"
        for sentence in split_sentences(t.text, whole_up_to=0)
        for d in details_in(sentence, speakers=speakers)
    ]
    keys = list(dict.fromkeys(keys))
    text = "\n".join(line for line in text.splitlines() if not is_omitted_line(line))  # one count, ours
    n = omitted_in(previous) + len(missing(text, keys))
    if not n:
        return text
    line = omitted_line(n, detect_language(text))
    body = _fit(deps, text, max(budget - deps.tokenizer.count(line) - 1, 0))
    return f"{body}\n{line}" if body else line


def _fit(deps: Deps, text: str, max_tokens: int) -> str:
    """``text`` within ``max_tokens``, cut at a line break when one is near."""
    if deps.tokenizer.count(text) <= max_tokens:
        return text
    cut = deps.tokenizer.truncate(text, max_tokens)
    newline = cut.rfind("\n")
    return cut[:newline].rstrip() if newline > len(cut) // 2 else cut.rstrip()
