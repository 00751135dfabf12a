"""A bare "já não" in Portuguese, read against the question it answers (see
:mod:`hipocampo.domain.extraction.answers`)."""

from __future__ import annotations

import re

from ...text import fold
from .grammar import present

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


def negative_of(question: str) -> str | None:
    """The user's own negative statement answering ``question``: "Ainda tens a Mimi?" -> "já não
    tenho a Mimi"; None when the question has no Portuguese shape we know."""
    rel = _RELATIVE.match(question)
    if rel:
        art = f"{rel['art'].lower()} " if rel["art"] else ""
        return f"{art}{_MINE[rel['poss'].lower()]} {rel['who']} já não {_mine(rel['r'])}"
    m = _PT.match(question)
    if not m:
        return None
    verb, rest = m["verb"], _mine(m["r"])
    if m["cont"]:  # "continuas a trabalhar na Acme", "continua vegetariana"
        gerund = _GERUND.match(fold(verb))
        infinitive = f"{gerund['stem']}{gerund['end'][0]}r" if gerund else verb
        said = present(infinitive) if re.search(r"(?:ar|er|ir|or)$", fold(infinitive)) else None
        return f"já não {said}{rest}" if said else f"já não sou {verb}{rest}"
    tu = fold(m["subj"] or "") == "tu" or (not m["subj"] and fold(verb).endswith(("as", "es")))
    if not m["subj"] and not m["still"] and not (tu or verb.lower() in ("és", "tens", "estás", "vais")):
        return None  # "Mora em Lisboa?" may ask about someone else
    said = _first_person(verb, tu and not m["subj"])
    return (f"já não {said}{rest}") if said else None
