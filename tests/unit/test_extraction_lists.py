"""A list value ends where a new clause starts: items of a list share their shape, so a verb phrase
after a noun ("meat, going veggie since january") is the next clause, never a second value."""

from __future__ import annotations

import pytest

from hipocampo.domain.extraction import extract_facts
from hipocampo.domain.extraction.base import items


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("meat, going veggie", ["meat"]),
        ("meat and trying vegan stuff", ["meat"]),
        ("carne, virando vegetariana", ["carne"]),
        ("peanuts, shrimp and eggs", ["peanuts", "shrimp", "eggs"]),
        ("cooking for friends, hiking and swimming", ["cooking for friends", "hiking", "swimming"]),
    ],
)
def test_a_verb_phrase_after_a_noun_ends_the_list(value: str, expected: list[str]) -> None:
    assert items(value) == expected


def test_no_fact_is_made_of_the_clause_after_the_list() -> None:
    values = {f.value for f in extract_facts("btw I stopped eating meat, going veggie since january")}
    assert not any("going" in v for v in values), values
