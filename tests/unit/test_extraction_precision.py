"""Extraction precision: the defects a new user found, in English, Brazilian and European
Portuguese. Updates and retractions are recognised, filler never becomes a value, dislikes are not
likes, a second relative of the same kind is a new person, codes and birthdays are kept, a user's
Portuguese sentences agree with one gender, and what a turn cannot say alone (a pet retracted by
name, "I moved to Globex", a bare "not anymore") is read with the memory and the question asked."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from hipocampo.domain.extraction import extract_facts, speaker_gender
from hipocampo.domain.model import MemoryItem, MemoryKind, Scope
from hipocampo.domain.truth.reconcile import FACT_VALUE, Action, decide

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
        (
            "Changed my mind: I prefer meetings in the afternoon now.",
            {("prefers:meetings", "meetings in the afternoon", False)},
        ),
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
        (
            "Sou o Duarte, estou a trabalhar na Acme como programador.",
            {("name", "Duarte", False), ("employer", "Acme", False), ("occupation", "programador", False)},
        ),
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
        ("My birthday is the 3rd of May.", "3 May"),  # the ordinal dropped, as written dates are compared
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
        ("Fui contratada pela Globex.", True),
        ("Estou chateado com isso.", False),
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


# --- times, resumed activities, partners ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("Não posso às quartas à noite porque tenho aulas.", "unavailable:wednesday_night", "às quartas à noite"),
        ("Não consigo nas terças à noite.", "unavailable:tuesday_night", "nas terças à noite"),
        ("Só posso às segundas de manhã.", "available:monday_morning", "às segundas de manhã"),
        ("Estou livre aos sábados à tarde.", "available:saturday_afternoon", "aos sábados à tarde"),
        ("I can't do Wednesday evenings.", "unavailable:wednesday_evening", "Wednesday evenings"),
    ],
)
def test_a_day_and_its_part_of_the_day_are_one_time(text: str, key: str, value: str) -> None:
    assert facts(text) == {(key, value, False)}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Quero voltar a nadar.", "goal:voltar_a_nadar"),
        ("Gostaria de voltar a tocar piano.", "goal:voltar_a_tocar_piano"),
        ("Quero continuar a estudar francês.", "goal:continuar_a_estudar_frances"),
        ("I want to go back to running.", "goal:go_back_to_running"),
        ("I'd like to continue learning Spanish.", "goal:continue_learning_spanish"),
    ],
)
def test_an_activity_taken_up_again_is_a_goal(text: str, key: str) -> None:
    assert [f.key for f in extract_facts(text)] == [key]


@pytest.mark.parametrize(
    "text", ["Quero voltar ao assunto anterior.", "I want to go back to the previous topic.", "Quero continuar."]
)
def test_going_back_in_the_conversation_is_no_goal(text: str) -> None:
    assert extract_facts(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Namoro com o Pedro.", {("person:partner", "Pedro", False)}),
        ("Estou a namorar com o Rui há dois anos.", {("person:partner", "Rui", False)}),
        ("Tô namorando a Bia.", {("person:partner", "Bia", False)}),
        ("I'm dating Tom.", {("person:partner", "Tom", False)}),
        ("I've been dating Sam since May.", {("person:partner", "Sam", False)}),
        ("Já não namoro com o Pedro.", {("person:partner", "Pedro", True)}),
        ("I'm not dating Tom anymore.", {("person:partner", "Tom", True)}),
        ("I'm dating someone new.", set()),
        ("I'm dating Tom's sister.", set()),
    ],
)
def test_dating_names_the_partner(text: str, expected: set[Triple]) -> None:
    assert facts(text) == expected


# --- preferences taken back with no new value ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("I changed my mind about sushi.", {"likes:sushi", "dislikes:sushi", "prefers:sushi"}),
        ("Mudei de ideia sobre o sushi.", {"likes:sushi", "dislikes:sushi", "prefers:sushi"}),
        (
            "Mudei de ideia quanto às reuniões de manhã.",
            {"likes:reunioes_de_manha", "dislikes:reunioes_de_manha", "prefers:reunioes"},
        ),
        (
            "Changed my mind about morning meetings.",
            {"likes:morning_meetings", "dislikes:morning_meetings", "prefers:morning_meetings", "prefers:meetings"},
        ),
    ],
)
def test_a_changed_mind_retracts_the_whole_preference(text: str, keys: set[str]) -> None:
    found = extract_facts(text)
    assert {f.key for f in found} == keys
    assert all(f.negated and f.value == "" for f in found)


@pytest.mark.parametrize(
    "text", ["I changed my mind about sushi, I love it now.", "I changed my mind about that.", "Mudei de ideia."]
)
def test_a_changed_mind_with_a_new_stance_or_no_topic_retracts_nothing(text: str) -> None:
    assert not [f for f in extract_facts(text) if f.negated]


def test_a_preference_retracted_as_a_whole_closes_any_stance_and_stores_nothing() -> None:
    like, meetings = stored("likes:sushi", "sushi"), stored("prefers:reunioes", "reuniões de manhã")
    assert decide("likes:sushi", "", True, [like]).action is Action.DELETE
    assert decide("prefers:reunioes", "", True, [meetings]).action is Action.DELETE
    assert decide("likes:sushi", "", True, [], keeps_negative=True).action is Action.NONE


# --- pets retracted by name, moves to an employer (with the user's memory) ------------------------


@pytest.mark.parametrize(
    ("text", "known", "expected"),
    [
        ("Já não tenho a Mimi, ficou com a minha mãe.", [("pet:cat", "Mimi")], {("pet:cat", "Mimi", True)}),
        ("I don't have Miso anymore.", [("pet:cat", "Miso")], {("pet:cat", "Miso", True)}),
        ("Não tenho mais o Rex.", [("pet:dog", "Rex e Bolt")], {("pet:dog", "Rex", True)}),
        ("I don't have Fido anymore.", [("pet:cat", "Miso")], set()),  # no stored pet has that name
        ("Já não tenho a Mimi.", [], set()),
        ("My sister doesn't have Miso anymore.", [("pet:cat", "Miso")], set()),
        ("Não tenho mais o gato, ele fugiu.", [], {("pet:cat", "gato", True)}),
        ("I don't have the dog anymore.", [], {("pet:dog", "dog", True)}),
        ("Não tenho mais carro.", [], set()),
    ],
)
def test_a_pet_retracted_by_name_or_by_species(text: str, known: list[tuple[str, str]], expected: set[Triple]) -> None:
    assert {(f.key, f.value, f.negated) for f in extract_facts(text, known=known)} == expected


ACME = [("employer", "Acme")]
ACME_CHICAGO = [("employer", "Acme"), ("home_city", "Chicago")]


@pytest.mark.parametrize(
    ("text", "known", "expected"),
    [
        # a new job: the memory's employer, a work word, a job title, the Portuguese article
        ("I moved to Globex.", ACME, {("employer", "Globex", False)}),
        ("I left Acme for Globex.", ACME_CHICAGO, {("employer", "Globex", False)}),
        ("I moved to Globex, better salary and a great team.", [], {("employer", "Globex", False)}),
        ("I moved to Globex as a data analyst.", [], {("employer", "Globex", False)}),
        ("I joined Globex.", [], {("employer", "Globex", False)}),
        ("Mudei para a Globex.", [], {("employer", "Globex", False)}),
        ("Mudei de emprego para a Globex.", ACME_CHICAGO, {("employer", "Globex", False)}),
        ("Troquei a Acme pela Globex.", [], {("employer", "Globex", False)}),
        ("Entrei na Globex.", [], {("employer", "Globex", False)}),
        ("Fui contratada pela Globex.", [], {("employer", "Globex", False)}),
        # a new home: a known place, no article in Portuguese, the memory's home
        ("I moved to Denver.", ACME, {("home_city", "Denver", False)}),
        ("I left Boston for Denver.", ACME, {("home_city", "Denver", False)}),
        ("Mudei para Sorocaba.", ACME, {("home_city", "Sorocaba", False)}),
        ("Mudei-me para o Porto.", ACME, {("home_city", "Porto", False)}),
        ("I moved to Springfield.", [("home_city", "Chicago")], {("home_city", "Springfield", False)}),
        # unsure: no fact
        ("I moved to Globex.", [], set()),
        ("I moved to Globex.", ACME_CHICAGO, set()),
        ("I left Acme for Globex.", [("home_city", "Chicago")], set()),  # left what the memory does not know
        ("Mudei para o Itaú.", [], set()),
        ("I joined Tom for lunch.", [], set()),
        ("My brother moved to Globex.", ACME, set()),
    ],
)
def test_a_move_is_a_new_job_or_a_new_home_only_on_evidence(
    text: str, known: list[tuple[str, str]], expected: set[Triple]
) -> None:
    assert {(f.key, f.value, f.negated) for f in extract_facts(text, known=known)} == expected


def test_leaving_one_employer_for_another_names_the_old_one() -> None:
    (fact,) = extract_facts("I left Acme for Globex.", known=ACME)
    assert (fact.key, fact.value, fact.previous_value) == ("employer", "Globex", "Acme")
    (fact,) = extract_facts("Mudei para a Globex.")
    assert fact.content == "O usuário trabalha na Globex."


# --- a bare "not anymore" answers the assistant's question ----------------------------------------


@pytest.mark.parametrize(
    ("asked", "answer", "known", "expected"),
    [
        ("Got it! Do you still live in Porto?", "Not anymore.", [], {("home_city", "Porto", True)}),
        ("Are you still vegetarian?", "not really anymore", [], {("diet", "vegetarian", True)}),
        ("Do you still have Miso?", "Nope, not anymore :(", [("pet:cat", "Miso")], {("pet:cat", "Miso", True)}),
        ("Do you still live in Porto?", "No.", [], {("home_city", "Porto", True)}),
        ("Você ainda mora em Lisboa?", "Já não.", [], {("home_city", "Lisboa", True)}),
        ("Você ainda é vegetariana?", "Não mais.", [], {("diet", "vegetariano", True)}),
        ("Ainda tens a Mimi?", "Já não, infelizmente.", [("pet:cat", "Mimi")], {("pet:cat", "Mimi", True)}),
        ("Continuas a trabalhar na Acme?", "Não, já não.", [], {("employer", "Acme", True)}),
        ("A tua irmã ainda mora em Roma?", "Já não.", [], {("person:sister:home_city", "Roma", True)}),
        # a plain "no" without "still", a negative question, a question that is no fact: nothing
        ("Do you live in Porto?", "No.", [], set()),
        ("You don't live in Porto anymore?", "Not anymore.", [], set()),
        ("Do you still want me to remind you?", "Not anymore.", [], set()),
        ("How was the weekend?", "Not anymore.", [], set()),
    ],
)
def test_a_bare_not_anymore_retracts_what_was_asked(
    asked: str, answer: str, known: list[tuple[str, str]], expected: set[Triple]
) -> None:
    found = extract_facts(answer, asked=asked, known=known)
    assert {(f.key, f.value, f.negated) for f in found} == expected
    assert all(f.span[0] == 0 and f.span[1] <= len(answer) for f in found)


def test_not_anymore_without_a_question_says_nothing() -> None:
    assert extract_facts("Not anymore.") == [] and extract_facts("Já não.") == []


def test_not_anymore_then_the_new_value_is_one_update() -> None:
    (fact,) = extract_facts("Nope, not anymore. I moved to Lisbon.", asked="Do you still live in Porto?")
    assert (fact.key, fact.value, fact.previous_value, fact.negated) == ("home_city", "Lisbon", "Porto", False)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("update: my new goal is a 2k open water swim in august", "goal:2k_open_water_swim", "2k open water swim"),
        ("minha meta é perder 10kg até o verão", "goal:perder_10kg", "perder 10kg"),
        ("uns 1500 por mês. sou motorista de app aqui em fortaleza", "occupation", "motorista de app"),
    ],
)
def test_a_value_ends_where_its_phrase_does(text: str, key: str, value: str) -> None:
    """When a plan is for ("in august", "até o verão") and where the speaker is ("aqui") are no part
    of the value; a plan named as a thing is as bare as a job."""
    assert (key, value, False) in facts(text)
