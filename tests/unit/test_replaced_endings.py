"""A job that ends ("pedi demissão", "I quit my job", "got laid off") or a relationship that ends
("terminei com o joão", "we broke up") changes a subject without naming a new value: the newest
earlier statement of it becomes earlier. A question, a condition or someone else's news changes nothing."""

from __future__ import annotations

import pytest

from hipocampo.domain.truth.changes import ended_statements
from hipocampo.domain.truth.replaced import replaced_statements

PT = [("m1", "eae! sou a carol, moro em bh e trampo numa agência de publicidade como redatora")]
EN = [("m1", "I work at a bakery in Leeds")]


@pytest.mark.parametrize(
    ("earlier", "text"),
    [
        (PT, "pedi demissão da agência, agora sou freela"),
        (PT, "fui demitida ontem 😭"),
        (PT, "larguei o trampo"),
        (PT, "saí da empresa semana passada"),
        (EN, "I quit my job yesterday"),
        (EN, "got laid off today lol"),
    ],
)
def test_a_job_that_ends_makes_the_earlier_job_earlier(earlier: list[tuple[str, str]], text: str) -> None:
    assert [(r.message_id, r.subject) for r in replaced_statements(text, earlier)] == [("m1", "work")]


@pytest.mark.parametrize(
    ("earlier", "text"),
    [
        (PT, "pedi demissão mas só saio mês que vem?"),
        (PT, "se eu pedir demissão vou ficar sem grana"),
        (EN, "my friend got fired"),
        (EN, "if I quit my job I would travel"),
        (EN, "should I quit my job?"),
    ],
)
def test_questions_conditions_and_other_peoples_jobs_change_nothing(earlier: list[tuple[str, str]], text: str) -> None:
    assert replaced_statements(text, earlier) == []


# --- partners: a break-up, and names in all-lowercase chat --------------------------------------


@pytest.mark.parametrize(
    ("earlier", "text"),
    [
        ([("m1", "tô namorando o joão")], "ah e terminei com o joão, agora tô solteira"),
        ([("m1", "meu namorado, o joão, é dentista")], "a gente terminou semana passada"),
        ([("m1", "Estou namorando o Pedro")], "me separei"),
        ([("m1", "my boyfriend Tom is a chef")], "we broke up last week"),
        ([("m1", "my boyfriend, tom, is a chef")], "Tom and I split up"),
    ],
)
def test_a_break_up_makes_the_earlier_partner_earlier(earlier: list[tuple[str, str]], text: str) -> None:
    assert [(r.message_id, r.subject) for r in replaced_statements(text, earlier)] == [("m1", "partner")]


@pytest.mark.parametrize(
    ("earlier", "text"),
    [
        ([("m1", "tô namorando o joão")], "terminei o relatório hoje"),
        ([("m1", "tô namorando o joão")], "minha amiga terminou com o namorado"),
        ([("m1", "tô namorando o joão")], "meu ex me mandou msg"),
        ([("m1", "my boyfriend Tom is a chef")], "I split the bill with Tom"),
        ([("m1", "my boyfriend Tom is a chef")], "my sister broke up with her bf"),
        ([("m1", "my bf loves pizza")], "we broke up"),  # no name was read: nothing to mark
    ],
)
def test_what_is_no_break_up_of_a_named_partner_changes_nothing(earlier: list[tuple[str, str]], text: str) -> None:
    assert replaced_statements(text, earlier) == []


def test_scratch_the_plan_takes_back_the_statement_that_named_it() -> None:
    earlier = [("m3", "planning a trip to japan in april!! budget is like 4k")]
    (ended,) = ended_statements("scratch the japan trip, cant get time off. maybe next year", earlier)
    assert ended.message_id == "m3"
    assert ended_statements("i had to scratch the paint off", earlier) == []


def test_retiring_ends_the_earlier_job_and_a_place_before_the_frame_is_no_one_else() -> None:
    earlier = [("m1", "olá! sou o Tiago, vivo em Lisboa e trabalho no Millennium como analista")]
    got = replaced_statements("reformei-me este mês e mudámo-nos para uma aldeia perto de Viseu", earlier)
    assert [(r.message_id, r.subject, r.words) for r in got] == [("m1", "work", "millennium"), ("m1", "home", "lisboa")]
    assert [(r.message_id, r.subject) for r in replaced_statements("I finally retired last month!", EN)] == [
        ("m1", "work")
    ]
    assert replaced_statements("my dad retired", EN) == []
    assert replaced_statements("should I retire?", EN) == []


@pytest.mark.parametrize(
    ("earlier", "text", "marked"),
    [
        ([("m1", "vivo em Lisboa")], "mudámo-nos para uma aldeia perto de Viseu", True),
        ([("m1", "vivo em Lisboa")], "a minha irmã mudou-se para uma aldeia", False),
        ([("m1", "vivo em Lisboa")], "mudei para uma casa maior", False),
        ([("m1", "I live in Boston")], "we moved to a small village in Vermont", True),
        ([("m1", "I live in Boston")], "just moved to the suburbs lol", True),
        ([("m1", "I live in Boston")], "we moved to a bigger place", False),
        ([("m1", "I live in Boston")], "my parents moved to the countryside", False),
        ([("m1", "I live in Boston")], "should we move to the countryside?", False),
    ],
)
def test_a_move_to_a_village_or_abroad_ends_the_earlier_home(
    earlier: list[tuple[str, str]], text: str, marked: bool
) -> None:
    assert bool(replaced_statements(text, earlier)) is marked
