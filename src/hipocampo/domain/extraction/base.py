"""Shared pieces of the rule-based fact extractor: drafts, rules, languages and value parsing.

A language module (``extraction.en``, ``extraction.pt``) registers clause rules with ``on``; each
rule is a regex anchored at the start of a clause and a handler that turns the match into drafts.
The engine (``extraction``) splits turns into clauses, runs the rules and renders drafts into
``ExtractedFact`` sentences with the language's templates.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from ..lang import LANGUAGES
from ..model import MemoryType
from ..text import EN_STOPWORDS, PT_STOPWORDS, fold
from .lexicon import (
    CITY_NICKNAMES,
    CONDITIONS,
    DEICTIC,
    DIETS,
    FOODS,
    GENERIC_ADJECTIVES,
    MEDICATIONS,
    MULTIPLE_RELATIONS,
    NAME_ENDS,
    NATIONALITIES,
    NOT_NAMES,
    ORG_WORDS,
    PLACES,
    common_word,
)

HIGH = 0.9  # an explicit first-person statement
MEDIUM = 0.8  # a looser shape ("I'm Ana", a bare age) or a fact about someone else
HEDGED = 0.6  # "I think", "acho que", "maybe"


@dataclass(frozen=True)
class Person:
    """The subject of a clause about someone else: "my sister Maria", "Maria", "minha mãe"."""

    relation: str | None  # canonical English, "sister"
    word: str | None  # as written, "irmã"
    name: str | None
    feminine: bool = False

    @property
    def slot(self) -> str:
        """The key prefix of facts about this person. Relations a user can have several of (two
        sisters, many friends) carry the name too, so one sister's city is no mention of the other's."""
        if self.relation and self.name and self.relation in MULTIPLE_RELATIONS:
            return f"{self.relation}:{slug(self.name)}"
        return self.relation or slug(self.name or "someone")

    @property
    def label(self) -> str:
        return self.name or self.relation or "someone"


@dataclass
class Draft:
    """A fact before rendering: its slot, value and the template that words it."""

    memory_type: MemoryType
    key: str
    value: str
    template: str
    args: dict[str, str] = field(default_factory=dict)
    negated: bool = False
    previous_value: str | None = None
    people: tuple[str, ...] = ()
    confidence: float = HIGH
    person: Person | None = None  # who the sentence is about, when not the user


Handler = Callable[[re.Match[str]], "list[Draft] | None"]


@dataclass(frozen=True)
class Rule:
    pattern: re.Pattern[str]
    handler: Handler


def on(rules: list[Rule], pattern: str) -> Callable[[Handler], Handler]:
    """Register a handler for clauses that start with ``pattern`` (case-insensitive)."""

    def register(handler: Handler) -> Handler:
        rules.append(Rule(re.compile(pattern, re.IGNORECASE), handler))
        return handler

    return register


Templates = dict[str, tuple[str, str, "str | None"]]  # id -> (positive, negated, with previous value)


@dataclass(frozen=True)
class Grammar:
    """Everything the engine needs to read one language."""

    code: str
    rules: list[Rule]  # first-person statements, anchored at the clause start
    phrases: list[Rule]  # noun phrases found anywhere ("my sister Maria")
    templates: Templates
    fillers: re.Pattern[str]  # discourse openers to drop ("actually", "na verdade")
    hedges: re.Pattern[str]  # openers that lower confidence ("I think", "acho que")
    positive: Callable[[str], str | None]  # the clause without its negation, if it had one
    about_other: Callable[[str, Person | None], tuple[Person, str] | None]  # "my sister lives" -> "I live"
    about_us: Callable[[str], str | None]  # "we live" -> "I live"
    subject: Callable[[Person | None, str | None, bool], tuple[str, str]]  # (S, possessive)
    agree: Callable[[str, bool], str]  # an adjective for a feminine or masculine subject
    normalize: Callable[[str], str]  # shapes worth reading as plain statements ("I might be")
    mine: dict[str, str]  # first-person words of a value, as a sentence about the user says them ("my" -> "their")
    appositive: str = ""  # how a phrase after the user's name reads as a statement: "I'm ", "sou "


def draft(memory_type: MemoryType, key: str, value: str, template: str | None = None, **args: str) -> Draft:
    return Draft(memory_type, key, value, template or key.split(":")[0], dict(args))


# --- values -------------------------------------------------------------------------------------

_STOP = frozenset(fold(w) for w in EN_STOPWORDS | PT_STOPWORDS)


def _joined(name: str) -> str:
    """Every language's ``clauses.<name>`` fragment, as one alternation."""
    return "|".join(f"(?:{getattr(lang.clauses, name)})" for lang in LANGUAGES.values())


_TAIL = re.compile(  # where a value ends: a new clause, a duration, a parenthesis, a dash, a remark
    rf"\s+(?:{_joined('VALUE_ENDS')})\b.*$"
    r"|\s*[(\[].*$|\s+[-–—]\s.*$"
    rf"|\s*[,;]\s*(?:{_joined('VALUE_ENDS_AFTER_COMMA')})\b.*$"
    rf"|\s*[,;]?\s*(?:(?:{_joined('POLITE')})\s+)?(?:{_joined('REMARKS')})\b.*$",
    re.IGNORECASE,
)
_TRAILING = re.compile(rf"(?:[\s,]+(?:{_joined('TRAILING')}))+$", re.IGNORECASE)
_EDGE = " \t,;:.!?…\"'“”‘’*_"
_ARTICLE = re.compile(r"^(?:the|a|an|o|a|os|as|um|uma|uns|umas)\s+", re.IGNORECASE)
_LIST = re.compile(r"\s*,\s*(?:(?:and|or|e|ou)\s+)?|\s+(?:and|or|e|ou|nor|nem|as well as|&)\s+|\s*/\s*", re.IGNORECASE)
_KEEP_TOGETHER = {"rock and roll", "rhythm and blues", "fish and chips", "arroz e feijao", "salt and pepper"}


def _unadorned(value: str) -> str:
    """A value without the emoji chat puts after it ("allergic to peanuts 😭"): symbols (emoji,
    skin tones, ☕) and the joiners that build them are no part of a food, a place or a name.
    Written by hand: Python's ``re`` has no Unicode symbol class, and one character-category test
    covers every emoji, present and future."""
    if value.isascii():
        return value
    return "".join(ch for ch in value if ch not in _JOINERS and unicodedata.category(ch) not in ("So", "Sk"))


_JOINERS = frozenset("\u200d\ufe0f\ufe0e")


def clean(value: str) -> str:
    """Cut a captured value at the end of its clause and drop fillers and emoji around it."""
    value = _TAIL.sub("", _unadorned(value)).strip(_EDGE)
    previous = None
    while previous != value:
        previous = value
        value = _TRAILING.sub("", value).strip(_EDGE)
    return " ".join(value.split())


def items(value: str) -> list[str]:
    """'peanuts, shrimp and eggs' -> ['peanuts', 'shrimp', 'eggs']."""
    value = clean(value)
    if fold(value) in _KEEP_TOGETHER:
        return [value]
    parts = [v for v in (clean(part) for part in _LIST.split(value)) if v]
    parts = _before_new_clause(parts)
    if len(parts) > 1 and not _CONJUNCTION.search(value):
        parts = _commas_only(parts)
    if any(_CUT_ADJECTIVE.search(p) and not _DETERMINED.match(n) for p, n in zip(parts, parts[1:], strict=False)):
        return [value]  # "a safe and inviting place": two adjectives of one noun, not two things
    return parts


_GERUND = re.compile(rf"^(?:{_joined('GERUND')})\s+\S", re.IGNORECASE)
_CONJUNCTION = re.compile(r"\s(?:and|or|e|ou|nor|nem|as\s+well\s+as|&)\s|/", re.IGNORECASE)


def _commas_only(parts: list[str]) -> list[str]:
    """Items joined by commas alone, with no "and" before the last: chat puts commas between
    clauses ("alérgico a amendoim, super sério", "allergic to sulfa drugs, the pharmacy keeps
    forgetting"), so after the first only what the lexicon knows as a thing (a food, a drug, a
    condition, a diet) is an item, up to the first that is not ("peanuts, shrimp, eggs" stays whole)."""
    out = parts[:1]
    for part in parts[1:]:
        f = fold(part)
        if f not in FOODS and f not in MEDICATIONS and f not in CONDITIONS and f not in DIETS:
            break
        out.append(part)
    return out


def _before_new_clause(parts: list[str]) -> list[str]:
    """The items before one that opens a new clause with a verb ("meat, going veggie since
    january": the diet, not a second food). Items of a list share their shape, so a verb phrase
    after a noun is no item; a list of verb phrases ("cooking for friends, hiking") stays whole."""
    if len(parts) < 2 or _GERUND.match(parts[0]):
        return parts
    cut = next((i for i, p in enumerate(parts) if i and _GERUND.match(p)), None)
    return parts if cut is None else parts[:cut]


_CUT_ADJECTIVE = re.compile(r"(?:^|\s)(?:[Aa]|[Aa]n|[Tt]he|[Uu]ma?)\s+[a-zà-ÿ][\w-]*$")
_DETERMINED = re.compile(r"^(?:a|an|the|my|some|um|uma|o|os|as|meu|minha|\d)\b", re.IGNORECASE)


def without_article(value: str) -> str:
    return _ARTICLE.sub("", value.strip())


def slug(value: str, max_words: int = 6) -> str:
    ws = re.sub(r"[^a-z0-9]+", " ", fold(value)).split()
    return "_".join(ws[:max_words])


def purpose_key(value: str, max_words: int = 3) -> str:
    """A slot name for what a budget or plan is for, the same however the words are ordered:
    "the Peru trip" and "trip to Peru" -> "peru_trip", "a viagem ao Chile" -> "chile_viagem"."""
    words = [w for w in re.sub(r"[^a-z0-9]+", " ", fold(value)).split() if w not in _STOP and w not in ("my", "meu")]
    return "_".join(sorted(words)[:max_words]) or slug(value, max_words)


def canon(value: str, table: dict[str, str]) -> str:
    """The slot name for a value: its table entry, or its own slug."""
    f = " ".join(re.sub(r"[^\w' -]", " ", fold(without_article(value))).split())
    hit = table.get(f) or (table.get(f[:-1]) if f.endswith("s") else None)
    return slug(hit or f)


def word_count(value: str) -> int:
    return len(value.split())


def is_stopword(word: str) -> bool:
    return fold(word) in _STOP


_LEADING_NON_NAMES = frozenset("the a an o os as um uma my meu minha this that these i eu it".split())


def _not_a_name(candidate: str) -> bool:
    """ "The", "My", "Is": a capitalised word that starts no proper name ("São Paulo" is fine)."""
    words = candidate.split()
    return fold(words[0]) in _LEADING_NON_NAMES or (len(words) == 1 and is_stopword(words[0]))


def name_word_ok(word: str) -> bool:
    f = fold(word)
    return not (
        f in _STOP or f in NOT_NAMES or f in PLACES or f in NATIONALITIES or (len(f) > 5 and f.endswith(("ing", "ly")))
    )


_CAP = r"[A-ZÀ-Ý][a-zà-ÿ'’-]+"
_NAME = re.compile(rf"{_CAP}(?:\s+(?:(?:de|da|do|dos|das|van|von|del|di)\s+)?{_CAP}){{0,3}}")
_LOWER_WORD = re.compile(r"[a-zà-ÿ]{2,}\b")


def name_at(text: str, *, lower_ok: bool = False) -> str | None:
    """A person's name at the start of ``text``: capitalised words, or one lowercase word when the
    shape leaves no doubt ("my name is ana")."""
    text = text.strip()
    m = _NAME.match(text)
    if m:
        name = m.group(0).rstrip("'’-")
        words = name.split()
        while words and not name_word_ok(words[-1]):
            words.pop()
        if words and name_word_ok(words[0]):
            return " ".join(words)
        return None
    if lower_ok:
        w = _LOWER_WORD.match(text)
        if w and name_word_ok(w.group(0)) and fold(w.group(0)) not in _STOP:
            return w.group(0).capitalize()
    return None


_NAME_ENDS = re.compile(r"\s*(?:$|[,.!;:(]|(?:and|from|here|e|de|do|da|aqui)\b)", re.IGNORECASE)


def name_alone(text: str) -> str | None:
    """The name ``text`` opens with when nothing but the clause's end, a comma or "from"/"and"
    follows it: "I'm Kim", "I'm Kim from Leeds", never "I'm Ana's mum" or "I'm Team Edward lol"
    (a bare "I'm <Capitalised>" has no other cue that a name is meant)."""
    text = text.strip()
    name = name_at(text)
    if not name or not text.startswith(name):
        return None
    return name if _NAME_ENDS.match(text[len(name) :]) else None


def leading_name(text: str) -> str | None:
    """The name ``text`` starts with, if any ("Maria lives in Rome" -> "Maria")."""
    name = name_at(text)
    return name if name and text.startswith(name) else None


_PCAP = r"(?:[A-ZÀ-Ý][\w'’-]*)"
_PLACE = re.compile(rf"{_PCAP}(?:(?:\s+|-)(?:(?:de|do|da|dos|das|del|of|upon|on|la|le|los|las)\s+)?{_PCAP})*")
_PLACE_ARTICLE = re.compile(r"^(?:the|o|a|os|as)\s+", re.IGNORECASE)


def place_at(text: str) -> str | None:
    """A place name at the start of ``text``: capitalised words ("Rio de Janeiro", "the US"), or a
    known place written in lowercase ("lisbon"); a city's nickname gives its name ("bh", "BH" ->
    "Belo Horizonte": :data:`~.lexicon.CITY_NICKNAMES`)."""
    text = _PLACE_ARTICLE.sub("", text.strip())
    m = _PLACE.match(text)
    if m and not _not_a_name(m.group(0)):
        name = m.group(0).strip(_EDGE)
        return CITY_NICKNAMES.get(fold(name), name)
    ws = text.split()
    for n in (3, 2, 1):
        cand = " ".join(ws[:n]).strip(_EDGE)
        if len(ws) >= n and fold(cand) in PLACES:
            if fold(cand) in CITY_NICKNAMES:
                return CITY_NICKNAMES[fold(cand)]
            return " ".join(w.capitalize() if w not in ("de", "do", "da") else w for w in cand.split())
    return None


_OCAP = r"(?:[A-Z0-9À-Ý][\w&'’.+-]*)"
_ORG = re.compile(rf"{_OCAP}(?:\s+(?:(?:de|do|da|dos|das|of|and|e|&|the|for)\s+)*{_OCAP})*")


def org_at(text: str) -> str | None:
    """An organisation name at the start of ``text`` ("Google", "Banco do Brasil", "AT&T")."""
    text = text.strip()
    m = _ORG.match(text)
    if not m or _not_a_name(m.group(0)):
        return None
    return m.group(0).strip(_EDGE)


_LOWER_ORG = re.compile(r"([a-zà-ÿ][a-zà-ÿ0-9&-]{2,})(?=\s*$|\s*[,.;:!?()]|\s+(\S+))")
LAUGH = re.compile(r"^(?:(?:ha|he|hi|ah|ja|rs|kk|k)+h?|lo+l|l+m+a+o+|x+d+|:\)|:d)$")
"""A laugh or a smiley written as a word ("kkkk", "hahaha", "rsrs", "lmao"), folded: never a value."""


def lower_org_at(text: str) -> str | None:
    """An employer's name written in lowercase, where a slot expects one ("i work at spotify",
    "trabalho na edp na área de redes"): one word that is no common word of any language we read
    (:func:`~.lexicon.common_word`: "home", "casa", "padaria", "trampo"), no place, no nationality,
    no diet, food or drug the lexicon knows, no laugh, and that ends the clause or is followed by a stopword ("spotify as a designer",
    "edp na área"). Chat is mostly lowercase, and a capital was the only sign of a name the rules
    had; a longer lowercase name ("mercado livre") is made of common words and stays unread."""
    m = _LOWER_ORG.match(text.strip())
    if not m:
        return None
    word, following = m.group(1).strip("-"), m.group(2)
    f = fold(word)
    if following is not None and not is_stopword(following.strip(_EDGE)):
        return _lower_org_words(text)
    if len(f) < 3 or f in PLACES or f in NATIONALITIES or LAUGH.match(f) or common_word(f):
        return None
    if f in DIETS or f in FOODS or f in MEDICATIONS or f.replace("-", " ") in ("low carb", "gluten free", "dairy free"):
        return None  # "i quit low-carb", "i quit keto": a diet, a food or a drug is no employer
    return word


_ORG_WORDS = frozenset(map(fold, ORG_WORDS))
_ORG_NAME_ENDS = frozenset(map(fold, NAME_ENDS))
_GENERIC = frozenset(map(fold, GENERIC_ADJECTIVES))
_HEAD = re.compile(r"[^,.;:!?()\n]*")
_NAME_WORD = re.compile(r"[a-zà-ÿ0-9][a-zà-ÿ0-9'’-]*|&")
MAX_ORG_WORDS = 4


def _lower_org_words(text: str) -> str | None:
    """An employer's name of two to four lowercase words ("corvid analytics", "café andorinha",
    "hospital santa clarice", "halvorsen & pike"): one of its ends is a word companies are named
    with (each bundle's ``ORG_WORDS``), or an ampersand joins it, and it ends the clause or is
    followed by a stopword or a word that ends a name ("agora", "here", "semana passada"). Its other
    words describe nothing ("the local hospital", "no hospital central", each bundle's
    ``GENERIC_ADJECTIVES``) and are no stopword, place, nationality, number or laugh. The shortest
    such phrase is the name. Several common words make a name only beside a company word: "mercado
    livre" reads, "na padaria ali" and "no banco agora" do not."""
    words = _HEAD.match(text.strip()).group(0).split()  # type: ignore[union-attr]
    for n in range(2, MAX_ORG_WORDS + 1):
        if len(words) < n:
            return None
        phrase = words[:n]
        if not all(_NAME_WORD.fullmatch(w) for w in phrase):
            return None
        if len(words) > n and not _ends_name(words[n]):
            continue
        if _named_org([fold(w) for w in phrase]):
            return " ".join(phrase)
    return None


def _ends_name(word: str) -> bool:
    f = fold(word.strip(_EDGE))
    return not re.search(r"[a-z0-9]", f) or is_stopword(f) or f in _ORG_NAME_ENDS or bool(LAUGH.match(f))


def _named_org(folded: list[str]) -> bool:
    joined = "&" in folded[1:-1]
    if not (joined or folded[0] in _ORG_WORDS or folded[-1] in _ORG_WORDS):
        return False
    others = [w for w in folded if w != "&" and w not in _ORG_WORDS]
    if not others or "&" in (folded[0], folded[-1]):
        return False
    if any(
        is_stopword(w) or w in _ORG_NAME_ENDS or w in _GENERIC or w in NATIONALITIES or w.isdigit() or LAUGH.match(w)
        for w in others
    ):
        return False
    return not all(w in PLACES for w in others)


# --- money --------------------------------------------------------------------------------------

_CURRENCY = {
    "r$": "BRL", "brl": "BRL", "reais": "BRL", "real": "BRL",
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
    "$": "USD", "us$": "USD", "u$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD",
    "dolares": "USD", "dólares": "USD", "bucks": "USD",
    "£": "GBP", "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "libra": "GBP", "libras": "GBP",
}  # fmt: skip
_MULTIPLIER = {"k": 1_000, "mil": 1_000, "thousand": 1_000, "grand": 1_000, "million": 1_000_000,
               "milhao": 1_000_000, "milhoes": 1_000_000}  # folded  # fmt: skip
_AMOUNT = re.compile(
    r"(?:(?:about|around|roughly|approximately|approx\.?|up to|at most|max(?:imum)?|under|less than|"
    r"no more than|~|cerca de|uns|umas|aproximadamente|até|ate|no máximo|menos de|mais ou menos|de)\s+)*"
    r"(?P<pre>R\$|US\$|U\$|€|\$|£|(?:EUR|USD|BRL|GBP)\b)?\s*"
    r"(?P<num>\d+(?:[.,\s]\d{3})*(?:[.,]\d+)?)\s*"
    r"(?P<mult>k\b|mil\b|thousand\b|grand\b|million\b|milh[ãa]o\b|milh[õo]es\b)?\s*"
    r"(?:de\s+)?(?P<post>€|R\$|(?:EUR|USD|BRL|GBP|euros?|dollars?|d[óo]lares|bucks|reais|real|pounds?|libras?)\b)?",
    re.IGNORECASE,
)


def _number(text: str) -> float:
    """'5.000' and '5,000' are thousands, '5.5' and '5,5' decimals, '5.000,50' both."""
    text = text.replace(" ", "")
    seps = [i for i, c in enumerate(text) if c in ".,"]
    if not seps:
        return float(text)
    last = seps[-1]
    if len(text) - last - 1 == 3 and (len(seps) == 1 or text[seps[0]] == text[last]):
        return float(re.sub(r"[.,]", "", text))
    return float(re.sub(r"[.,]", "", text[:last]) + "." + text[last + 1 :])


def money_at(text: str) -> tuple[str, str] | None:
    """Parse an amount at the start of ``text``: ('5000 EUR', rest of the text), or None."""
    m = _AMOUNT.match(text.strip())
    if not m:
        return None
    amount = _number(m.group("num")) * _MULTIPLIER.get(fold(m.group("mult") or ""), 1)
    currency = _CURRENCY.get((m.group("pre") or m.group("post") or "").lower(), "")
    shown = str(int(amount)) if amount == int(amount) else f"{amount:.2f}"
    return (f"{shown} {currency}".strip(), text.strip()[m.end() :])


# --- clause helpers -----------------------------------------------------------------------------

_INSTEAD = re.compile(
    r"^[\s,;]*(?:(?:now|agora|anymore|today|hoje|actually)[\s,;]+)?(?:and\s+|e\s+)?"
    r"(?:not|rather than|instead of|não|nao|em vez de|ao invés de|ao inves de)\s+"
    r"(?:in\s+|at\s+|for\s+|em\s+|n[oa]s?\s+|d[oa]s?\s+|de\s+|para\s+[oa]\s+|para\s+)?(?P<v>.+)",
    re.IGNORECASE,
)


def after(text: str, value: str) -> str:
    """What follows ``value`` in ``text`` ('' when it cannot be found)."""
    i = fold(text).find(fold(value))
    return text[i + len(value) :] if i >= 0 else ""


def instead(rest: str, parse: Callable[[str], str | None]) -> str | None:
    """The value a correction replaces: "Porto, not Lisbon" -> "Lisbon"."""
    m = _INSTEAD.match(rest)
    return parse(m.group("v")) if m else None


def is_deictic(value: str) -> bool:
    """ "it", "that", "your idea", "isso": words that point at the conversation, not at a thing."""
    ws = fold(value).split()
    return not ws or ws[0] in DEICTIC or " ".join(ws[:2]) in DEICTIC or ws[0] in ("anything", "nothing", "nada")


def times(value: str, table: dict[str, str]) -> str:
    """Canonical time words in ``value``: "on Mondays and Fridays" -> "monday_friday"."""
    ws = re.findall(r"[a-z]+", fold(value))
    found: list[str] = []
    i = 0
    while i < len(ws):
        for n in (3, 2, 1):
            hit = table.get(" ".join(ws[i : i + n]))
            if hit:
                if hit not in found:
                    found.append(hit)
                i += n
                break
        else:
            i += 1
    return "_".join(found) or slug(value)
