"""Reconciling a newly stated fact with what the user's memory already holds. Pure rules.

The decision follows the fact's *key* (its slot):

- a key without ``:`` (``home_city``, ``name``, ``employer``, ``budget``) holds one value at a
  time: a different value supersedes the current one (UPDATE), never coexists with it; so do the
  items of ``budget:``, ``prefers:`` and ``id:`` (the trip's budget, the preference about meetings,
  the flight number) and a person's home, job or age (``person:sister:ana:home_city``);
- ``person:<relation>`` names a relative by value: a second sister is added, not a mention;
- a key with ``:`` (``likes:jazz``, ``allergy:peanuts``, ``pet:cat``) names one item of a set:
  restating it is a mention (in whatever words or language), and the set grows with new keys (ADD);
- a negated fact ("I don't live in Porto anymore", "não gosto mais de jazz") retracts the
  matching current memory (DELETE: it stays, with ``valid_to`` set and a history entry); one
  without a value ("I changed my mind about sushi") retracts the whole slot, whatever its polarity,
  and is never stored itself;
- the same value again is a mention (NONE): the count goes up, nothing is duplicated.

Nothing is ever destroyed here: superseded and retracted memories keep their content and gain a
history entry. With an LLM configured, its decision replaces these rules through the same
:class:`Decision` shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from ..extraction.lexicon import CITY_NICKNAMES, MULTIPLE_RELATIONS
from ..model import MemoryItem
from ..text import fold

FACT_VALUE = "fact_value"
"""Metadata key holding a fact's normalised value (what UPDATE/NONE compare)."""


RESTATED = "restated"
"""The subject :func:`~hipocampo.domain.truth.restated.restated_statements` gives what it finds: a
value restated with a change cue, of no subject a reader knows by name."""


class Action(str, Enum):
    ADD = "ADD"
    UPDATE = "UPDATE"
    DELETE = "DELETE"
    NONE = "NONE"


@dataclass
class Decision:
    action: Action
    targets: list[MemoryItem] = field(default_factory=list)  # superseded, retracted or mentioned
    reason: str = ""


def normalise_value(value: str | None) -> str:
    """A value as values are compared: folded, without dots, and a city's nickname read as its name
    ("Floripa" and "Florianópolis" are one home)."""
    folded = " ".join(fold(value or "").replace(".", " ").split())
    nickname = CITY_NICKNAMES.get(folded)
    return " ".join(fold(nickname).split()) if nickname else folded


_ONE_PER_ITEM = ("budget:", "prefers:", "id:")
"""Families whose items hold one value each: the budget *for the trip*, the preference *about
meetings*, the *flight* number. A new value for the item replaces the old one."""
_ONE_VALUE_ATTRIBUTES = frozenset(
    "home_city home_country employer occupation age school work_city work_mode diet budget marital_status "
    "birthday".split()
)


def is_single_valued(key: str) -> bool:
    """Whether the slot holds one value at a time (see the module docstring)."""
    if ":" not in key or key.startswith(_ONE_PER_ITEM):
        return True
    parts = key.split(":")
    return parts[0] == "person" and len(parts) > 2 and parts[-1] in _ONE_VALUE_ATTRIBUTES


def _named_many(key: str) -> bool:
    """ "person:sister": a relation the user may have several of, told apart by name (the value)."""
    parts = key.split(":")
    return len(parts) == 2 and parts[0] == "person" and parts[1] in MULTIPLE_RELATIONS


def decide(
    key: str,
    value: str | None,
    negated: bool,
    current: Sequence[MemoryItem],
    previous_value: str | None = None,
    *,
    keeps_negative: bool = False,
) -> Decision:
    """What to do with a fact stated now, given the current (valid) memories with the same key.

    ``keeps_negative``: a negated fact that retracts nothing is itself worth keeping (a dislike:
    "I hate airports"), stored with negative polarity.
    """
    if is_single_valued(key):
        return _decide_slot(key, value, negated, current, previous_value)
    if negated and not normalise_value(value):  # "I changed my mind about sushi": whatever was held
        if not current:
            return Decision(Action.NONE, reason="retracts nothing the memory holds")
        return Decision(Action.DELETE, list(current), reason="the user retracted it")
    if _named_many(key):  # a second sister is another person, not a mention of the first
        wanted = normalise_value(value)
        current = [m for m in current if normalise_value(m.metadata.get(FACT_VALUE)) == wanted]
    # A key with ':' names the item ("allergy:peanuts"): whatever words said it ("amendoim",
    # "peanuts"), the same key is the same fact, and only its polarity can change.
    agree = [m for m in current if is_negative(m) == negated]
    disagree = [m for m in current if is_negative(m) != negated]
    if agree:
        return Decision(Action.NONE, agree[:1], reason="already known: counted as a mention")
    if disagree:
        if negated:  # "I don't like jazz anymore": the like is retracted, not turned into a dislike
            return Decision(Action.DELETE, disagree, reason="the user retracted it")
        return Decision(Action.UPDATE, disagree, reason="the user changed their mind")
    if negated and not keeps_negative:
        return Decision(Action.NONE, reason="retracts nothing the memory holds")
    return Decision(Action.ADD, reason="new")


def _decide_slot(
    key: str, value: str | None, negated: bool, current: Sequence[MemoryItem], previous_value: str | None
) -> Decision:
    wanted = normalise_value(value)
    same = [m for m in current if normalise_value(m.metadata.get(FACT_VALUE)) == wanted]
    if negated:
        targets = same if wanted else list(current)  # no value: the whole slot is retracted
        if not targets:
            return Decision(Action.NONE, reason="retracts nothing the memory holds")
        return Decision(Action.DELETE, targets, reason="the user retracted it")
    if same:
        return Decision(Action.NONE, same[:1], reason="already known: counted as a mention")
    if current:
        why = f"changed from {previous_value!r}" if previous_value else "a newer value for the same slot"
        return Decision(Action.UPDATE, list(current), reason=why)
    return Decision(Action.ADD, reason="new")


NEGATIVE = "negative"
"""Metadata flag of a fact kept with negative polarity (a dislike, something avoided)."""


def is_negative(m: MemoryItem) -> bool:
    return bool(m.metadata.get(NEGATIVE))


SPEAKER = "speaker"
"""Metadata of a fact stated in a message that named its speaker. One user's memory can hold
several people talking (a shared thread, a family account, a transcript of two friends): "I
live in Boston" said by Emma does not supersede Carla's "I live in Denver". Facts are
reconciled only with the facts of the same speaker (none, the common case, is one speaker)."""


def speaker_of(m: MemoryItem) -> str | None:
    value = m.metadata.get(SPEAKER)
    return value if isinstance(value, str) else None


def same_speaker(facts: list[MemoryItem], speaker: str | None) -> list[MemoryItem]:
    """The facts stated by ``speaker`` (None: by no named speaker)."""
    return [m for m in facts if speaker_of(m) == speaker]
