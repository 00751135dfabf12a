"""Facts said again in other words: an own sentence naming a current fact's whole value counts as a
mention of it; a question, a request, a denial, an ending or a relative's sentence does not."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from hipocampo.domain.model import MemoryItem, MemoryKind, MemoryType, Scope
from hipocampo.domain.truth.again import may_restate, said_again
from hipocampo.domain.truth.reconcile import FACT_VALUE, NEGATIVE

SCOPE = Scope("acme", "ana")
T0 = datetime(2024, 4, 1, 10, 0, tzinfo=timezone.utc)


def fact(key: str, value: str, memory_type: MemoryType = MemoryType.USER_PROFILE, negative: bool = False) -> MemoryItem:
    meta: dict[str, object] = {FACT_VALUE: value, **({NEGATIVE: True} if negative else {})}
    return MemoryItem(
        id=f"fact_{key}", scope=SCOPE, kind=MemoryKind.FACT, content=value, created_at=T0, key=key,
        memory_type=memory_type, metadata=meta,
    )  # fmt: skip


DIET = fact("diet", "vegetarian", MemoryType.PREFERENCE)
VEGANO = fact("diet", "vegano", MemoryType.PREFERENCE)
JOB = fact("employer", "Zup")
PENICILLIN = fact("allergy:penicillin", "penicillin", MemoryType.CRITICAL_INFO)
COENTRO = fact("dislikes:coentro", "coentro", MemoryType.PREFERENCE)
NUTS = fact("allergy:frutos_secos", "frutos secos", MemoryType.CRITICAL_INFO)
MEAT = fact("avoids:meat", "meat", MemoryType.CONSTRAINT, negative=True)
SISTER = fact("person:sister", "Ana", MemoryType.ENTITY)
HOME = fact("home_city", "Guimarães")
BOSTON = fact("home_city", "Boston")
ALL = [DIET, VEGANO, JOB, PENICILLIN, COENTRO, NUTS, MEAT, SISTER, HOME, BOSTON]


def again(text: str, touched: tuple[str, ...] = ()) -> set[str]:
    return {f.metadata[FACT_VALUE] for f in said_again(text, ALL, touched=touched)}  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("ok honestly. still vegetarian btw, the new office cafeteria is hopeless", "vegetarian"),
        ("continuo na Zup, trabalho remoto então foi tranquilo", "Zup"),
        ("also dentist reminded me again, penicillin allergy, so they're giving me clindamycin", "penicillin"),
        ("lembrando que odeio coentro, tá? kkkk", "coentro"),
        ("Continuo vegano.", "vegano"),
        ("sou alérgica a FRUTOS SECOS, já sabes", "frutos secos"),
        ("aqui em guimarães os supermercados fecham cedo", "Guimarães"),  # a home, where the speaker is
        ("winters here in Boston are brutal", "Boston"),
    ],
)
def test_an_own_sentence_naming_the_value_says_it_again(text: str, value: str) -> None:
    assert again(text) == {value}


@pytest.mark.parametrize(
    "text",
    [
        "can u give me a cheap vegetarian dinner for 3 ppl?",  # a question
        "give me a vegetarian lasagna recipe",  # a request
        "faz-me uma lista de snacks, sem frutos secos claro",  # a request, and "sem"
        "I'm not vegetarian anymore, I eat fish now",  # an ending: the change rules read it
        "já não sou vegano",
        "my sister is vegetarian too lol",  # someone else's
        "if i were vegetarian id miss bacon",  # a hypothetical
        "she said coentro is the best herb",  # reported speech
        "a Zuppa inglese é o meu doce preferido",  # the value inside another word
        "I had meat for lunch",  # a negative fact's value is what the user avoids
        "Ana vem jantar hoje",  # facts about other people are theirs
        "My goal is to run the Boston Marathon.",  # a longer name
        "fomos a Guimarães ver o castelo",  # a home named for another reason
        "the Zup Summit was fun",
    ],
)
def test_anything_else_says_nothing_again(text: str) -> None:
    assert again(text) == set()


def test_a_key_the_turns_rules_wrote_is_theirs() -> None:
    assert again("still vegetarian btw", touched=("diet",)) == set()


def test_each_fact_once() -> None:
    assert [f.key for f in said_again("still vegetarian. yes, vegetarian. vegetarian!", [DIET])] == ["diet"]


def test_a_request_or_a_question_may_restate_nothing() -> None:
    assert not may_restate("can u give me a vegetarian dinner idea?")
    assert may_restate("still vegetarian btw")
