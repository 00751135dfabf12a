"""From user turns to typed facts that stay true: extract, date, reconcile, write with history.

Runs as a background job per batch of new messages. Offline, the rule-based extractor
(:mod:`hipocampo.domain.extraction`) and the reconciliation rules (:mod:`hipocampo.domain.reconcile`)
decide; re-running a job is harmless, because a message already counted in a fact's sources
changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace
from datetime import datetime

from ..domain.dates import resolve_dates
from ..domain.extraction import ExtractedFact, extract_facts
from ..domain.llm_schemas import FactsOut, ReconcileOut, extraction_prompt, reconcile_prompt
from ..domain.model import (
    HistoryEntry,
    HistoryEvent,
    Job,
    MemoryItem,
    MemoryKind,
    MemoryType,
    Message,
    Role,
    Scope,
    day_start,
    new_id,
)
from ..domain.reconcile import FACT_VALUE, NEGATIVE, Action, Decision, decide, normalise_value
from .deps import Deps
from .ingest import EXTRACT_JOB, INDEX_MEMORIES_JOB

log = logging.getLogger(__name__)

__all__ = ["EXTRACT_JOB", "Applied", "mine_messages"]

ACTOR = "heuristic"
LLM_ACTOR = "llm"

MEMORY_TYPE_DESCRIPTIONS = {
    MemoryType.USER_PROFILE.value: "who the user is: name, where they live, work, age, family",
    MemoryType.PREFERENCE.value: "what the user likes, dislikes or prefers",
    MemoryType.GOAL.value: "what the user wants to achieve or plans to do",
    MemoryType.CONSTRAINT.value: "limits to respect: budget, diet, schedule",
    MemoryType.CRITICAL_INFO.value: "what must never be forgotten: allergies, health conditions, medication",
    MemoryType.ENTITY.value: "people, pets and things in the user's life, with their attributes",
}
"""Injected into the extraction prompt (seed 002: memory types with descriptions)."""

IMPORTANCE = {
    MemoryType.CRITICAL_INFO: 0.9,
    MemoryType.CONSTRAINT: 0.75,
    MemoryType.USER_PROFILE: 0.7,
    MemoryType.GOAL: 0.65,
    MemoryType.PREFERENCE: 0.6,
    MemoryType.ENTITY: 0.5,
}
"""How much each type matters by default (the importance boost of recall reads it)."""


@dataclass
class Applied:
    """What one fact did to the memory, for reports and tests."""

    action: Action
    memory: MemoryItem
    targets: list[MemoryItem]


async def mine_messages(
    deps: Deps,
    scope: Scope,
    message_ids: list[str],
    *,
    rules: bool = True,
    llm_facts: dict[str, list[LlmFact]] | None = None,
) -> list[Applied]:
    """Reconcile and write the facts stated in these messages (user turns only): the rule-based
    ones when ``rules``, and those an LLM found (see :func:`ask_llm`).

    Call inside a transaction: the facts, their history and the indexing job commit together.
    """
    messages = await _user_turns(deps, scope, message_ids)
    applied: list[Applied] = []
    new_items: list[str] = []
    for message in messages:
        # Off the event loop: the rules take ~0.2 s over a 100,000-character message, a stall
        # every other tenant's requests would share.
        found = await asyncio.to_thread(extract_facts, message.content, speaker=message.name) if rules else []
        stated = [LlmFact(f) for f in found]
        from_llm = (llm_facts or {}).get(message.id, [])
        for item, actor in [*((f, ACTOR) for f in stated), *((f, LLM_ACTOR) for f in from_llm)]:
            result = await _apply(deps, message, item.fact, actor, item.verdict)
            if result is not None:
                applied.append(result)
                if result.action in (Action.ADD, Action.UPDATE):
                    new_items.append(result.memory.id)
    if new_items:
        await deps.jobs.enqueue([Job(INDEX_MEMORIES_JOB, {"memory_ids": new_items}, scope.tenant_id, scope.user_id)])
    return applied


@dataclass
class LlmFact:
    """A fact, with the LLM's verdict on the memories already in its slot (when it gave one)."""

    fact: ExtractedFact
    verdict: ReconcileOut | None = None


async def ask_llm(deps: Deps, scope: Scope, message_ids: list[str]) -> dict[str, list[LlmFact]]:
    """The facts the configured LLM finds in these messages and, where the slot already holds
    memories, its reconciliation verdict. Call outside any transaction: no write lock may be held
    while a model thinks. Raises ``LLMError`` (the job then retries)."""
    if deps.chat is None:
        return {}
    found: dict[str, list[LlmFact]] = {}
    for message in await _user_turns(deps, scope, message_ids):
        found[message.id] = []
        for fact in await _llm_facts(deps, message):
            current = await deps.memories.current_by_key(scope, fact.key)
            verdict = None
            if current:
                prompt = reconcile_prompt(fact.content, [(m.id, m.content, m.created_at) for m in current])
                with deps.chat.job():
                    verdict = await deps.chat.complete(*prompt, schema=ReconcileOut)
            found[message.id].append(LlmFact(fact, verdict))
    return found


def _verdict(out: ReconcileOut, current: list[MemoryItem]) -> Decision | None:
    """The LLM's reconciliation as a :class:`Decision`; None (the rules decide) when it names
    no current memory."""
    action = Action(out.action)
    if action is Action.ADD:
        return Decision(Action.ADD, reason=f"llm: {out.reason}")
    targets = [m for m in current if m.id == out.target_id]
    if not targets:
        return None if action is not Action.NONE else Decision(Action.NONE, reason=f"llm: {out.reason}")
    return Decision(action, targets, reason=f"llm: {out.reason}")


async def _user_turns(deps: Deps, scope: Scope, message_ids: list[str]) -> list[Message]:
    messages = [m for m in await deps.log.get_many(scope, message_ids) if m.role is Role.USER]
    return sorted(messages, key=lambda m: (m.created_at, m.seq))


async def _llm_facts(deps: Deps, message: Message) -> list[ExtractedFact]:
    assert deps.chat is not None
    system, prompt = extraction_prompt(
        message.content, message.name or "the user", message.created_at, memory_types_for(deps, message.scope)
    )
    with deps.chat.job():
        out: FactsOut = await deps.chat.complete(system, prompt, schema=FactsOut)
    allowed = memory_types_for(deps, message.scope)
    return [
        ExtractedFact(
            memory_type=MemoryType(f.memory_type), key=f.key.strip().lower(), value=f.value, content=f.content,
            confidence=f.confidence, negated=f.negated, previous_value=f.previous_value, people=tuple(f.people),
        )
        for f in out.facts
        if f.key.strip() and f.memory_type in allowed
    ]


def memory_types_for(deps: Deps, scope: Scope) -> dict[str, str]:
    """The memory types (names and descriptions) of the agent that wrote, else the "*" entry,
    else all built-in types. Types not listed are not asked for."""
    configured = deps.settings.memory_types
    chosen = configured.get(scope.agent_id or "*") or configured.get("*")
    if not chosen:
        return MEMORY_TYPE_DESCRIPTIONS
    return {name: desc or MEMORY_TYPE_DESCRIPTIONS.get(name, "") for name, desc in chosen.items()
            if name in MEMORY_TYPE_DESCRIPTIONS}


async def _apply(
    deps: Deps, message: Message, fact: ExtractedFact, actor: str = ACTOR, verdict: ReconcileOut | None = None
) -> Applied | None:
    scope = Scope(message.scope.tenant_id, message.scope.user_id, message.scope.agent_id)
    current = await deps.memories.current_by_key(scope, fact.key)
    wanted = normalise_value(fact.value)
    if any(message.id in m.source_message_ids and normalise_value(m.metadata.get(FACT_VALUE)) == wanted
           for m in current):
        return None  # this message was mined before (a retried job): nothing new
    keeps_negative = fact.memory_type in (MemoryType.PREFERENCE, MemoryType.CONSTRAINT)
    decision = (_verdict(verdict, current) if verdict is not None else None) or decide(
        fact.key, fact.value, fact.negated, current, fact.previous_value, keeps_negative=keeps_negative
    )
    if decision.action is Action.UPDATE and verdict is not None and verdict.content:
        fact = replace(fact, content=verdict.content)  # the model's merged sentence
    when = message.created_at
    if decision.action is Action.NONE:
        if not decision.targets:
            return None
        return Applied(Action.NONE, await _mention(deps, scope, decision.targets[0], message, actor), [])
    if decision.action is Action.DELETE:
        await _close(deps, scope, decision, message, HistoryEvent.DELETE, None, actor)
        return Applied(Action.DELETE, decision.targets[0], decision.targets)
    item = _fact_memory(scope, message, fact)
    await deps.memories.upsert([item])
    reason = f"{decision.reason}; stated in message {message.id}"
    added = HistoryEntry(item.id, HistoryEvent.ADD, when, None, item.content, actor, reason)
    await deps.memories.add_history(scope, [added])
    if decision.action is Action.UPDATE:
        await _close(deps, scope, decision, message, HistoryEvent.UPDATE, item, actor)
    return Applied(decision.action, item, decision.targets)


async def _mention(deps: Deps, scope: Scope, target: MemoryItem, message: Message, actor: str) -> MemoryItem:
    target.mention_count += 1
    target.source_message_ids = [*target.source_message_ids, message.id]
    target.updated_at = message.created_at
    await deps.memories.upsert([target])
    await deps.memories.add_history(
        scope,
        [HistoryEntry(target.id, HistoryEvent.MENTION, message.created_at, None, None, actor,
                      f"said again in message {message.id}")],
    )
    return target


async def _close(
    deps: Deps,
    scope: Scope,
    decision: Decision,
    message: Message,
    event: HistoryEvent,
    successor: MemoryItem | None,
    actor: str,
) -> None:
    """Supersede or retract the targets: they stay stored, no longer current, with history."""
    for old in decision.targets:
        old.valid_to = message.created_at
        old.updated_at = message.created_at
        await deps.memories.upsert([old])
        await deps.memories.add_history(
            scope,
            [HistoryEntry(old.id, event, message.created_at, old.content, successor.content if successor else None,
                          actor, f"{decision.reason}; message {message.id}", successor.id if successor else None)],
        )


def _fact_memory(scope: Scope, message: Message, fact: ExtractedFact) -> MemoryItem:
    start, end = _event_dates(message, fact)
    return MemoryItem(
        id=new_id("fact"),
        scope=scope,
        kind=MemoryKind.FACT,
        content=fact.content,
        created_at=message.created_at,
        thread_id=message.thread_id,
        memory_type=fact.memory_type,
        importance=IMPORTANCE.get(fact.memory_type, 0.5),
        source_message_ids=[message.id],
        metadata={
            **message.metadata,
            FACT_VALUE: fact.value,
            **({"people": list(fact.people)} if fact.people else {}),
            **({NEGATIVE: True} if fact.negated else {}),
        },
        key=fact.key,
        confidence=fact.confidence,
        updated_at=message.created_at,
        event_start=start,
        event_end=end,
    )


def _event_dates(message: Message, fact: ExtractedFact) -> tuple[datetime | None, datetime | None]:
    """The first date the fact's own words mention, resolved against the message time."""
    lo, hi = fact.span
    text = message.content
    for mention in resolve_dates(text, message.created_at):
        inside = hi <= lo or (mention.span[0] < hi and mention.span[1] > lo)
        opening = mention.span[1] <= lo and not text[mention.span[1] : lo].strip(" ,")  # "Yesterday, I ..."
        if inside or opening:
            return day_start(mention.start), day_start(mention.end)
    return None, None
