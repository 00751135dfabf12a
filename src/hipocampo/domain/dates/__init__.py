"""Dates in what people write, resolved against when they wrote it: "last Saturday", "há duas semanas".

A message says "yesterday"; recall weeks later needs 2023-05-24. This module finds relative and
absolute date expressions in English and Portuguese and pins each to the days it covers, anchored on
the message timestamp, so memories can be dated, bucketed and described. Pure: no I/O, no clock.

The rules are hand-written (patterns in dates_rules.py, resolvers in dates_resolvers.py, words in
dates_lexicon.py) because no maintained offline library resolves relative dates in both Portuguese
and English against a given reference and reports the range a phrase covers ("last week" is seven
days, "in May" thirty-one). dateparser comes closest, but it is heavy and slow per call, returns
single instants rather than ranges, and guesses where we want a stated rule; python-dateutil parses
absolute dates only (and is not a dependency here).

Rules of thumb where language is ambiguous:

- "last Saturday" is the latest Saturday strictly before the reference day, "next Saturday" the
  first strictly after it, "this Saturday" the one in the reference's ISO week (Monday to Sunday).
- A bare weekday ("on Saturday", "no sábado") is the latest one on or before the reference day, or
  the first on or after it when its sentence is in the future tense ("I'll call on Saturday").
- "segunda".."sexta" are also Portuguese ordinals ("segunda vez"): without "-feira" they are weekdays
  only after "na", "nesta", "próxima", "última"... or before "passada", "que vem", and never before
  a noun an ordinal usually qualifies ("vez", "parte", "metade", "do"...). Sábado and domingo need
  no context.
- "may" and "march" are also verbs: "this may", "the 3 may", "march 20 miles" count only with a
  capital ("this May"); "march 20" and "in may" need none.
- "a week" alone is a duration, not a date; so is "in two days" in a past-tense sentence.
- A day and month with no year ("May 20", "dia 20") fall in the reference year (or month), moved one
  back when a past-tense sentence puts them still ahead, one on when a future one puts them behind.
- "in May" said in May is that May. Another month named alone is the latest one up to the reference
  month in a past sentence (or after "since", "desde"), the first one after it in a future sentence
  (or after "until", "até", or where the sentence holds tickets, a booking or an appointment for it:
  "comprei ingressos para o show em abril", said in March, is next April even though the purchase is
  past; a month already gone this year stays open there). Where neither tense nor context tells,
  the mention keeps no year (``year_known`` False): "my birthday is in April" is in April.
- Numeric dates read day first ("05/06/2023" is 5 June) unless only month first makes a date.
- Counting back weeks, months or years gives the whole unit: "há 2 meses" said on 2023-03-31 is all
  of January 2023, "two weeks ago" the ISO week holding the day fourteen days back.
- "the weekend" / "o fim de semana" is the one under way or just gone (the coming one in a future
  sentence); weekends have week granularity and cover Saturday and Sunday.
"""

from __future__ import annotations

import calendar
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache

from ..text import fold
from .arithmetic import Period
from .resolvers import Scan, core_span
from .rules import RULES

_MONTH_NAMES = "January February March April May June July August September October November December".split()
_WEEKDAY_NAMES = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
_Found = tuple[tuple[int, int], int, Period]  # core span, rule priority, period


@dataclass(frozen=True)
class DateMention:
    """A date expression found in a text and the days it covers."""

    text: str  # the expression as written, e.g. "last Saturday", "há duas semanas"
    start: date  # first day it covers
    end: date  # last day it covers (== start for a day)
    granularity: str  # "day" | "week" | "month" | "year"
    span: tuple[int, int]  # character offsets in the input
    year_known: bool = True  # False: a month named alone, its year not told by tense or context;
    # start and end then hold the latest such month, a guess to date nothing by (describe() omits it)


def resolve_dates(text: str, reference: datetime | date) -> list[DateMention]:
    """Every date expression in `text`, resolved against `reference`, in reading order.

    Matching ignores case and accents. Where matches overlap the longest wins ("the day before
    yesterday", not "yesterday"). A datetime reference counts by its own calendar date, so pass it
    in the writer's time zone.
    """
    ref = _as_date(reference)
    folded, origin = _fold_with_origin(text)
    scan = Scan(ref, folded, text, origin)
    found: list[_Found] = []
    for priority, rule in enumerate(RULES):
        for m in rule.pattern.finditer(folded):
            try:
                period = rule.resolver(m, scan)
            except (ValueError, OverflowError):  # a date outside years 1..9999
                continue
            if period is not None:
                found.append((core_span(m), priority, period))
    mentions = []
    for (a, b), _, period in _longest_first(found):
        start, end = origin[a], origin[b - 1] + 1
        while end < len(text) and unicodedata.combining(text[end]):
            end += 1  # keep a trailing combining accent with its letter
        mentions.append(
            DateMention(text[start:end], period.start, period.end, period.granularity, (start, end), period.year_known)
        )
    return mentions


def describe(m: DateMention, reference: datetime | date) -> str:
    """A short English rendering for a prompt or a log line.

    "on 2023-05-20 (the Saturday before 25 May 2023)", "in the week of 2023-05-15 to 2023-05-21",
    "in May 2023", "in 2022"; a run that is no whole unit reads "between X and Y"; a month whose
    year the text leaves open reads "in April".
    """
    start, end = m.start, m.end
    if not m.year_known:
        return f"in {_MONTH_NAMES[start.month - 1]}"
    if start == end:
        return f"on {start.isoformat()} ({_relation(start, _as_date(reference))})"
    if start.day == 1 and end == start.replace(day=calendar.monthrange(start.year, start.month)[1]):
        return f"in {_MONTH_NAMES[start.month - 1]} {start.year}"
    if (start.month, start.day, end.month, end.day) == (1, 1, 12, 31) and start.year == end.year:
        return f"in {start.year}"
    if start.weekday() == 0 and end - start == timedelta(days=6):
        return f"in the week of {start.isoformat()} to {end.isoformat()}"
    if start.weekday() == 5 and end - start == timedelta(days=1):
        return f"on the weekend of {start.isoformat()} to {end.isoformat()}"
    return f"between {start.isoformat()} and {end.isoformat()}"


def temporal_buckets(when: datetime | date) -> dict[str, str]:
    """Keys that group by calendar unit; weeks are ISO weeks, so 2021-01-01 is in "2020-W53".

    {"day": "2023-05-20", "week": "2023-W20", "month": "2023-05", "year": "2023"}
    """
    d = _as_date(when)
    iso_year, iso_week, _ = d.isocalendar()
    return {
        "day": d.isoformat(),
        "week": f"{iso_year:04d}-W{iso_week:02d}",
        "month": f"{d.year:04d}-{d.month:02d}",
        "year": f"{d.year:04d}",
    }


def recency_tier(when: datetime | date, now: datetime | date) -> str:
    """The tier of an age: "recent" up to 30 days, "medium" up to 90, "old" beyond; the future is recent.

    Two datetimes compare to the second (both naive or both aware); with a plain date on either
    side both are compared as dates.
    """
    if isinstance(when, datetime) and isinstance(now, datetime):
        age = now - when
    else:
        age = _as_date(now) - _as_date(when)
    if age <= timedelta(days=30):
        return "recent"
    return "medium" if age <= timedelta(days=90) else "old"


def _as_date(value: datetime | date) -> date:
    return value.date() if isinstance(value, datetime) else value


def _relation(d: date, ref: date) -> str:
    """How a day stands to the reference: "the day before 25 May 2023", "the Saturday before ..."."""
    anchor = f"{ref.day} {_MONTH_NAMES[ref.month - 1]} {ref.year}"
    weekday = _WEEKDAY_NAMES[d.weekday()]
    delta = (d - ref).days
    side = "before" if delta < 0 else "after"
    if delta == 0:
        return f"the same day as {anchor}"
    if abs(delta) == 1:
        return f"the day {side} {anchor}"
    if abs(delta) <= 7:
        return f"the {weekday} {side} {anchor}"
    return f"{weekday}, {abs(delta)} days {side} {anchor}"


def _longest_first(found: list[_Found]) -> list[_Found]:
    """Drop matches that overlap a longer one (or an equal one found first), keep reading order."""
    chosen: list[_Found] = []
    for item in sorted(found, key=lambda f: (f[0][0] - f[0][1], f[0][0], f[1])):
        (a, b) = item[0]
        if all(b <= c or a >= d for (c, d), _, _ in chosen):
            chosen.append(item)
    return sorted(chosen, key=lambda f: f[0][0])


def _fold_with_origin(text: str) -> tuple[str, list[int] | range]:
    """Lowercase, accent-free text, and for each of its characters the offset it came from in `text`."""
    if text.isascii():
        return text.lower(), range(len(text))
    chars: list[str] = []
    origin: list[int] = []
    for i, c in enumerate(text):
        folded = _fold_char(c)
        chars.append(folded)
        origin.extend([i] * len(folded))
    return "".join(chars), origin


@lru_cache(maxsize=1024)
def _fold_char(c: str) -> str:
    return fold(c)
