"""A remark to the listener after a statement ("..., keep that in mind") is not part of the value:
it once became a second allergy, "The user is allergic to keep that in mind"."""

from __future__ import annotations

import pytest

from hipocampo.domain.extraction import extract_facts


@pytest.mark.parametrize(
    ("turn", "facts"),
    [
        ("I'm allergic to peanuts, keep that in mind", ["The user is allergic to peanuts."]),
        ("I love jazz, remember that", ["The user loves jazz."]),
        ("I work at Globex, just so you know", ["The user works at Globex."]),
        ("Sou alérgica a amendoim, lembra disso", ["A usuária tem alergia a amendoim."]),
        ("Odeio coentros, anota aí", ["O usuário odeia coentros."]),
        (
            "I am allergic to peanuts and shellfish",
            ["The user is allergic to peanuts.", "The user is allergic to shellfish."],
        ),
    ],
)
def test_a_remark_to_the_listener_is_not_a_value(turn: str, facts: list[str]) -> None:
    assert [f.content for f in extract_facts(turn)] == facts
