"""Precision first: a value is a whole phrase of its kind, never a clause run on or cut short.
Whatever rule captured it, a value with a swallowed clause ("manhã eu treino"), a time followed by
something that is no time ("manhã levo o Pixel ao veterinário"), a bare qualifier ("antes das
11h") or a reason tacked on a plan is dropped or trimmed; the turn stays a memory."""

from __future__ import annotations

import pytest

from hipocampo.domain.extraction import extract_facts


def values(text: str, **kw: str) -> set[tuple[str, str]]:
    return {(f.key, f.value) for f in extract_facts(text, **kw)}


@pytest.mark.parametrize(
    "text",
    [
        "Prefiro de manhã eu treino na academia",
        "Prefiro de manhã levo o Pixel ao veterinário",
        "prefiro antes das 11h",
        "I hate that here I have to drive more",
        "Prefiro o horário novo me obrigou a acordar cedo",
        "I prefer the days my boss is away",
        "Gosto de café, bebo uns quatro por dia",
        "Não curto mais futevôlei depois dessa",
        "Prefiro mil vezes em casa",
        "Sou alérgica a cuidado com doce baiano",
        "I love doing the crossword every morning",
        "I hate that the pool feels too cold",
        "Trabalho com menos noites",
    ],
)
def test_a_clause_is_never_a_value(text: str) -> None:
    assert not {(k, v) for k, v in values(text) if k != "likes:coffee"}


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("tenho intolerância ao glúten e lá comem bué pão", ("intolerance:gluten", "glúten")),
        ("i'm allergic to peanuts and there they fry everything in peanut oil", ("allergy:peanuts", "peanuts")),
        ("i like jazz and there's a club nearby", ("likes:jazz", "jazz")),
    ],
)
def test_a_clause_after_and_is_no_second_item(text: str, kept: tuple[str, str]) -> None:
    """ "X and there ..." starts a clause: a list's second item never opens with "there"/"lá"."""
    assert set(values(text)) == {kept}


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("quero abrir um food truck de smash burger aqui em campinas", "abrir um food truck de smash burger"),
        ("my goal is to open a bakery here in leeds", "open a bakery"),
    ],
)
def test_where_the_speaker_is_is_no_part_of_a_plan(text: str, goal: str) -> None:
    assert goal in {v for k, v in values(text) if k.startswith("goal:")}


def test_the_whole_phrase_stays_when_the_next_clause_is_cut_off() -> None:
    found = values("Prefiro reuniões depois das duas da tarde, de manhã eu treino")
    assert found == {("prefers:reunioes", "reuniões depois das duas da tarde")}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Prefiro manhã cedo", "manhã cedo"),
        ("I prefer morning meetings", "morning meetings"),
        ("Prefiro reuniões antes das 11h", "reuniões antes das 11h"),
        ("Sou alérgica a castanha de caju", "castanha de caju"),
        ("Quero beber menos", "beber menos"),
    ],
)
def test_well_formed_times_and_things_are_kept(text: str, value: str) -> None:
    assert {v for _, v in values(text)} == {value}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Quero correr a maratona do Rio ano que vem", "correr a maratona do Rio"),
        ("Quero aprender kitesurf agora que moro do lado da praia", "aprender kitesurf"),
        ("Quero mudar de carreira até ao fim do ano", "mudar de carreira"),
        ("I want to run a marathon next year", "run a marathon"),
        ("I want to learn to surf now that I live by the sea", "learn to surf"),
        ("I want to learn Korean over the summer", "learn Korean"),
    ],
)
def test_a_plan_is_kept_without_the_time_or_reason_said_after_it(text: str, value: str) -> None:
    assert {v for k, v in values(text) if k.startswith("goal:")} == {value}
