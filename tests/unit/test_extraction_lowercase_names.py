"""Employers written in lowercase, as chat writes them: one word that no language we read uses
commonly is a name in an employer's slot ("i work at spotify", "trabalho na edp"); a common word,
a noun-shaped word, slang, a laugh or a place never is."""

from __future__ import annotations

import pytest

from hipocampo.domain.extraction import extract_facts
from hipocampo.domain.extraction.base import lower_org_at
from hipocampo.domain.extraction.lexicon import common_word


def employers(text: str) -> list[str]:
    return [f.value for f in extract_facts(text) if f.key == "employer"]


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("i work at spotify", "spotify"),
        ("i work at spotify as a designer", "spotify"),
        ("im a backend dev at klarna", "klarna"),
        ("i'm a junior dev at thoughtworks, em bh.", "thoughtworks"),
        ("trabalho na edp na área de redes", "edp"),
        ("bom dia! sou analista de dados no ifood, vou presencial todo dia", "ifood"),
        ("saí da stone, entrei na nubank", "nubank"),
        ("i got the job at dyson, so we're relocating", "dyson"),
    ],
)
def test_an_uncommon_lowercase_word_in_an_employers_slot_is_a_name(text: str, employer: str) -> None:
    assert employers(text) == [employer]


@pytest.mark.parametrize(
    "text",
    [
        "i work at home",
        "i work for peanuts",
        "i work at night",
        "trabalho em casa",
        "trabalho na padaria do meu tio",  # a noun of the language, in no word list or in one
        "trabalho na lanchonete",
        "trabalho no mercadinho",
        "trabalho na prefeitura",
        "trabalho pra kct",  # slang, and "pra" takes no lowercase name
        "i work at kkk",  # a laugh
        "trabalho no hospital",
        "trabalho na paulista",
        "i work at spotify stuff all day",  # runs on into more words: not a name alone
    ],
)
def test_a_common_word_is_no_employer(text: str) -> None:
    assert employers(text) == []


@pytest.mark.parametrize("word", ["home", "casa", "warehouse", "empresa", "trampo", "tbh", "lojinha", "sorveteria"])
def test_common_words(word: str) -> None:
    assert common_word(word)


@pytest.mark.parametrize("word", ["spotify", "klarna", "nubank", "ifood", "vtex", "edp"])
def test_names_are_not_common_words(word: str) -> None:
    assert not common_word(word)


def test_a_place_or_a_laugh_is_no_lowercase_name() -> None:
    assert lower_org_at("lisboa") is None
    assert lower_org_at("hahaha") is None
    assert lower_org_at("kkkk") is None
