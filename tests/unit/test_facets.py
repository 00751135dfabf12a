"""domain.facets: how many things a query asks about (English and Portuguese)."""

from __future__ import annotations

import pytest

from hipocampo.domain.retrieval.facets import MAX_FACETS, query_facets


@pytest.mark.parametrize(
    ("query", "facets"),
    [
        ("Como está a Ana?", 1),
        ("qual é a capital da Austrália?", 1),
        ("how do I boil an egg?", 1),
        ("When did she start the new job?", 1),
        ("Did she send the e-mail?", 1),  # the "e" of e-mail joins nothing
        ("What did Ana and Pedro do together?", 2),
        ("Como estão a Ana e o Pedro?", 2),
        ("Did she move and change jobs?", 2),  # two facts joined
        ("compare the two offers", 2),
        ("what do both of my kids like?", 2),
        ("qual a diferença entre os dois empregos?", 2),
        ("What is the difference between the gym and the pool?", 2),  # the pair is not counted twice
        ("What do Ana, Pedro and Rui do for work?", 3),
        ("Ana, Pedro, and Rui: who likes the beach?", 3),  # the Oxford comma is not a fourth
        ("O que a Ana, o Pedro, o Rui, a Maria e o João comem?", MAX_FACETS),
    ],
)
def test_query_facets(query: str, facets: int) -> None:
    assert query_facets(query) == facets


def test_names_alone_count() -> None:
    assert query_facets("Ana Pedro") == 2  # two names, no connective
