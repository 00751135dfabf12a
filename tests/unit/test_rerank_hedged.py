"""services.rerank.hedged: an own turn that states nothing for sure answers no question about the
user, in every language the rules read."""

from __future__ import annotations

import pytest

from hipocampo.services.rerank import hedged


@pytest.mark.parametrize(
    "text",
    [
        "if i ever move to Bristol id want a flat near the harbour",
        "se um dia eu mudar pra Lisboa quero morar perto do rio",
        "talvez eu mude pro Porto ano que vem",
        "I think I might quit next year",
    ],
)
def test_a_turn_of_conditions_doubts_and_wishes_is_hedged(text: str) -> None:
    assert hedged(text)


@pytest.mark.parametrize(
    "text",
    [
        "i live in Leeds btw",
        "moro em Campinas mas trampo remoto",
        "I might move to Berlin. I live in Paris now.",  # one sentence says something for sure
        "",
    ],
)
def test_a_turn_that_states_something_is_not(text: str) -> None:
    assert not hedged(text)
