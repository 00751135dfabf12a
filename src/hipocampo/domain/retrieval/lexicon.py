"""Chat slang and everyday words across languages, for the keyword path.

Users write "trampo", "hj", "ap", "u", "gf"; they ask in Portuguese about what they said in
English. BM25 matches stems, so "where do I work?" never meets "tô trampando na Nubank", nor
"onde eu moro?" "I just moved to Porto". Each language's ``slang`` module
(``domain/lang/<code>/slang.py``) holds its abbreviations (``SLANG``) and its words for a few
dozen everyday concepts of a user's life (``CONCEPTS``: work, home, family, pets, health...). A
query word is expanded here with the standard form of its slang and the other languages' words
for its concept; the expansions join the keyword search and count towards the word's coverage.
The stored text is indexed as written, so nothing is re-indexed when the lexicon grows.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ..lang.en import slang as en
from ..lang.pt import slang as pt
from ..text import analyze, content_words, fold, in_language

_BUNDLES = (en, pt)
MAX_EXPANSIONS = 16
"""Words added to one query at most: the keyword search plans its reads by term."""


def _build() -> tuple[dict[str, str], dict[str, frozenset[str]]]:
    slang: dict[str, str] = {}
    concept_of: dict[str, set[str]] = {}
    for bundle in _BUNDLES:
        for word, standard in bundle.SLANG.items():
            slang.setdefault(fold(word), fold(standard))
        for concept, words in bundle.CONCEPTS.items():
            for w in words:
                concept_of.setdefault(fold(w), set()).add(concept)
    return slang, {w: frozenset(c) for w, c in concept_of.items()}


_SLANG, _CONCEPT_OF = _build()
_LANGUAGE_OF: dict[str, frozenset[str]] = {}
for _bundle in _BUNDLES:
    _code = _bundle.__name__.split(".")[-2]  # domain/lang/<code>/slang.py
    for _w in [*(_bundle.SLANG.values()), *(w for ws in _bundle.CONCEPTS.values() for w in ws)]:
        for _part in fold(_w).split():
            _LANGUAGE_OF[_part] = _LANGUAGE_OF.get(_part, frozenset()) | {_code}


def language_of(word: str) -> str | None:
    """The one language whose lexicon holds ``word`` (folded), or None (both, or neither)."""
    codes = _LANGUAGE_OF.get(fold(word), frozenset())
    return next(iter(codes)) if len(codes) == 1 else None


def tagged(word: str) -> str:
    """An expansion as the keyword search should read it: marked as its language's when the
    lexicon says which (:func:`~hipocampo.domain.text.in_language`)."""
    code = language_of(word)
    return in_language(word, code) if code else word


_WORDS_OF: dict[str, tuple[str, ...]] = {}
for _bundle in _BUNDLES:
    for _concept, _words in _bundle.CONCEPTS.items():
        _WORDS_OF[_concept] = (*_WORDS_OF.get(_concept, ()), *(fold(w) for w in _words))


def word_expansions(word: str) -> tuple[str, ...]:
    """Other words for one query word: its slang's standard form, and every language's words for
    its concepts (folded; the word itself left out)."""
    w = fold(word)
    standard = _SLANG.get(w)
    out: dict[str, None] = {}
    if standard:
        out.update((s, None) for s in standard.split())
    for form in (w, *(standard.split() if standard else ())):
        for concept in _CONCEPT_OF.get(form, ()):
            out.update((x, None) for x in _WORDS_OF[concept])
    out.pop(w, None)
    return tuple(out)


def expansions(query: str) -> tuple[str, ...]:
    """Words to add to ``query``'s keyword search (at most :data:`MAX_EXPANSIONS`)."""
    return expansions_of(content_words(query))


def expansions_of(words: Sequence[str]) -> tuple[str, ...]:
    """:func:`expansions` of a query whose content words are ``words`` (read once, by
    :class:`~.query.RecallQuery`)."""
    present = {fold(w) for w in words}
    out: dict[str, None] = {}
    for word in words:
        for x in word_expansions(word):
            if x not in present:
                out.setdefault(x, None)
    return tuple(out)[:MAX_EXPANSIONS]


@lru_cache(maxsize=8192)
def expansion_stems(word: str) -> frozenset[str]:
    """The index stems of one query word's expansions: each in its own language when the lexicon
    says which (see :func:`tagged`), else in both."""
    return frozenset(
        s
        for x in word_expansions(word)
        for lang in ((language_of(x),) if language_of(x) else ("en", "pt"))
        for s in analyze(x, lang)
        if s
    )
