"""Which memories a later fact made outdated, and what holds now instead. Pure rules.

Superseding a fact ("I moved to Globex" after "I work at Acme") closes the old fact, but the turn
that said it, a summary or an episode built on it still read as if current, and often match a
question better than the new statement does. Recall judges every memory it shows against the
user's closed facts (:meth:`~hipocampo.ports.MemoryStore.closed_facts`), from the fact history
alone, never from wording: a memory is *outdated* by a closed fact when

- it is one of the fact's sources (they share a message), or it was said before the fact closed
  and states the closed value as whole words (case and accents folded);
- and it is not a source of the fact that replaced it, nor states that fact's value ("I left
  Acme for Globex" is the change itself, not a stale claim).

A fact is judged by its own ``valid_to`` only: "works as a designer", extracted from the same
turn as the superseded employer, is still current. A closed fact whose value holds again (the
same key and value re-added, or merged as a duplicate) outdates nothing.

An outdated memory is shown with a note of what replaced it: the current fact with the same key
and since when, or that it was retracted when no fact holds that key now.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property

from ..model import MemoryItem, MemoryKind
from ..text import fold
from .reconcile import FACT_VALUE, RESTATED, is_negative, speaker_of

OUTDATED_MARK = "earlier; since"
"""How every outdated memory's note starts, in search results and in the context: the one text
tests and the scenario probes look for."""

RETRACTED = "retracted"
"""The note's ending when nothing replaced the closed fact (the user took it back)."""

REPLACED = "replaced by a statement since forgotten"
"""The note's ending when a newer fact replaced the closed one and that fact was deleted since
(its thread forgotten): the closed value is still earlier, but the user never took it back."""

SUPERSEDED_BY = "superseded_by"
"""Fact metadata on a closed fact: the id of the fact that replaced it (set when it is closed)."""

LATER_STATEMENT = "later_statement"
"""Fact metadata on a fact closed because a later statement replaced what it said, with no fact
holding the new value (:mod:`.replaced`): that statement's sentence, shown in the note instead of
"retracted"."""

TAKEN_BACK = "taken_back"
"""Fact metadata: True on a fact closed because a later statement took it back with an ending cue
("scratch what I said about..."), rather than stating another value: its note says "retracted"."""

UPDATED_SINCE = "Updated since:"
"""Starts the line added under a thread summary that states a value a later fact replaced."""

CLOSED_FACTS_LIMIT = 100
"""Closed facts read per search, the most recently closed first. A user revises a few slots a
month; a hundred covers years of changes while the read stays a few milliseconds."""

MIN_VALUE_CHARS = 2
"""Shorter values (a lone letter or digit) would match too much text to say anything."""


@dataclass(frozen=True)
class Change:
    """A closed fact and the current fact with the same key (None: retracted)."""

    closed: MemoryItem
    successor: MemoryItem | None

    @property
    def since(self) -> datetime:
        """When the change happened: the successor's event date, else when it was said; for a
        retraction, when the fact was closed."""
        if self.successor is not None:
            return self.successor.event_start or self.successor.created_at
        assert self.closed.valid_to is not None
        return self.closed.valid_to

    @property
    def value(self) -> str:
        return _value(self.closed)

    @property
    def ending(self) -> str:
        """How a change with no current successor ended: taken back, or replaced by a fact that
        was deleted since (forgetting a thread deletes its facts, not the change they made)."""
        return REPLACED if self.closed.metadata.get(SUPERSEDED_BY) else RETRACTED

    @property
    def new_value(self) -> str | None:
        return _value(self.successor) if self.successor is not None else None

    # Read for every memory shown against every change: computed once per change.
    @cached_property
    def folded(self) -> str:
        return fold_value(self.value)

    @cached_property
    def folded_new(self) -> str:
        """The replacing value, when it differs (a set item whose polarity flipped keeps its value,
        which then tells nothing apart)."""
        new = fold_value(self.new_value or "")
        return new if new != self.folded else ""

    @cached_property
    def sources(self) -> frozenset[str]:
        return frozenset(self.closed.source_message_ids)

    @cached_property
    def new_sources(self) -> frozenset[str]:
        return frozenset(self.successor.source_message_ids) if self.successor is not None else frozenset()

    def states_new(self, stated: set[str]) -> bool:
        """Whether the values found in a text include the replacing one."""
        return bool(self.folded_new) and self.folded_new in stated

    def note(self) -> str:
        """ "earlier; since 2024-06-02: The user works at Globex", or for a retraction "...: retracted:
        The user is vegetarian" (which statement: a turn often says several things, and the others
        may still hold)."""
        later = self.closed.metadata.get(LATER_STATEMENT)
        if self.successor is not None:
            now = self.successor.content.strip().rstrip(".")
        elif isinstance(later, str) and later:
            taken = self.closed.metadata.get(TAKEN_BACK)
            about = _subject_of(self.closed.key)
            said = f"said later about {about}" if about else "said later"
            now = f"{RETRACTED} by a later statement: {later.strip()}" if taken else f"{said}: {later.strip()}"
        else:
            now = f"{self.ending}: {self.closed.content.strip().rstrip('.')}"
        return f"{OUTDATED_MARK} {self.since:%Y-%m-%d}: {now}"

    def update_line(self) -> str:
        """ "employer Acme → Globex (2024-06-02)"; a set item's key already names its value."""
        key = self.closed.key or ""
        label = key if ":" in key else f"{key} {self.value}".strip()
        later = self.closed.metadata.get(LATER_STATEMENT)
        ending = f"said later: {later}" if isinstance(later, str) and later else self.ending
        return f"{label} → {self.new_value or ending} ({self.since:%Y-%m-%d})"


def _subject_of(key: str | None) -> str:
    """The subject a later statement changed ("statement:work:agencia" -> "work"): a turn often
    says several things ("moro em bh e trampo numa agência"), and only this one is earlier."""
    parts = (key or "").split(":")
    if len(parts) < 3 or parts[0] != "statement" or parts[1] == RESTATED:
        return ""  # a restated value has no subject a reader knows by name: the later line says which
    return parts[1]


@dataclass(frozen=True)
class Validity:
    """The user's closed facts, ready to judge memories and messages against."""

    changes: tuple[Change, ...] = ()
    _starts: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict, repr=False, compare=False)
    _by_key: dict[str, tuple[int, ...]] = field(default_factory=dict, repr=False, compare=False)
    _judged: dict[tuple[object, ...], Change | None] = field(default_factory=dict, repr=False, compare=False)
    """:meth:`of_memory`'s answers by what they depend on: a recall judges each candidate in its
    first ranking, and its note when rendering (the second hop reuses the first ranking's)."""

    @classmethod
    def of(cls, facts: Iterable[MemoryItem], now: datetime) -> Validity:
        """From :meth:`~hipocampo.ports.MemoryStore.closed_facts`'s answer (any order)."""
        facts = [f for f in facts if f.kind is MemoryKind.FACT and f.key]
        current: dict[tuple[str, str | None], MemoryItem] = {}
        for f in sorted((f for f in facts if f.is_current(now)), key=lambda f: f.created_at):
            current[(f.key, speaker_of(f))] = f  # type: ignore[index]  # the newest holds the slot
        closed = [f for f in facts if f.valid_to is not None and f.valid_to <= now]
        closed.sort(key=lambda f: f.valid_to, reverse=True)  # type: ignore[arg-type, return-value]
        changes = []
        for f in closed:
            successor = current.get((f.key, speaker_of(f)))  # type: ignore[arg-type]  # one person's slot
            if successor is not None and _same(f, successor):
                continue  # the value holds again: nothing it said is stale
            changes.append(Change(f, successor))
        values = {c.folded for c in changes} | {c.folded_new for c in changes}
        starts: dict[str, list[tuple[str, ...]]] = {}
        for value in values:
            if len(value.replace(" ", "")) >= MIN_VALUE_CHARS:
                starts.setdefault(value.split()[0], []).append(tuple(value.split()))
        # Changes by source message and by closed value: a memory is checked against the few
        # changes it could concern, not against every one.
        by_key: dict[str, list[int]] = {}
        for n, c in enumerate(changes):
            for k in {*(f"id:{i}" for i in c.sources), f"value:{c.folded}"}:
                by_key.setdefault(k, []).append(n)
        return cls(tuple(changes), {w: tuple(vs) for w, vs in starts.items()}, {k: tuple(v) for k, v in by_key.items()})

    def __bool__(self) -> bool:
        return bool(self.changes)

    def outdated_by(
        self, source_ids: Sequence[str], text: str, said: datetime, speaker: str | None = None
    ) -> Change | None:
        """The most recent change that makes something said at ``said`` (by ``speaker``, when
        the message named one) outdated, if any. A named person's change outdates by value only
        what that person said: Emma moving away from Boston does not make Carla's Boston stale."""
        if not self.changes:
            return None
        ids = frozenset(source_ids)
        stated = self._stated(text)
        keys = [*(f"id:{i}" for i in ids), *(f"value:{v}" for v in stated)]
        for n in sorted({n for k in keys for n in self._by_key.get(k, ())}):  # the most recently closed first
            change = self.changes[n]
            assert change.closed.valid_to is not None
            source = not ids.isdisjoint(change.sources)
            whose = speaker_of(change.closed)
            if not source and not (
                said < change.closed.valid_to and change.folded in stated and (whose is None or whose == speaker)
            ):
                continue
            if ids.isdisjoint(change.new_sources) and not change.states_new(stated):
                return change
        return None

    def of_memory(self, item: MemoryItem) -> Change | None:
        """Why ``item`` is outdated (None: it is not). Facts answer for themselves (their
        ``valid_to``), never for the turn they came from."""
        if item.kind is MemoryKind.FACT:
            return None
        key = (tuple(item.source_message_ids), item.content, item.created_at, item.name)
        if key not in self._judged:
            self._judged[key] = self.outdated_by(item.source_message_ids, item.content, item.created_at, item.name)
        return self._judged[key]

    def note(self, item: MemoryItem) -> str | None:
        change = self.of_memory(item)
        return change.note() if change is not None else None

    def updates_in(self, text: str, written_at: datetime) -> list[Change]:
        """The changes a thread summary needs told: it states the closed value, and it was
        written before the change or does not state what replaced it."""
        stated = self._stated(text)
        out: list[Change] = []
        for change in self.changes:
            if change.folded not in stated or any(c.closed.key == change.closed.key for c in out):
                continue
            if written_at < change.since or not change.states_new(stated):
                out.append(change)
        return out

    def _stated(self, text: str) -> set[str]:
        """The closed and replacing values ``text`` states, as folded whole words: one pass over
        its words, each looked up among the values' first words."""
        if not self._starts or not text:
            return set()
        words = _WORD.findall(fold(text))
        found: set[str] = set()
        for i, word in enumerate(words):
            for value in self._starts.get(word, ()):
                if tuple(words[i : i + len(value)]) == value:
                    found.add(" ".join(value))
        return found


def summary_updates(validity: Validity | None, text: str, written_at: datetime) -> str:
    """The line to add under a summary that states values since replaced ('' when none)."""
    changes = validity.updates_in(text, written_at) if validity else []
    return f"{UPDATED_SINCE} " + "; ".join(c.update_line() for c in changes) if changes else ""


_WORD = re.compile(r"\w+")


def fold_value(value: str) -> str:
    """A value as the words it is matched by: "São Paulo" -> "sao paulo", "St. Louis" -> "st louis"."""
    return " ".join(_WORD.findall(fold(value)))


def _value(m: MemoryItem) -> str:
    value = m.metadata.get(FACT_VALUE)
    return value.strip() if isinstance(value, str) else ""


def _same(a: MemoryItem, b: MemoryItem) -> bool:
    return fold_value(_value(a)) == fold_value(_value(b)) and is_negative(a) == is_negative(b)


OUTDATED_BOOST = 0.3
"""Search multiplies an outdated memory's score by this. The stale statement often matches a
question best ("Where do I work?" shares more with "I work at Acme" than with "I moved to
Globex"), and the other boosts together move a score by about x2 between two memories of like
relevance (recency 0.7 to 1.5, topic up to 1.2): under 0.5 puts it below any current memory of
comparable relevance, and below half the top score adaptive k drops it. Not 0: it stays findable,
marked, when it is the only evidence ("where did I work before?")."""


def validity_boost(change: Change | None) -> float:
    return OUTDATED_BOOST if change is not None else 1.0
