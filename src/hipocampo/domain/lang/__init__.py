"""The languages hipocampo reads, one folder each, registered here and nowhere else.

Every language is a package ``domain/lang/<code>/`` with the same module names (as spaCy's
``spacy/lang/<code>/``), each plain data or small functions a native speaker can review without
reading the pipeline:

- ``lexicon``: word lists (foods, relations, occupations, numbers...), folded, mapping to the
  language-neutral slot names ("amendoim" and "peanuts" both fill ``allergy:peanuts``);
- ``grammar``: how a clause is read (negation, "my sister lives" -> "I live", openers, hedges)
  and how a fact is worded (templates, grammatical gender);
- ``profile``, ``needs``, ``ids``: the extraction rules (who the user is; what they like, need and
  plan; codes and birthdays);
- ``clauses``: how a turn splits into clauses, and which state nothing of the user's (questions,
  hypotheticals, reported speech, hedges);
- ``answers``: a bare "not anymore" turned into the user's own statement, from the question;
- ``roles``: the language's side of the shared fact builders (articles, list joiner, job titles);
- ``forms``: what a well-formed value of each type looks like (a place, an employer, a food...);
- ``changes``: cues that a statement replaces or takes back an earlier one ("agora", "scratch that");
- ``dates``: month, weekday and number words for date resolution;
- ``phrases``: words of summaries and consolidation;
- ``speech_acts`` and ``slang`` (optional): question/request cues and abbreviations for ranking.
- ``subjects`` (optional): the stems of a question about a life subject (work, home, health...)
  and of a memory about it, for the subject thesaurus that filters hits.

The shared pipeline asks a :class:`Language` for these (``language("pt").lexicon.FOODS``,
``LANGUAGES["en"].grammar``) and never branches on a language code. Adding a language is a new
folder plus one line in ``_CODES``. Brazilian and European Portuguese are variants of ``pt``: one
bundle reads both ("estou a trabalhar" and "estou trabalhando"), and ``language("pt-PT")`` finds it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

__all__ = ["LANGUAGES", "Language", "language", "merged_map", "merged_set", "words_map", "words_set"]

_CODES = ("en", "pt")  # the registry: one entry per folder
_OPTIONAL = frozenset({"speech_acts", "slang", "subjects"})  # modules another concern may or may not have written yet


@dataclass(frozen=True)
class Language:
    """One language's bundle: its code, variants, stemmer, and its modules loaded on first use
    (the extraction rules import the shared extraction engine, so they load only when asked)."""

    code: str
    name: str
    variants: tuple[str, ...]  # BCP 47 tags read by this bundle: "pt-BR", "pt-PT"
    stemmer: str  # the Snowball stemmer's name

    def module(self, part: str) -> ModuleType | None:
        """``domain.lang.<code>.<part>``; None only for an optional module not written yet."""
        try:
            return importlib.import_module(f"{__name__}.{self.code}.{part}")
        except ModuleNotFoundError as e:
            if part in _OPTIONAL and e.name == f"{__name__}.{self.code}.{part}":
                return None
            raise

    def _required(self, part: str) -> ModuleType:
        found = self.module(part)
        assert found is not None
        return found

    @property
    def lexicon(self) -> ModuleType:
        return self._required("lexicon")

    @property
    def grammar(self) -> ModuleType:
        return self._required("grammar")

    @property
    def clauses(self) -> ModuleType:
        return self._required("clauses")

    @property
    def answers(self) -> ModuleType:
        return self._required("answers")

    @property
    def roles(self) -> ModuleType:
        return self._required("roles")

    @property
    def forms(self) -> ModuleType:
        return self._required("forms")

    @property
    def changes(self) -> ModuleType:
        return self._required("changes")

    @property
    def dates(self) -> ModuleType:
        return self._required("dates")

    @property
    def phrases(self) -> ModuleType:
        return self._required("phrases")

    @property
    def speech_acts(self) -> ModuleType | None:
        return self.module("speech_acts")

    @property
    def slang(self) -> ModuleType | None:
        return self.module("slang")

    @property
    def subjects(self) -> ModuleType | None:
        return self.module("subjects")

    @property
    def reader(self) -> Any:
        """The extraction rules and templates (:class:`~hipocampo.domain.extraction.base.Grammar`)."""
        return self.grammar.READER


class _Registry(Mapping[str, Language]):
    """Code -> bundle; a variant tag ("pt-PT", "en_US") finds its language's bundle."""

    def __getitem__(self, code: str) -> Language:
        return _bundle(code.lower().replace("_", "-").split("-")[0])

    def __iter__(self) -> Iterator[str]:
        return iter(_CODES)

    def __len__(self) -> int:
        return len(_CODES)

    def __contains__(self, code: object) -> bool:
        return isinstance(code, str) and code.lower().replace("_", "-").split("-")[0] in _CODES


@cache
def _bundle(code: str) -> Language:
    if code not in _CODES:
        raise KeyError(code)
    found = importlib.import_module(f"{__name__}.{code}").LANGUAGE
    assert isinstance(found, Language)
    return found


LANGUAGES: Mapping[str, Language] = _Registry()


def language(code: str) -> Language:
    """The bundle for ``code`` ("en", "pt", "pt-BR", "pt-PT"); KeyError when none reads it."""
    return LANGUAGES[code]


# --- helpers for the bundles' data and for tables read across languages -------------------------


def words_set(text: str) -> frozenset[str]:
    """'a, b c' -> {'a', 'b c'}: word lists written as comma-separated text."""
    return frozenset(" ".join(w.split()) for w in text.split(",") if w.strip())


def words_map(text: str) -> dict[str, str]:
    """'a b=x, c=y' -> {'a b': 'x', 'c': 'y'}; a bare word maps to itself."""
    out: dict[str, str] = {}
    for item in text.split(","):
        if item.strip():
            word, _, target = (" ".join(part.split()) for part in item.partition("="))
            out[word] = target or word
    return out


def _lexicons() -> list[ModuleType]:
    return [importlib.import_module(f"{__name__}.{code}.lexicon") for code in _CODES]


@cache
def merged_map(name: str) -> dict[str, str]:
    """One lexicon table of every language, merged: the rules of one language may meet a word of
    another in a mixed turn, and slot names are the same in all."""
    out: dict[str, str] = {}
    for lex in _lexicons():
        out.update(getattr(lex, name, {}))
    return out


@cache
def merged_set(name: str) -> frozenset[str]:
    """A word set of every language, united (see :func:`merged_map`)."""
    return frozenset().union(*(getattr(lex, name, frozenset()) for lex in _lexicons()))
