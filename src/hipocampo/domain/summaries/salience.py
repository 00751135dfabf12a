"""What in a chat turn carries information, and what is filler. Pure rules, Portuguese and English.

Summaries and consolidation share these rules so that a turn that says nothing ("Entendi.",
"haha ok", "Thanks, Mel!") is treated alike everywhere: it never becomes a summary line, a
consolidated fact or a title word, and it never glues two topics into one cluster.
"""

from __future__ import annotations

import re

from ..text import content_words, fold, names_in


def phrases(*alternatives: str) -> re.Pattern[str]:
    """Whole words or phrases, matched in folded (lowercase, accentless) text."""
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")\b")


FILLER = phrases(
    r"(?:ha){2,}h?",
    r"(?:he){2,}",
    r"(?:hu){2,}",
    "lol",
    "lmao",
    r"k{3,}",
    r"(?:rs){1,}",
    "ok",
    "okay",
    "okey",
    "thanks",
    "thank you",
    "thx",
    "valeu",
    "vlw",
    r"obrigad[oa]s?",
    "hi",
    "hello",
    "hey",
    "oi",
    "ola",
    "bom dia",
    "boa tarde",
    "boa noite",
    "good morning",
    "good night",
    "bye",
    "tchau",
    "cool",
    "nice",
    "awesome",
    "great",
    "legal",
    "beleza",
    "blz",
    "tudo bem",
    "tudo certo",
    "me too",
    "yeah",
    "yep",
    "yup",
    "sure",
    "claro",
    "de nada",
    "you're welcome",
    "wow",
    "uau",
    "hmm+",
    "ah",
    "oh",
    "aw+",
    "entendi",
    "entendo",
    "certo",
    "perfeito",
    "show",
    "que bom",
    "que legal",
    "boa sorte",
    "parabens",
    "good luck",
    "congrats",
    "congratulations",
    "got it",
    "i see",
    "sounds good",
    "sounds great",
    "understood",
    "no problem",
    "sem problemas",
    "imagina",
    "por nada",
    "totally",
    "agree",
    "agreed",
    "absolutely",
    "amazing",
    "lovely",
    "noted",
    "anotado",
    "otimo",
    "massa",
    "incrivel",
    "puxa",
    "poxa",
    "nossa",
    "opa",
    "good to see you",
    "good to hear",
    "glad to hear",
    "so happy",
    "that's great",
    "that's awesome",
    "that's amazing",
    "sounds fun",
    "fantastic",
    "wonderful",
    "super",
)
"""Greetings, thanks, laughter, acknowledgements and praise: what a chat repeats most and a
memory needs least."""

_LEADING = re.compile(
    r"^(?:(?:oh|ah|aw+|wow|hey|hi|hello|yeah|yes|yep|yup|well|so|ok|okay|haha\w*|lol|thanks|thank you|totally"
    r"|sure|cool|nice|great|awesome|absolutely|oi|ol[aá]|opa|nossa|sim|bem|ent[aã]o|entendi|entendo|certo|claro"
    r"|beleza|legal|que bom|que legal|valeu|obrigad[oa]|perfeito|show|k{2,}|rs+|hm+|uau|puxa|poxa)\b[\s,!.…:;-]*)+",
    re.IGNORECASE,
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
