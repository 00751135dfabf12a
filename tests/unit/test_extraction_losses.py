"""A loss said without the old value (a job, a partner, a pet, a course) retracts what the memory holds,
and only that; hypotheticals, doubts and wishes write no fact of the user's."""

from __future__ import annotations

import pytest

from hipocampo.domain.extraction import extract_facts, unsure

KNOWN = [("employer", "Acme"), ("person:partner", "Tom"), ("pet:cat", "Mochi"), ("pet:dog", "Thor")]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I quit my job last week", "employer", "Acme"),
        ("I got fired", "employer", "Acme"),
        ("larguei o emprego", "employer", "Acme"),
        ("fui demitida", "employer", "Acme"),
        ("I broke up with Tom", "person:partner", "Tom"),
        ("Tom and I broke up", "person:partner", "Tom"),
        ("terminei com o meu namorado", "person:partner", "Tom"),
        ("my cat died", "pet:cat", "cat"),
        ("o Thor morreu semana passada", "pet:dog", "Thor"),
        ("I gave up on German", "learning:german", "German"),
        ("desisti do alemão", "learning:alemao", "alemão"),
    ],
)
def test_a_loss_retracts_the_stored_value(text: str, key: str, value: str) -> None:
    facts = extract_facts(text, known=KNOWN)
    assert [(f.key, f.value, f.negated) for f in facts] == [(key, value, True)]


@pytest.mark.parametrize(
    "text",
    [
        "I quit my job",  # nothing stored: nothing to retract, no empty fact
        "a Luna faleceu",  # no pet of that name
        "My grandma died last year",
        "the project died",
        "saí do trabalho na Stone",  # not the stored job, and a place of work is no loss of one
    ],
)
def test_a_loss_with_nothing_to_end_writes_nothing(text: str) -> None:
    assert extract_facts(text, known=[]) == []


def test_two_partners_stored_and_none_named_is_left_open() -> None:
    known = [("person:partner", "Tom"), ("person:partner", "Pedro")]
    assert extract_facts("we broke up", known=known) == []
    assert [f.value for f in extract_facts("o Pedro e eu terminamos", known=known)] == ["Pedro"]


@pytest.mark.parametrize(
    "text",
    [
        "I'm moving to Stockholm if the offer comes through",
        "caso eu consiga a vaga na Ambev, eu me mudo pra São Paulo",
        "I may be allergic to cats",
        "I'm thinking about moving to Porto",
        "será que eu sou intolerante a lactose?",
        "I wish I lived in Lisbon",
        "I think I'm allergic to penicillin",
        "acho que vou me mudar pro Rio",
        "I work at a bank",
        "I'm allergic to waking up early lol",
    ],
)
def test_what_is_not_sure_is_no_fact(text: str) -> None:
    assert extract_facts(text) == []


def test_a_wish_may_be_a_goal_but_no_other_fact() -> None:
    assert [f.key for f in extract_facts("I'd love to live in Rome someday")] == ["goal:live_in_rome_someday"]
    assert extract_facts("I'm vegetarian, so food might be tricky")[0].key == "diet"


@pytest.mark.parametrize(
    "text",
    ["the budget went up to 2000 euros", "we bumped the budget to 2000 euros", "o orçamento subiu para 2000 euros"],
)
def test_a_new_budget_without_purpose_replaces_the_one_held(text: str) -> None:
    facts = extract_facts(text, known=[("budget:trip", "1500 EUR")])
    assert [(f.key, f.value) for f in facts] == [("budget:trip", "2000 EUR")]
    assert [f.key for f in extract_facts(text, known=[("budget:trip", "1"), ("budget:rent", "2")])] == ["budget"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'd love to work at Google one day tbh", True),
        ("if the offer comes through I'm moving to Stockholm", True),
        ("será que eu sou intolerante a lactose?", True),
        ("acho que vou me mudar pro Rio", True),
        ("I started at Google last week", False),
        ("I'm vegetarian, so food might be tricky", False),
        ("Sou vegana, tá?", False),
    ],
)
def test_unsure_says_what_the_rules_make_no_fact_of(text: str, expected: bool) -> None:
    assert unsure(text) is expected


def test_a_list_is_split_between_things_not_inside_one() -> None:
    assert extract_facts("I love creating a safe and inviting place for people to grow") == []
    names = [f.value for f in extract_facts("tenho 2 filhos, o Pedro e a Lara, e eles acharam hilário")]
    assert "Pedro" in names and "Lara" in names
