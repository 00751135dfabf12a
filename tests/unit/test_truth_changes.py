"""Changes noticed without a rule per phrasing: an ending cue of the language plus the words of an
earlier fact in the same sentence end that fact; anything less (a cue alone, a fact's words alone,
a question, a hypothetical, a relative's sentence, another trip) ends nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

import pytest

from hipocampo.domain.model import MemoryItem, MemoryKind, MemoryType, Scope
from hipocampo.domain.truth.changes import ended_facts, ended_statements, may_end
from hipocampo.domain.truth.reconcile import FACT_VALUE, NEGATIVE

SCOPE = Scope("acme", "ana")
T0 = datetime(2024, 4, 1, 10, 0, tzinfo=timezone.utc)


def fact(key: str, value: str, memory_type: MemoryType = MemoryType.GOAL, negative: bool = False) -> MemoryItem:
    meta: dict[str, object] = {FACT_VALUE: value, **({NEGATIVE: True} if negative else {})}
    return MemoryItem(
        id=f"fact_{key}", scope=SCOPE, kind=MemoryKind.FACT, content=value, created_at=T0, key=key,
        memory_type=memory_type, metadata=meta,
    )  # fmt: skip


MARATHON = fact("goal:run_a_half_marathon", "run a half marathon in October")
LISBON = fact("home_city", "Lisboa", MemoryType.USER_PROFILE)
PERU = fact("budget:peru_trip", "3000 USD", MemoryType.CONSTRAINT)
MEAT = fact("avoids:meat", "meat", MemoryType.CONSTRAINT, negative=True)
GYM = fact("likes:academia", "academia", MemoryType.PREFERENCE)
PARTNER = fact("person:partner", "Tom", MemoryType.ENTITY)
JOB = fact("employer", "Acme", MemoryType.USER_PROFILE)
ALL = [MARATHON, LISBON, PERU, MEAT, GYM, PARTNER, JOB]


def ended(text: str) -> set[str]:
    return {e.fact.key or "" for e in ended_facts(text, ALL)}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Actually, scratch what I said about the half marathon, I hurt my knee.", MARATHON.key),
        ("Adeus Lisboa! Agora é a aldeia.", LISBON.key),
        ("Forget the trip, it's cancelled.", PERU.key),
        ("I eat meat again, so now I call myself a flexitarian.", MEAT.key),
        ("Já não vou à academia, cansei.", GYM.key),
        ("Tom and I broke up last week.", PARTNER.key),
        ("Pedi demissão ontem, estou aliviada.", JOB.key),
        ("I quit my job on Friday!", JOB.key),
    ],
)
def test_a_cue_and_the_facts_words_end_it(text: str, key: str) -> None:
    assert ended(text) == {key}


@pytest.mark.parametrize(
    "text",
    [
        "I'm still training for the half marathon.",  # the fact's words, no cue
        "Scratch that, I meant the other thing.",  # a cue, no fact named
        "Should I forget the half marathon?",  # a question
        "If the trip is cancelled, I'll stay home.",  # a hypothetical
        "My sister doesn't live in Lisboa anymore.",  # a relative's sentence
        "My sister and her boyfriend broke up.",  # a relative's ending
        "The Chile trip is off, but Peru is on.",  # another trip named
        "I love meat again?",  # a question
    ],
)
def test_anything_less_ends_nothing(text: str) -> None:
    assert ended(text) == set()


def test_what_the_turns_rules_wrote_is_left_to_them() -> None:
    assert ended_facts("Já não moro em Lisboa.", ALL, touched={"home_city"}) == []


def test_a_critical_fact_is_not_ended_by_a_loose_cue() -> None:
    allergy = fact("allergy:peanuts", "peanuts", MemoryType.CRITICAL_INFO)
    assert ended_facts("Peanuts are no longer in my pantry.", [allergy]) == []


EARLIER = [
    ("m3", "My sister loves marathons."),
    ("m2", "I'm training for a half marathon in October, super excited!"),
    ("m1", "Vamos fazer uma viagem ao Peru em maio."),
    ("m0", "Tomo losartana todos os dias."),
]


@pytest.mark.parametrize(
    ("text", "message_id", "words"),
    [
        ("Actually, scratch what I said about the half marathon, I hurt my knee.", "m2", "half marathon"),
        ("Esquece a viagem ao Peru, foi cancelada.", "m1", "viagem Peru"),
        ("Já não uso losartana, o médico trocou.", "m0", "losartana"),
    ],
)
def test_an_earlier_statement_no_fact_carried_is_taken_back(text: str, message_id: str, words: str) -> None:
    (found,) = ended_statements(text, EARLIER)
    assert (found.message_id, found.words) == (message_id, words)


@pytest.mark.parametrize(
    "text",
    [
        "I still love running half marathons.",  # no cue
        "Forget the trip, it is cancelled.",  # one common word says too little
        "Já não tenho tempo agora.",  # nor does "agora"
        "Should I forget the half marathon?",  # a question
    ],
)
def test_a_statement_is_not_taken_back_on_less(text: str) -> None:
    assert ended_statements(text, EARLIER) == []


def test_a_turn_with_no_cue_is_not_read_against_the_memory() -> None:
    assert may_end("Forget the trip, it's cancelled.") and may_end("Já não moro em Lisboa.")
    assert not may_end("I live in Lisbon and love it.")


def test_a_single_valued_slot_is_named_by_its_own_word() -> None:
    budget = fact("budget", "900 USD", MemoryType.CONSTRAINT)
    said = "OK. Forget what I said about the budget, my aunt is giving me her laptop."
    assert [e.fact.key for e in ended_facts(said, [budget])] == ["budget"]
    assert ended_facts("My budget is tight, forget the trip.", [budget]) == []  # the cue's clause names no budget


NATURA = fact("employer", "Natura", MemoryType.USER_PROFILE)
DELOITTE = fact("employer", "Deloitte", MemoryType.USER_PROFILE)


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("mano saí da Natura, agora tô na Stone como tech lead", True),
        ("despedi-me da Natura em março", True),
        ("I left Deloitte last month, now at Ramp", True),
        ("Finally left deloitte lol", True),
        ("Saí da Natura às 19h, trânsito horrível", False),  # the office, for the day
        ("saí da Natura cedo hoje", False),
        ("left Deloitte at 7 today", False),
        ("I left the keys at Deloitte", False),  # the employer is not what was left
        ("a minha irmã saiu da Natura", False),  # someone else's
        ("se eu sair da Natura vou pra Stone", False),  # a hypothetical
        ("should I leave Deloitte?", False),  # a question
        ("saí da academia", False),  # no employer named: nothing else ends either
    ],
)
def test_leaving_the_named_employer_ends_it_and_leaving_for_the_day_does_not(text: str, ends: bool) -> None:
    found = {e.fact.id for e in ended_facts(text, [NATURA, DELOITTE, GYM])}
    assert found == ({NATURA.id} if "atura" in text else {DELOITTE.id}) if ends else not found
    assert may_end(text) or not ends


def test_the_role_said_with_an_employer_ends_with_it_and_a_role_said_apart_stays() -> None:
    """ "I work at Deloitte as an auditor", then "I left Deloitte": the auditor was Deloitte's. A role
    stated in another message ("I'm a nurse") is the person's, whatever their employer."""
    employer = replace(DELOITTE, source_message_ids=["m1"])
    role = replace(fact("occupation", "auditor", MemoryType.USER_PROFILE), source_message_ids=["m1"])
    apart = replace(fact("occupation", "nurse", MemoryType.USER_PROFILE), id="fact_nurse", source_message_ids=["m2"])
    found = {e.fact.id for e in ended_facts("I left Deloitte last month, now at Ramp", [employer, role, apart])}
    assert found == {employer.id, role.id}


@pytest.mark.parametrize(
    ("text", "earlier", "words"),
    [
        ("welp japan is off, flights went crazy expensive", "planning japan for april!! tokyo + kyoto", "japan"),
        ("we had to put miso down this morning", "good idea. miso is 17 tho so she usually wins", "miso"),
        ("jess and i are done. she moved out today", "help me plan a cute anniv dinner for me and jess", "jess"),
        ("dropped the mba, não aguentava mais", "started an online MBA, meu chefe pagou metade", "MBA"),
        ("ngl im quitting the bootcamp. not for me", "started the Brightpath coding bootcamp today", "bootcamp"),
        ("já era. eu e a marta acabámos", "a marta quer ir a paris no nosso aniversário", "marta"),
        ("desisti do alemão, não dá mesmo", "comecei alemão no instituto, as declinações são o demónio", "alemão"),
        ("ok keto is over. eu sonhava com arroz", "tô fazendo keto há 2 semanas.", "keto"),
    ],
)
def test_one_rare_word_next_to_the_cue_names_a_lowercase_statement(text: str, earlier: str, words: str) -> None:
    """Chat lines are lowercase and short: the word a cue ends ("japan is off") is the only name,
    and one earlier turn of the user says it."""
    (found,) = ended_statements(text, [("m2", "what should i cook tonight"), ("m1", earlier)])
    assert (found.message_id, found.words) == ("m1", words)


@pytest.mark.parametrize(
    ("text", "earlier"),
    [
        ("vendi 20 na loja kkk", "trampo numa loja de sapato de dia"),  # the cue's object is a quantity
        ("já não fumo e não volto", "trabalho em aveiro, toda a gente fuma na pausa lol"),  # everyone's habit
        ("dropped my kid off at school", "my kid started school this week"),  # dropping off ends nothing
        ("my phone is dead lol", "got a new phone yesterday"),  # a flat battery
        ("if the trip is off i'll cry", "planning a trip to japan"),  # a hypothetical
        ("the trip is off", "trip to japan in may? maybe. also a trip to rome. trip planning is my thing"),
        ("Thanks! I won't quit, no matter what.", "I won't give up, Gina!"),  # a denied cue
        ("I'll never forget the day my youngest took her first steps", "The day was full of love."),
        ("It was like time stopped and I felt a spark", "The views were stunning and I felt so relaxed."),
        ("Yoga's a great choice, it's done wonders for me", "That sounds wonderful, Evan!"),
        ("class is over, heading home", "started a pottery class on thursdays"),  # one session of it
        ("aula acabou, indo pra casa", "comecei aula de cerâmica às quintas"),
        ("gym is done lol", "i go to the gym 3x a week"),
    ],
)
def test_one_word_names_nothing_when_it_is_not_what_the_cue_ends(text: str, earlier: str) -> None:
    turns = [("m3", "another trip idea: porto"), ("m2", "trip vibes"), ("m1", earlier)]
    assert [s for s in ended_statements(text, turns) if s.message_id == "m1"] == []


@pytest.mark.parametrize(
    ("diet", "text", "ends"),
    [
        ("vegetariana", "então... voltei a comer peixe. minha nutri recomendou", True),
        ("vegetarian", "ok vegan was hard lol, im eating fish again", True),
        ("vegana", "voltei a comer queijo, não aguentei", True),
        ("pescatarian", "eating fish again lol", False),  # a pescatarian eats fish
        ("vegetariano", "voltei a correr de novo", False),  # no food the diet leaves out
        ("vegetariano", "minha irmã voltou a comer carne de novo", False),  # someone else
    ],
)
def test_taking_up_a_food_the_diet_leaves_out_ends_the_diet(diet: str, text: str, ends: bool) -> None:
    """ "voltei a comer peixe" never names the diet; the food it takes up again does."""
    held = fact("diet", diet, MemoryType.CONSTRAINT)
    assert bool(ended_facts(text, [held])) is ends
