"""Shapes of everyday chat the rules read since the earlier blind split showed them missed: a
favourite named first, a job taken "as" something, a first day somewhere, "comecei na X", a job
title followed by an adverb, and a job said right after the user's name ("I'm Raj, an accountant
at Deloitte")."""

from __future__ import annotations

import pytest

from hipocampo.domain.extraction import extract_facts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Thai is my favourite cuisine now, honestly", {("favorite:cuisine", "Thai")}),
        ("I got a job as a nurse at St Mary's", {("occupation", "nurse"), ("employer", "St Mary's")}),
        ("I start at Globex next month", {("employer", "Globex")}),
        ("My first day at Initech was great", {("employer", "Initech")}),
        ("Comecei na Sonae semana passada", {("employer", "Sonae")}),
        ("Agora sou professora de música oficialmente", {("occupation", "professora de música")}),
        (
            "Hello, I'm Raj, an accountant at Deloitte.",
            {("name", "Raj"), ("occupation", "accountant"), ("employer", "Deloitte")},
        ),
        (
            "Sou o João, engenheiro civil na Mota-Engil.",
            {("name", "João"), ("occupation", "engenheiro civil"), ("employer", "Mota-Engil")},
        ),
        ("Sou personal trainer na Smart Fit", {("occupation", "personal trainer"), ("employer", "Smart Fit")}),
        ("Agora dou aulas na Bodytech", {("employer", "Bodytech")}),
    ],
)
def test_read(text: str, expected: set[tuple[str, str]]) -> None:
    assert {(f.key, f.value) for f in extract_facts(text)} == expected


@pytest.mark.parametrize(
    "text", ["It is my favorite song", "I start at 9am tomorrow", "Comecei a correr", "I'm Ana, Lisbon is lovely"]
)
def test_not_read(text: str) -> None:
    assert [f.key for f in extract_facts(text)] in ([], ["name"])
