"""Asking a chat model about user turns: what the rules missed, and a review of the stored facts.

The half of :mod:`.facts` that needs a model: the prompts' memory types, the narrow calls (one per
turn for facts, one per batch for revisions), and the checks each answer passes before anything is
written, because a small real model translates values, invents old ones, writes a retraction as
"update to false" and cuts its JSON short (tests/unit/test_llm_real_output.py). :mod:`.facts`
applies what survives with the rules' own reconciliation.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from dataclasses import dataclass, replace
from typing import TypeVar

from ..domain.extraction import ExtractedFact
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
    MemoryItem,
    MemoryKind,
    MemoryType,
    Message,
    Role,
    Scope,
)
from ..domain.truth.reconcile import (
    FACT_VALUE,
    NEGATIVE,
    Action,
    Decision,
    normalise_value,
    same_speaker,
)
from .deps import Deps

log = logging.getLogger(__name__.removesuffix("_llm"))
"""The facts logger: an operator follows fact extraction, rules and model alike, on one logger."""
T = TypeVar("T")

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
