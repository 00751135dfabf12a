"""Facts said again in other words. Pure.

A user restates what they said in words the extraction rules were not written for: "still
vegetarian btw", "continuo na Zup", "penicillin allergy, so they're giving me clindamycin",
"lembrando que odeio coentro". Each is a second mention of a fact the memory holds: the fact
should count it (``mention_count``) and cite the turn, as it does when the rules read the same
words again. Without it a fact said five times looks as tentative as one said once, and the turn
that confirms it cites nothing.

The signal is generic: an own sentence of the user names the whole value of one of their current
facts, as said (accents and case aside). A wrong mention only inflates a count, but it must not
count what is not a restatement, so the sentence must be the user's own statement (no question,
hypothetical, reported speech or doubt: :func:`~.changes._own`), not about someone else, and the
clause holding the value must neither deny nor end it ("no more cheese", "sem frutos secos",
"já não sou vegano": those are the ending rules' to read) nor ask the assistant for something
("give me a vegetarian dinner" says nothing of the user's diet). A value that begins a longer name
("my goal is to run the Boston Marathon") is that name, not the value; and a place the user lives
in is named for many other reasons (a trip, a team, a relative there), so it counts only where the
speaker says they are there ("aqui em guimarães", "here in Leeds").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache

from ..lang import LANGUAGES, language
from ..model import MemoryItem
from ..retrieval import speech_acts
from ..text import fold
from .changes import _about_other, _cue_clause, _sentences, may_end
from .reconcile import FACT_VALUE, is_negative
from .replaced import _statement_part

__all__ = ["may_restate", "said_again"]

PLACES = frozenset({"home_city", "home_country", "neighbourhood"})
"""Keys whose value is where the user lives: said again only after the language's "here in"."""

MIN_VALUE = 3
"""The shortest value (folded characters) a restatement is looked for by: "tp" or "rh" is part of
too many other words and codes."""


@cache
def _here() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{'|'.join(language(code).roles.HERE for code in LANGUAGES)})\s+$")


_NAME_GOES_ON = re.compile(r"^\s+[A-ZÀ-Ý]")


@cache
def _negation() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{'|'.join(language(code).changes.NEGATIONS for code in LANGUAGES)})\b")


def _parts(text: str) -> list[str]:
    """The sentences of ``text`` said as the user's own statements (a closing question left off)."""
    return [p for s in _sentences(text) if (p := _statement_part(s))]


def may_restate(text: str) -> bool:
    """Whether ``text`` states anything as the user's own: the cheap test before their facts are
    read (a request or a question restates nothing)."""
    return bool(_parts(text))


def said_again(text: str, facts: Sequence[MemoryItem], *, touched: Iterable[str] = ()) -> list[MemoryItem]:
    """The facts among ``facts`` (the speaker's current ones, older than ``text``) that ``text``
    states again: one of its own sentences names a fact's whole value in a clause that neither
    denies, ends nor requests it. Facts of a key the turn's rules wrote (``touched``) are theirs,
    as are negative facts ("does not eat meat": its value is what the user avoids) and facts about
    other people (``person:``). Each fact once, in the order given."""
    skip = set(touched)
    found: dict[str, MemoryItem] = {}
    parts = _parts(text)
    if not parts:
        return []
    for fact in facts:
        key = fact.key or ""
        value = fold(str(fact.metadata.get(FACT_VALUE) or "")).strip()
        if not key or key in skip or key.startswith("person:") or is_negative(fact) or len(value) < MIN_VALUE:
            continue
        pattern = re.compile(rf"(?<![\w-]){re.escape(value)}(?![\w-])")
        for part in parts:
            folded = fold(part)
            if _about_other(folded):
                continue
            hit = pattern.search(folded)
            if hit is None:
                continue
            if len(folded) == len(part) and _NAME_GOES_ON.match(part[hit.end() :]):
                continue  # "Boston Marathon": a longer name
            if key in PLACES and not _here().search(folded[: hit.start()]):
                continue
            clause = _cue_clause(folded, hit.start(), hit.end())
            if _negation().search(clause) or may_end(clause) or speech_acts.classify(clause) == "request":
                continue
            found[fact.id] = fact
            break
    return list(found.values())
