"""The details a summary must not lose: numbers, dates and names. Pure rules, Portuguese and English.

A summary that keeps "we talked about the party" but drops the €300 budget, the Saturday and
the guests' names has kept the topic and lost the memory. So the summariser treats these
details as a set to cover, not just a bonus on sentences (:mod:`.summarize`), and the benchmark
(``benchmarks/summaries_keep.py``) measures the share it keeps with the same definition:

* a **number** is a token with a digit in it, money and codes included ("€300", "1,200", "20h",
  "XK7P2Q"); what must appear is the token without its currency sign or trailing punctuation;
* a **date** is a month or weekday name, or a day word ("yesterday", "amanhã", "next week");
* a **decision** is a sentence that settles something ("decidi", "combinamos", "we agreed"),
  kept whole (:func:`decision_in`; the benchmark counts it apart);
* a **name** is a capitalised word that does not open its sentence and is not a stopword, a
  date word, nor one of the speakers (whose names every line already carries).

A detail is kept when its key appears in the summary as a whole word, case and accents aside.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..lang import LANGUAGES
from ..text import content_words, fold, names_in
from .salience import is_filler, phrases, strip_leading_filler
from .signals import SETTLED

DATE_WORDS = phrases(*(f for lang in LANGUAGES.values() for f in lang.phrases.DATE_DETAILS))
"""Month and weekday names and day words, folded (English "May" is matched only capitalised,
below: lowercase "may" is a verb)."""
DECISION_WORDS = 3
"""Content words a decision needs to say what was settled ("decidi", "casa", "quintal")."""
_CLAUSE_BREAK = re.compile(r"[,;:]\s+")
_MAY = re.compile(r"\bMay\b")
_TOKEN = re.compile(r"\S+")
_EDGE = re.compile(r"^[^\w$€£¥]+|[^\w%]+$")
_CURRENCY = re.compile(r"^(?:R\$|US\$|[$€£¥])")
_OPENER = re.compile(r"^\W*\S+")
_SENTENCE = re.compile(r"(?<=[.!?…])\s+")


@dataclass(frozen=True)
class Detail:
    """One detail: ``kind`` ("number", "date" or "name"), the ``key`` that must appear in the
    summary (folded), and the ``span`` of its words in the sentence it came from, once that
    sentence's leading filler is stripped (:func:`~.salience.strip_leading_filler`)."""

    kind: str
    key: str
    span: tuple[int, int] = (0, 0)  # character offsets in the sentence


def details_in(sentence: str, *, speakers: Iterable[str] = (), fragment: bool = False) -> list[Detail]:
    """The details of one sentence, in order (each key once); none in filler ("Thanks, Mel!").

    ``speakers``: names of the people talking, left out (folded or not). ``fragment``: the text
    is a piece cut from a sentence ("Sofia e a Laura"), whose first word does not open a sentence
    and which may be a lone name."""
    text = sentence if fragment else strip_leading_filler(sentence)
    if not text or (not fragment and is_filler(text)):
        return []
    offset = 0
    who = {fold(w) for s in speakers for w in s.split()}
    found: dict[str, Detail] = {}
    for m in _TOKEN.finditer(text):
        token = _CURRENCY.sub("", _EDGE.sub("", m.group()))
        if any(c.isdigit() for c in token):
            found.setdefault(fold(token), Detail("number", fold(token), _span(m, offset)))
    folded = fold(text)
    for m in DATE_WORDS.finditer(folded):
        found.setdefault(m.group(), Detail("date", m.group(), (m.start() + offset, m.end() + offset)))
    for m in _MAY.finditer(text):
        if m.start() > 0:
            found.setdefault("may", Detail("date", "may", _span(m, offset)))
    for part in _SENTENCE.split(text):
        start = text.find(part)
        opener = None if fragment and start == 0 else _OPENER.match(part)
        rest = part[opener.end() :] if opener else part
        base = start + (opener.end() if opener else 0)
        for name in sorted(names_in(rest), key=rest.find):
            key = fold(name)
            if _speaker(key, who) or DATE_WORDS.fullmatch(key) or key in found:
                continue
            at = base + rest.find(name)
            found[key] = Detail("name", key, (at + offset, at + offset + len(name)))
    return sorted(found.values(), key=lambda d: d.span)


def decision_in(sentence: str) -> Detail | None:
    """A sentence that settles something ("Decidi: vai ser em casa.", "We agreed to meet on
    Friday") is itself a detail: its key is the clause that settles it, whole, without its final
    stop. Questions and filler settle nothing."""
    text = strip_leading_filler(sentence).strip()
    if not text or text.endswith("?") or is_filler(text) or not SETTLED.search(fold(text.replace("’", "'"))):
        return None
    if len(content_words(text)) < DECISION_WORDS:  # "Vai sim, surpresa total.": a reply, not what was settled
        return None
    start, end = _clause(text)
    key = fold(text[start:end])
    return Detail("decision", key, (start, end)) if key else None


def _clause(text: str) -> tuple[int, int]:
    """The clause that settles it, grown clause by clause (rightwards first) until it says enough
    ("I have a cat named Sushi, so we'll need a pet sitter" -> "so we'll need a pet sitter");
    the whole sentence when the cue cannot be placed."""
    folded = fold(text.replace("’", "'"))
    cue = SETTLED.search(folded)
    bounds = [0, *(m.end() for m in _CLAUSE_BREAK.finditer(text)), len(text)]
    if cue is None or len(folded) != len(text):
        return 0, len(text.rstrip(".!…"))
    i = max(k for k in range(len(bounds) - 1) if bounds[k] <= cue.start())
    lo, hi = i, i + 1
    while len(content_words(text[bounds[lo] : bounds[hi]])) < DECISION_WORDS and (lo > 0 or hi < len(bounds) - 1):
        if hi < len(bounds) - 1:
            hi += 1
        else:
            lo -= 1
    return bounds[lo], bounds[lo] + len(text[bounds[lo] : bounds[hi]].rstrip(" ,;:.!…"))


def _speaker(key: str, who: set[str]) -> bool:
    """One of the speakers, or a short form of one ("Mel" for Melanie: how they address each other)."""
    return key in who or (len(key) >= 3 and any(w.startswith(key) for w in who))


def _span(m: re.Match[str], offset: int) -> tuple[int, int]:
    return (m.start() + offset, m.end() + offset)


def has_detail(text: str, key: str) -> bool:
    """Does ``text`` say ``key`` as a whole word (folded)?"""
    return _pattern(key).search(fold(text)) is not None


def missing(text: str, keys: Iterable[str]) -> list[str]:
    """The ``keys`` that ``text`` does not say, in order."""
    folded = fold(text)
    return [k for k in keys if _pattern(k).search(folded) is None]


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _pattern(key: str) -> re.Pattern[str]:
    found = _PATTERNS.get(key)
    if found is None:
        if len(_PATTERNS) > 50_000:
            _PATTERNS.clear()
        found = _PATTERNS[key] = re.compile(r"(?<![\w])" + re.escape(key) + r"(?![\w])")
    return found
