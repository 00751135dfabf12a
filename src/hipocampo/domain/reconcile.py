"""Reconciling a newly stated fact with what the user's memory already holds. Pure rules.

The decision follows the fact's *key* (its slot):

- a key without ``:`` (``home_city``, ``name``, ``employer``, ``budget``) holds one value at a
  time: a different value supersedes the current one (UPDATE), never coexists with it;
- a key with ``:`` (``likes:jazz``, ``allergy:peanuts``, ``pet:cat``) names one item of a set:
  restating it is a mention, and the set grows with new keys (ADD);
- a negated fact ("I don't live in Porto anymore", "não gosto mais de jazz") retracts the
  matching current memory (DELETE: it stays, with ``valid_to`` set and a history entry);
- the same value again is a mention (NONE): the count goes up, nothing is duplicated.

Nothing is ever destroyed here: superseded and retracted memories keep their content and gain a
history entry. With an LLM configured, its decision replaces these rules through the same
:class:`Decision` shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from .model import MemoryItem
from .text import fold

FACT_VALUE = "fact_value"
"""Metadata key holding a fact's normalised value (what UPDATE/NONE compare)."""


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
    return " ".join(fold(value or "").replace(".", " ").split())


def is_single_valued(key: str) -> bool:
    return ":" not in key


def decide(
    key: str, value: str | None, negated: bool, current: Sequence[MemoryItem], previous_value: str | None = None
) -> Decision:
    """What to do with a fact stated now, given the current (valid) memories with the same key."""
    wanted = normalise_value(value)
    same = [m for m in current if normalise_value(m.metadata.get(FACT_VALUE)) == wanted]
    if negated:
        targets = same if wanted else list(current)  # no value: the whole slot is retracted
        if not targets:
            return Decision(Action.NONE, reason="retracts nothing the memory holds")
        return Decision(Action.DELETE, targets, reason="the user retracted it")
    if same:
        return Decision(Action.NONE, same[:1], reason="already known: counted as a mention")
    if is_single_valued(key) and current:
        why = f"changed from {previous_value!r}" if previous_value else "a newer value for the same slot"
        return Decision(Action.UPDATE, list(current), reason=why)
    return Decision(Action.ADD, reason="new")
