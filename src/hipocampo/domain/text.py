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

from .lang import LANGUAGES

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s$")
_NAME = re.compile(r"\b[A-ZÀ-Ý][a-zà-ÿ]+(?:[-'][A-Za-zÀ-ÿ]+)?\b")

EN_STOPWORDS: frozenset[str] = LANGUAGES["en"].lexicon.STOP_WORDS
PT_STOPWORDS: frozenset[str] = LANGUAGES["pt"].lexicon.STOP_WORDS
_STOP_FOLDED = frozenset(
    unicodedata.normalize("NFKD", w).encode("ascii", "ignore").decode()
    for lang in LANGUAGES.values()
    for w in lang.lexicon.STOP_WORDS
)


_TELLS = [(code, lang.lexicon.STOP_WORDS, lang.lexicon.LETTERS) for code, lang in LANGUAGES.items()]
"""How each language is told apart: its stopwords and the letters only it writes."""


def fold(text: str) -> str:
    """Lowercase and strip accents: 'Ação' -> 'acao'."""
    if text.isascii():  # the common case, and 20x faster than decomposing
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def detect_language(text: str) -> str:
    """The code of the language whose stopwords (and letters of its own) the text has most of;
    the first registered (English) on a tie."""
    ws, low = words(text), text.lower()
    scores = {code: sum(w in stop for w in ws) + sum(c in letters for c in low) * 0.5 for code, stop, letters in _TELLS}
    best = max(scores.values())
    return next(code for code, score in scores.items() if score == best)


@lru_cache(maxsize=4)
def _stemmer(language: str) -> snowballstemmer.stemmer:
    """The Snowball stemmer the language's bundle names (English for a language none reads)."""
    return snowballstemmer.stemmer(LANGUAGES[language if language in LANGUAGES else "en"].stemmer)


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


LANGUAGE_TAG = "'"
"""Between a language's code and a word (``en'career``: one token to :func:`words`): the word is
that language's, and a query stems it in that language only (:func:`in_language`)."""


def in_language(word: str, language: str) -> str:
    """``word`` marked as ``language``'s, for :func:`query_terms`. A word added to a query from
    a language's lexicon ("career", for "trabalho") is stemmed in that language only: the other
    language's stemmer cuts it to another word's stem (Portuguese "career" -> "car", the stem of
    "caro"; "home" -> "hom", of "homem")."""
    return f"{language}{LANGUAGE_TAG}{word}"


def query_terms(text: str) -> list[str]:
    """Search terms of a query: stems in both languages (a word marked by :func:`in_language`,
    in its own only), deduplicated, in order."""
    seen: dict[str, None] = {}
    for w in content_words(text):
        code, tag, word = w.partition(LANGUAGE_TAG)
        if tag and code in LANGUAGES and word:
            seen.setdefault(_stem(code, word), None)
            continue
        base = w.replace("’", "'").split("'")[0]
        for lang in LANGUAGES:
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
