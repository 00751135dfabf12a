"""A bare "not anymore" read against the question it answers.

"Not anymore", "já não", "not really anymore" say nothing alone; after the assistant asked "Do you
still live in Porto?" or "Ainda tens a Mimi?" they retract that fact. The question is turned into
the user's own negative statement ("I don't live in Porto anymore", "já não tenho a Mimi") and
read by the same rules, so every shape the rules know as a retraction is known here too, and what
they cannot read stays unread. Only retractions are kept: an answer never asserts the question.

A plain "no" ("nope", "não", "not really") retracts only when the question asked whether something
is *still* so ("still", "ainda", "continuas"); otherwise it may deny an assumption or decline an
offer. A negative question ("You don't live in Porto anymore?") is left alone: "no" to it is
ambiguous.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..lang import LANGUAGES
from ..text import fold
from .base import Draft, Grammar

Found = tuple[Draft, Grammar, tuple[int, int]]

_LEAD = (
    r"(?:no|nope|nah|nao|well|hmm+|um|uh|actually|sadly|unfortunately|infelizmente|olha|bem|pois|ah|oh|sorry|desculpa)"
)
_NOT_ANYMORE = (
    r"not\s+(?:really\s+)?(?:any\s*more|any\s+longer)|no\s+longer|not\s+these\s+days|ja\s+nao(?:\s+mais)?|"
    r"nao\s+mais|mais\s+nao|ja\s+nao,?\s+nao|nunca\s+mais|agora\s+ja\s+nao"
)
_PLAIN_NO = r"no|nope|nah|nao|not\s+really|nem\s+por\s+isso|na\s+verdade\s+nao|of\s+course\s+not|claro\s+que\s+nao"
_TAIL = r"(?:unfortunately|sadly|infelizmente|haha+|lol|kk+|rs|no|nao|sorry|though|anymore|mais)"
_ANSWER = re.compile(
    rf"^[\W_]*(?:{_LEAD}[\W_]+)*(?:(?P<gone>{_NOT_ANYMORE})|(?P<plain>{_PLAIN_NO}))(?:[\s,]+{_TAIL})*"
    r"(?:[\W_]*$|\s*[.!,;…:]+\s*)"
)
_STILL = re.compile(r"\b(?:still|anymore|any\s+longer|ainda|continuas?)\b", re.IGNORECASE)
_NEGATIVE = re.compile(r"\b(?:not|no\s+longer|never|n[ãa]o|nunca)\b|n't\b", re.IGNORECASE)


def answer_length(text: str) -> int | None:
    """How long the bare negative answer opening ``text`` is ("Not anymore." -> 12), else None.
    The services fetch the assistant's previous turn only for such turns."""
    m = _ANSWER.match(fold(text))
    return m.end() if m else None


def answered(asked: str, text: str, read: Callable[[str, str], list[Found]]) -> list[Found]:
    """The retractions ``text`` makes by answering ``asked`` (the assistant's previous turn);
    ``read(statement, language)`` runs the rules over a statement."""
    m = _ANSWER.match(fold(text))
    question = _question(asked)
    if not m or not question or _NEGATIVE.search(question):
        return []
    if m["plain"] and not _STILL.search(question):
        return []
    said = next(((s, code) for code, lang in LANGUAGES.items() if (s := lang.answers.negative_of(question))), None)
    if said is None:
        return []
    sentence, lang = said
    end = len(text[: m.end()].rstrip(" ,;:"))
    return [(d, language, (0, end)) for d, language, _ in read(sentence, lang) if d.negated]


# --- the question -------------------------------------------------------------------------------

_OPENERS = re.compile(
    r"^(?:(?:so|and|but|oh|ok|okay|also|great|cool|nice|got\s+it|just\s+(?:checking|to\s+confirm)|quick\s+question|"
    r"by\s+the\s+way|btw|one\s+more\s+thing|e|então|entao|mas|ah|olha|certo|só\s+(?:confirmando|para\s+confirmar|"
    r"pra\s+confirmar)|aliás|alias|diz-me|diga-me|já\s+agora|e\s+aí)\b[\s,:!-]*)+",
    re.IGNORECASE,
)
_TAGS = re.compile(
    r"(?:[\s,]+(?:still|anymore|these\s+days|nowadays|currently|at\s+the\s+moment|right|correct|or\s+not|ainda|"
    r"hoje\s+em\s+dia|atualmente|né|ne|certo|ou\s+não|ou\s+nao))+$",
    re.IGNORECASE,
)


def _question(asked: str) -> str | None:
    """The assistant's last question, without openers and tags: "Got it! Do you still live in
    Porto, right?" -> "Do you still live in Porto"."""
    questions = [s for s in re.split(r"(?<=[.!?…])\s+|\n+", asked) if s.rstrip().endswith("?")]
    if not questions:
        return None
    q = questions[-1].strip().rstrip("?").strip()
    q = _OPENERS.sub("", q)
    return _TAGS.sub("", q).strip(" ,") or None
