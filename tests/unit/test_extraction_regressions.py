"""Extraction fixes found by the bilingual scenario suite (benchmarks/data/scenarios/)."""

from __future__ import annotations

import pytest

from hipocampo.domain.extraction import extract_facts


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("Yesterday I adopted a dog named Biscuit.", "pet:dog", "Biscuit"),
        ("Ontem adotei um cachorro chamado Pipoca.", "pet:dog", "Pipoca"),
        ("Last weekend, I adopted a cat named Pixel.", "pet:cat", "Pixel"),
        ("I live in Porto. Yesterday I moved to Lisbon.", "home_city", "Lisbon"),
    ],
)
def test_a_date_opening_the_sentence_does_not_hide_the_statement(text: str, key: str, value: str) -> None:
    assert (key, value) in [(f.key, f.value) for f in extract_facts(text)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("My budget is now 3k", "3000"),
        ("my budget is still 5000 euros", "5000 EUR"),
        ("Com o salário novo, meu orçamento agora é de R$ 3.500.", "3500 BRL"),
    ],
)
def test_budget_updates_with_now_and_agora(text: str, value: str) -> None:
    assert ("budget", value) in [(f.key, f.value) for f in extract_facts(text)]
