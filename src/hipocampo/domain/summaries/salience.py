"""What in a chat turn carries information, and what is filler. Pure rules, Portuguese and English.

Summaries and consolidation share these rules so that a turn that says nothing ("Entendi.",
"haha ok", "Thanks, Mel!") is treated alike everywhere: it never becomes a summary line, a
consolidated fact or a title word, and it never glues two topics into one cluster.
"""

from __future__ import annotations

import re

from ..lang import LANGUAGES
from ..text import content_words, fold, names_in


def phrases(*alternatives: str) -> re.Pattern[str]:
    """Whole words or phrases, matched in folded (lowercase, accentless) text."""
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")\b")


FILLER = phrases(*dict.fromkeys(f for lang in LANGUAGES.values() for f in lang.phrases.FILLER))
"""Greetings, thanks, laughter, acknowledgements and praise: what a chat repeats most and a
memory needs least."""

_LEADING = re.compile(
    rf"^(?:(?:{'|'.join(lang.phrases.LEADING_FILLER for lang in LANGUAGES.values())})\b[\s,!.…:;-]*)+", re.IGNORECASE
)
_VOCATIVE = re.compile(r"^[A-ZÀ-Ý][\wÀ-ÿ]*[,!]\s*")


def strip_leading_filler(text: str) -> str:
    """``text`` without the interjections that open it, nor the name they address: "Wow, Mel!
    I got the job." -> "I got the job."; text that is all filler comes back empty."""
    rest = _LEADING.sub("", text, count=1)
    if rest == text:
        return text
    rest = _VOCATIVE.sub("", rest, count=1).strip()
    return rest[:1].upper() + rest[1:] if rest else ""


def salient_words(text: str, *, ignore: frozenset[str] = frozenset()) -> list[str]:
    """Content words that are not filler, folded, in order, without ``ignore`` (folded words:
    the speakers' own names, which say who talked, not about what)."""
    folded = FILLER.sub(" ", fold(text.replace("’", "'")))
    return [w for w in (fold(w) for w in content_words(folded)) if w not in ignore and not w.isdigit()]


def is_filler(text: str) -> bool:
    """Says nothing worth remembering: no digit, and once names and filler are left out, no
    salient word ("Entendi.", "Que bom, Marcos!") or a lone one beside filler ("Thanks, great
    talk!"). "I'm vegan." is not filler: one word, but nothing around it is chatter."""
    text = strip_leading_filler(text)
    if re.search(r"\d", text):
        return False
    names = frozenset(fold(n) for n in names_in(text))
    salient = salient_words(text, ignore=names)
    return not salient or (len(salient) < 2 and bool(FILLER.search(fold(text.replace("’", "'")))))
