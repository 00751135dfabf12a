"""A job that ends ("pedi demissão", "I quit my job", "got laid off") changes the work subject
without naming a new value: the newest earlier statement of where the user works becomes earlier.
A question, a condition or someone else's job loss changes nothing."""

from __future__ import annotations

import pytest

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
