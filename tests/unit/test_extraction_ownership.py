"""What is not the user's is never the user's fact: hypotheticals, possibilities, questions and
quoted speech stay turns; another person's facts are that person's, under their own key."""

from __future__ import annotations

import pytest

from hipocampo.domain.extraction import extract_facts
from hipocampo.domain.model import MemoryType


@pytest.mark.parametrize(
    "text",
    [
        "If I ever move to Berlin, I will learn German.",
        "What if I quit my job and moved to Bali?",
        "I wish I lived in Paris",
        "Se eu morasse em Paris seria feliz",
        "Quem me dera morar em Paris",
        "Talvez eu mude para o Porto no ano que vem.",
        "Maybe I'll move to Lisbon.",
        "Should I get a dog?",
        "Am I allergic to peanuts?",
        "Sou alérgico a amendoim? Não sei.",
        'My boss said "I am the best engineer here"',
        "I was thinking about getting a cat",
        "Estou a pensar mudar-me para Lisboa",
    ],
)
def test_what_may_be_or_is_asked_is_no_fact(text: str) -> None:
    assert extract_facts(text) == []


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("My sister is coeliac.", "person:sister:condition:celiac_disease"),
        ("Minha irmã mora em Braga.", "person:sister:home_city"),
        ("My husband hates cilantro", "person:husband:dislikes:cilantro"),
        ("Tom loves sushi.", "person:tom:likes:sushi"),
    ],
)
def test_someone_elses_fact_is_theirs(text: str, key: str) -> None:
    (fact,) = extract_facts(text)
    assert fact.key == key and fact.memory_type is MemoryType.ENTITY and fact.people


def test_a_pronoun_with_no_one_before_it_is_nobodys_fact() -> None:
    assert extract_facts("He is allergic to peanuts.") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [("Sou vegana, me ajuda a achar um lugar pra jantar?", "vegano"), ("I'm vegan, is Lisbon ok for that?", "vegan")],
)
def test_a_statement_before_a_closing_question_is_still_read(text: str, value: str) -> None:
    assert [(f.key, f.value) for f in extract_facts(text)] == [("diet", value)]
