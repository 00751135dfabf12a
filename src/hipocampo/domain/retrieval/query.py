"""The question of one search or recall, read once: :class:`RecallQuery`.

Ranking a candidate and choosing what enters the context ask many things of the question: its
content words, the names it mentions, whether it asks "when", how many things it asks about,
which subjects, whether it is about the user, its words' stems and their slang and translations.
Each answer is a rule of its own module (:mod:`hipocampo.domain.text`, :mod:`.facets`,
:mod:`.subjects`, :mod:`.speech_acts`, :mod:`.lexicon`, :mod:`.relevance`), and the rules stay
there, as functions of a text. This value asks each rule once and carries the answers down: the
service builds it at its entry, and the keyword search, both ranking passes and the choice of what
the context shows read the same answers instead of reading the text again.

Every answer is computed when first asked for (:func:`functools.cached_property`), so a search does
not pay for what only recall uses (the enrichment's and the k floor's words, the facets when the
caller fixed k).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..errors import InvalidInput
from ..limits import MAX_QUERY_CHARS
from ..text import content_words, fold, is_when_question, names_in, words
from ..values import check_text
from . import lexicon, speech_acts, subjects
from .facets import query_facets
from .relevance import word_stems


@dataclass(frozen=True)
class RecallQuery:
    """A query's text and what the ranking and the context read from it (each on first use)."""

    text: str

    @classmethod
    def parse(cls, query: str | RecallQuery) -> RecallQuery:
        """``query`` checked (not blank, at most :data:`~hipocampo.domain.limits.MAX_QUERY_CHARS`,
        text every encoder can write: it is echoed in the answer and searched for) and wrapped; one
        parsed already comes back as it is. Raises :class:`InvalidInput`."""
        if isinstance(query, RecallQuery):
            return query
        if not isinstance(query, str) or not query.strip():
            raise InvalidInput("query must not be empty")
        if len(query) > MAX_QUERY_CHARS:
            raise InvalidInput(f"query is {len(query)} characters; the limit is {MAX_QUERY_CHARS}")
        check_text("query", query)
        return cls(query)

    @cached_property
    def words(self) -> tuple[str, ...]:
        """Every word, lowercased (stopwords too: "and her sister?" points back by "her")."""
        return tuple(words(self.text))

    @cached_property
    def content_words(self) -> tuple[str, ...]:
        """The words that carry meaning, lowercased (:func:`~hipocampo.domain.text.content_words`)."""
        return tuple(content_words(self.text))

    @cached_property
    def names(self) -> frozenset[str]:
        """The names it mentions, as written (:func:`~hipocampo.domain.text.names_in`)."""
        return frozenset(names_in(self.text))

    @cached_property
    def folded_names(self) -> frozenset[str]:
        """:attr:`names`, folded (lowercase, no accents), to compare with folded words."""
        return frozenset(fold(n) for n in self.names)

    @cached_property
    def asks_when(self) -> bool:
        """Whether it asks for a time ("When did...", "Quando foi...")."""
        return is_when_question(self.text)

    @cached_property
    def facets(self) -> int:
        """How many things it asks about (:func:`~.facets.query_facets`), for adaptive k."""
        return query_facets(self.text, self.names)

    @cached_property
    def subjects(self) -> frozenset[str]:
        """The subjects it asks about (:func:`~.subjects.asked`): work, home, health..."""
        return subjects.asked(self.text)

    @cached_property
    def about_user(self) -> bool:
        """Whether it asks about the user's own life (:func:`~.speech_acts.about_user`)."""
        return speech_acts.about_user(self.text)

    @cached_property
    def of_others(self) -> bool:
        """Whether it speaks of another person of the user's life ("where does my mom live?")."""
        return speech_acts.of_others(self.text)

    @cached_property
    def asks_for(self) -> tuple[bool, bool]:
        """Whether its answer is a name, and whether a number (:func:`~.speech_acts.asks_for`)."""
        return speech_acts.asks_for(self.text)

    @cached_property
    def answer_kinds(self) -> frozenset[speech_acts.AnswerKind]:
        """The kinds of word its answer holds: a place, an occupation, a medication
        (:func:`~.speech_acts.answer_kinds`)."""
        return speech_acts.answer_kinds(self.text)

    @cached_property
    def expansions(self) -> tuple[str, ...]:
        """Slang's standard forms and other languages' words for its words, for the keyword search
        (:func:`~.lexicon.expansions_of`)."""
        return lexicon.expansions_of(self.content_words)

    @cached_property
    def word_stems(self) -> tuple[frozenset[str], ...]:
        """Its distinct content words as their index stems, expansions included: what keyword
        coverage counts (:func:`~.relevance.word_stems`)."""
        return tuple(word_stems(self.content_words, expand=True))
