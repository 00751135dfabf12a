"""What a turn does, and whether a question asks about the user: speech acts, for ranking.

A chat with an assistant mixes three kinds of turn: what the speaker says about themselves or
their world (a **disclosure**: "comecei na X semana passada"), what they ask of the assistant (a
**request**: questions, instructions, "me passa uma receita"), and social **filler** ("valeu!!",
"lol nice"). A question about the user is answered by a disclosure; a request shares a question's
shape and words (both ask something), so a small embedder puts it close to every question, and
ranked on closeness alone requests hide the answer. Requests and filler stay stored and
searchable; ranking weighs the act (:mod:`hipocampo.services.retrieval`).

The cues are each language's generic forms (how people ask, thank, greet, and speak of
themselves), in ``domain/lang/<code>/speech_acts.py``; every language's cues are tried, since a
turn's language is often mixed. A turn is read clause by clause: any clause stating something
(not asking, not filler) makes it a disclosure ("lol nice. btw im allergic to shellfish"), else
any request makes it a request, else it is filler.
"""

from __future__ import annotations

import gzip
import re
from functools import cache, lru_cache
from importlib import resources
from typing import Literal

from ..extraction.base import LAUGH, lower_org_at, org_at
from ..extraction.lexicon import ORG_WORDS, PLACES, chat_word, known_word, medication_word, occupation_word
from ..lang import LANGUAGES
from ..text import fold

SpeechAct = Literal["disclosure", "request", "filler"]
SPEECH_ACTS: tuple[SpeechAct, ...] = ("disclosure", "request", "filler")

ASIDE_WORDS = 3
"""Beside a request, a statement of at most this many words is an aside, not a disclosure."""
_BUNDLES = tuple(b for lang in LANGUAGES.values() if (b := lang.speech_acts) is not None)
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
_CLAUSES = re.compile(r"(?<=[.!?;:\n])\s+|\s+(?:" + "|".join(a for b in _BUNDLES for a in b.ASIDES) + r")\s+")
_OPENER = re.compile(r"^\W*(?:" + "|".join(o for b in _BUNDLES for o in b.REQUEST_OPENERS) + ")", re.IGNORECASE)
_SELF_QUESTION = re.compile("|".join(p for b in _BUNDLES for p in b.SELF_QUESTION))
_HOW_TO = re.compile("|".join(p for b in _BUNDLES for p in b.HOW_TO))
_OTHERS = re.compile("|".join(p for b in _BUNDLES for p in b.OTHERS))
_ASKS_NAME = re.compile("|".join(p for b in _BUNDLES for p in b.ASKS_NAME))
_ASKS_NUMBER = re.compile("|".join(p for b in _BUNDLES for p in b.ASKS_NUMBER))
AnswerKind = Literal["place", "occupation", "medication", "employer", "hourly", "monthly"]
_ASKS_KIND: dict[AnswerKind, re.Pattern[str]] = {
    kind: re.compile("|".join(p for b in _BUNDLES for p in getattr(b, f"ASKS_{kind.upper()}")))
    for kind in ("place", "occupation", "medication", "employer", "hourly", "monthly")
}
_NAME = re.compile(r"(?<=[^\s.!?:;\"'(\[])\s+[A-ZÀ-Ý][\w'’-]*|\b[A-Z]{2,}[0-9]*\b|\b[A-Za-z][a-z]+[A-Z]\w*")
_NUMBER = re.compile(r"\d")
_NAMED = re.compile(
    r"\b(?:" + "|".join(sorted({w for lang in LANGUAGES.values() for w in lang.changes.NAMING})) + r")\s+[^\W\d_]{2,}",
    re.IGNORECASE,
)
"""A name given by a naming word, which chat writes in lowercase ("named him feijão", "se chama
mandioca"): the word after it is a name, whatever its case."""
_ACKNOWLEDGED = re.compile("|".join(p for b in _BUNDLES for p in getattr(b, "ACKNOWLEDGED", ())))
ACK_WORDS = 6
"""An acknowledgement is short: "ok vou falar pra ela"; "ok i'll be in Lisbon next week" tells more."""
_FILLER = frozenset(w for b in _BUNDLES for w in b.FILLER_WORDS)
_SKIP = frozenset(w for b in _BUNDLES for w in b.OPENER_WORDS)
_VERBS = frozenset(v for b in _BUNDLES for v in getattr(b, "FIRST_PERSON_VERBS", ()))
_FIRST = frozenset(w for b in _BUNDLES for w in b.FIRST_PERSON) | _VERBS
_SELF_VERBS = frozenset(v for v in _VERBS if len(v) > 2 and " " not in v)
"""First-person verbs that make a question one about the user when no pronoun does ("onde vivo?",
"com quem ando?", "que casa procuro?": Portuguese drops the pronoun): "to", "vi", "li" are
English words or ambiguous."""
_SELF = frozenset(w for b in _BUNDLES for w in b.SELF_SUBJECT) | frozenset(
    v
    for v in _VERBS
    if len(v) > 2  # "to" (tô), "vi", "li" are English or ambiguous
)


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def _opened(ws: list[str]) -> int:
    """Where a clause's words start past its opener words ("ok so", "btw", "update"), the last kept."""
    start = 0
    while start < len(ws) - 1 and ws[start] in _SKIP:
        start += 1
    return start


def _clause_act(clause: str) -> SpeechAct | None:
    """One clause's act; None for an empty one."""
    ws = _words(clause)
    if not ws:
        return None
    if all(w in _FILLER for w in ws):
        return "filler"
    if ws[0] in _FILLER and len(ws) <= ACK_WORDS and _ACKNOWLEDGED.match(" ".join(ws[1:])):
        return "filler"  # "ok vou falar pra ela", "sure, i'll try that": the advice acknowledged
    start = _opened(ws)
    rest = " ".join(ws[start:])
    stated = any(w in _FIRST for w in ws)
    if clause.rstrip().endswith("?"):
        return "request"
    if _OPENER.match(rest) and not (stated and not _OPENER.match(" ".join(ws[start : start + 3]))):
        return "request"
    return "disclosure"


@lru_cache(maxsize=50_000)
def classify(text: str) -> SpeechAct:
    """The act of one turn: disclosure, request or filler (see the module docstring)."""
    folded = fold(text.replace("’", "'"))
    clauses = [c for c in _CLAUSES.split(folded) if _words(c)]
    acts = [a for c in clauses if (a := _clause_act(c)) is not None]
    if not acts:
        return "filler"
    if "request" in acts:  # beside a request, a clause of a few words is an aside ("tô sem tempo")
        acts = [a for a, c in zip(acts, clauses, strict=True) if a != "disclosure" or len(_words(c)) > ASIDE_WORDS]
    if "disclosure" in acts:
        return "disclosure"
    return "request" if "request" in acts else "filler"


def about_user(query: str) -> bool:
    """Whether a question asks about the user's own life ("what's my job?", "onde eu moro?",
    "do I have pets?"), as against a how-to in the first person ("how do I boil an egg?") or a
    question about the world. Such questions are answered by the user's disclosures."""
    folded = fold(query.replace("’", "'"))
    if _HOW_TO.search(folded):
        return False
    words = _words(folded)
    return bool(_SELF_QUESTION.search(folded)) or any(w in _SELF_VERBS for w in words) or _first_person_form(words)


_ENDINGS = tuple(
    (ending, tuple(infinitives), frozenset(getattr(b, "NOT_BEFORE_VERB", ())))
    for b in _BUNDLES
    for ending, infinitives in getattr(b, "FIRST_PERSON_ENDINGS", {}).items()
)
_GENERIC_FORMS = frozenset(w for b in _BUNDLES for w in getattr(b, "GENERIC_FORMS", ()))
_SHORTEST_FORM = 4
"""A shorter word ending as a verb does ("ano", "amos") is too often something else."""


def _first_person_form(words: list[str]) -> bool:
    """Whether a question holds a verb in the first person that no list names ("quanto poupo por
    mês?", "quando é que voamos?"): a word with a first-person ending (each bundle's
    ``FIRST_PERSON_ENDINGS``) whose stem makes a known infinitive, and which no article or
    preposition makes a noun ("o trabalho"). Stopwords and chat words are never verbs here ("como"
    is "how" far more often than "I eat")."""
    for i, w in enumerate(words):
        if len(w) < _SHORTEST_FORM or chat_word(w) or w in _GENERIC_FORMS:
            continue
        for ending, infinitives, not_before in _ENDINGS:
            if not w.endswith(ending) or (ending == "o" and i and words[i - 1] in not_before):
                continue
            stem = w[: -len(ending)]
            if len(stem) > 1 and any(known_word(stem + inf) for inf in infinitives):
                return True
    return False


def asks_for(query: str) -> tuple[bool, bool]:
    """Whether a question is answered by a name (who, where, which company...) and whether by a
    number or a code (how many, flight number...): the kind of token its answer holds."""
    folded = fold(query.replace("’", "'"))
    return bool(_ASKS_NAME.search(folded)), bool(_ASKS_NUMBER.search(folded))


@lru_cache(maxsize=50_000)
def holds(text: str) -> tuple[bool, bool]:
    """Whether a text holds a name (a capitalised word inside a sentence, an acronym, a CamelCase
    brand) and whether a number."""
    return bool(_NAME.search(text) or _NAMED.search(text)), bool(_NUMBER.search(text))


def answer_kinds(query: str) -> frozenset[AnswerKind]:
    """The kinds of word a question's answer holds, beyond a capitalised name: a place ("where do
    I live?"), an occupation ("qual é o meu cargo?"), a medication ("what bp med am I on?"). Chat
    writes each in lowercase ("trampo de designer em bh", "sou enfermeira", "tô no losartan"), where
    :func:`holds` sees no name; :func:`holds_kind` reads them. Each bundle's ``ASKS_<KIND>``."""
    folded = fold(query.replace("’", "'"))
    return frozenset(kind for kind, pattern in _ASKS_KIND.items() if pattern.search(folded))


def holds_kind(text: str, kind: AnswerKind) -> bool:
    """Whether ``text`` names a word of the kind (:func:`answer_kinds`)."""
    if kind == "place":
        return names_place(text)
    if kind == "occupation":
        return names_occupation(text)
    if kind == "employer":
        return names_employer(text)
    if kind in ("hourly", "monthly"):
        return _rate(text, "hour" if kind == "hourly" else "month")
    return names_medication(text)


@lru_cache(maxsize=50_000)
def _rate(text: str, per: str) -> bool:
    from ..truth.restated import rates  # restated reads places from here: imported when first asked

    return per in rates(text)


_CAPITALISED = re.compile(r"(?<=[^\s.!?:;\"'(\[])\s+[A-ZÀ-Ý][a-zà-ÿ][\w'’-]*|\b[A-Za-z][a-z]+[A-Z]\w*")
"""A name as :data:`_NAME` reads one, but never a word in capitals: chat shouts ("PASSEI no exame!!"),
and an acronym that is an employer is read after where one works ("at IBM")."""
_EMPLOYER_AT = re.compile(
    r"\b(?:" + "|".join(p for b in _BUNDLES for p in getattr(b, "EMPLOYER_AT", ())) + r")\s+", re.IGNORECASE
)


@lru_cache(maxsize=50_000)
def names_employer(text: str) -> bool:
    """Whether ``text`` names an employer: a capitalised name (not a shout), or a name where work
    is said to be ("shift lead at bramblecourt freight", "estágio na coqueiral sistemas"), read as
    the extraction rules read an employer in lowercase
    (:func:`~hipocampo.domain.extraction.base.lower_org_at`): chat writes a company's name in
    lowercase, where no capital marks it."""
    if _CAPITALISED.search(text) or _NAMED.search(text):
        return True
    for m in _EMPLOYER_AT.finditer(text):
        rest = text[m.end() :]
        if org_at(rest):
            return True
        # In lowercase, a name made with a word no language holds, however rare ("na ribavouga
        # desde março"), or with a word companies are named with ("kestrel pay"): "pra decorar os
        # sinais" is a verb the rules would take in a slot that wants an employer, not here.
        org = lower_org_at(rest.lower()) or " ".join(_WORD.findall(fold(rest))[:1])
        words = _WORD.findall(fold(org))
        if any(_unheard(w) or w in _ORG_WORDS for w in words) and not (words and words[0] in PLACES):
            return True
    return False


_ORG_WORDS = frozenset(fold(w) for w in ORG_WORDS)


def _unheard(word: str) -> bool:
    """A word of four letters or more that no language we read holds, not even rarely, and no laugh."""
    return len(word) >= 4 and word.isalpha() and not known_word(word) and not LAUGH.match(word)


@lru_cache(maxsize=50_000)
def names_occupation(text: str) -> bool:
    """Whether ``text`` names an occupation of any language we read ("im a ux researcher", "sou
    enfermeira há 6 anos", "trampo de designer em bh"): a word of each bundle's ``OCCUPATIONS``,
    or its masculine form (Portuguese lists them so), or a status ("retired", "reformado")."""
    return any(occupation_word(w) for w in _words(fold(text)))


@lru_cache(maxsize=50_000)
def names_medication(text: str) -> bool:
    """Whether ``text`` names a medication of any language we read ("tô tomando losartana",
    "doc switched me from metformin to jardiance"): a word of each bundle's ``MEDICATIONS``, or one
    ending as drugs of a class do (``DRUG_SUFFIXES``: "-pril", "-sartana")."""
    return any(medication_word(w) for w in _words(fold(text)))


_PLACE_WORDS = 4
"""The longest place name looked up, in words ("sao jose dos campos")."""


@lru_cache(maxsize=50_000)
def names_place(text: str) -> bool:
    """Whether ``text`` names a place, however it is written: "phd student here in duluth",
    "trampo de designer em bh". A capitalised place is a name to :func:`holds` already; a
    lowercase one is not, and a question asking where (:func:`answer_kinds`) is answered by a
    line that names a city in chat's lowercase. The places are those whose name says a place in
    lowercase (:func:`places`): "porto", "natal", "horta" and "boa viagem" are words too."""
    return bool(places_named(fold(text)))


@lru_cache(maxsize=50_000)
def places_named(folded: str) -> tuple[str, ...]:
    """The places a folded text names (:func:`places`), longest first where two overlap: "moved to
    new york" names "new york", not "york" as well."""
    known = places()
    words = _words(folded)
    taken: set[int] = set()
    out: list[str] = []
    for n in range(_PLACE_WORDS, 0, -1):
        for i in range(len(words) - n + 1):
            span = set(range(i, i + n))
            if not span & taken and " ".join(words[i : i + n]) in known:
                taken |= span
                out.append(" ".join(words[i : i + n]))
    return tuple(out)


@cache
def places() -> frozenset[str]:
    """The places whose folded name says a place even in lowercase: the extractor's gazetteer and
    GeoNames' cities of 15,000 people or more, countries and US states, as judged by
    ``scripts/build_places.py`` (which says how) into ``places.txt.gz``."""
    raw = resources.files(__package__).joinpath("places.txt.gz").read_bytes()
    lines = gzip.decompress(raw).decode("utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


_DROPPED = re.compile("|".join(d for b in _BUNDLES if (d := getattr(b, "DROPPED_SUBJECT", None))))


@lru_cache(maxsize=50_000)
def self_subject(text: str) -> bool:
    """Whether the speaker is the subject of something the text says ("im a pharmacist", "sou
    enfermeiro", "moro em BH", "moved into a 2br with my friend tess"), not only the owner of it
    ("my brother is a data engineer"): the user's own job or home is stated so, a relative's beside
    it is not. A clause whose dropped subject is the speaker counts (each bundle's
    ``DROPPED_SUBJECT``; Portuguese marks it on the verb, which ``FIRST_PERSON_VERBS`` reads)."""
    folded = fold(text.replace("’", "'"))
    if any(w in _SELF for w in _words(folded)):
        return True
    if _DROPPED.pattern:
        for clause in _CLAUSES.split(folded):
            ws = _words(clause)
            if _DROPPED.match(" ".join(ws[_opened(ws) :])):
                return True
    return False


_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
_IF_OPENS = re.compile(r"^\W*(?:" + "|".join(b.clauses.CONDITIONALS for b in LANGUAGES.values()) + r")\b", re.I)


@lru_cache(maxsize=50_000)
def hypothetical(text: str) -> bool:
    """Whether every sentence of the text is a hypothetical ("if i ever moved id go to canada", "se
    eu fosse para Londres ganhava o triplo"): it opens with a condition (each bundle's
    ``clauses.CONDITIONALS``). It says what would be, nothing of what is. A condition further in
    is not enough: "i live in Leeds if that matters", "she asked if i want her hamster"."""
    sentences = [s for s in _SENTENCE.split(text.replace("’", "'")) if _says_something(s)]
    return bool(sentences) and all(_IF_OPENS.search(s) for s in sentences)


def _says_something(sentence: str) -> bool:
    """A sentence with a word of its own: not a tail of chat and function words ("not rn tho",
    "lol"), which adds nothing to the hypothetical before it."""
    return any(len(w) > 3 and not chat_word(w) for w in _words(fold(sentence)))


@lru_cache(maxsize=50_000)
def speaks_of_others(text: str) -> bool:
    """Whether the text is about another person rather than the speaker: it opens with them ("my
    sister is allergic to shellfish too, we're a fun family", "a minha irmã vai viver para
    Londres"), or names one and never the speaker as a subject ("my brother Tom got a job at
    Stripe"). Such a line updates nothing the speaker said of themselves."""
    folded = fold(text.replace("’", "'"))
    clauses = [c for c in _CLAUSES.split(folded) if _words(c)]
    if not clauses:
        return False
    ws = _words(clauses[0])
    return bool(_OTHERS.match(" ".join(ws[_opened(ws) :]))) or (of_others(text) and not self_subject(text))


@lru_cache(maxsize=50_000)
def of_others(text: str) -> bool:
    """Whether the text speaks of another person of the speaker's life ("my brother is a data
    engineer", "a minha irmã vai viver para o Porto", "she's 2"): beside the user's own job or
    home, a relative's reads alike to a small embedder."""
    return bool(_OTHERS.search(fold(text.replace("’", "'"))))
