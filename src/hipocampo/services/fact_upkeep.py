"""Upkeep of a user's facts around what the rules read from a turn: one grammatical gender per user,
earlier facts a turn ends in phrasing no rule knows, and a fact saved in its own words that the
rules then read again (:mod:`hipocampo.services.facts` writes what these find)."""

from __future__ import annotations

import re

from ..domain.extraction import ExtractedFact, regender
from ..domain.extraction.base import slug
from ..domain.lang import LANGUAGES, merged_map
from ..domain.model import HistoryEntry, HistoryEvent, MemoryItem, MemoryKind, Message, Role, Scope, new_id
from ..domain.text import content_words, fold, query_terms
from ..domain.truth.again import may_restate, said_again
from ..domain.truth.changes import Ended, EndedStatement, ended_facts, ended_statements
from ..domain.truth.reconcile import FACT_VALUE, RESTATED, SPEAKER, same_speaker
from ..domain.truth.replaced import SUBJECT_KEYS, Replaced, replaced_statements, subject_statements
from ..domain.truth.restated import restated_statements, states_value
from ..domain.truth.validity import LATER_STATEMENT, TAKEN_BACK
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
    return ended_facts(message.content, await _earlier_facts(deps, message), touched=touched)


async def noticed_again(deps: Deps, message: Message, touched: set[str]) -> list[MemoryItem]:
    """The user's current facts this turn states again in words no rule reads ("still vegetarian
    btw", "continuo na Zup"): :func:`~hipocampo.domain.truth.again.said_again`. The keys the turn's
    rules wrote (``touched``) are theirs: a rule that read the same fact again counted it already."""
    if not may_restate(message.content):
        return []
    return said_again(message.content, await _earlier_facts(deps, message), touched=touched)


async def _earlier_facts(deps: Deps, message: Message) -> list[MemoryItem]:
    """The speaker's current facts stated before ``message``, and not from it."""
    scope = Scope(message.scope.tenant_id, message.scope.user_id, message.scope.agent_id)
    listed = await deps.memories.list(scope, kind=MemoryKind.FACT, current_at=deps.clock.now(), limit=KNOWN_FACTS)
    return [
        m
        for m in same_speaker([m for m in listed if m.valid_to is None], message.name)
        if m.created_at < message.created_at and message.id not in m.source_message_ids
    ]


EARLIER_TURNS = 300
"""Most of the user's earlier turns (newest first) an ending sentence is matched against."""


async def noticed_statements(deps: Deps, message: Message, closed_sources: set[str]) -> list[EndedStatement]:
    """The user's earlier statements this turn takes back that no fact carried ("scratch what I said
    about the half marathon" after a turn no rule read), matched by
    :func:`~hipocampo.domain.truth.changes.ended_statements` among the turns of the same speaker
    before this one. Left out: a turn already marked earlier (the source of a closed fact, or of one
    this turn closed, ``closed_sources``), and one whose current fact holds the words taken back
    (the facts are the ending detector's to close). A turn whose facts say other things is not left
    out: "we have a dog named Waffles and a hamster named Nugget" is taken back by "we don't have
    Nugget anymore" though its dog holds."""
    scope = Scope(message.scope.tenant_id, message.scope.user_id, message.scope.agent_id)
    facts = await deps.memories.list(scope, kind=MemoryKind.FACT, limit=KNOWN_FACTS)
    closed = {i for m in facts if m.valid_to is not None for i in m.source_message_ids} | closed_sources
    found = ended_statements(message.content, await _earlier_said(deps, message, closed))
    holding: dict[str, set[str]] = {}
    for m in facts:
        if m.valid_to is None:
            for i in m.source_message_ids:
                holding.setdefault(i, set()).update(query_terms(str(m.metadata.get(FACT_VALUE) or "")))
    return [s for s in found if not holding.get(s.message_id, set()) & set(query_terms(s.words))]


async def _earlier_said(deps: Deps, message: Message, skip: set[str]) -> list[tuple[str, str]]:
    """The speaker's turns before ``message`` as (message id, text), newest first: those of its
    thread from the log (the newest may not be indexed yet), the others from the indexed turns;
    the ids in ``skip`` left out."""
    scope = Scope(message.scope.tenant_id, message.scope.user_id, message.scope.agent_id)
    turns = await deps.memories.list(scope, kind=MemoryKind.TURN, limit=EARLIER_TURNS)
    thread = await deps.log.list_thread(message.scope, message.thread_id, after_seq=max(-1, message.seq - 50))
    said = {m.id: (m.created_at, m.content, m.name) for m in thread if m.role is Role.USER}
    for t in turns:
        if t.role is Role.USER and t.source_message_ids:
            said.setdefault(t.source_message_ids[0], (t.created_at, t.content, t.name))
    earlier = sorted(
        ((at, i, text) for i, (at, text, name) in said.items() if at < message.created_at and i != message.id
         and i not in skip and name == message.name),
        reverse=True,
    )  # fmt: skip
    return [(i, text) for _, i, text in earlier]


async def noticed_replaced(deps: Deps, message: Message) -> list[Replaced]:
    """The user's earlier statements this turn replaces with no change cue: another value of a
    subject held one at a time ("primeiro mês em Belo Horizonte" after "moro em Santos"), matched
    by :func:`~hipocampo.domain.truth.replaced.replaced_statements`. A turn already marked
    earlier for the same subject (a statement of it, or a fact of its key closed by a rule or an
    ending) is left out, so its note stays the fact's; one marked for another subject is not."""
    scope = Scope(message.scope.tenant_id, message.scope.user_id, message.scope.agent_id)
    facts = await deps.memories.list(scope, kind=MemoryKind.FACT, limit=KNOWN_FACTS)
    keys = [(m.key or "", m) for m in facts if m.valid_to is not None]
    marked = {(k.split(":")[1], i) for k, m in keys if k.startswith("statement:") and k.count(":") >= 2
              for i in m.source_message_ids}  # fmt: skip
    # A fact of the subject already closed from that turn (a rule's update, an ending) marks it.
    marked |= {(subject, i) for k, m in keys for subject, held in SUBJECT_KEYS.items()
               if any(k == h or k.startswith(h + ":") for h in held) for i in m.source_message_ids}  # fmt: skip
    earlier = await _earlier_said(deps, message, {message.id})
    found = replaced_statements(message.content, earlier)
    found += [
        r for r in restated_statements(message.content, earlier) if r.message_id not in {f.message_id for f in found}
    ]
    said_closed = {i: str(m.metadata.get(FACT_VALUE) or "") for _, m in keys for i in m.source_message_ids}
    return [
        r
        for r in found
        if (r.subject.split(":")[0], r.message_id) not in marked
        and not (r.subject == RESTATED and states_value(said_closed.get(r.message_id, ""), r.words))
    ]


VALUE_MARKS = frozenset({"home", "work", "partner", "diet"})
"""Subjects whose earlier value (a place, a company, a name, a diet) marks, as words, whatever else
said it before the change; a role ("analista") or an amount is too common a word to."""


def _new_role(fact: MemoryItem, replaced: Replaced, message: Message) -> bool:
    """A role drawn from a replaced workplace's turn that the later turn replaces by saying another
    ("entrei na Farfetch como gestor de operações" after "sou engenheiro de produção" at the old
    one); a new workplace alone leaves the role current ("still a nurse, just a calmer unit")."""
    if replaced.subject != "work" or fact.key != "occupation":
        return False
    value = set(query_terms(str(fact.metadata.get(FACT_VALUE) or "")))
    roles = [s for s in subject_statements(message.content) if s.subject == "role"]
    return bool(value) and any(not (value & s.stems) for s in roles)


def _holds(fact: MemoryItem, replaced: Replaced) -> bool:
    """Whether a fact drawn from the replaced statement's turn held what it replaced: a key of the
    subject, or for a value restated, the old value in the fact's own."""
    key = fact.key or ""
    if replaced.subject == RESTATED:
        return states_value(str(fact.metadata.get(FACT_VALUE) or ""), replaced.words)
    return any(key == k or key.startswith(k + ":") for k in SUBJECT_KEYS[replaced.subject.split(":")[0]])


def _statement_mark(
    message: Message, source_id: str, said: str, key: str, metadata: dict[str, object], *, confidence: float
) -> MemoryItem:
    """The closed fact that marks an earlier statement (turn ``source_id``) as earlier since
    ``message``: closed the moment it is written, so recall shows that turn with what was said
    later, as it shows the source of any closed fact. Replaced and taken-back statements differ
    only in their key, metadata and how sure the detector is."""
    when = message.created_at
    speaker = {SPEAKER: message.name} if message.name else {}
    return MemoryItem(
        id=new_id("fact"),
        scope=Scope(message.scope.tenant_id, message.scope.user_id, message.scope.agent_id),
        kind=MemoryKind.FACT,
        content=said[:300],
        created_at=when,
        thread_id=message.thread_id,
        importance=0.3,
        source_message_ids=[source_id],
        metadata={**metadata, **speaker},
        key=key,
        confidence=confidence,
        updated_at=when,
        valid_to=when,
    )


async def record_replaced(deps: Deps, message: Message, replaced: Replaced, actor: str) -> list[MemoryItem]:
    """An earlier statement ``message`` replaced: stored as a closed fact whose source is that
    statement's turn (``statement:<subject>:<value>``, closed at once, both sentences in its history
    and the later one in :data:`LATER_STATEMENT`), so recall marks the turn as earlier, since this
    one, and shows what was said then; the current facts drawn from that turn on the same subject
    close with it. Returns what was written or closed."""
    scope = Scope(message.scope.tenant_id, message.scope.user_id, message.scope.agent_id)
    when = message.created_at
    later = {LATER_STATEMENT: replaced.sentence[:200]}
    marks = replaced.subject in VALUE_MARKS or (replaced.subject == RESTATED and len(replaced.words) >= 3)
    item = _statement_mark(
        message,
        replaced.message_id,
        replaced.said,
        f"statement:{replaced.subject.split(':')[0]}:{slug(replaced.words)}",
        {FACT_VALUE: replaced.words if marks else "", **later},
        confidence=0.7,
    )
    why = (
        f"replaced by a later statement of the {replaced.subject} ({replaced.words!r} -> {replaced.new_words!r}): "
        f"{replaced.sentence[:200]!r}; message {message.id}"
    )
    await deps.memories.upsert([item])
    history = [
        HistoryEntry(
            item.id, HistoryEvent.ADD, when, None, item.content, actor, f"said in message {replaced.message_id}"
        ),
        HistoryEntry(item.id, HistoryEvent.DELETE, when, item.content, None, actor, why),
    ]
    closed = [item]
    facts = await deps.memories.list(scope, kind=MemoryKind.FACT, current_at=deps.clock.now(), limit=KNOWN_FACTS)
    for fact in facts:
        if (
            fact.valid_to is None
            and fact.key
            and replaced.message_id in fact.source_message_ids
            and set(fact.source_message_ids) <= {replaced.message_id, message.id}  # a mention by this turn
            and (_holds(fact, replaced) or _new_role(fact, replaced, message))
        ):
            fact.valid_to = when
            fact.updated_at = when
            fact.metadata = {**fact.metadata, **later}
            await deps.memories.upsert([fact])
            history.append(HistoryEntry(fact.id, HistoryEvent.DELETE, when, fact.content, None, actor, why))
            closed.append(fact)
    await deps.memories.add_history(scope, history)
    return closed


FACT_SUBJECTS = {"home": "home_city", "work": "employer", "role": "occupation", "partner": "person:partner",
                 "diet": "diet", "rent": "rent"}  # fmt: skip
"""The one key a later statement of each subject replaces a current fact of. Not a country (a new
city may be in it), nor a work city (a new workplace may be in it)."""


async def closed_by_statement(deps: Deps, message: Message, actor: str) -> list[MemoryItem]:
    """The user's current facts this turn's own statements replace, whatever phrasing their turn
    had: a later statement of a subject (:func:`~hipocampo.domain.truth.replaced.subject_statements`)
    with another value than the fact of its key ("agora moro em Brasília" and a home_city of
    Goiânia read from "sou de Goiânia, moro lá"). Closed with the sentence as what holds now, so
    recall marks their turns as earlier. A statement that adds ("also") replaces nothing."""
    said = [s for s in subject_statements(message.content) if not s.adds and s.subject in FACT_SUBJECTS]
    if not said:
        return []
    scope = Scope(message.scope.tenant_id, message.scope.user_id, message.scope.agent_id)
    listed = await deps.memories.list(scope, kind=MemoryKind.FACT, current_at=deps.clock.now(), limit=KNOWN_FACTS)
    closed: list[MemoryItem] = []
    history: list[HistoryEntry] = []
    when = message.created_at
    for fact in same_speaker([m for m in listed if m.valid_to is None], message.name):
        if fact.created_at >= when or message.id in fact.source_message_ids:
            continue
        value = frozenset(query_terms(str(fact.metadata.get(FACT_VALUE) or "")))
        statement = next((s for s in said if FACT_SUBJECTS[s.subject] == fact.key), None)
        if statement is None or not value or value & statement.stems:
            continue
        fact.valid_to = when
        fact.updated_at = when
        fact.metadata = {**fact.metadata, LATER_STATEMENT: statement.sentence[:200]}
        await deps.memories.upsert([fact])
        why = f"replaced by a later {statement.subject} ({statement.words!r}): {statement.sentence[:200]!r}"
        history.append(
            HistoryEntry(fact.id, HistoryEvent.DELETE, when, fact.content, None, actor, f"{why}; message {message.id}")
        )
        closed.append(fact)
    if history:
        await deps.memories.add_history(scope, history)
    return closed


async def record_taken_back(deps: Deps, message: Message, statement: EndedStatement, actor: str) -> MemoryItem:
    """An earlier statement no fact carried, taken back by ``message``: stored as a closed fact whose
    source is that statement's turn (``statement:<words>``, retracted at once, both sentences in its
    history), so recall marks the turn as earlier, since this one, like any retracted fact."""
    scope = Scope(message.scope.tenant_id, message.scope.user_id, message.scope.agent_id)
    when = message.created_at
    item = _statement_mark(
        message,
        statement.message_id,
        statement.said,
        f"statement:{slug(statement.words)}",
        {FACT_VALUE: statement.words, LATER_STATEMENT: statement.sentence[:200], TAKEN_BACK: True},
        confidence=0.8,
    )
    await deps.memories.upsert([item])
    said = f"said in message {statement.message_id}, no fact read from it"
    why = f"taken back by a later statement ({statement.cue!r}): {statement.sentence[:200]!r}; message {message.id}"
    await deps.memories.add_history(
        scope,
        [
            HistoryEntry(item.id, HistoryEvent.ADD, when, None, item.content, actor, said),
            HistoryEntry(item.id, HistoryEvent.DELETE, when, item.content, None, actor, why),
        ],
    )
    return item


SAVED_AS = "saved_as"
"""Fact metadata: the ids of memories saved in their own words (by an agent's tool, the API) that
stated this fact before the rules read it from a turn, merged into it; they stay stored, closed."""

_SUBJECT_WORDS = frozenset(w for lang in LANGUAGES.values() for w in lang.forms.USER_WORDS)
"""The subject of every rule-written sentence: shared by all facts, it says nothing of this one."""
_NEGATION = re.compile(
    rf"\b(?:{'|'.join(f'(?:{lang.forms.NEGATION})' for lang in LANGUAGES.values())})\b", re.IGNORECASE
)


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
