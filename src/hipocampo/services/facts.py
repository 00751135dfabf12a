"""From user turns to typed facts that stay true: extract, date, reconcile, write with history.

Runs as a background job per batch of new messages. Offline, the rule-based extractor
(:mod:`hipocampo.domain.extraction`) and the reconciliation rules (:mod:`hipocampo.domain.truth.reconcile`)
decide; re-running a job is harmless, because a message already counted in a fact's sources
changes nothing.

With an LLM configured, the model adds what the rules missed and also reviews what is stored:
shown the new turns beside the user's current facts (the rules' facts of these turns and earlier
ones), it may correct a fact (superseded by a new one, history UPDATE) or retract it (closed,
history DELETE). The rules misread jokes, questions and other people's lives, and nothing else
would ever take such a fact back. Nothing is deleted: a revised fact stays stored, no longer
current, with the model's reason in its history. The calls to the model and the checks on its
answers are in :mod:`.facts_llm`.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace
from datetime import datetime

from ..domain.dates import resolve_dates
from ..domain.extraction import ExtractedFact, answer_length, extract_facts, speaker_gender
from ..domain.extraction.confidence import precision_gate
from ..domain.extraction.llm_schemas import (
    ReconcileOut,
)
from ..domain.model import (
    CUSTOM_TYPE_KEY,
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
from ..domain.truth.changes import may_end
from ..domain.truth.reconcile import (
    FACT_VALUE,
    NEGATIVE,
    SPEAKER,
    Action,
    Decision,
    decide,
    normalise_value,
    same_speaker,
)
from ..domain.truth.validity import SUPERSEDED_BY
from .deps import Deps
from .fact_upkeep import (
    KNOWN_FACTS,
    SAVED_AS,
    SPEAKER_FEMININE,
    closed_by_statement,
    noticed_again,
    noticed_endings,
    noticed_replaced,
    noticed_statements,
    record_replaced,
    record_taken_back,
    regender_earlier,
    saved_twin,
)
from .facts_llm import (
    MEMORY_TYPE_DESCRIPTIONS,
    LlmFact,
    LlmFindings,
    Revision,
    _user_turns,
    _verdict,
    ask_llm,
    custom_memory_types,
    llm_actor,
    memory_types_for,
)
from .ingest import EXTRACT_JOB, INDEX_MEMORIES_JOB

log = logging.getLogger(__name__)

__all__ = [
    "EXTRACT_JOB",
    "MEMORY_TYPE_DESCRIPTIONS",
    "Applied",
    "LlmFindings",
    "Revision",
    "ask_llm",
    "custom_memory_types",
    "llm_actor",
    "memory_types_for",
    "mine_messages",
]

ACTOR = "heuristic"

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
    ones when ``rules``, and those an LLM found (see :func:`ask_llm`), then the corrections and
    retractions of stored facts it asked for (when ``llm_facts`` is its :class:`LlmFindings`).

    Call inside a transaction: the facts, their history and the indexing job commit together.
    """
    messages = await _user_turns(deps, scope, message_ids)
    applied: list[Applied] = []
    new_items: list[str] = []
    model = llm_actor(deps)
    for message in messages:
        found: list[ExtractedFact] = []
        if rules:
            found, message, learnt = await _rule_facts(deps, message)
            if learnt:
                new_items += await regender_earlier(deps, message)
        stated = [LlmFact(f) for f in found]
        from_llm = (llm_facts or {}).get(message.id, [])
        for item, actor in [*((f, ACTOR) for f in stated), *((f, model) for f in from_llm)]:
            result = await _apply(deps, message, item.fact, actor, item.verdict, item.custom_type)
            if result is not None:
                applied.append(result)
                if result.action in (Action.ADD, Action.UPDATE):
                    new_items.append(result.memory.id)
        if rules and may_end(message.content):
            closed_sources: set[str] = set()
            for ended in await noticed_endings(deps, message, {f.key for f in found}):
                reason = f"ended by a later statement ({ended.cue!r}): {ended.sentence[:200]!r}"
                decision = Decision(Action.DELETE, [ended.fact], reason)
                await _close(deps, _scope(message), decision, message, HistoryEvent.DELETE, None, ACTOR)
                applied.append(Applied(Action.DELETE, ended.fact, [ended.fact]))
                closed_sources.update(ended.fact.source_message_ids)
            for statement in await noticed_statements(deps, message, closed_sources):
                taken = await record_taken_back(deps, message, statement, ACTOR)
                applied.append(Applied(Action.DELETE, taken, [taken]))
        if rules:  # another value of a subject held one at a time, said with no cue
            for replaced in await noticed_replaced(deps, message):
                closed = await record_replaced(deps, message, replaced, ACTOR)
                applied += [Applied(Action.DELETE, m, [m]) for m in closed]
            applied += [Applied(Action.DELETE, m, [m]) for m in await closed_by_statement(deps, message, ACTOR)]
            for fact in await noticed_again(deps, message, {f.key for f in found}):  # said again, in other words
                applied.append(Applied(Action.NONE, await _mention(deps, _scope(message), fact, message, ACTOR), []))
    revisions = llm_facts.revisions if isinstance(llm_facts, LlmFindings) else []
    if revisions and messages:
        for revision in revisions:
            # The latest user turn of the batch stands as the source: the review read them all.
            result = await _revise(deps, scope, revision, messages[-1], model)
            if result is not None:
                applied.append(result)
                if result.action is Action.UPDATE:
                    new_items.append(result.memory.id)
    if new_items:
        await deps.jobs.enqueue([Job(INDEX_MEMORIES_JOB, {"memory_ids": new_items}, scope.tenant_id, scope.user_id)])
    return applied


async def _rule_facts(deps: Deps, message: Message) -> tuple[list[ExtractedFact], Message, bool]:
    """The rules' facts of one turn, read with what the turn alone does not say: the speaker's current
    facts (a pet retracted by name, "I moved to Globex": a job or a home), the assistant's question
    a bare "not anymore" answers, and the gender the speaker's facts remember (else this turn's).
    The turn comes back with that gender in its metadata, so the facts written from it remember it,
    and whether the gender was learnt from this turn (the earlier facts are then reworded)."""
    scope = Scope(message.scope.tenant_id, message.scope.user_id, message.scope.agent_id)
    listed = await deps.memories.list(scope, kind=MemoryKind.FACT, current_at=deps.clock.now(), limit=KNOWN_FACTS)
    current = same_speaker([m for m in listed if m.valid_to is None], message.name)
    known = [(m.key, str(m.metadata[FACT_VALUE])) for m in current if m.key and m.metadata.get(FACT_VALUE)]
    remembered = next(
        (m.metadata[SPEAKER_FEMININE] for m in current if isinstance(m.metadata.get(SPEAKER_FEMININE), bool)), None
    )
    feminine = remembered if remembered is not None else speaker_gender(message.content)
    asked = await _asked(deps, message) if answer_length(message.content) is not None else None
    # Off the event loop: the rules take ~0.2 s over a 100,000-character message, a stall
    # every other tenant's requests would share.
    found = await asyncio.to_thread(
        extract_facts, message.content, speaker=message.name, feminine=feminine, known=known, asked=asked
    )
    found = precision_gate(found)  # a rule not right often enough writes no fact: the turn stays
    if feminine is not None:
        message = replace(message, metadata={**message.metadata, SPEAKER_FEMININE: feminine})
    return found, message, remembered is None and feminine is not None


async def _asked(deps: Deps, message: Message) -> str | None:
    """The assistant turn right before ``message`` in its thread, if the turn before is one."""
    before = await deps.log.list_thread(message.scope, message.thread_id, after_seq=message.seq - 2, limit=1)
    if before and before[0].seq == message.seq - 1 and before[0].role is Role.ASSISTANT:
        return before[0].content
    return None


async def _apply(
    deps: Deps,
    message: Message,
    fact: ExtractedFact,
    actor: str = ACTOR,
    verdict: ReconcileOut | None = None,
    custom_type: str | None = None,
) -> Applied | None:
    scope = Scope(message.scope.tenant_id, message.scope.user_id, message.scope.agent_id)
    current = same_speaker(await deps.memories.current_by_key(scope, fact.key), message.name)
    wanted = normalise_value(fact.value)
    if any(
        message.id in m.source_message_ids and normalise_value(m.metadata.get(FACT_VALUE)) == wanted for m in current
    ):
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
    twin = await saved_twin(deps, scope, message, fact) if decision.action is Action.ADD else None
    item = _fact_memory(scope, message, fact, custom_type)
    if twin is not None:  # one memory for one fact: the turn's, keyed, carrying the saved one's sources
        item.importance = max(item.importance, twin.importance)
        item.mention_count = twin.mention_count + 1
        item.metadata = {**item.metadata, SAVED_AS: [twin.id]}
        decision = Decision(Action.UPDATE, [twin], f"the same fact as saved memory {twin.id}: merged")
    await deps.memories.upsert([item])
    reason = f"{decision.reason}; stated in message {message.id}"
    added = HistoryEntry(item.id, HistoryEvent.ADD, when, None, item.content, actor, reason)
    await deps.memories.add_history(scope, [added])
    if decision.action is Action.UPDATE:
        await _close(deps, scope, decision, message, HistoryEvent.UPDATE, item, actor)
    return Applied(decision.action, item, decision.targets)


async def _revise(deps: Deps, scope: Scope, revision: Revision, message: Message, actor: str) -> Applied | None:
    """Apply one checked revision, unless its fact stopped being current since the model was
    asked (a verdict of this batch, or another job, changed it first): then the model's view is
    stale and the revision is dropped with a log line."""
    found = await deps.memories.get_many(scope, [revision.target_id])
    old = found[0] if found else None
    if old is None or old.kind is not MemoryKind.FACT or old.valid_to is not None:
        log.info("LLM revision of %r dropped: no longer a current fact of the user", revision.target_id)
        return None
    reason = f"llm: {revision.reason}"
    if message.created_at < old.created_at:  # a backdated batch reviewing a later fact: close it as it starts
        message = replace(message, created_at=old.created_at)
    if revision.action is Action.DELETE:
        await _close(deps, old.scope, Decision(Action.DELETE, [old], reason), message, HistoryEvent.DELETE, None, actor)
        return Applied(Action.DELETE, old, [old])
    assert revision.value is not None and revision.content is not None
    people = tuple(old.metadata.get("people") or ())
    fact = ExtractedFact(
        memory_type=old.memory_type or MemoryType.USER_PROFILE,
        key=old.key or "",
        value=revision.value,
        content=revision.content,
        confidence=old.confidence if old.confidence is not None else 0.8,
        people=people,
    )
    custom = old.type_name if old.memory_type is None else None  # a correction keeps a custom type
    item = _fact_memory(old.scope, message, fact, custom)
    item.importance = old.importance
    item.metadata.pop(NEGATIVE, None)
    await deps.memories.upsert([item])
    await deps.memories.add_history(
        old.scope,
        [
            HistoryEntry(
                item.id,
                HistoryEvent.ADD,
                message.created_at,
                None,
                item.content,
                actor,
                f"{reason}; corrects {old.id}, reviewed with message {message.id}",
                old.id,
            )
        ],
    )
    await _close(deps, old.scope, Decision(Action.UPDATE, [old], reason), message, HistoryEvent.UPDATE, item, actor)
    return Applied(Action.UPDATE, item, [old])


async def _mention(deps: Deps, scope: Scope, target: MemoryItem, message: Message, actor: str) -> MemoryItem:
    target.mention_count += 1
    target.source_message_ids = [*target.source_message_ids, message.id]
    target.updated_at = message.created_at
    await deps.memories.upsert([target])
    await deps.memories.add_history(
        scope,
        [
            HistoryEntry(
                target.id,
                HistoryEvent.MENTION,
                message.created_at,
                None,
                None,
                actor,
                f"said again in message {message.id}",
            )
        ],
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
        if successor is not None:  # remembered: forgetting the successor's thread is no retraction
            old.metadata = {**old.metadata, SUPERSEDED_BY: successor.id}
        await deps.memories.upsert([old])
        await deps.memories.add_history(
            scope,
            [
                HistoryEntry(
                    old.id,
                    event,
                    message.created_at,
                    old.content,
                    successor.content if successor else None,
                    actor,
                    f"{decision.reason}; message {message.id}",
                    successor.id if successor else None,
                )
            ],
        )


def _scope(message: Message) -> Scope:
    return Scope(message.scope.tenant_id, message.scope.user_id, message.scope.agent_id)


def _fact_memory(scope: Scope, message: Message, fact: ExtractedFact, custom_type: str | None = None) -> MemoryItem:
    """A fact as a memory; a custom-typed one has no built-in type and its own in the metadata."""
    start, end = _event_dates(message, fact)
    return MemoryItem(
        id=new_id("fact"),
        scope=scope,
        kind=MemoryKind.FACT,
        content=fact.content,
        created_at=message.created_at,
        thread_id=message.thread_id,
        memory_type=None if custom_type else fact.memory_type,
        importance=0.5 if custom_type else IMPORTANCE.get(fact.memory_type, 0.5),
        source_message_ids=[message.id],
        metadata={
            **message.metadata,
            FACT_VALUE: fact.value,
            **({"people": list(fact.people)} if fact.people else {}),
            **({NEGATIVE: True} if fact.negated else {}),
            **({CUSTOM_TYPE_KEY: custom_type} if custom_type else {}),
            **({SPEAKER: message.name} if message.name else {}),
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
        if not mention.year_known:
            continue  # "in April" with no tense or context to tell the year: dating it would be a guess
        inside = hi <= lo or (mention.span[0] < hi and mention.span[1] > lo)
        opening = mention.span[1] <= lo and not text[mention.span[1] : lo].strip(" ,")  # "Yesterday, I ..."
        if inside or opening:
            return day_start(mention.start), day_start(mention.end)
    return None, None
