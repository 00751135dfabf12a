"""Extraction precision: the defects a new user found, in English, Brazilian and European
Portuguese. Updates and retractions are recognised, filler never becomes a value, dislikes are not
likes, a second relative of the same kind is a new person, codes and birthdays are kept, and a
user's Portuguese sentences agree with one gender."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from hipocampo.domain.extraction import extract_facts, speaker_gender
from hipocampo.domain.model import MemoryItem, MemoryKind, Scope
from hipocampo.domain.reconcile import FACT_VALUE, Action, decide

Triple = tuple[str, str, bool]


def facts(text: str) -> set[Triple]:
    return {(f.key, f.value, f.negated) for f in extract_facts(text)}


def stored(key: str, value: str) -> MemoryItem:
    when = datetime(2024, 1, 1, tzinfo=timezone.utc)
    item = MemoryItem(f"m-{value}", Scope("t", "u"), MemoryKind.FACT, value, when)
    item.key = key
    item.metadata = {FACT_VALUE: value}
    return item


# --- updates and retractions --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Mudei de ideia: agora prefiro reuniões à tarde.", {("prefers:reunioes", "reuniões à tarde", False)}),
        ("Prefiro reuniões de manhã cedo.", {("prefers:reunioes", "reuniões de manhã cedo", False)}),
        ("Changed my mind: I prefer meetings in the afternoon now.",
         {("prefers:meetings", "meetings in the afternoon", False)}),
        ("Mudei de ideia: prefiro voos à noite.", {("prefers:voos", "voos à noite", False)}),
        ("Prefiro chá a café.", {("prefers:cha", "chá", False)}),
    ],
)
def test_a_changed_preference_fills_the_same_slot(text: str, expected: set[Triple]) -> None:
    assert facts(text) == expected


def test_a_new_preference_about_the_same_thing_supersedes_the_old() -> None:
    decision = decide("prefers:reunioes", "reuniões à tarde", False, [stored("prefers:reunioes", "reuniões de manhã")])
    assert decision.action is Action.UPDATE


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Forget the Peru trip budget, we cancelled the trip.", "budget:peru_trip"),
        ("Forget the budget for the trip to Peru.", "budget:peru_trip"),
        ("Esquece o orçamento da viagem ao Chile, cancelamos.", "budget:chile_viagem"),
        ("Esquece o orçamento da viagem a Roma, já não vamos.", "budget:roma_viagem"),
    ],
)
def test_a_trip_budget_taken_back_retracts_the_budget_for_that_trip(text: str, key: str) -> None:
    (fact,) = extract_facts(text)
    assert (fact.key, fact.negated) == (key, True)


@pytest.mark.parametrize(
    ("stated", "taken_back"),
    [
        ("My budget for the Peru trip is 4000 dollars.", "Forget the Peru trip budget."),
        ("Meu orçamento para a viagem ao Chile é de R$ 8.000.", "Esquece o orçamento da viagem ao Chile."),
        ("O meu orçamento para a viagem a Roma é de 1500 euros.", "Esquece o orçamento da viagem a Roma."),
    ],
)
def test_the_budget_and_its_retraction_share_a_key(stated: str, taken_back: str) -> None:
    (budget,) = extract_facts(stated)
    (drop,) = extract_facts(taken_back)
    assert budget.key == drop.key
    assert decide(drop.key, drop.value, True, [stored(budget.key, budget.value)]).action is Action.DELETE


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Virei vegana no mês passado.", {("diet", "vegano", False)}),
        ("I went vegan last month.", {("diet", "vegan", False)}),
        ("Deixei de ser vegetariana, voltei a comer carne.", {("diet", "vegetariano", True)}),
        ("Já não sou vegetariana.", {("diet", "vegetariano", True)}),
        ("I'm not vegetarian anymore.", {("diet", "vegetarian", True)}),
    ],
)
def test_a_diet_change_after_being_vegetarian(text: str, expected: set[Triple]) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sou o Duarte, estou a trabalhar na Acme como programador.",
         {("name", "Duarte", False), ("employer", "Acme", False), ("occupation", "programador", False)}),
        ("Mudei de emprego: agora estou a trabalhar na Globex.", {("employer", "Globex", False)}),
        ("Já não estou a trabalhar na Acme.", {("employer", "Acme", True)}),
        ("Estou reformada desde fevereiro.", {("occupation", "reformado", False)}),
        ("Reformei-me no ano passado.", {("occupation", "reformado", False)}),
        ("Deixei de morar em Lisboa.", {("home_city", "Lisboa", True)}),
        ("Já não vivo no Porto, mudei-me para Braga.", {("home_city", "Braga", False)}),
        ("I no longer work at Acme.", {("employer", "Acme", True)}),
        ("Saí da Acme e entrei na Globex semana passada.", {("employer", "Globex", False)}),
        ("Big news: I left Acme. I started at Globex on Monday.", {("employer", "Globex", False)}),
    ],
)
def test_job_home_and_retirement_changes(text: str, expected: set[Triple]) -> None:
    assert facts(text) == expected


def test_a_job_change_in_one_turn_names_the_old_employer() -> None:
    (fact,) = extract_facts("Saí da Acme e entrei na Globex.")
    assert fact.previous_value == "Acme"


# --- values that are no values ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Ah, e tenho alergia a... aliás, deixa pra lá.",
        "ugh I'm allergic to... by the way, lol",
        "I'm allergic to, by the way",
        "Prefiro sem gráficos.",
        "Gosto de tipo, sei lá.",
        "Entendi, ok.",
        "haha ok",
        "kkkk",
        "rs",
        "Pois, ok.",
        "Gosto de né",
        "I like, you know, lol",
        "Adoro kkkkk",
        "I love haha",
        "Tenho alergia a aliás",
        "Sou alérgica a tipo",
        "I prefer without",
    ],
)
def test_filler_never_becomes_a_fact(text: str) -> None:
    assert extract_facts(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I prefer meetings in the morning, by the way.", {("prefers:meetings", "meetings in the morning", False)}),
        ("Tenho alergia a camarão, aliás.", {("allergy:shrimp", "camarão", False)}),
        ("Sou alérgica a amendoins, já agora.", {("allergy:peanuts", "amendoins", False)}),
        ("Tenho alergia a camarão, tá?", {("allergy:shrimp", "camarão", False)}),
        ("I can't stand jazz, so no jazz bars please.", {("dislikes:jazz", "jazz", False)}),
    ],
)
def test_filler_around_a_value_is_dropped_and_the_value_kept(text: str, expected: set[Triple]) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("Odeio acordar cedo.", "dislikes:acordar_cedo", "acordar cedo"),
        ("Detesto coentros.", "dislikes:coentros", "coentros"),
        ("Não suporto acordar cedo.", "dislikes:acordar_cedo", "acordar cedo"),
        ("I hate waking up early.", "dislikes:waking_up_early", "waking up early"),
        ("I can't stand long calls.", "dislikes:long_calls", "long calls"),
    ],
)
def test_hating_is_a_dislike_not_a_like(text: str, key: str, value: str) -> None:
    (fact,) = extract_facts(text)
    assert (fact.key, fact.value, fact.negated) == (key, value, False)
    assert "gosta" not in fact.content and "likes" not in fact.content


# --- people -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "key"),
    [
        ("My sister Carla lives in Lisbon.", "My sister Emma lives in Boston.", "person:sister"),
        ("Meu irmão Pedro mora em Santos.", "Meu irmão Lucas mora em Natal.", "person:brother"),
        ("A minha irmã Ana vive em Faro.", "A minha irmã Rita vive em Braga.", "person:sister"),
    ],
)
def test_a_second_relative_of_the_same_kind_is_another_person(first: str, second: str, key: str) -> None:
    one = {f.key: f for f in extract_facts(first)}
    two = {f.key: f for f in extract_facts(second)}
    assert decide(key, two[key].value, False, [stored(key, one[key].value)]).action is Action.ADD
    assert decide(key, one[key].value, False, [stored(key, one[key].value)]).action is Action.NONE
    cities = [k for k in two if k.endswith(":home_city")]
    assert cities and not set(cities) & set(one)  # Emma's city is no mention of Carla's


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("My wife is called Rachel.", "person:wife", "Rachel"),
        ("My boyfriend's name is Tom.", "person:boyfriend", "Tom"),
        ("Minha namorada se chama Júlia.", "person:girlfriend", "Júlia"),
        ("O meu marido é o Rui.", "person:husband", "Rui"),
        ("A minha namorada chama-se Rita.", "person:girlfriend", "Rita"),
        ("O meu companheiro chama-se Nuno.", "person:partner", "Nuno"),
        ("Estou planejando uma viagem com minha esposa, a Fernanda.", "person:wife", "Fernanda"),
    ],
)
def test_a_partners_name(text: str, key: str, value: str) -> None:
    assert (key, value, False) in facts(text)


# --- codes and birthdays ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("O número da minha reserva é ABC123.", "id:reservation", "ABC123"),
        ("My booking reference is QX7P2L.", "id:reservation", "QX7P2L"),
        ("My booking reference is now ZK44R9.", "id:reservation", "ZK44R9"),
        ("My flight number is BA2490, it leaves at 6am.", "id:flight", "BA2490"),
        ("O número do meu voo é TP1352.", "id:flight", "TP1352"),
        ("O código da encomenda é XK-2231.", "id:order", "XK-2231"),
        ("My passport number is 123456789.", "id:passport", "123456789"),
    ],
)
def test_codes_are_kept_verbatim_as_critical_info(text: str, key: str, value: str) -> None:
    (fact,) = extract_facts(text)
    assert (fact.memory_type.value, fact.key, fact.value) == ("critical_info", key, value)
    assert value in fact.content


@pytest.mark.parametrize(
    "text", ["My order number is the one you sent.", "O número da reserva é aquele.", "My booking is great."]
)
def test_no_code_no_fact(text: str) -> None:
    assert not [f for f in extract_facts(text) if f.key.startswith("id:")]


def test_a_new_code_for_the_same_booking_supersedes_the_old() -> None:
    assert decide("id:reservation", "ZK44R9", False, [stored("id:reservation", "QX7P2L")]).action is Action.UPDATE


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("My birthday is on March 14.", "March 14"),
        ("My birthday is the 3rd of May.", "3rd of May"),
        ("Meu aniversário é dia 14 de março.", "14 de março"),
        ("Faço anos a 3 de maio.", "3 de maio"),
        ("O meu aniversário é a 20 de junho.", "20 de junho"),
    ],
)
def test_a_birthday(text: str, value: str) -> None:
    assert ("birthday", value, False) in facts(text)


@pytest.mark.parametrize("text", ["My birthday is tomorrow.", "Meu aniversário é amanhã.", "Faço anos em breve."])
def test_a_relative_birthday_is_no_fact(text: str) -> None:
    assert not [f for f in extract_facts(text) if f.key == "birthday"]


# --- gender agreement ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gender"),
    [
        ("Estou cansada hoje.", True),
        ("Sou casada.", True),
        ("Estou grávida!", True),
        ("Obrigada!", True),
        ("Sou a Mariana.", True),
        ("Tô cansado, né.", False),
        ("Sou casado.", False),
        ("Sou o Rui.", False),
        ("Moro em Lisboa.", None),
    ],
)
def test_speaker_gender_from_self_references(text: str, gender: bool | None) -> None:
    assert speaker_gender(text) is gender


def test_one_gender_for_all_of_a_users_sentences() -> None:
    turns = ["Minha irmã mora em Roma.", "Meu chefe se chama Marcelo.", "Sou vegetariana."]
    contents = [f.content for t in turns for f in extract_facts(t, feminine=True)]
    assert all("do usuário" not in c and "O usuário" not in c for c in contents), contents
    assert any("da usuária" in c for c in contents)
    neutral = [f.content for t in turns[:2] for f in extract_facts(t)]
    assert all("usuária" not in c for c in neutral)
