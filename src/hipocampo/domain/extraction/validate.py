"""The last check before a draft becomes a fact: is its value a whole value of the right kind?

The rules capture "whatever follows" a shape ("I'm allergic to ___", "prefiro ___"), and in chat
what follows is often no thing: a discourse marker ("by the way", "aliás"), laughter ("haha",
"kkkk"), a filler ("tipo", "né"), a bare preposition ("sem gráficos"), a clause cut in the middle
("to", "de"), or a phrase that runs on into the next clause ("manhã eu treino", "manhã levo o Pixel
ao veterinário", "here I have to drive more"). Such a value would be stored and recalled as a
current fact, so it is dropped here: precision matters more than recall, and the turn itself stays
a memory, searchable as said.

Every value is checked the same way, whatever rule wrote it, against what a phrase of its kind
may hold (a thing, a place, a time, a plan) in the language that read it: the words come from the
language's bundle (``domain/lang/<code>/forms.py``), the checks are here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from ..lang import LANGUAGES, language
from ..text import fold
from .base import LAUGH, Draft, lower_org_at

_NOUN_SLOTS = frozenset(
    """allergy intolerance condition medication avoids diet employer home_city home_country work_city origin
    school favorite pet family id birthday budget work_field""".split()
)
_THINGS = frozenset({"likes", "dislikes", "prefers"}) | _NOUN_SLOTS
"""Slots whose value is a thing (a noun phrase), not a plan or a sentence."""
_MAX_WORDS = {
    "name": 4, "nickname": 3, "home_city": 5, "home_country": 4, "work_city": 5, "origin": 5, "employer": 6,
    "school": 8, "allergy": 4, "intolerance": 4, "avoids": 5, "diet": 4, "condition": 5, "medication": 5,
    "likes": 6, "dislikes": 6, "prefers": 8, "goal": 12,
}  # fmt: skip
"""The most words a value of each kind may have; longer ones ran on past their phrase."""
_ALLERGENS = frozenset({"allergy", "intolerance", "avoids"})
_SUBSTANCES = _ALLERGENS | {"condition", "medication"}
_NAMES = frozenset({"name", "home_city", "home_country", "work_city", "origin", "employer", "moving_to", "person"})
"""Slots whose value is a proper name (a person, a place, an organisation): it opens with a capital
or a digit ("Sage", "Porto", "3M"); "a bank" or "the city centre" describes one and names none."""
_AFTER_COMMA = re.compile(r",\s*[^\W\d_]*[a-zà-ÿ]")
_NUMBER = re.compile(r"^\d+(?:h|am|pm|h\d+)?$")


@cache
def _merged(name: str) -> frozenset[str]:
    return frozenset(fold(w) for lang in LANGUAGES.values() for w in getattr(lang.forms, name))


_ORDINAL = re.compile(r"^\d+\s*(?:ª|º|°|st|nd|rd|th|o|a)\b", re.IGNORECASE)


@cache
def _chat_tokens() -> frozenset[str]:
    return _merged("CHAT_TOKENS")


@cache
def _folded(code: str, name: str) -> frozenset[str]:
    return frozenset(fold(w) for w in getattr(language(code).forms, name))


def _words(value: str) -> list[str]:
    return re.findall(r"[\w'-]+|:\)|:d", fold(value))


def is_filler(value: str) -> bool:
    """Laughter, a discourse marker or a filler, alone ("by the way", "kkkk", "tipo", "né")."""
    ws = _words(value)
    fillers = _merged("FILLERS")
    return not ws or " ".join(ws) in fillers or all(LAUGH.match(w) or w in fillers for w in ws)


def _base(key: str) -> str:
    """The slot family of a key, past any person prefix: "person:sister:ana:home_city" -> "home_city"."""
    parts = key.split(":")
    if parts[0] == "person":
        return parts[-1] if len(parts) > 2 else "person"
    return parts[0]


@cache
def _tail(code: str) -> re.Pattern[str]:
    return re.compile(rf"[\s,;]+(?:{language(code).forms.TIME_TAIL})\s*$", re.IGNORECASE)


def trim_plan(value: str, code: str) -> str:
    """A plan without the time or reason said after it: "correr a maratona do Rio ano que vem" ->
    "correr a maratona do Rio" (the date resolver reads the time from the turn)."""
    if code not in LANGUAGES:
        return value
    return _tail(code).sub("", value).strip(" ,;")


def valid_value(d: Draft, code: str | None = None) -> bool:
    """Whether ``d.value`` can stand as the value of its slot, read in language ``code``."""
    ws = _words(d.value)
    if d.negated and not ws:
        return True  # a slot retracted as a whole ("forget the trip budget")
    if not ws or is_filler(d.value):
        return False
    codes: list[str] = [code] if code is not None and code in LANGUAGES else list(LANGUAGES)
    get = (lambda name: _folded(codes[0], name)) if len(codes) == 1 else _merged  # noqa: E731
    if any(LAUGH.match(w) for w in ws) or ws[-1] in get("DANGLING"):
        return False
    base = _base(d.key)
    if len(ws) > _MAX_WORDS.get(base, 15):
        return False
    if not _well_shaped(d, base, ws, codes, get):
        return False
    if base in _THINGS:
        if ws[0] in get("DANGLING") - get("ARTICLES") or ws[0] in get("PRONOUNS"):
            return False  # "prefiro sem gráficos", "likes to" cut short
        if any(w in get("PRONOUNS") for w in ws[1:]) or any(w in get("FINITE_VERBS") for w in ws[1:]):
            return False  # a clause swallowed: "manhã eu treino", "manhã levo o Pixel"
        if base == "prefers" and ws[0] in get("FUNCTION_WORDS") - get("ARTICLES"):
            return False  # a qualifier with no head: "prefere antes das 11h"
        if base == "prefers" and _time_runs_on(ws, codes):
            return False
        if ws[0] in get("NOT_OPENING") or _says(d.value, "INSIDE", codes) or _says(d.value, "INTENSIFIER", codes):
            return False  # "bebo uns quatro por dia", "futevôlei depois dessa", "mil vezes em casa"
        if base in _ALLERGENS and any(w in get("NOT_IN_ALLERGENS") for w in ws):
            return False  # "cuidado com doce baiano" is a warning, not an allergen
    elif any(w in get("SUBJECT_PRONOUNS") for w in ws[1:]):
        return False  # a plan that runs into a new clause: "... agora que eu moro"
    if base in _NOUN_SLOTS and ws[0] in get("VERB_FIRST"):
        return False  # "allergic to eat ..." is no allergen
    return not any(w in get("CLAUSE_MARKERS") for w in ws)


def _well_shaped(d: Draft, base: str, ws: list[str], codes: list[str], get: Callable[[str], frozenset[str]]) -> bool:
    """The checks every kind shares: a whole phrase of its type, or nothing. A phrase that goes on
    after a comma in lower case ran into a comment ("morar em Floripa, sonho"); chat shorthand
    ("tbh", "kkk") is chatter, and a word pointing into the talk ("try it", "fazer isso") names nothing; a name slot holds a name; a substance (an
    allergen, a condition, a drug) is no doing ("waking up early")."""
    # Chat shorthand is read in every language: a mixed turn puts "tho" after Portuguese words.
    if _AFTER_COMMA.search(d.value) or any(w in _chat_tokens() or w in get("DEICTIC") for w in ws):
        return False
    if base in _NAMES and _ORDINAL.match(d.value):
        return False  # "folga na 2ª quinzena": an ordinal counts, it names nothing
    if base in _NAMES and not d.negated and not (d.value[:1].isupper() or d.value[:1].isdigit()):
        # An employer in lowercase passes when it is one uncommon word ("spotify", "edp"): see lower_org_at.
        if not (base == "employer" and lower_org_at(d.value) == d.value):
            return False
    if base in _THINGS and any(w in get("AUXILIARIES") for w in ws[1:]):
        return False  # "gosto de cá estar", "likes to be there": a verb phrase, no thing
    if base in _SUBSTANCES:
        foods = get("ING_FOODS")
        if any(re.match(language(c).forms.GERUND, ws[0]) for c in codes) and ws[0] not in foods:
            return False
    return True


def _says(value: str, name: str, codes: list[str]) -> bool:
    """Whether ``value`` matches the pattern ``name`` of any of the languages' forms."""
    folded = fold(value)
    return any(re.search(fold(getattr(language(c).forms, name)), folded) for c in codes)


def _time_runs_on(ws: list[str], codes: list[str]) -> bool:
    """A time that opens a value, in a language whose head comes first, followed by words that
    are no part of a time: "manhã levo o Pixel" (but "manhã cedo", "tarde depois das 2" are fine)."""
    for code in codes:
        forms = language(code).forms
        if not forms.HEAD_FIRST:
            continue
        times, function = _folded(code, "TIME_WORDS"), _folded(code, "FUNCTION_WORDS")
        rest = ws[1:] if ws[0] not in _folded(code, "ARTICLES") else ws[2:]
        head = ws[0] if ws[0] not in _folded(code, "ARTICLES") else (ws[1] if len(ws) > 1 else "")
        if head in times and any(w not in times and w not in function and not _NUMBER.match(w) for w in rest):
            return True
    return False


def keep_valid(drafts: list[Draft], spans: list[tuple[int, int]], codes: list[str | None] | None = None) -> list[bool]:
    """Which drafts to keep: those with valid values, unless another draft from the same clause
    was filler (then the clause was chatter and none of it is a fact)."""
    langs: list[str | None] = codes or [None] * len(drafts)
    ok = [valid_value(d, c) for d, c in zip(drafts, langs, strict=True)]
    chatter = {span for d, span in zip(drafts, spans, strict=True) if d.value and is_filler(d.value)}
    return [keep and span not in chatter for keep, span in zip(ok, spans, strict=True)]
