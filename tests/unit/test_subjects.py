"""The subject thesaurus raises relevance for memories about what a question asks, in both
languages, and only then."""

from __future__ import annotations

import pytest

from hipocampo.domain.retrieval.subjects import SUBJECT_RELEVANCE, asked, spoken_of, subject_relevance


@pytest.mark.parametrize(
    ("question", "memory"),
    [
        ("o que ele não pode comer?", "O usuário tem alergia a camarão."),
        ("what can't she eat?", "I'm lactose intolerant."),
        ("tem alguma restrição alimentar?", "Sou celíaca."),
        ("Onde é que eu moro agora?", "Mudei-me para Lisboa em janeiro."),
        ("Where do I work now?", "I joined Globex last week."),
        ("Que animais de estimação tenho?", "Tenho um gato chamado Tom."),
        ("How much can I spend on the trip?", "My budget is 3k now."),
        ("Quando estou disponível para reuniões?", "Agora prefiro reuniões à tarde."),
        # a trip told by where one sleeps or what was booked, never by the word "trip"
        ("qnd é a viagem", "fechei a pousada em floripa, reserva nova é FLN2290"),
        ("when's the trip again?", "booked an airbnb in kyoto for the 12th"),
        ("quando é a viagem?", "voamos dia 15 de julho"),
    ],
)
def test_a_memory_about_the_subject_asked_is_relevant(question: str, memory: str) -> None:
    assert subject_relevance(asked(question), memory) == SUBJECT_RELEVANCE


@pytest.mark.parametrize(
    ("question", "memory"),
    [
        ("o que ele não pode comer?", "Também gosto de correr no parque aos domingos."),
        ("Where do I work now?", "I have a cat named Miso."),
        ("What's the weather like?", "I'm allergic to peanuts."),  # asks about no known subject
    ],
)
def test_other_memories_get_nothing_from_it(question: str, memory: str) -> None:
    assert subject_relevance(asked(question), memory) == 0.0


def test_filler_speaks_of_no_subject() -> None:
    assert spoken_of("Anotado!") == frozenset() and spoken_of("ok obrigado") == frozenset()
