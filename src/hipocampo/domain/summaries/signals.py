"""What makes a sentence worth a summary line: names, numbers and dates, decisions, preferences,
changes, who it is about, and filler. Pure rules, Portuguese and English.

:mod:`.summarize` scores sentences by these signals; the benchmark
(``benchmarks/summaries_keep.py``) uses :data:`DECISION` to find the decisions a summary must keep.
The word lists live in the language bundles (``domain/lang/<code>/phrases.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..lang import LANGUAGES
from ..text import content_words, fold, names_in
from .salience import FILLER, phrases


def _cues(name: str) -> list[str]:
    """Every language's fragments of ``phrases.<name>``, in registry order, duplicates dropped."""
    return list(dict.fromkeys(f for lang in LANGUAGES.values() for f in getattr(lang.phrases, name)))


NAME_BONUS = 0.15  # per name, up to two
NUMBER_BONUS = 0.25  # numbers, money, dates
DECISION_BONUS = 0.8  # decisions, plans, commitments: what was settled (measured: 74% -> 91% kept on LoCoMo dev)
PREFERENCE_BONUS = 0.8  # preferences and constraints (an allergy must never be dropped): as high as decisions
CHANGE_BONUS = 0.3  # "I moved to Denver", "não sou mais vegetariana": what makes older lines wrong
SELF_BONUS = 0.1  # a speaker saying something about themselves: the memory is about people
FILLER_PENALTY = 0.15  # filler words around some content
ADDRESS_PENALTY = 0.3  # "You'll be an awesome mom!": about the listener, usually praise

DECISION = phrases(*_cues("DECISION_CUES"))
SETTLED = phrases(*_cues("SETTLED_CUES"))
"""The strong part of :data:`DECISION`: what was settled, not a bare future ("vai", "will",
"vou"), which also says "a primavera vai ser um horror". A summary keeps these sentences whole."""
PREFERENCE = phrases(*_cues("PREFERENCE_CUES"))
NUMBER = re.compile(r"\d|[$€£¥]")
_DIGITS = re.compile(r"\d+")  # part of a sentence's identity: "meet at 3" is not "meet at 4"
DATE_WORDS = phrases(*_cues("DATE_CUES"))
CHANGE = phrases(*_cues("CHANGE_CUES"))
FIRST_PERSON = phrases(*_cues("FIRST_PERSON"))
SECOND_PERSON = phrases(*_cues("SECOND_PERSON"))
SENTENCE_BOUNDARY = re.compile(r"(?:(?<=[.!?…])|(?<=[.!?…][\"'”’)]))\s+(?=[\"'“‘(¿¡]?[A-ZÀ-Ý0-9])")
"""Where a sentence ends: after ``. ! ? …`` (and a closing quote), before a capital or digit."""


def capitalised_names(text: str) -> set[str]:
    """Capitalised words that do not start a sentence (a sentence's first word is capitalised
    anyway), nor name a day or month (those count as dates)."""
    found: set[str] = set()
    for sentence in SENTENCE_BOUNDARY.split(text):
        rest = sentence.split(maxsplit=1)
        if len(rest) == 2:
            found |= names_in(rest[1])
    return {n for n in found if not DATE_WORDS.fullmatch(fold(n))}


@dataclass(frozen=True)
class Signals:
    """What one sentence carries, read once: the summariser's score is built from these."""

    names: int
    number: bool
    decision: bool
    preference: bool
    filler: bool
    content: int  # content words, filler and names left out
    change: bool
    first_person: bool
    second_person: bool

    @classmethod
    def of(cls, text: str) -> Signals:
        folded = fold(text.replace("’", "'"))
        names = capitalised_names(text)
        rest = FILLER.sub(" ", folded)
        folded_names = {fold(n) for n in names}
        return cls(
            names=len(names),
            number=bool(NUMBER.search(text) or DATE_WORDS.search(folded)),
            decision=bool(DECISION.search(folded)),
            preference=bool(PREFERENCE.search(folded)),
            filler=rest != folded,
            content=sum(fold(w) not in folded_names for w in content_words(rest)),
            change=bool(CHANGE.search(folded)),
            first_person=bool(FIRST_PERSON.search(folded)),
            second_person=bool(SECOND_PERSON.search(folded)),
        )

    @property
    def worth_a_line(self) -> bool:
        """Two content words, or a number, decision or preference: "Hey Mel! How are you?" and
        "Hi! Good, thanks." are not; "I'm vegan." and "Saturday at 3." are. Words addressed to the
        listener alone ("You'll be an awesome mom!") are not, unless they carry more."""
        return (self.content >= 2 and not self.addressed) or self.number or self.decision or self.preference

    @property
    def addressed(self) -> bool:
        return self.second_person and not self.first_person and not self.number and not self.names

    @property
    def bonus(self) -> float:
        addressed = self.addressed
        return (
            NAME_BONUS * min(self.names, 2)
            + NUMBER_BONUS * self.number
            + DECISION_BONUS * self.decision
            + PREFERENCE_BONUS * self.preference
            + CHANGE_BONUS * self.change
            + SELF_BONUS * self.first_person
            - FILLER_PENALTY * self.filler
            - ADDRESS_PENALTY * addressed
        )
