"""The last check before a draft becomes a fact: is its value a value at all?

The rules capture "whatever follows" a shape ("I'm allergic to ___", "prefiro ___"), and in chat
what follows is often no thing: a discourse marker ("by the way", "aliás"), laughter ("haha",
"kkkk"), a filler ("tipo", "né", "entendi"), a bare preposition or negation ("sem gráficos"), or a
clause cut in the middle ("to", "de"). Such a value would be stored and recalled as a fact ("The
user is allergic to by the way."), so it is dropped here, with the rest of its clause when the
clause was filler: precision matters more than recall, and the turn itself stays searchable.
"""

from __future__ import annotations

import re

from ..text import fold
from .base import Draft

_FILLERS = frozenset(
    fold(w.strip())
    for w in """by the way, btw, anyway, whatever, never mind, nevermind, i mean, you know, like, ok, okay, lol, lmao,
    rofl, haha, hehe, yeah, yes, no, nope, sure, thanks, thank you, hmm, um, uh, well, so, actually, idk, i guess,
    i dont know, oh, ah, right, cool, nice, alias, aliás, entendi, entendo, tipo, né, ne, pois, pois é, sei la,
    sei lá, tá, ta, beleza, valeu, então, entao, enfim, olha, bom, bem, sim, não, nao, já agora, ja agora,
    deixa pra la, deixa para la, deixa pra lá, esquece, nada, coisa, coisas, algo, alguma coisa, something,
    stuff, things, isso, aquilo, sabe, percebes, percebe, ora, pronto, claro, obrigado, obrigada""".split(",")
)
_LAUGH = re.compile(r"^(?:(?:ha|he|hi|ah|ja|rs|kk|k)+h?|lo+l|l+m+a+o+|x+d+|:\)|:d)$")
_DANGLING = frozenset(
    """to of for with without at in on from by about than and or but not no the a an my your sem com de do da dos
    das a ao à às os as o em no na nos nas para pra por pelo pela e ou mas não nao nem um uma meu minha que
    mais muito""".split()
)
_PRONOUNS = frozenset("i me you he she we they it eu você voce vc ele ela nós nos eles elas tu".split())
_VERB_FIRST = frozenset(
    """be is are was do does did go say know think get make want see eat ser estar ter fazer ir dizer falar
    saber ver comer querer é e está esta tem foi deixa deixe fica ficar vou vai acho sei""".split()
)
_NOUN_SLOTS = (
    "allergy",
    "intolerance",
    "condition",
    "medication",
    "avoids",
    "diet",
    "employer",
    "home_city",
    "home_country",
    "school",
    "favorite",
    "pet",
    "family",
    "id",
    "birthday",
    "budget",
)


def _words(value: str) -> list[str]:
    return re.findall(r"[\w']+|:\)|:d", fold(value))


def is_filler(value: str) -> bool:
    """Laughter, a discourse marker or a filler, alone ("by the way", "kkkk", "tipo", "né")."""
    ws = _words(value)
    return not ws or " ".join(ws) in _FILLERS or all(_LAUGH.match(w) or w in _FILLERS for w in ws)


def _base(key: str) -> str:
    """The slot family of a key, past any person prefix: "person:sister:ana:home_city" -> "home_city"."""
    parts = key.split(":")
    if parts[0] == "person":
        return parts[-1] if len(parts) > 2 else "person"
    return parts[0]


def valid_value(d: Draft) -> bool:
    """Whether ``d.value`` can stand as the value of its slot."""
    ws = _words(d.value)
    if d.negated and not ws:
        return True  # a slot retracted as a whole ("forget the trip budget")
    if not ws or is_filler(d.value):
        return False
    if any(_LAUGH.match(w) for w in ws) or ws[-1] in _DANGLING:
        return False
    base = _base(d.key)
    if base in ("likes", "dislikes", "prefers") or base in _NOUN_SLOTS:
        if ws[0] in _DANGLING - {"a", "o", "the", "an", "um", "uma", "my", "meu", "minha", "os", "as"}:
            return False  # "prefiro sem gráficos", "likes to" cut short
        if ws[0] in _PRONOUNS:
            return False
    if base in _NOUN_SLOTS and ws[0] in _VERB_FIRST:
        return False  # "allergic to eat ..." is no allergen
    return True


def keep_valid(drafts: list[Draft], spans: list[tuple[int, int]]) -> list[bool]:
    """Which drafts to keep: those with valid values, unless another draft from the same clause
    was filler (then the clause was chatter and none of it is a fact)."""
    ok = [valid_value(d) for d in drafts]
    chatter = {span for d, span in zip(drafts, spans, strict=True) if d.value and is_filler(d.value)}
    return [keep and span not in chatter for keep, span in zip(ok, spans, strict=True)]
