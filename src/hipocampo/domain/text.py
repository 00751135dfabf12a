"""Language-aware text analysis for keyword search, in Portuguese and English. Pure functions.

SQLite's FTS5 only stems English (porter), so we analyse text here and index the terms: accents
folded, stopwords dropped, Snowball stems for the detected language. Queries are expanded with the
stems of both languages because a short query says too little to detect its language reliably.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import snowballstemmer

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s$")
_NAME = re.compile(r"\b[A-ZÀ-Ý][a-zà-ÿ]+(?:[-'][A-Za-zÀ-ÿ]+)?\b")

EN_STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just me
    more most my myself no nor not now of off on once only or other our ours ourselves out over own
    same she should so some such than that the their theirs them themselves then there these they
    this those through to too under until up very was we were what when where which while who whom
    why will with would you your yours yourself yourselves i'm it's don't did didn't does doesn't
    also yeah yes oh hey hi really got get like just so well thanks thank lot""".split()
)
PT_STOPWORDS = frozenset(
    """a à ao aos aquela aquelas aquele aqueles aquilo as às até com como da das de dela delas dele
    deles depois do dos e é ela elas ele eles em entre era eram essa essas esse esses esta estas este
    estes eu foi fomos for foram há isso isto já lhe lhes mais mas me mesmo meu meus minha minhas muito
    na nas nem no nos nós nossa nossas nosso nossos num numa o os ou para pela pelas pelo pelos por
    qual quando que quem se sem ser seu seus só sua suas também te tem têm tenho teu tua você vocês vos
    um uma umas uns está estou estava são sou ter tinha vai vou então sim não oi olá obrigado obrigada
    aí lá cá""".split()
)
_STOP_FOLDED = frozenset(
    unicodedata.normalize("NFKD", w).encode("ascii", "ignore").decode() for w in EN_STOPWORDS | PT_STOPWORDS
)


def fold(text: str) -> str:
    """Lowercase and strip accents: 'Ação' -> 'acao'."""
    if text.isascii():  # the common case, and 20x faster than decomposing
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def detect_language(text: str) -> str:
    """'pt' or 'en', by counting stopwords of each; English on a tie."""
    ws = words(text)
    pt = sum(w in PT_STOPWORDS for w in ws) + sum(c in "ãõçáéíóúâêô" for c in text.lower()) * 0.5
    en = sum(w in EN_STOPWORDS for w in ws)
    return "pt" if pt > en else "en"


@lru_cache(maxsize=4)
def _stemmer(language: str) -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer("portuguese" if language == "pt" else "english")


@lru_cache(maxsize=200_000)
def _stem(language: str, word: str) -> str:
    # Fold before stemming, so 'informacao' and 'informação' share a stem.
    return _stemmer(language).stemWord(fold(word))


def content_words(text: str) -> list[str]:
    """Words that carry meaning (no stopwords, no one-letter tokens), lowercased."""
    return [w for w in words(text) if len(w) > 1 and fold(w) not in _STOP_FOLDED]


def analyze(text: str, language: str | None = None) -> list[str]:
    """Index terms of a document: folded Snowball stems of its content words."""
    lang = language or detect_language(text)
    return [_stem(lang, w.replace("’", "'").split("'")[0]) for w in content_words(text)]


def query_terms(text: str) -> list[str]:
    """Search terms of a query: stems in both languages, deduplicated, in order."""
    seen: dict[str, None] = {}
    for w in content_words(text):
        base = w.replace("’", "'").split("'")[0]
        for lang in ("en", "pt"):
            seen.setdefault(_stem(lang, base), None)
    return [t for t in seen if t]


def names_in(text: str) -> set[str]:
    """Capitalised words that are not stopwords: a cheap, language-neutral guess at names.
    English possessives are dropped: "Ana's sister" names Ana."""
    found = {_POSSESSIVE.sub("", m) for m in _NAME.findall(text)}
    return {m for m in found if fold(m) not in _STOP_FOLDED}


_WHEN = re.compile(
    r"^\W*(?:when\b|what (?:date|day|time|year|month)\b|how long ago\b|since when\b"
    r"|quando\b|(?:em )?que (?:dia|data|ano|m[eê]s)\b|h[aá] quanto tempo\b|desde quando\b)",
    re.IGNORECASE,
)


def is_when_question(text: str) -> bool:
    """Does the query ask for a time ("When did...", "Quando foi...", "What year...")?"""
    return bool(_WHEN.search(text))
