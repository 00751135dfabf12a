"""domain.dates: resolving relative and absolute dates in English and Portuguese against a reference."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from hipocampo.domain.dates import DateMention, describe, recency_tier, resolve_dates, temporal_buckets

REF = datetime(2023, 5, 25, 15, 30)  # a Thursday; its ISO week runs from Monday 22 to Sunday 28 May
D = date.fromisoformat


def only(text: str, reference: datetime | date = REF) -> DateMention:
    found = resolve_dates(text, reference)
    assert len(found) == 1, f"{text!r} -> {found}"
    return found[0]


def check(text: str, written: str, start: str, end: str | None, granularity: str, ref: datetime | date = REF) -> None:
    m = only(text, ref)
    assert (m.text, m.start, m.end, m.granularity) == (written, D(start), D(end or start), granularity)
    assert text[m.span[0] : m.span[1]] == m.text


ENGLISH = [
    # today, yesterday, tomorrow
    ("I went there today", "today", "2023-05-25", None, "day"),
    ("Tonight we eat out", "Tonight", "2023-05-25", None, "day"),
    ("this morning I ran", "this morning", "2023-05-25", None, "day"),
    ("see you this evening", "this evening", "2023-05-25", None, "day"),
    ("she called earlier today", "earlier today", "2023-05-25", None, "day"),
    ("Yesterday was fun", "Yesterday", "2023-05-24", None, "day"),
    ("what about last night?", "last night", "2023-05-24", None, "day"),
    ("the day before yesterday", "the day before yesterday", "2023-05-23", None, "day"),
    ("see you tomorrow", "tomorrow", "2023-05-26", None, "day"),
    ("the day after tomorrow", "the day after tomorrow", "2023-05-27", None, "day"),
    # weekdays
    ("last Saturday", "last Saturday", "2023-05-20", None, "day"),
    ("last Thursday", "last Thursday", "2023-05-18", None, "day"),
    ("this past Sunday", "this past Sunday", "2023-05-21", None, "day"),
    ("next Saturday", "next Saturday", "2023-05-27", None, "day"),
    ("next Thursday", "next Thursday", "2023-06-01", None, "day"),
    ("this coming Monday", "this coming Monday", "2023-05-29", None, "day"),
    ("this Monday", "this Monday", "2023-05-22", None, "day"),
    ("this Sunday", "this Sunday", "2023-05-28", None, "day"),
    ("the Saturday before last", "Saturday before last", "2023-05-13", None, "day"),
    ("We went hiking on Saturday", "Saturday", "2023-05-20", None, "day"),
    ("What did you do on Sunday?", "Sunday", "2023-05-21", None, "day"),
    ("on Thursday", "Thursday", "2023-05-25", None, "day"),
    ("I'll call you on Saturday", "Saturday", "2023-05-27", None, "day"),
    ("We will meet on Thursday", "Thursday", "2023-05-25", None, "day"),
    # counted back and ahead
    ("3 days ago", "3 days ago", "2023-05-22", None, "day"),
    ("three days ago", "three days ago", "2023-05-22", None, "day"),
    ("a day ago", "a day ago", "2023-05-24", None, "day"),
    ("a couple of days ago", "a couple of days ago", "2023-05-23", None, "day"),
    ("a couple days ago", "a couple days ago", "2023-05-23", None, "day"),
    ("a few days ago", "a few days ago", "2023-05-22", None, "day"),
    ("about ten days ago", "about ten days ago", "2023-05-15", None, "day"),
    ("a week ago", "a week ago", "2023-05-15", "2023-05-21", "week"),
    ("two weeks ago", "two weeks ago", "2023-05-08", "2023-05-14", "week"),
    ("a few weeks ago", "a few weeks ago", "2023-05-01", "2023-05-07", "week"),
    ("a month ago", "a month ago", "2023-04-01", "2023-04-30", "month"),
    ("about five months ago", "about five months ago", "2022-12-01", "2022-12-31", "month"),
    ("twelve years ago", "twelve years ago", "2011-01-01", "2011-12-31", "year"),
    ("2 years back", "2 years back", "2021-01-01", "2021-12-31", "year"),
    ("in 2 days", "in 2 days", "2023-05-27", None, "day"),
    ("in a week", "in a week", "2023-05-29", "2023-06-04", "week"),
    ("in three months", "in three months", "2023-08-01", "2023-08-31", "month"),
    ("in a year", "in a year", "2024-01-01", "2024-12-31", "year"),
    ("two weeks from now", "two weeks from now", "2023-06-05", "2023-06-11", "week"),
    # named weeks, months, years, weekends
    ("last week", "last week", "2023-05-15", "2023-05-21", "week"),
    ("this week", "this week", "2023-05-22", "2023-05-28", "week"),
    ("next week", "next week", "2023-05-29", "2023-06-04", "week"),
    ("the week before last", "the week before last", "2023-05-08", "2023-05-14", "week"),
    ("the week after next", "the week after next", "2023-06-05", "2023-06-11", "week"),
    ("last month", "last month", "2023-04-01", "2023-04-30", "month"),
    ("this month", "this month", "2023-05-01", "2023-05-31", "month"),
    ("next month", "next month", "2023-06-01", "2023-06-30", "month"),
    ("the month before last", "the month before last", "2023-03-01", "2023-03-31", "month"),
    ("last year", "last year", "2022-01-01", "2022-12-31", "year"),
    ("this year", "this year", "2023-01-01", "2023-12-31", "year"),
    ("next year", "next year", "2024-01-01", "2024-12-31", "year"),
    ("earlier this week", "earlier this week", "2023-05-22", "2023-05-24", "week"),
    ("later this week", "later this week", "2023-05-26", "2023-05-28", "week"),
    ("earlier this month", "earlier this month", "2023-05-01", "2023-05-24", "month"),
    ("last weekend", "last weekend", "2023-05-20", "2023-05-21", "week"),
    ("this past weekend", "this past weekend", "2023-05-20", "2023-05-21", "week"),
    ("this weekend", "this weekend", "2023-05-27", "2023-05-28", "week"),
    ("next weekend", "next weekend", "2023-06-03", "2023-06-04", "week"),
    ("What did you do over the weekend?", "the weekend", "2023-05-20", "2023-05-21", "week"),
    ("We'll go camping at the weekend", "the weekend", "2023-05-27", "2023-05-28", "week"),
    # explicit days
    ("May 20", "May 20", "2023-05-20", None, "day"),
    ("on May 20th, 2023", "May 20th, 2023", "2023-05-20", None, "day"),
    ("May 20 2021", "May 20 2021", "2021-05-20", None, "day"),
    ("on 20 May", "20 May", "2023-05-20", None, "day"),
    ("the 20th of May", "20th of May", "2023-05-20", None, "day"),
    ("20th May 2022", "20th May 2022", "2022-05-20", None, "day"),
    ("Dec 3, 2022", "Dec 3, 2022", "2022-12-03", None, "day"),
    ("Sept. 9", "Sept. 9", "2023-09-09", None, "day"),
    ("march 20", "march 20", "2023-03-20", None, "day"),
    ("Friday, June 2, 2023", "Friday, June 2, 2023", "2023-06-02", None, "day"),
    ("Saturday 20 May", "Saturday 20 May", "2023-05-20", None, "day"),
    ("We met on December 25", "December 25", "2022-12-25", None, "day"),
    ("I'll be back on January 3", "January 3", "2024-01-03", None, "day"),
    ("on the 20th", "the 20th", "2023-05-20", None, "day"),
    ("We met on the 28th", "the 28th", "2023-04-28", None, "day"),
    # months and years
    ("in May", "May", "2023-05-01", "2023-05-31", "month"),
    ("in June", "June", "2022-06-01", "2022-06-30", "month"),
    ("I will travel in June", "June", "2023-06-01", "2023-06-30", "month"),
    ("in early March", "March", "2023-03-01", "2023-03-31", "month"),
    ("it happened mid-August", "August", "2022-08-01", "2022-08-31", "month"),
    ("last May", "last May", "2022-05-01", "2022-05-31", "month"),
    ("next May", "next May", "2024-05-01", "2024-05-31", "month"),
    ("this May", "this May", "2023-05-01", "2023-05-31", "month"),
    ("last June", "last June", "2022-06-01", "2022-06-30", "month"),
    ("next April", "next April", "2024-04-01", "2024-04-30", "month"),
    ("in March 2021", "March 2021", "2021-03-01", "2021-03-31", "month"),
    ("in 2022", "2022", "2022-01-01", "2022-12-31", "year"),
    ("back in 2019", "2019", "2019-01-01", "2019-12-31", "year"),
]

PORTUGUESE = [
    ("hoje", "hoje", "2023-05-25", None, "day"),
    ("Hoje à noite vou sair", "Hoje à noite", "2023-05-25", None, "day"),
    ("hoje de manhã", "hoje de manhã", "2023-05-25", None, "day"),
    ("esta noite", "esta noite", "2023-05-25", None, "day"),
    ("ontem", "ontem", "2023-05-24", None, "day"),
    ("ontem à noite", "ontem à noite", "2023-05-24", None, "day"),
    ("anteontem", "anteontem", "2023-05-23", None, "day"),
    ("antes de ontem", "antes de ontem", "2023-05-23", None, "day"),
    ("amanhã", "amanhã", "2023-05-26", None, "day"),
    ("amanhã de manhã", "amanhã de manhã", "2023-05-26", None, "day"),
    ("depois de amanhã", "depois de amanhã", "2023-05-27", None, "day"),
    # dias da semana
    ("no sábado passado", "sábado passado", "2023-05-20", None, "day"),
    ("último sábado", "último sábado", "2023-05-20", None, "day"),
    ("sábado retrasado", "sábado retrasado", "2023-05-13", None, "day"),
    ("próximo sábado", "próximo sábado", "2023-05-27", None, "day"),
    ("sábado que vem", "sábado que vem", "2023-05-27", None, "day"),
    ("neste sábado", "neste sábado", "2023-05-27", None, "day"),
    ("nesta segunda", "nesta segunda", "2023-05-22", None, "day"),
    ("na segunda-feira", "segunda-feira", "2023-05-22", None, "day"),
    ("segunda feira", "segunda feira", "2023-05-22", None, "day"),
    ("na segunda", "segunda", "2023-05-22", None, "day"),
    ("na quinta-feira passada", "quinta-feira passada", "2023-05-18", None, "day"),
    ("terça passada", "terça passada", "2023-05-23", None, "day"),
    ("na próxima terça", "próxima terça", "2023-05-30", None, "day"),
    ("quarta que vem", "quarta que vem", "2023-05-31", None, "day"),
    ("domingo", "domingo", "2023-05-21", None, "day"),
    ("Vou à praia no domingo", "domingo", "2023-05-28", None, "day"),
    ("na sexta à noite", "sexta", "2023-05-19", None, "day"),
    # há / faz / atrás / daqui a
    ("há 3 dias", "há 3 dias", "2023-05-22", None, "day"),
    ("há três dias", "há três dias", "2023-05-22", None, "day"),
    ("ha tres dias", "ha tres dias", "2023-05-22", None, "day"),
    ("faz três dias", "faz três dias", "2023-05-22", None, "day"),
    ("3 dias atrás", "3 dias atrás", "2023-05-22", None, "day"),
    ("há 3 dias atrás", "há 3 dias atrás", "2023-05-22", None, "day"),
    ("há uma semana", "há uma semana", "2023-05-15", "2023-05-21", "week"),
    ("há duas semanas", "há duas semanas", "2023-05-08", "2023-05-14", "week"),
    ("uma semana atrás", "uma semana atrás", "2023-05-15", "2023-05-21", "week"),
    ("há 2 meses", "há 2 meses", "2023-03-01", "2023-03-31", "month"),
    ("há um mês", "há um mês", "2023-04-01", "2023-04-30", "month"),
    ("há um ano", "há um ano", "2022-01-01", "2022-12-31", "year"),
    ("há uns dias", "há uns dias", "2023-05-22", None, "day"),
    ("há umas duas semanas", "há umas duas semanas", "2023-05-08", "2023-05-14", "week"),
    ("daqui a 2 dias", "daqui a 2 dias", "2023-05-27", None, "day"),
    ("daqui a uma semana", "daqui a uma semana", "2023-05-29", "2023-06-04", "week"),
    ("dentro de três meses", "dentro de três meses", "2023-08-01", "2023-08-31", "month"),
    ("em duas semanas", "em duas semanas", "2023-06-05", "2023-06-11", "week"),
    # semanas, meses, anos, fins de semana
    ("semana passada", "semana passada", "2023-05-15", "2023-05-21", "week"),
    ("na semana que vem", "semana que vem", "2023-05-29", "2023-06-04", "week"),
    ("próxima semana", "próxima semana", "2023-05-29", "2023-06-04", "week"),
    ("esta semana", "esta semana", "2023-05-22", "2023-05-28", "week"),
    ("semana retrasada", "semana retrasada", "2023-05-08", "2023-05-14", "week"),
    ("mês passado", "mês passado", "2023-04-01", "2023-04-30", "month"),
    ("mês que vem", "mês que vem", "2023-06-01", "2023-06-30", "month"),
    ("próximo mês", "próximo mês", "2023-06-01", "2023-06-30", "month"),
    ("este mês", "este mês", "2023-05-01", "2023-05-31", "month"),
    ("ano passado", "ano passado", "2022-01-01", "2022-12-31", "year"),
    ("ano que vem", "ano que vem", "2024-01-01", "2024-12-31", "year"),
    ("este ano", "este ano", "2023-01-01", "2023-12-31", "year"),
    ("fim de semana passado", "fim de semana passado", "2023-05-20", "2023-05-21", "week"),
    ("final de semana passado", "final de semana passado", "2023-05-20", "2023-05-21", "week"),
    ("o que fez no fim de semana?", "fim de semana", "2023-05-20", "2023-05-21", "week"),
    ("próximo fim de semana", "próximo fim de semana", "2023-06-03", "2023-06-04", "week"),
    ("este fim de semana", "este fim de semana", "2023-05-27", "2023-05-28", "week"),
    # meses, datas, anos
    ("em maio", "maio", "2023-05-01", "2023-05-31", "month"),
    ("em junho", "junho", "2022-06-01", "2022-06-30", "month"),
    ("vou viajar em junho", "junho", "2023-06-01", "2023-06-30", "month"),
    ("maio passado", "maio passado", "2022-05-01", "2022-05-31", "month"),
    ("em março de 2021", "março de 2021", "2021-03-01", "2021-03-31", "month"),
    ("maio do ano passado", "maio do ano passado", "2022-05-01", "2022-05-31", "month"),
    ("20 de maio", "20 de maio", "2023-05-20", None, "day"),
    ("20 de maio de 2023", "20 de maio de 2023", "2023-05-20", None, "day"),
    ("no dia 20 de maio de 2022", "dia 20 de maio de 2022", "2022-05-20", None, "day"),
    ("1º de maio", "1º de maio", "2023-05-01", None, "day"),
    ("sexta-feira, 2 de junho de 2023", "sexta-feira, 2 de junho de 2023", "2023-06-02", None, "day"),
    ("3 de dez de 2022", "3 de dez de 2022", "2022-12-03", None, "day"),
    ("dia 20", "dia 20", "2023-05-20", None, "day"),
    ("dia 28", "dia 28", "2023-05-28", None, "day"),
    ("fui lá no dia 28", "dia 28", "2023-04-28", None, "day"),
    ("em 2022", "2022", "2022-01-01", "2022-12-31", "year"),
    ("no ano de 2019", "2019", "2019-01-01", "2019-12-31", "year"),
]

NUMERIC = [
    ("05/20/2023", "05/20/2023", "2023-05-20", None, "day"),
    ("20/05/2023", "20/05/2023", "2023-05-20", None, "day"),
    ("03/04/2023", "03/04/2023", "2023-04-03", None, "day"),  # ambiguous: day first
    ("on 2023-05-20.", "2023-05-20", "2023-05-20", None, "day"),
    ("at 2023-05-20T10:00:00", "2023-05-20", "2023-05-20", None, "day"),
    ("20.05.2023", "20.05.2023", "2023-05-20", None, "day"),
    ("20-05-23", "20-05-23", "2023-05-20", None, "day"),
    ("31/12/99", "31/12/99", "1999-12-31", None, "day"),
]


@pytest.mark.parametrize(("text", "written", "start", "end", "granularity"), ENGLISH)
def test_english(text: str, written: str, start: str, end: str | None, granularity: str) -> None:
    check(text, written, start, end, granularity)


@pytest.mark.parametrize(("text", "written", "start", "end", "granularity"), PORTUGUESE)
def test_portuguese(text: str, written: str, start: str, end: str | None, granularity: str) -> None:
    check(text, written, start, end, granularity)


@pytest.mark.parametrize(("text", "written", "start", "end", "granularity"), NUMERIC)
def test_numeric(text: str, written: str, start: str, end: str | None, granularity: str) -> None:
    check(text, written, start, end, granularity)


@pytest.mark.parametrize(
    ("text", "ref", "start", "end"),
    [
        ("last month", "2023-01-15", "2022-12-01", "2022-12-31"),
        ("mês passado", "2023-01-15", "2022-12-01", "2022-12-31"),
        ("há 2 meses", "2023-03-31", "2023-01-01", "2023-01-31"),
        ("a month ago", "2023-03-31", "2023-02-01", "2023-02-28"),
        ("há um mês", "2024-03-30", "2024-02-01", "2024-02-29"),
        ("há 13 meses", "2023-01-15", "2021-12-01", "2021-12-31"),
        ("yesterday", "2024-03-01", "2024-02-29", "2024-02-29"),
        ("ontem", "2023-03-01", "2023-02-28", "2023-02-28"),
        ("tomorrow", "2023-12-31", "2024-01-01", "2024-01-01"),
        ("amanhã", "2024-02-28", "2024-02-29", "2024-02-29"),
        ("next month", "2023-12-10", "2024-01-01", "2024-01-31"),
        ("last year", "2024-01-01", "2023-01-01", "2023-12-31"),
        ("next week", "2020-12-30", "2021-01-04", "2021-01-10"),
        ("last week", "2021-01-03", "2020-12-21", "2020-12-27"),
        ("this week", "2021-01-01", "2020-12-28", "2021-01-03"),
        ("two weeks ago", "2021-01-06", "2020-12-21", "2020-12-27"),
        ("in a week", "2020-12-28", "2021-01-04", "2021-01-10"),
        ("last Saturday", "2023-05-20", "2023-05-13", "2023-05-13"),  # on a Saturday: the one before
        ("last Sunday", "2023-01-02", "2023-01-01", "2023-01-01"),
        ("last Friday", "2023-01-02", "2022-12-30", "2022-12-30"),
        ("next Monday", "2023-12-31", "2024-01-01", "2024-01-01"),
        ("last weekend", "2023-05-21", "2023-05-13", "2023-05-14"),  # on a Sunday
        ("the weekend", "2023-05-21", "2023-05-20", "2023-05-21"),
        ("February 29", "2023-05-25", "2020-02-29", "2020-02-29"),  # back to the last leap year
        ("29 de fevereiro", "2024-05-25", "2024-02-29", "2024-02-29"),
        ("dia 31", "2023-06-10", "2023-05-31", "2023-05-31"),  # June has no 31st
        ("fui no dia 30", "2023-03-05", "2023-01-30", "2023-01-30"),  # nor February a 30th
        ("vou no dia 31", "2023-04-20", "2023-05-31", "2023-05-31"),
        ("in December", "2023-01-10", "2022-12-01", "2022-12-31"),
        ("next December", "2023-12-05", "2024-12-01", "2024-12-31"),
        ("last January", "2023-01-20", "2022-01-01", "2022-01-31"),
        ("We partied on Dec 31", "2023-01-02", "2022-12-31", "2022-12-31"),
        ("I'll start on January 2", "2023-12-30", "2024-01-02", "2024-01-02"),
    ],
)
def test_boundaries(text: str, ref: str, start: str, end: str) -> None:
    m = only(text, D(ref))
    assert (m.start, m.end) == (D(start), D(end))


@pytest.mark.parametrize(
    "text",
    [
        "I may go to the party",
        "This may be wrong",
        "the last may be first",
        "the 3 may be broken",
        "They march on the capital",
        "We will march together",
        "We will march 20 miles",
        "Marching bands and the mayor",
        "I sat on the sun lounger",
        "the wedding was lovely",
        "We meet on Saturdays",
        "Every Saturday I run",
        "I stayed for a week",
        "It took a week",
        "once a week",
        "She is 30 years old",
        "I finished the book in two days",
        "on the 20th floor",
        "scored 20 out of 30",
        "version 3.10.12",
        "page 1/2",
        "Foi a segunda vez que fui lá",
        "Na segunda vez deu certo",
        "Ela está na quinta série",
        "Passei o verão na quinta do meu avô",
        "Hoje em dia ninguém liga",
        "De manhã eu corro",
        "Todo sábado eu corro",
        "Toda segunda-feira tem reunião",
        "Todo fim de semana vamos ao sítio",
        "Terminei o livro em duas semanas",
        "Fiquei uma semana lá",
    ],
)
def test_no_false_positives(text: str) -> None:
    assert resolve_dates(text, REF) == []


@pytest.mark.parametrize(
    "text",
    ["29/02/2023", "2023-02-30", "31 de abril", "February 30", "13/13/2023", "dia 32", "0000-01-01"],
)
def test_impossible_dates_are_dropped(text: str) -> None:
    assert resolve_dates(text, REF) == []


class TestSeveralMentions:
    def test_english_sentence(self) -> None:
        text = "Yesterday I called Ana, and next Friday we'll meet; two weeks ago she moved."
        found = resolve_dates(text, REF)
        assert [m.text for m in found] == ["Yesterday", "next Friday", "two weeks ago"]
        assert [m.start for m in found] == [D("2023-05-24"), D("2023-05-26"), D("2023-05-08")]
        assert all(text[m.span[0] : m.span[1]] == m.text for m in found)

    def test_portuguese_sentence(self) -> None:
        text = "No sábado passado fui à praia, há duas semanas fui ao cinema e na segunda-feira trabalhei."
        found = resolve_dates(text, REF)
        assert [(m.text, m.start) for m in found] == [
            ("sábado passado", D("2023-05-20")),
            ("há duas semanas", D("2023-05-08")),
            ("segunda-feira", D("2023-05-22")),
        ]
        assert all(text[m.span[0] : m.span[1]] == m.text for m in found)

    def test_longest_match_wins(self) -> None:
        assert [m.text for m in resolve_dates("the day before yesterday and May 20th, 2023", REF)] == [
            "the day before yesterday",
            "May 20th, 2023",
        ]

    def test_tense_is_read_per_sentence(self) -> None:
        found = resolve_dates("We went out on Saturday. I'll see her on Saturday.", REF)
        assert [m.start for m in found] == [D("2023-05-20"), D("2023-05-27")]


class TestCaseAndAccents:
    @pytest.mark.parametrize(
        "text", ["LAST SATURDAY", "Sábado Passado", "sabado passado", "SÁBADO PASSADO", "ÚLTIMO SÁBADO"]
    )
    def test_ignored(self, text: str) -> None:
        m = only(text)
        assert (m.text, m.start) == (text, D("2023-05-20"))

    def test_decomposed_accents_stay_in_the_mention(self) -> None:
        text = "no sa\u0301bado passado e amanha\u0303"
        found = resolve_dates(text, REF)
        assert [m.text for m in found] == ["sa\u0301bado passado", "amanha\u0303"]
        assert [m.start for m in found] == [D("2023-05-20"), D("2023-05-26")]

    def test_offsets_survive_characters_that_fold_to_two(self) -> None:
        text = "o ﬁm de semana passado e ontem"  # a ligature folds to "fi"
        found = resolve_dates(text, REF)
        assert [m.text for m in found] == ["ﬁm de semana passado", "ontem"]
        assert all(text[m.span[0] : m.span[1]] == m.text for m in found)


@pytest.mark.parametrize("ref", [date.min, date.max, date(1, 3, 1), date(9999, 12, 1)])
def test_references_at_the_edge_of_the_calendar_drop_what_falls_outside(ref: date) -> None:
    text = "yesterday, tomorrow, last year, next year, February 29, dia 31, 999 years ago, next Monday, the weekend"
    for m in resolve_dates(text, ref):
        assert m.start <= m.end


def test_a_date_reference_equals_a_datetime_one() -> None:
    text = "last week, ontem, in May and dia 20"
    assert resolve_dates(text, REF) == resolve_dates(text, REF.date())
    assert resolve_dates("", REF) == []


class TestDescribe:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("last Saturday", "on 2023-05-20 (the Saturday before 25 May 2023)"),
            ("yesterday", "on 2023-05-24 (the day before 25 May 2023)"),
            ("today", "on 2023-05-25 (the same day as 25 May 2023)"),
            ("amanhã", "on 2023-05-26 (the day after 25 May 2023)"),
            ("next Thursday", "on 2023-06-01 (the Thursday after 25 May 2023)"),
            ("20 days ago", "on 2023-05-05 (Friday, 20 days before 25 May 2023)"),
            ("last week", "in the week of 2023-05-15 to 2023-05-21"),
            ("fim de semana passado", "on the weekend of 2023-05-20 to 2023-05-21"),
            ("mês passado", "in April 2023"),
            ("há 2 meses", "in March 2023"),
            ("last year", "in 2022"),
            ("earlier this week", "between 2023-05-22 and 2023-05-24"),
        ],
    )
    def test_renders(self, text: str, expected: str) -> None:
        assert describe(only(text), REF) == expected


@pytest.mark.parametrize(
    ("when", "expected"),
    [
        (date(2023, 5, 20), {"day": "2023-05-20", "week": "2023-W20", "month": "2023-05", "year": "2023"}),
        (datetime(2023, 5, 20, 23, 59), {"day": "2023-05-20", "week": "2023-W20", "month": "2023-05", "year": "2023"}),
        (date(2021, 1, 1), {"day": "2021-01-01", "week": "2020-W53", "month": "2021-01", "year": "2021"}),
        (date(2023, 1, 1), {"day": "2023-01-01", "week": "2022-W52", "month": "2023-01", "year": "2023"}),
        (date(2024, 12, 30), {"day": "2024-12-30", "week": "2025-W01", "month": "2024-12", "year": "2024"}),
        (date(2024, 2, 29), {"day": "2024-02-29", "week": "2024-W09", "month": "2024-02", "year": "2024"}),
    ],
)
def test_temporal_buckets(when: datetime | date, expected: dict[str, str]) -> None:
    assert temporal_buckets(when) == expected


class TestRecencyTier:
    NOW = datetime(2023, 5, 25, 12, 0)

    @pytest.mark.parametrize(
        ("age", "tier"),
        [
            (timedelta(0), "recent"),
            (timedelta(days=1), "recent"),
            (timedelta(days=30), "recent"),
            (timedelta(days=30, seconds=1), "medium"),
            (timedelta(days=90), "medium"),
            (timedelta(days=91), "old"),
            (timedelta(days=3650), "old"),
            (timedelta(days=-5), "recent"),  # the future is not old
        ],
    )
    def test_tiers(self, age: timedelta, tier: str) -> None:
        assert recency_tier(self.NOW - age, self.NOW) == tier

    def test_aware_datetimes(self) -> None:
        now = datetime(2023, 5, 25, tzinfo=timezone.utc)
        assert recency_tier(now - timedelta(days=45), now) == "medium"

    def test_dates(self) -> None:
        assert recency_tier(date(2023, 4, 25), self.NOW) == "recent"
        assert recency_tier(date(2023, 4, 24), date(2023, 5, 25)) == "medium"


class TestBareMonthYear:
    """A month named alone: tense and context pick its year, and where they cannot no year is guessed.

    The defect: "Comprei ingressos para o show do Caetano em abril.", said on 2025-03-05, read as
    April 2024 (the past tense of the purchase dated the show); a show one holds tickets for is ahead.
    """

    SAID = date(2025, 3, 5)

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            # English
            ("I bought tickets for the Caetano show in April.", "in April 2025"),
            ("I booked a hotel in April.", "in April 2025"),
            ("We have tickets for a concert in May.", "in May 2025"),
            ("I'm going to Rome in April.", "in April 2025"),
            ("I will fly to Lisbon in June.", "in June 2025"),
            ("I'm planning a trip in April.", "in April 2025"),
            ("We'll visit them in February.", "in February 2026"),
            ("I went to Paris in April.", "in April 2024"),
            ("It was cold in December.", "in December 2024"),
            ("I've been vegan since January.", "in January 2025"),
            ("I'm staying in Lisbon until June.", "in June 2025"),
            ("My birthday is in April.", "in April"),
            ("I bought tickets in January.", "in January"),  # the purchase then, or a show next January?
            ("I love Lisbon in March.", "in March 2025"),  # the reference month needs no guess
            # Brazilian Portuguese
            ("Comprei ingressos para o show do Caetano em abril.", "in April 2025"),
            ("Vou para a praia em abril.", "in April 2025"),
            ("Vamos viajar em junho.", "in June 2025"),
            ("Marquei o dentista em maio.", "in May 2025"),
            ("Fui ao Rio em abril.", "in April 2024"),
            ("Sou vegetariano desde janeiro.", "in January 2025"),
            ("Meu aniversário é em abril.", "in April"),
            # European Portuguese
            ("Comprei bilhetes para o concerto do Caetano em abril.", "in April 2025"),
            ("Tenho bilhetes para o teatro em maio.", "in May 2025"),
            ("Vou a Sevilha em abril.", "in April 2025"),
            ("Em abril fomos a Sevilha.", "in April 2024"),
            ("Estive no Porto em dezembro.", "in December 2024"),
            ("O meu aniversário é em abril.", "in April"),
        ],
    )
    def test_the_year_follows_tense_and_context(self, text: str, expected: str) -> None:
        (m,) = resolve_dates(text, self.SAID)
        assert describe(m, self.SAID) == expected
        assert m.year_known == (expected[-1].isdigit())

    def test_an_open_year_still_spans_the_month(self) -> None:
        """Callers that only need where the words are (or a month to show) still get one."""
        m = only("My birthday is in April.", self.SAID)
        assert (m.text, m.granularity, m.start.month, m.end.day, m.year_known) == ("April", "month", 4, 30, False)

    def test_tickets_keep_a_day_and_month_ahead_too(self) -> None:
        (m,) = resolve_dates("Comprei ingressos para 20 de abril.", self.SAID)
        assert m.start == date(2025, 4, 20)
        (m,) = resolve_dates("I went there on April 20.", self.SAID)
        assert m.start == date(2024, 4, 20)  # a past sentence with no booking still counts back

    @pytest.mark.parametrize(
        "text",
        [
            "fechei o airbnb em sevilha pra 20 de abril 🎉",  # a stay booked in the past tense
            "comprei as passagens, ida dia 20 de abril",
            "mudaram a consulta pra 20 de abril",  # "pra" before a day: the day it is set for
            "got the hotel in porto for april 20",
        ],
    )
    def test_a_stay_a_flight_or_a_day_set_for_is_ahead(self, text: str) -> None:
        (m,) = resolve_dates(text, self.SAID)
        assert m.start == date(2025, 4, 20)
