"""Calendar arithmetic for resolving date expressions: periods, ISO weeks, month steps. Pure."""

from __future__ import annotations

import calendar
from datetime import date, timedelta
from typing import NamedTuple


class Period(NamedTuple):
    """A run of days, first and last included, and the unit it was named in."""

    start: date
    end: date
    granularity: str  # "day" | "week" | "month" | "year"
    year_known: bool = True  # False: a month the text names without saying (or implying) which year


def day(d: date) -> Period:
    return Period(d, d, "day")


def week(d: date, offset: int = 0) -> Period:
    """Monday to Sunday of the ISO week holding `d`, moved by `offset` weeks."""
    monday = d - timedelta(days=d.weekday()) + timedelta(weeks=offset)
    return Period(monday, monday + timedelta(days=6), "week")


def weekend(d: date, offset: int = 0) -> Period:
    """Saturday and Sunday of the ISO week holding `d`, moved by `offset` weeks."""
    sunday = week(d, offset).end
    return Period(sunday - timedelta(days=1), sunday, "week")


def month(year: int, month_number: int, offset: int = 0) -> Period:
    """A whole calendar month, moved by `offset` months (across years as needed)."""
    y, m0 = divmod(year * 12 + month_number - 1 + offset, 12)
    last = calendar.monthrange(y, m0 + 1)[1]
    return Period(date(y, m0 + 1, 1), date(y, m0 + 1, last), "month")


def year(y: int) -> Period:
    return Period(date(y, 1, 1), date(y, 12, 31), "year")


def around(ref: date, unit: str, offset: int) -> Period:
    """The day, ISO week, weekend, month or year holding `ref`, moved by `offset` of those units."""
    if unit == "day":
        return day(ref + timedelta(days=offset))
    if unit == "week":
        return week(ref, offset)
    if unit == "weekend":
        return weekend(ref, offset)
    if unit == "month":
        return month(ref.year, ref.month, offset)
    return year(ref.year + offset)


def weekday_before(ref: date, weekday: int, *, inclusive: bool) -> date:
    """The latest `weekday` (0 is Monday) on or before `ref`, or strictly before it."""
    back = (ref.weekday() - weekday) % 7
    return ref - timedelta(days=back or (0 if inclusive else 7))


def weekday_after(ref: date, weekday: int, *, inclusive: bool) -> date:
    """The first `weekday` (0 is Monday) on or after `ref`, or strictly after it."""
    ahead = (weekday - ref.weekday()) % 7
    return ref + timedelta(days=ahead or (0 if inclusive else 7))


def valid(y: int, m: int, d: int) -> date | None:
    """The date, or None where there is no such day (30 February, month 13)."""
    try:
        return date(y, m, d)
    except ValueError:
        return None
