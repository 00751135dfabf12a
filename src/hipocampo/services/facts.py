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
current, with the model's reason in its history.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TypeVar

from ..domain.dates import resolve_dates
from ..domain.extraction import ExtractedFact, answer_length, extract_facts, speaker_gender
from ..domain.extraction.confidence import precision_gate
from ..domain.extraction.llm_schemas import (
    FactsOut,
    LLMError,
    ReconcileOut,
    RevisionOut,
    RevisionsOut,
    extraction_prompt,
    facts_schema,
    grounded,
    reconcile_prompt,
    revision_prompt,
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
    noticed_endings,
    noticed_statements,
    record_taken_back,
    regender_earlier,
    saved_twin,
)
from .ingest import EXTRACT_JOB, INDEX_MEMORIES_JOB

log = logging.getLogger(__name__)
T = TypeVar("T")

__all__ = ["EXTRACT_JOB", "Applied", "LlmFindings", "Revision", "ask_llm", "llm_actor", "mine_messages"]

ACTOR = "heuristic"
LLM_ACTOR = "llm"
"""The actor prefix of the model's changes; :func:`llm_actor` adds the model's name ("llm:gpt-4o-mini")."""

REVIEWED_FACTS = 60
"""Most current facts shown to the model for review, newest first (the turns' own facts first):
enough for a user's profile, and a bound on the prompt whatever the user has stored."""

CONVERSATION_CHARS = 6000
"""Most characters of the new turns shown with the facts to review (the latest turns kept)."""

MEMORY_TYPE_DESCRIPTIONS = {
    MemoryType.USER_PROFILE.value: "who the user is: name, where they live, work, age, family",
    MemoryType.PREFERENCE.value: "what the user likes, dislikes or prefers",
    MemoryType.GOAL.value: "what the user wants to achieve or plans to do",
    MemoryType.CONSTRAINT.value: "limits to respect: budget, diet, schedule",
    MemoryType.CRITICAL_INFO.value: "what must never be forgotten: allergies, health conditions, medication",
    MemoryType.ENTITY.value: "people, pets and things in the user's life, with their attributes",
}
"""Injected into the extraction prompt (each memory type with its description)."""

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


@dataclass
class LlmFact:
    """A fact, with the LLM's verdict on the memories already in its slot (when it gave one).

    ``custom_type``: the configured custom memory type the model gave it (campaign, metric...);
    the fact is then stored with that type in its metadata, as agent tools store theirs, and
    ``fact.memory_type`` only stands in for the rules that read a built-in type."""

    fact: ExtractedFact
    verdict: ReconcileOut | None = None
    custom_type: str | None = None


@dataclass(frozen=True)
class Revision:
    """A change the model asked for to a fact already stored, checked against the store's facts
    of the user when it was asked (see :func:`_revisions`): ``action`` is UPDATE (a correction,
    with the new ``value`` and ``content``) or DELETE (a retraction)."""

    action: Action
    target_id: str
    reason: str
    value: str | None = None
    content: str | None = None


class LlmFindings(dict[str, list[LlmFact]]):
    """What the model found for one batch: the facts per message id (a plain mapping, as before)
    and the revisions of stored facts it asked for."""

    def __init__(self, facts: dict[str, list[LlmFact]] | None = None, revisions: list[Revision] | None = None) -> None:
        super().__init__(facts or {})
        self.revisions: list[Revision] = list(revisions or [])


def llm_actor(deps: Deps) -> str:
    """ "llm:<model>" for the history of the model's changes: the configured model's name
    ("openai:gpt-4o-mini" gives "llm:gpt-4o-mini"), else the name the chat model gives itself."""
    configured = (deps.settings.llm or "").split(":", 1)[-1].strip()
    named = getattr(deps.chat, "model_name", None)
    name = configured or (named if isinstance(named, str) and named else None) or type(deps.chat).__name__
    return f"{LLM_ACTOR}:{name}"


async def ask_llm(deps: Deps, scope: Scope, message_ids: list[str]) -> LlmFindings:
    """The facts the configured LLM finds in these messages and, where the slot already holds
    memories, its reconciliation verdict; then its review of the user's current facts against
    these turns (:class:`Revision`). Call outside any transaction: no write lock may be held
    while a model thinks. A failed call costs only its own answer (see :class:`_Calls`); raises
    ``LLMError`` (the job then retries) only when every call failed."""
    if deps.chat is None:
        return LlmFindings()
    found = LlmFindings()
    turns = await _user_turns(deps, scope, message_ids)
    calls = _Calls(scope)
    for message in turns:
        found[message.id] = []
        for llm_fact in await calls.ask(_llm_facts(deps, message), message.id, [], extraction=True):
            fact = llm_fact.fact
            current = same_speaker(await deps.memories.current_by_key(scope, fact.key), message.name)
            checked = _old_value_checked(fact, message, current)
            if checked is None:
                continue
            llm_fact = replace(llm_fact, fact=checked)
            verdict = None
            if current and _worth_asking(checked, current):
                prompt = reconcile_prompt(fact.content, [(m.id, m.content, m.created_at) for m in current])
                verdict = await calls.ask(_complete(deps, prompt, ReconcileOut), message.id, None)
            found[message.id].append(replace(llm_fact, verdict=verdict))
    if turns:
        found.revisions = await calls.ask(_revisions(deps, scope, message_ids, turns), "the review", [])
    calls.raise_if_all_failed()
    return found


class _Calls:
    """The model calls of one batch, each of which may fail alone: a slow answer (past
    ``llm_timeout_seconds``, after the adapter's retries), a malformed one, a spent budget. A
    failed call costs only what it asked for: the rules' facts of the turn were committed before
    the model was asked and stand, the turn is kept, and the other calls' answers are used. Only
    when the extraction of every turn failed (the model is down) is the error raised, so the job
    is retried later."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.extractions = self.extractions_failed = 0
        self.last: LLMError | None = None

    async def ask(self, call: Awaitable[T], what: str, fallback: T, *, extraction: bool = False) -> T:
        self.extractions += extraction
        try:
            return await call
        except LLMError as exc:
            self.extractions_failed += extraction
            self.last = exc
            log.warning(
                "LLM call for %s of tenant %r user %r failed, the rules' result stands: %s",
                what, self.scope.tenant_id, self.scope.user_id, exc,
            )  # fmt: skip
            return fallback

    def raise_if_all_failed(self) -> None:
        if self.last is not None and self.extractions_failed == self.extractions:
            raise self.last


async def _complete(deps: Deps, prompt: tuple[str, str], schema: type[T]) -> T:
    assert deps.chat is not None
    with deps.chat.job():
        answer: T = await deps.chat.complete(*prompt, schema=schema)
    return answer


def _worth_asking(fact: ExtractedFact, current: list[MemoryItem]) -> bool:
    """Whether the slot's memories need the model's reconciliation, one more call (20-100 s on a
    small local model): not for a restatement (a current memory holds the value already: a
    mention) nor for a retraction (negated, no value; "update to false"), which closes what the
    slot holds, as :func:`decide` does without asking."""
    if fact.negated and not fact.value:
        return False
    wanted = normalise_value(fact.value)
    return not any(
        normalise_value(m.metadata.get(FACT_VALUE)) == wanted and bool(m.metadata.get(NEGATIVE)) == fact.negated
        for m in current
    )


def _old_value_checked(fact: ExtractedFact, message: Message, current: list[MemoryItem]) -> ExtractedFact | None:
    """The model's fact with its old value only where the user's words hold it: the turn, or a
    fact stored for the slot. Small models invent an old value ("changed from Lisbon" when no
    Lisbon was ever said): it is dropped, and so is the fact when its sentence repeats it (the
    sentence would tell a history that never happened)."""
    old = fact.previous_value
    if not old:
        return fact
    said = [message.content, *(str(m.metadata.get(FACT_VALUE) or "") for m in current), *(m.content for m in current)]
    if grounded(old, *said):
        return fact
    log.info("LLM old value %r of %r is in none of the user's words: dropped", old, fact.key)
    if grounded(old, fact.content):
        return None
    return replace(fact, previous_value=None)


async def _revisions(deps: Deps, scope: Scope, message_ids: list[str], turns: list[Message]) -> list[Revision]:
    """Ask the model to review the user's current facts against the batch's turns; keep the
    revisions that name one of the facts shown, with a known op and what that op needs."""
    assert deps.chat is not None
    facts = await _facts_to_review(deps, scope, {m.id for m in turns})
    if not facts:
        return []
    conversation = [
        (m.name or (m.role.value if m.role else "user"), m.content)
        for m in sorted(await deps.log.get_many(scope, message_ids), key=lambda m: (m.created_at, m.seq))
    ]
    system, prompt = revision_prompt(
        _tail(conversation), [(f.id, f.content, f.created_at) for f in facts], turns[-1].created_at
    )
    with deps.chat.job():
        out: RevisionsOut = await deps.chat.complete(system, prompt, schema=RevisionsOut)
    shown = {f.id: f for f in facts}
    kept: list[Revision] = []
    for raw in out.revisions:
        revision = _checked(raw, shown, scope)
        if revision is not None and all(r.target_id != revision.target_id for r in kept):
            kept.append(revision)
    return kept


async def _facts_to_review(deps: Deps, scope: Scope, turn_ids: set[str]) -> list[MemoryItem]:
    """The user's current facts, those the batch's turns gave first, then the newest."""
    current = await deps.memories.list(scope, kind=MemoryKind.FACT, current_at=deps.clock.now(), limit=REVIEWED_FACTS)
    current = [m for m in current if m.valid_to is None]
    return sorted(current, key=lambda m: not turn_ids.intersection(m.source_message_ids))


def _tail(conversation: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The latest turns that fit :data:`CONVERSATION_CHARS` (the last one cut if alone too long)."""
    kept: list[tuple[str, str]] = []
    room = CONVERSATION_CHARS
    for speaker, text in reversed(conversation):
        if room <= 0:
            break
        kept.append((speaker, text[-room:] if len(text) > room else text))
        room -= len(text)
    return kept[::-1]


def _checked(raw: RevisionOut, shown: dict[str, MemoryItem], scope: Scope) -> Revision | None:
    """The model's revision when it is one we can apply, else None with a log line saying why."""
    op = {"CORRECT": Action.UPDATE, "RETRACT": Action.DELETE}.get(raw.op)
    where = f"tenant {scope.tenant_id!r} user {scope.user_id!r}"
    if op is None:
        log.warning("LLM revision ignored for %s: unknown op %r (id %r)", where, raw.op, raw.id)
        return None
    if raw.id not in shown:
        log.warning("LLM revision ignored for %s: %s of %r, not one of the user's current facts", where, raw.op, raw.id)
        return None
    reason = raw.reason or "no reason given"
    if op is Action.DELETE:
        return Revision(op, raw.id, reason)
    if not raw.value or not raw.content:
        log.warning("LLM revision ignored for %s: CORRECT of %r without a value and a sentence", where, raw.id)
        return None
    old = shown[raw.id]
    if normalise_value(raw.value) == normalise_value(old.metadata.get(FACT_VALUE)) and raw.content == old.content:
        log.info("LLM revision ignored for %s: CORRECT of %r changes nothing", where, raw.id)
        return None
    if grounded(str(old.metadata.get(FACT_VALUE) or ""), raw.value):
        # "trabalha na Sonae" for Sonae: a small model restating the fact as a sentence, not a correction.
        log.info("LLM revision ignored for %s: CORRECT of %r restates its value %r", where, raw.id, raw.value)
        return None
    return Revision(op, raw.id, reason, raw.value, raw.content)


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


async def _llm_facts(deps: Deps, message: Message) -> list[LlmFact]:
    """The model's facts of one turn, each of one of the agent's memory types (custom ones too)."""
    assert deps.chat is not None
    allowed = memory_types_for(deps, message.scope)
    system, prompt = extraction_prompt(message.content, message.name or "the user", message.created_at, allowed)
    with deps.chat.job():
        out: FactsOut = await deps.chat.complete(system, prompt, schema=facts_schema(allowed))
    found: list[LlmFact] = []
    for f in out.facts:
        if not f.key.strip() or f.memory_type not in allowed:
            continue
        if f.value and not grounded(f.value, message.content):
            # A translation ("Lisbon" for "Lisboa"), a paraphrase or an invention: not the user's
            # words. A retraction keeps its slot and drops the value; anything else is not stored.
            log.info(
                "LLM value %r of %r is not in the turn: %s", f.value, f.key, "slot kept" if f.negated else "dropped"
            )
            if not f.negated:
                continue
            f = f.model_copy(update={"value": ""})
        elif not f.value and not f.negated:
            continue
        builtin = f.memory_type in MEMORY_TYPE_DESCRIPTIONS
        fact = ExtractedFact(
            # A custom-typed fact stands as an entity for the rules; its own type goes in its metadata.
            memory_type=MemoryType(f.memory_type) if builtin else MemoryType.ENTITY,
            key=f.key.strip().lower(),
            value=f.value,
            content=f.content,
            confidence=f.confidence,
            negated=f.negated,
            previous_value=f.previous_value,
            people=tuple(f.people),
        )
        found.append(LlmFact(fact, custom_type=None if builtin else f.memory_type))
    return found


def memory_types_for(deps: Deps, scope: Scope) -> dict[str, str]:
    """The memory types (names and descriptions) of the agent that wrote, else the "*" entry,
    else all built-in types: built-in ones (an empty description keeps ours) and the deployment's
    own (campaign, metric...: settings checked they are described). Types not listed are not asked for."""
    configured = deps.settings.memory_types
    chosen = configured.get(scope.agent_id or "*") or configured.get("*")
    if not chosen:
        return MEMORY_TYPE_DESCRIPTIONS
    return {name: desc or MEMORY_TYPE_DESCRIPTIONS.get(name, "") for name, desc in chosen.items()}


def custom_memory_types(deps: Deps) -> dict[str, str]:
    """Every custom memory type ``HIPOCAMPO_MEMORY_TYPES`` names, for any agent, with its first
    description: the types beyond the built-in ones the API accepts in saves, filters and sessions."""
    found: dict[str, str] = {}
    for types in deps.settings.memory_types.values():
        for name, desc in types.items():
            if name not in MEMORY_TYPE_DESCRIPTIONS:
                found.setdefault(name, desc)
    return found


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
