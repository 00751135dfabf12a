"""Resolvers for the date rules: each turns a regex match into the days it names. Pure.

A resolver gets the match (over accent-folded lowercase text) and the Scan of the whole text, and
returns a Period, or None when the words turn out not to name a date.

Tense settles the ambiguous cases (a bare weekday, "in May", "May 20", "dia 20", "in two days"): the
tense marker nearest the mention in its sentence ("went", "will", "fui", "vou"...) points back or
ahead. See dates.py for the rules of thumb this implements.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from . import arithmetic as cal
from .lexicon import AHEAD, FUTURE, PAST, VERB_MONTHS, month_number, number_value, unit_of, weekday_number

_SENTENCE_END = ".!?;\n"


@dataclass(frozen=True)
class Scan:
    """One text under scan: the reference day, the folded text, and for each folded character the
    offset of the original character it came from."""

    ref: date
    folded: str
    original: str
    origin: Sequence[int]

    def sentence(self, span: tuple[int, int]) -> tuple[int, str]:
        """Where the sentence holding `span` starts, and its (folded) text."""
        start = max(self.folded.rfind(c, 0, span[0]) for c in _SENTENCE_END) + 1
        ends = [i for c in _SENTENCE_END if (i := self.folded.find(c, span[1])) >= 0]
        return start, self.folded[start : min(ends, default=len(self.folded))]

    def expects(self, span: tuple[int, int]) -> bool:
        """Whether the sentence holding `span` tells of a place held at an event (tickets, a
        booking, an appointment): such an event is ahead whatever the tense of the purchase."""
        return AHEAD.search(self.sentence(span)[1]) is not None

    def tense(self, span: tuple[int, int]) -> str | None:
        """'past', 'future' or None: the tense marker nearest `span` within its sentence."""
        start, sentence = self.sentence(span)
        a, b = span[0] - start, span[1] - start
        nearest: tuple[int, str] | None = None
        for tense, markers in (("past", PAST), ("future", FUTURE)):
            for m in markers.finditer(sentence):
                distance = max(m.start() - b, a - m.end(), 0)
                if nearest is None or distance < nearest[0]:
                    nearest = (distance, tense)
        return nearest[1] if nearest else None

    def capitalised(self, folded_index: int) -> bool:
        return self.original[self.origin[folded_index]].isupper()


Resolver = Callable[[re.Match[str], Scan], "cal.Period | None"]


def core_span(m: re.Match[str]) -> tuple[int, int]:
    """Where the mention lies in the folded text: the `core` group if the pattern has one."""
    if "core" in m.re.groupindex and m.start("core") >= 0:
        return m.span("core")
    return m.span()


def shift(unit: str, offset: int) -> Resolver:
    """A fixed step from the reference: "yesterday" is shift("day", -1)."""
    return lambda m, s: cal.around(s.ref, unit, offset)


def unit_shift(offset: int) -> Resolver:
    """A fixed step in the unit the text names: "last month", "semana que vem"."""
    return lambda m, s: cal.around(s.ref, unit_of(m["unit"]), offset)


def counted(direction: int, *, not_in_past: bool = False) -> Resolver:
    """A count of units back ("three weeks ago") or ahead ("in two days"). With `not_in_past`, a
    past-tense sentence makes it a duration instead: "I read it in two days"."""

    def resolve(m: re.Match[str], s: Scan) -> cal.Period | None:
        if not_in_past and s.tense(core_span(m)) == "past":
            return None
        return cal.around(s.ref, unit_of(m["unit"]), direction * number_value(m["num"]))

    return resolve


def part_of_this(*, earlier: bool) -> Resolver:
    """For "earlier this week": from the start of the unit to the day before; for "later", the rest."""

    def resolve(m: re.Match[str], s: Scan) -> cal.Period:
        whole = cal.around(s.ref, unit_of(m["unit"]), 0)
        if earlier:
            return cal.Period(whole.start, max(whole.start, s.ref - timedelta(days=1)), whole.granularity)
        return cal.Period(min(whole.end, s.ref + timedelta(days=1)), whole.end, whole.granularity)

    return resolve


def the_weekend(m: re.Match[str], s: Scan) -> cal.Period:
    """For "the weekend": the one under way or just gone; in a future sentence, the coming one."""
    if s.tense(core_span(m)) == "future":
        return cal.weekend(s.ref, 1 if s.ref.weekday() == 6 else 0)
    return cal.weekend(s.ref, 0 if s.ref.weekday() >= 5 else -1)


def last_weekday(weeks_back: int = 0) -> Resolver:
    def resolve(m: re.Match[str], s: Scan) -> cal.Period:
        found = cal.weekday_before(s.ref, weekday_number(m["wd"]), inclusive=False)
        return cal.day(found - timedelta(weeks=weeks_back))

    return resolve


def next_weekday(m: re.Match[str], s: Scan) -> cal.Period:
    return cal.day(cal.weekday_after(s.ref, weekday_number(m["wd"]), inclusive=False))


def this_weekday(m: re.Match[str], s: Scan) -> cal.Period:
    return cal.day(cal.week(s.ref).start + timedelta(days=weekday_number(m["wd"])))


def bare_weekday(m: re.Match[str], s: Scan) -> cal.Period:
    wd = weekday_number(m["wd"])
    if s.tense(core_span(m)) == "future":
        return cal.day(cal.weekday_after(s.ref, wd, inclusive=True))
    return cal.day(cal.weekday_before(s.ref, wd, inclusive=True))


def named_month(which: str) -> Resolver:
    """A month by name: "last" May is the latest before the reference month, "next" the first
    after it, "this" the one in the reference year; a "bare" one ("in May") see _bare_month."""

    def resolve(m: re.Match[str], s: Scan) -> cal.Period | None:
        mon, ref = month_number(m["mon"]), s.ref
        if which != "bare" and _lowercase_verb(m, s):
            return None  # "this may be", "the last may"
        mode = which if which != "bare" else _bare_month(m, s, mon)
        if mode == "unknown":  # dated as the latest such month, but flagged: describe() names no year
            return cal.month(ref.year - (mon > ref.month), mon)._replace(year_known=False)
        y = {
            "last": ref.year - (mon >= ref.month),
            "next": ref.year + (mon <= ref.month),
            "this": ref.year,
            "back": ref.year - (mon > ref.month),
            "ahead": ref.year + (mon < ref.month),
        }[mode]
        return cal.month(y, mon)

    return resolve


def _bare_month(m: re.Match[str], s: Scan, mon: int) -> str:
    """Which way a month named alone ("in April", "em abril") lies from the reference: "back"
    (the latest up to the reference month), "ahead" (the first from it on) or "unknown".

    The reference month itself needs no guess. "since"/"desde" count back and "until"/"até"
    ahead, unless the tense says otherwise. Then the tense decides, except that a place held at
    an event (tickets, a booking: see ``Scan.expects``) puts a month still to come this year ahead
    even in a past sentence ("comprei ingressos para o show em abril", said in March); a month
    already gone this year then stays "unknown" (the purchase then, or the event next year?).
    With no marker at all the year is unknown: "my birthday is in April" says nothing of which."""
    span = core_span(m)
    if mon == s.ref.month:
        return "ahead"
    tense, held = s.tense(span), s.expects(span)
    opening = m.group(0).split(None, 1)[0]
    if opening in ("since", "desde") and tense != "future":
        return "back"
    if opening in ("until", "till", "ate") and tense != "past":
        return "ahead"
    if tense == "future" or (held and tense is None):
        return "ahead"
    if held:  # a past sentence about tickets or a booking
        return "ahead" if mon > s.ref.month else "unknown"
    return "back" if tense == "past" else "unknown"


def month_in_year(offset: int) -> Resolver:
    """For "maio do ano passado": the named month of a year counted from the reference's."""
    return lambda m, s: cal.month(s.ref.year + offset, month_number(m["mon"]))


def month_of_year(m: re.Match[str], s: Scan) -> cal.Period:
    return cal.month(int(m["year"]), month_number(m["mon"]))


def year(m: re.Match[str], s: Scan) -> cal.Period:
    return cal.year(int(m["year"]))


def iso(m: re.Match[str], s: Scan) -> cal.Period | None:
    found = cal.valid(int(m["year"]), int(m["mo"]), int(m["day"]))
    return cal.day(found) if found else None


def numeric(m: re.Match[str], s: Scan) -> cal.Period | None:
    """dd/mm/yyyy, or mm/dd/yyyy where only that reading is a date ("05/20/2023")."""
    if m["sep"] == "." and len(m["year"]) == 2:
        return None  # "3.10.12" is a version number far more often than a date
    a, b = int(m["a"]), int(m["b"])
    day_number, mon = (b, a) if b > 12 >= a else (a, b)
    y = int(m["year"])
    if len(m["year"]) == 2:
        y += 2000 if 2000 + y <= s.ref.year + 20 else 1900
    found = cal.valid(y, mon, day_number)
    return cal.day(found) if found else None


def day_and_month(m: re.Match[str], s: Scan) -> cal.Period | None:
    """For "20 de maio (de 2023)", "May 20th, 2023"; with no year, see _without_year."""
    mon, day_number = month_number(m["mon"]), int(m["day"])
    if m["year"]:
        found = cal.valid(int(m["year"]), mon, day_number)
        return cal.day(found) if found else None
    return _without_year(s, core_span(m), mon, day_number)


def month_first_en(m: re.Match[str], s: Scan) -> cal.Period | None:
    """For "May 20", "May 20th, 2023"; a lowercase "march 20 miles" is more likely a verb."""
    plain = not (m["ord"] or m["year"])
    if plain and _lowercase_verb(m, s) and re.match(r"\s+[a-z]", s.folded[m.end() :]):
        return None
    return day_and_month(m, s)


def day_first_en(m: re.Match[str], s: Scan) -> cal.Period | None:
    """For "20 May", "20th of May"; a lowercase "3 may" or "20 march" is more likely a verb."""
    plain = not (m["ord"] or m["of"] or m["year"])
    if plain and _lowercase_verb(m, s):
        return None
    return day_and_month(m, s)


def _lowercase_verb(m: re.Match[str], s: Scan) -> bool:
    return m["mon"].rstrip(".") in VERB_MONTHS and not s.capitalised(m.start("mon"))


def _without_year(s: Scan, span: tuple[int, int], mon: int, day_number: int) -> cal.Period | None:
    """A day of a month with no year: the reference year's, a year back when a past sentence puts
    it still ahead, a year on when a future one puts it behind. 29 February waits for a leap year."""
    if cal.valid(2000, mon, day_number) is None:
        return None
    tense = s.tense(span)
    if tense == "past" and s.expects(span):
        tense = None  # "I bought tickets for May 20": the purchase is past, not the day
    y = s.ref.year
    this_year = cal.valid(y, mon, day_number)
    if this_year and tense == "past" and this_year > s.ref:
        y -= 1
    elif this_year and tense == "future" and this_year < s.ref:
        y += 1
    step = 1 if tense == "future" else -1
    for candidate in range(y, y + 8 * step, step):  # leap years are never more than 8 apart
        if found := cal.valid(candidate, mon, day_number):
            return cal.day(found)
    return None


def day_of_month(m: re.Match[str], s: Scan) -> cal.Period | None:
    """For "dia 20", "on the 20th": the reference month's, a month back when a past sentence puts it
    still ahead, a month on when a future one puts it behind; months too short are skipped."""
    day_number, ref = int(m["day"]), s.ref
    if not 1 <= day_number <= 31:
        return None
    tense = s.tense(core_span(m))
    offset = 0
    this_month = cal.valid(ref.year, ref.month, day_number)
    if this_month and tense == "past" and this_month > ref:
        offset = -1
    elif this_month and tense == "future" and this_month < ref:
        offset = 1
    step = 1 if tense == "future" else -1
    while True:  # no two months running are both too short for a day up to 31
        first = cal.month(ref.year, ref.month, offset).start
        if found := cal.valid(first.year, first.month, day_number):
            return cal.day(found)
        offset += step
