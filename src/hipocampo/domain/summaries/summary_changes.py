"""Sentences that say a fact changed: "Ana moved from São Paulo to Lisbon in January." Pure.

A summary that folds "I live in São Paulo" and, later, "I moved to Lisbon" must not leave the
reader to work out which holds: it says so, in the thread's language. Summaries and consolidated
memories both use these sentences, from the superseded fact's slot (its key), its old and new
values and the day of the change.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from types import ModuleType

from ..lang import LANGUAGES, language

MONTHS = {code: lang.phrases.MONTHS for code, lang in LANGUAGES.items()}
"""Month names by language (``domain/lang/<code>/phrases.py``)."""


@dataclass(frozen=True)
class FactChange:
    """A single-valued fact superseded: ``key`` went from ``old`` to ``new`` on ``when``; ``who``
    said so (a speaker's name, or "" for the user)."""

    key: str
    old: str
    new: str
    when: datetime
    who: str = ""
    feminine: bool = False  # the user spoke of herself in the feminine: "A usuária", as her facts say


def month_phrase(when: datetime, language: str, *, same_year_as: datetime | None = None) -> str:
    """ "in January" / "em janeiro", with the year when it differs from ``same_year_as``'s."""
    words = _phrases(language)
    month = words.MONTHS[when.month - 1]
    if same_year_as is None or same_year_as.year != when.year:
        month = words.MONTH_YEAR.format(month=month, year=when.year)
    return str(words.IN_MONTH.format(month=month))


def _phrases(code: str) -> ModuleType:
    """The language's summary words; English for a language no bundle reads."""
    return language(code if code in LANGUAGES else "en").phrases


def describe_change(change: FactChange, language: str, *, reference: datetime | None = None) -> str:
    """One sentence, in ``language`` ("pt" or "en"), saying what changed and when."""
    words = _phrases(language)
    templates = words.CHANGES
    subject = change.who or (words.SUBJECT_FEMININE if change.feminine else words.SUBJECT)
    template = templates.get(change.key, templates["*"])
    label = change.key.replace("_", " ")
    possessive = words.POSSESSIVE.format(who=subject) if change.who else "The user's"
    text = template.format(
        S=subject,
        P=possessive,
        label=label,
        old=change.old,
        new=change.new,
        when=month_phrase(change.when, language, same_year_as=reference),
    )
    return text[:1].upper() + text[1:]
