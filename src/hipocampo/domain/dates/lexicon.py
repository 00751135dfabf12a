"""Words of date expressions, from every language's bundle (``domain/lang/<code>/dates.py``), and the
regex fragments built from them.

Everything here is accent-folded and lowercase: the patterns run over folded text (see dates.py),
so "Sábado", "SABADO" and "sábado" read alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lang import LANGUAGES

_EN, _PT = (LANGUAGES[code].dates for code in ("en", "pt"))  # the rule lists of dates.rules are per language
_ALL = [lang.dates for lang in LANGUAGES.values()]

WEEKDAYS = {name: i for d in _ALL for i, name in enumerate(d.WEEKDAYS)}
MONTHS = {name: i for d in _ALL for i, name in enumerate(d.MONTHS, 1)} | {
    abbr: i for d in _ALL for abbr, i in d.MONTH_ABBREVIATIONS.items()
}
VERB_MONTHS = frozenset().union(*(d.VERB_MONTHS for d in _ALL))
"""Month names that are also verbs: "this may be", "the 3 may", "20 mar"."""
NUMBERS = {w: n for d in _ALL for w, n in d.NUMBERS.items()}
_APPROXIMATELY = [w for d in _ALL for w in d.APPROXIMATELY]
_UNITS = {start: unit for d in _ALL for start, unit in d.UNITS.items()}
_ORDINAL_NOUNS = _PT.ORDINAL_NOUNS
_EN_ORDINAL_NOUNS = _EN.ORDINAL_NOUNS


def _alternatives(words: Iterable[str]) -> str:
    """A regex alternation, longest first so "a couple of" wins over "a"; spaces match any run."""
    ordered = sorted(set(words), key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(part) for part in w.split()) for w in ordered)


NUM = rf"(?P<num>\d{{1,3}}|{_alternatives(NUMBERS)})"
APPROX = rf"(?:(?:{_alternatives(_APPROXIMATELY)})\s+)?"
UNIT = rf"(?P<unit>{'|'.join(d.UNIT_PATTERN for d in _ALL)})"
DAY = r"(?P<day>\d{1,2})"
ORD = r"(?P<ord>st|nd|rd|th)?"
YEAR = r"(?P<year>\d{4})"
WEEKEND_PT = r"fi(?:m|nal)\s+de\s+semana"

WD_EN = rf"(?P<wd>{'|'.join(_EN.WEEKDAYS)})"
WD_PT = (
    r"(?P<wd>(?:segunda|terca|quarta|quinta|sexta)"
    rf"(?:[-\s]feira\b|\b(?!\s+(?:{_alternatives(_ORDINAL_NOUNS)})\b))|sabado|domingo)"
)
WD_PT_FIRM = r"(?P<wd>(?:segunda|terca|quarta|quinta|sexta)[-\s]feira|sabado|domingo)"
"""Portuguese weekdays that need no context: with "-feira", or sábado and domingo."""
EN_ORDINAL_NOUNS = _alternatives(_EN_ORDINAL_NOUNS)

MON_EN_FULL = rf"(?P<mon>{_alternatives(_EN.MONTHS)})\b"
MON_EN = rf"(?P<mon>(?:{_alternatives(_EN.MONTHS)})\b|(?:{_alternatives(_EN.MONTH_ABBREVIATIONS)})\b\.?)"
MON_PT_FULL = rf"(?P<mon>{_alternatives(_PT.MONTHS)})\b"
MON_PT = rf"(?P<mon>(?:{_alternatives(_PT.MONTHS)})\b|(?:{_alternatives(_PT.MONTH_ABBREVIATIONS)})\b\.?)"

PAST = re.compile(rf"\b(?:{'|'.join(d.PAST for d in _ALL)})\b")
FUTURE = re.compile(rf"\b(?:{'|'.join(d.FUTURE for d in _ALL)})\b")
AHEAD = re.compile(rf"\b(?:{'|'.join(d.AHEAD for d in _ALL)})\b")
"""Words for holding a place at an event: what one has tickets, a booking or an appointment for
is still ahead, even when the sentence tells of the purchase in the past tense ("I bought tickets
for the show in April", "comprei ingressos para o show em abril")."""


def number_value(word: str) -> int:
    """3 for "3", "three", "três" (folded "tres"), "a few"; 1 for "a", "uma"."""
    return int(word) if word.isdigit() else NUMBERS[" ".join(word.split())]


def unit_of(word: str) -> str:
    """'day', 'week', 'month' or 'year' for an English or Portuguese unit word, singular or plural."""
    return next((unit for start, unit in _UNITS.items() if word.startswith(start)), "year")


def weekday_number(word: str) -> int:
    """0 (Monday) to 6 for "monday", "segunda-feira", "terca feira", "sabado"..."""
    return WEEKDAYS[re.split(r"[-\s]", word, maxsplit=1)[0]]


def month_number(word: str) -> int:
    return MONTHS[word.rstrip(".")]
