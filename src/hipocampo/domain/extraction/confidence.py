"""The precision gate: a rule's fact is written only when that rule has been right often enough.

Why. A wrong fact is shown as current, outranks real memories and drives the agent; a fact not
written leaves its turn stored and searchable. So each rule family (the slot kind a fact is filed
under: ``home_city``, ``allergy``, ``person:home_city`` for someone else's city) carries a
confidence measured, not guessed: how often its value was read right on the scenario splits we
may read (tuned and earlier-blind: a value the scenario expects, allows, or that the user stated
and later changed) and in the extraction unit tests, split by the value's shape (:func:`shape`),
counted by ``benchmarks/rule_confidence.py`` into ``rule_confidence.json`` beside this module.
A family is judged by its smoothed record, ``(right + PRIOR_RIGHT) / (seen + PRIOR_SEEN)``, so a
family seen rarely, or never, starts at the conservative prior and has to earn its way past the
threshold; a shape within it, by its own record pulled towards the family's (:func:`smoothed`).

What the gate does not touch: a retraction (``negated``) only closes a fact, it shows nothing as
current; it is judged by the retraction checks and the ending detector, not here.

The threshold is chosen by leave-one-scenario-out cross-validation on the earlier-blind split (the
script prints the sweep), capped so every right fact of the tuned split is still written, never
by looking at the never-tuned split. A missing table leaves every family at the prior, under
:data:`THRESHOLD`: then the rules write nothing but retractions, which a test would show at once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Protocol, TypeVar

from ..lang import LANGUAGES
from .lexicon import MULTIPLE_RELATIONS

__all__ = ["THRESHOLD", "confidence", "family", "passes", "precision_gate", "shape", "smoothed"]

TABLE = "rule_confidence.json"
PRIOR_RIGHT, PRIOR_SEEN = 1.0, 2.0
"""A family never observed scores 0.5: below any threshold worth having, so it writes no fact."""
SHAPE_WEIGHT = 2.0
"""How many observations a value shape needs before its own record counts as much as its family's."""

THRESHOLD = 0.8
"""A fact is written when its family's smoothed precision is at least this (see the module docstring;
``benchmarks/rule_confidence.py`` writes the cross-validated value into the table, which wins)."""


MEASURING = False
"""Set by ``benchmarks/rule_confidence.py`` alone, while it counts every rule's facts: the gate is then open."""


class _Fact(Protocol):
    @property
    def key(self) -> str: ...
    @property
    def value(self) -> str: ...
    @property
    def negated(self) -> bool: ...


def family(key: str) -> str:
    """The rule family of a slot: its kind, without the item ("allergy:peanuts" -> "allergy") and,
    for someone else's fact, without who ("person:sister:home_city", "person:sister:emma:home_city"
    -> "person:home_city"); a person's own slot ("person:sister", their name) is "person"."""
    parts = key.split(":")
    if parts[0] != "person":
        return parts[0]
    rest = parts[2:]
    if len(rest) > 1 and parts[1] in MULTIPLE_RELATIONS and rest[0] not in _kinds():
        rest = rest[1:]  # "person:sister:emma:home_city": one of several sisters, named in the slot
    return f"person:{rest[0]}" if rest else "person"


@cache
def _kinds() -> frozenset[str]:
    """Slot kinds a rule writes: every language's template ids and the slots not named after one."""
    named = {t for lang in LANGUAGES.values() for t in lang.reader.templates}
    return frozenset(named | {"home_city", "home_country", "id", "marital_status", "moving_to", "saving_for"})


def shape(value: str) -> str:
    """The value's shape, a generic signal that splits a family where its rules differ in how sure
    they are: "number" (holds a digit: an amount, a date, a code), "proper" (a capitalised name:
    a place, a pet's name, a brand), "common" (a lower-case phrase: a species, a dish, a habit)."""
    value = value.strip()
    if any(c.isdigit() for c in value):
        return "number"
    return "proper" if value[:1].isupper() else "common"


Counts = dict[str, tuple[float, float]]


@cache
def _table() -> tuple[Counts, float]:
    """({family or "family/shape": (right, seen)}, threshold) from the shipped table; empty when missing."""
    try:
        raw = json.loads(resources.files(__package__).joinpath(TABLE).read_text(encoding="utf-8"))
    except (FileNotFoundError, OSError, ValueError):
        return {}, THRESHOLD
    counts: Counts = {}
    for fam, row in raw.get("families", {}).items():
        counts[str(fam)] = (float(row["right"]), float(row["seen"]))
        for kind, sub in row.get("shapes", {}).items():
            counts[f"{fam}/{kind}"] = (float(sub["right"]), float(sub["seen"]))
    return counts, float(raw.get("threshold", THRESHOLD))


def smoothed(counts: Counts, fam: str, kind: str) -> float:
    """The family's precision pulled towards the prior, then its shape's pulled towards the family's:
    a shape seen a few times moves its family's figure only as far as its record allows."""
    right, seen = counts.get(fam, (0.0, 0.0))
    of_family = (right + PRIOR_RIGHT) / (seen + PRIOR_SEEN)
    right, seen = counts.get(f"{fam}/{kind}", (0.0, 0.0))
    return (right + SHAPE_WEIGHT * of_family) / (seen + SHAPE_WEIGHT)


def confidence(key: str, value: str) -> float:
    """How often the rules were right by value for facts of this slot kind and value shape."""
    return smoothed(_table()[0], family(key), shape(value))


def passes(fact: _Fact, threshold: float | None = None) -> bool:
    """Whether ``fact`` may be written: a retraction always, a statement when its family and shape
    clear the threshold (the table's, unless one is given)."""
    limit = _table()[1] if threshold is None else threshold
    return fact.negated or confidence(fact.key, fact.value) >= limit


F = TypeVar("F", bound=_Fact)


def precision_gate(facts: Sequence[F], threshold: float | None = None) -> list[F]:
    """The facts the gate lets through, in order; the rest stay in their turn, unwritten."""
    return list(facts) if MEASURING else [f for f in facts if passes(f, threshold)]
