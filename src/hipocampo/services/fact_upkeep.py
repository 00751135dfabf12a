"""Upkeep of a user's facts around what the rules read from a turn: one grammatical gender per user,
earlier facts a turn ends in phrasing no rule knows, and a fact saved in its own words that the
rules then read again (:mod:`hipocampo.services.facts` writes what these find)."""

from __future__ import annotations

import re

from ..domain.extraction import ExtractedFact, regender
from ..domain.lang import merged_map
from ..domain.model import MemoryItem, MemoryKind, Message, Scope
from ..domain.text import content_words, fold, query_terms
from ..domain.truth.changes import Ended, ended_facts
from ..domain.truth.reconcile import FACT_VALUE, same_speaker
from .deps import Deps

SPEAKER_FEMININE = "speaker_feminine"
"""Fact metadata: the grammatical gender the user gave themselves in Portuguese (True feminine,
False masculine), remembered so that their later sentences agree with it when a turn does not say."""

KNOWN_FACTS = 200
"""Most current facts (newest first) the rules see of the user while reading a turn."""


async def regender_earlier(deps: Deps, message: Message) -> list[str]:
    """One grammatical gender per user: the speaker's facts written before this turn told it
    ("O usuário mora em Lisboa.", then "sou vegana") are reworded to agree ("A usuária mora em
    Lisboa.") and remember it. Returns the ids whose sentence changed, to be indexed again."""
    feminine = message.metadata.get(SPEAKER_FEMININE)
    assert isinstance(feminine, bool)
    scope = Scope(message.scope.tenant_id, message.scope.user_id, message.scope.agent_id)
    listed = await deps.memories.list(scope, kind=MemoryKind.FACT, limit=KNOWN_FACTS)
    changed: list[str] = []
    for m in same_speaker(listed, message.name):
        if isinstance(m.metadata.get(SPEAKER_FEMININE), bool):
            continue
        content = regender(m.content, str(m.metadata.get(FACT_VALUE) or ""), feminine)
        m.metadata = {**m.metadata, SPEAKER_FEMININE: feminine}
        if content != m.content:
            m.content = content
            changed.append(m.id)
        await deps.memories.upsert([m])
    return changed


async def noticed_endings(deps: Deps, message: Message, touched: set[str]) -> list[Ended]:
    """The user's earlier facts this turn ends in phrasing no slot rule knows ("scratch what I said
    about the half marathon", "adeus Lisboa"): an ending cue of the language with the fact's own
    words in one sentence (:func:`~hipocampo.domain.truth.changes.ended_facts`). The keys the
    turn's rules wrote (``touched``) are theirs. The caller retracts each, with the sentence as the
    reason, so recall shows what said it as earlier, since this turn."""
    scope = Scope(message.scope.tenant_id, message.scope.user_id, message.scope.agent_id)
    listed = await deps.memories.list(scope, kind=MemoryKind.FACT, current_at=deps.clock.now(), limit=KNOWN_FACTS)
    earlier = [
        m
        for m in same_speaker([m for m in listed if m.valid_to is None], message.name)
        if m.created_at < message.created_at and message.id not in m.source_message_ids
    ]
    return ended_facts(message.content, earlier, touched=touched)


SAVED_AS = "saved_as"
"""Fact metadata: the ids of memories saved in their own words (by an agent's tool, the API) that
stated this fact before the rules read it from a turn, merged into it; they stay stored, closed."""

_SUBJECT_WORDS = frozenset("user usuario usuaria utilizador utilizadora".split())
"""The subject of every rule-written sentence: shared by all facts, it says nothing of this one."""
_NEGATION = re.compile(r"\b(?:not|no|never|n't|no\s+longer|não|nao|nunca|já\s+não|ja\s+nao|sem)\b", re.IGNORECASE)


async def saved_twin(deps: Deps, scope: Scope, message: Message, fact: ExtractedFact) -> MemoryItem | None:
    """A fact the agent (or the API) saved in its own words that states what the rules just read
    from the turn: keyless, current, of the same speaker, holding the value's words and another
    content word of the sentence, with the same polarity. "Ana is allergic to penicillin", saved by
    a tool, is the twin of allergy:penicillin read from "I found out I'm allergic to penicillin"."""
    value_words = set(content_words(fact.value))
    if not value_words or fact.negated:
        return None
    saved = await deps.memories.list(scope, kind=MemoryKind.FACT, current_at=deps.clock.now(), limit=KNOWN_FACTS)
    subject = _SUBJECT_WORDS | {fold(w) for w in (message.name or "").split()}
    predicate = {w for w in content_words(fact.content) if w not in value_words and fold(w) not in subject}
    ours = set(query_terms(" ".join(predicate)))
    for m in same_speaker([m for m in saved if m.valid_to is None and not m.key], message.name):
        words = set(content_words(m.content))
        others = {fold(w) for w in words} & set(merged_map("RELATIONS"))  # "my daughter takes penicillin"
        if (
            value_words <= words
            and set(query_terms(m.content)) & ours
            and not others
            and not _NEGATION.search(m.content)
        ):
            return m
    return None
