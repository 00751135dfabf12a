"""Values chat says a little apart from their frame: a pet's name after the day it came or in the
next sentence, a drug after the form it comes in, a couple's break-up with a lowercase name; and a
want that is only what a request is for, which is no goal of the user's life."""

from __future__ import annotations

import pytest

from hipocampo.domain.extraction import extract_facts


def _facts(text: str, known: list[tuple[str, str]] | None = None) -> set[tuple[str, str]]:
    return {(f.key, f.value) for f in extract_facts(text, known=known or [])}


@pytest.mark.parametrize(
    ("text", "pet"),
    [
        ("adotámos um cão no sábado passado, o bolinha, um rafeiro castanho", ("pet:dog", "Bolinha")),
        ("adotei uma gatinha ontem, a luna 🐱 que ração compro?", ("pet:cat", "Luna")),
        ("we adopted a puppy yesterday, Rex, and he chewed my shoe", ("pet:dog", "Rex")),
        ("we got a kitten!! her name is Olive, any tips?", ("pet:cat", "Olive")),
        ("adotei um cachorro 🐶 o nome dele é paçoca", ("pet:dog", "Paçoca")),
        ("finally got a dog. we named him biscuit lol", ("pet:dog", "Biscuit")),
    ],
)
def test_a_pet_named_after_the_day_it_came_or_in_the_next_sentence(text: str, pet: tuple[str, str]) -> None:
    assert pet in _facts(text)


@pytest.mark.parametrize(
    ("text", "pet"),
    [
        ("we adopted a cat!! she's a tabby, so cute", ("pet:cat", "cat")),  # a breed-like word names nothing
        ("adotei um gato no sábado, o que eu compro?", ("pet:cat", "gato")),  # "que" is no name
    ],
)
def test_no_name_is_read_where_none_is_given(text: str, pet: tuple[str, str]) -> None:
    assert _facts(text) == {pet}


@pytest.mark.parametrize(
    "text",
    [
        "me ajuda com uma planilha? quero controlar os gastos do mês",
        "quero começar a nadar, tem dicas pra iniciante?",
        "can you draft a schedule? i want to wake up at 6",
        "I'd love to learn the ukulele, which one should I buy?",
    ],
)
def test_a_want_in_a_turn_that_asks_is_what_the_request_is_for(text: str) -> None:
    assert not {k for k, _ in _facts(text) if k.startswith("goal")}


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("Quero aprender a tocar piano.", "aprender a tocar piano"),
        ("my goal is to run a half marathon. any plan you'd suggest?", "run a half marathon"),
        ("estou planejando fazer o caminho de santiago. o que levo?", "fazer o caminho de santiago"),
        ("I'm planning to walk the camino, what should I pack?", "walk the camino"),
    ],
)
def test_a_goal_said_as_one_or_without_a_request_stays(text: str, goal: str) -> None:
    assert goal in {v for k, v in _facts(text) if k.startswith("goal")}


@pytest.mark.parametrize(
    ("text", "drug"),
    [
        ("uso bombinha de salbutamol quando corro", ("medication:salbutamol", "salbutamol")),
        ("tomo comprimido de losartana de manhã", ("medication:losartan", "losartana")),
    ],
)
def test_a_drug_said_after_the_form_it_comes_in_is_the_drug(text: str, drug: tuple[str, str]) -> None:
    facts = _facts(text)
    assert drug in facts
    assert not {k for k, _ in facts if k in {"medication:inhaler", "medication:pill"}}


def test_a_form_without_a_drug_after_it_is_kept_as_said() -> None:
    assert ("medication:inhaler", "bombinha") in _facts("uso bombinha pra asma")


def test_a_couple_parting_names_the_partner_in_lowercase() -> None:
    found = extract_facts("eu e o caio nos separamos semana passada", known=[("person:partner", "Caio")])
    assert [(f.key, f.value) for f in found] == [("person:partner", "Caio")]
    assert "não namora mais" in found[0].content


def test_a_common_word_is_no_partner_parting() -> None:
    assert _facts("eu e a dieta terminamos", known=[("person:partner", "Caio")]) == set()


def test_calling_it_quits_ends_a_couple() -> None:
    found = extract_facts("me and jordan called it quits last week", known=[("person:partner", "Jordan")])
    assert [(f.key, f.value) for f in found] == [("person:partner", "Jordan")]
    assert "no longer" in found[0].content


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("im a barista at fernhill roasters", "fernhill roasters"),  # kinds of business a name ends with
        ("started at halvorsen freight on monday", "halvorsen freight"),
        ("i work at ridgeway bookshop now", "ridgeway bookshop"),
    ],
)
def test_a_lowercase_employer_ends_with_the_kind_of_business(text: str, employer: str) -> None:
    assert ("employer", employer) in _facts(text)


@pytest.mark.parametrize("text", ["i went to the pub with friends", "i work at the pharmacy"])
def test_a_kind_of_business_alone_is_no_employer(text: str) -> None:
    assert not {k for k, _ in _facts(text) if k == "employer"}
