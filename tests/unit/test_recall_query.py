"""RecallQuery: the query read once. Each answer is the one its module's rule gives for the text,
computed on first use only; parsing checks the text as search always did; search and recall give
the same answer for a parsed query as for its text."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import datetime, timezone

import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.domain.errors import InvalidInput
from hipocampo.domain.limits import MAX_QUERY_CHARS
from hipocampo.domain.model import Scope
from hipocampo.domain.retrieval import lexicon, speech_acts, subjects
from hipocampo.domain.retrieval.facets import query_facets
from hipocampo.domain.retrieval.query import RecallQuery
from hipocampo.domain.retrieval.relevance import query_words
from hipocampo.domain.text import content_words, fold, is_when_question, names_in, words
from hipocampo.services.ingest import add_messages
from hipocampo.services.recall import recall
from hipocampo.services.retrieval import SearchOptions, search
from hipocampo.services.worker import run_once
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

QUERIES = [
    "When did Caroline go to the LGBTQ support group?",
    "What do Ana, Pedro and Rui do for work?",
    "onde eu moro?",
    "qual é o trampo da minha gf?",
    "Where does my mom live?",
    "and her sister?",
    "How many kids does João have, and what's his flight number?",
    "how do I boil an egg?",
    "Ana's sister",
]


@pytest.mark.parametrize("text", QUERIES)
def test_every_answer_is_the_rule_of_its_module(text: str) -> None:
    q = RecallQuery.parse(text)
    assert q.text == text
    assert q.words == tuple(words(text))
    assert q.content_words == tuple(content_words(text))
    assert q.names == names_in(text)
    assert q.folded_names == {fold(n) for n in names_in(text)}
    assert q.asks_when is is_when_question(text)
    assert q.facets == query_facets(text)
    assert q.subjects == subjects.asked(text)
    assert q.about_user is speech_acts.about_user(text)
    assert q.of_others is speech_acts.of_others(text)
    assert q.asks_for == speech_acts.asks_for(text)
    assert q.expansions == lexicon.expansions(text)
    assert list(q.word_stems) == query_words(text, expand=True)


def test_the_answers_are_read_when_first_asked_for_and_once() -> None:
    q = RecallQuery.parse("What do Ana, Pedro and Rui do for work?")
    assert q.facets == 3
    read = set(vars(q)) - {"text"}
    assert read == {"facets", "names"}  # the names, asked once, count the facets; nothing else was read
    assert q.names is q.names  # kept, not read again


def test_parsing_checks_the_text_as_search_did() -> None:
    for bad in ("", "   ", None, 42):
        with pytest.raises(InvalidInput, match="query must not be empty"):
            RecallQuery.parse(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="the limit is"):
        RecallQuery.parse("q" * (MAX_QUERY_CHARS + 1))
    with pytest.raises(InvalidInput, match="^query "):
        RecallQuery.parse("lone \ud800 surrogate")
    assert RecallQuery.parse("q" * MAX_QUERY_CHARS).text == "q" * MAX_QUERY_CHARS


def test_a_parsed_query_is_a_value() -> None:
    q = RecallQuery.parse("onde eu moro?")
    assert RecallQuery.parse(q) is q  # parsed once, handed down as it is
    assert q == RecallQuery("onde eu moro?") and hash(q) == hash(RecallQuery("onde eu moro?"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.text = "other"  # type: ignore[misc]


ALICE = Scope("acme", "alice")
T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


def test_search_and_recall_answer_a_parsed_query_as_its_text() -> None:
    deps = build_memory_deps(
        Settings(embedder="fake", tokenizer="chars", extraction=False, summaries=False), clock=FakeClock(T0)
    )

    async def scenario() -> None:
        await add_messages(
            deps,
            ALICE,
            "home",
            ["I just moved to Porto with my gf", "the garden roses need water", "Ana works at Acme as an analyst"],
        )
        while await run_once(deps):
            pass
        for text in ("where do I live?", "What does Ana do for work?", "garden"):
            q = RecallQuery.parse(text)
            by_text = await search(deps, ALICE, text, SearchOptions())
            parsed = await search(deps, ALICE, q, SearchOptions())
            assert [(h.memory.id, h.score) for h in parsed.hits] == [(h.memory.id, h.score) for h in by_text.hits]
            assert parsed.query == text
            assert (await recall(deps, ALICE, q)).context == (await recall(deps, ALICE, text)).context

    asyncio.run(scenario())


def test_an_expansion_is_stemmed_in_its_own_language_only() -> None:
    """ "trabalho" brings "career" in; the Portuguese stemmer would cut it to "car", the stem of
    "caro", and "tudo caro lol" would match a question about work."""
    from hipocampo.domain.retrieval import lexicon
    from hipocampo.domain.text import query_terms

    q = RecallQuery.parse("onde eu trabalho?")
    terms = query_terms(f"{q.text} {' '.join(map(lexicon.tagged, q.expansions))}")
    assert "career" in terms and "work" in terms
    assert "car" not in terms
    assert "car" not in lexicon.expansion_stems("trabalho")
