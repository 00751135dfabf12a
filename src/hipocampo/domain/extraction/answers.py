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

from ..text import fold
from .base import Draft, Language
from .pt import present

Found = tuple[Draft, Language, tuple[int, int]]

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
    statement = _english(question) or _portuguese(question)
    if statement is None:
        return []
    sentence, lang = statement
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


# --- English ------------------------------------------------------------------------------------

_YOURS = {"your": "my", "yours": "mine", "you": "me", "yourself": "myself"}
_EN = [
    (re.compile(r"^(?:do|does)\s+you\s+(?:still\s+)?(?P<r>.+)$", re.I), "I don't {r} anymore"),
    (re.compile(r"^have\s+you\s+(?:still\s+)?got\s+(?P<r>.+)$", re.I), "I don't have {r} anymore"),
    (re.compile(r"^are\s+you\s+(?:still\s+)?(?P<r>.+)$", re.I), "I'm not {r} anymore"),
    (re.compile(r"^you(?:'re|\s+are)\s+still\s+(?P<r>.+)$", re.I), "I'm not {r} anymore"),
    (re.compile(r"^you\s+still\s+(?P<r>.+)$", re.I), "I don't {r} anymore"),
    (re.compile(r"^still\s+(?P<r>.+)$", re.I), "I'm not {r} anymore"),
    (re.compile(r"^does\s+your\s+(?P<who>(?:\w+\s+){0,2}?\w+)\s+(?:still\s+)?(?P<r>\w+\b.*)$", re.I),
     "my {who} doesn't {r} anymore"),
]  # fmt: skip


def _english(question: str) -> tuple[str, str] | None:
    for pattern, template in _EN:
        m = pattern.match(question)
        if m:
            parts = {
                k: re.sub(r"\b(?:your|yours|you|yourself)\b", lambda w: _YOURS[w[0].lower()], v, flags=re.I)
                for k, v in m.groupdict().items()
            }
            return template.format(**parts), "en"
    return None


# --- Portuguese ---------------------------------------------------------------------------------

_FIRST = {
    "é": "sou", "és": "sou", "tem": "tenho", "tens": "tenho", "está": "estou", "estás": "estou", "vai": "vou",
    "vais": "vou", "faz": "faço", "fazes": "faço", "pode": "posso", "podes": "posso", "quer": "quero",
    "queres": "quero", "prefere": "prefiro", "preferes": "prefiro", "segue": "sigo", "segues": "sigo",
    "sente": "sinto", "sentes": "sinto", "vê": "vejo", "vês": "vejo",
}  # fmt: skip
_MINE = {"seu": "meu", "sua": "minha", "seus": "meus", "suas": "minhas", "teu": "meu", "tua": "minha",
         "teus": "meus", "tuas": "minhas"}  # fmt: skip
_YOU_PT = r"(?:você|voce|vc|tu|o\s+senhor|a\s+senhora)"
_PT = re.compile(
    rf"^(?:(?P<subj>{_YOU_PT})\s+)?(?:(?P<still>ainda)\s+|(?P<cont>continuas?)\s+(?:a\s+)?)?"
    r"(?P<verb>[a-zà-ÿ]+)\b(?P<r>.*)$",
    re.IGNORECASE,
)
_RELATIVE = re.compile(
    r"^(?:(?P<art>[oa])\s+)?(?P<poss>seu|sua|teu|tua)\s+(?P<who>[a-zà-ÿ]+(?:\s+mais\s+[a-zà-ÿ]+)?)\s+(?:ainda\s+)?"
    r"(?P<r>[a-zà-ÿ]+\b.*)$",
    re.IGNORECASE,
)
_GERUND = re.compile(r"(?P<stem>\w+)(?P<end>ando|endo|indo)$")


def _mine(text: str) -> str:
    return re.sub(r"\b(?:seus?|suas?|teus?|tuas?)\b", lambda w: _MINE[w[0].lower()], text, flags=re.IGNORECASE)


def _first_person(verb: str, tu: bool) -> str | None:
    """ "mora"/"moras" -> "moro", "és" -> "sou"; None when ``verb`` is no second-person verb."""
    word = verb.lower()
    if word in _FIRST:
        return _FIRST[word]
    ending = ("as", "es") if tu else ("a", "e", "as", "es")
    for end in sorted(ending, key=len, reverse=True):
        if word.endswith(end) and len(word) > len(end) + 2:
            return word[: -len(end)] + "o"
    return None


def _portuguese(question: str) -> tuple[str, str] | None:
    rel = _RELATIVE.match(question)
    if rel:
        art = f"{rel['art'].lower()} " if rel["art"] else ""
        return f"{art}{_MINE[rel['poss'].lower()]} {rel['who']} já não {_mine(rel['r'])}", "pt"
    m = _PT.match(question)
    if not m:
        return None
    verb, rest = m["verb"], _mine(m["r"])
    if m["cont"]:  # "continuas a trabalhar na Acme", "continua vegetariana"
        gerund = _GERUND.match(fold(verb))
        infinitive = f"{gerund['stem']}{gerund['end'][0]}r" if gerund else verb
        said = present(infinitive) if re.search(r"(?:ar|er|ir|or)$", fold(infinitive)) else None
        return (f"já não {said}{rest}" if said else f"já não sou {verb}{rest}"), "pt"
    tu = fold(m["subj"] or "") == "tu" or (not m["subj"] and fold(verb).endswith(("as", "es")))
    if not m["subj"] and not m["still"] and not (tu or verb.lower() in ("és", "tens", "estás", "vais")):
        return None  # "Mora em Lisboa?" may ask about someone else
    said = _first_person(verb, tu and not m["subj"])
    return (f"já não {said}{rest}", "pt") if said else None
