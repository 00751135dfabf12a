"""The rules that spot date expressions: a compiled pattern and a resolver each. Pure.

Patterns run over accent-folded lowercase text (see dates.py). Where a pattern has a `core` group
only that part is the mention: bare prepositions ("on", "in", "no", "em") stay out, words that change
the meaning ("last", "há", "ago", "in two days") stay in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import resolvers as resolve
from .lexicon import (
    APPROX,
    DAY,
    EN_ORDINAL_NOUNS,
    MON_EN,
    MON_EN_FULL,
    MON_PT,
    MON_PT_FULL,
    NUM,
    ORD,
    UNIT,
    WD_EN,
    WD_PT,
    WD_PT_FIRM,
    WEEKEND_PT,
    YEAR,
)
from .resolvers import Resolver


@dataclass(frozen=True)
class Rule:
    pattern: re.Pattern[str]
    resolver: Resolver


_THIS_PT = r"(?:n?est[ea]|n?ess[ea])"  # este, esta, neste, nesta, esse, essa, nesse, nessa
# Numeric dates stand alone, not inside "v1.2.3.4" or "12/05/2023/7"; "2023-05-20T10:00" is fine.
_NOT_AFTER_DIGITS, _NOT_BEFORE_DIGITS = r"(?<![\w./-])", r"(?![\d/-]|\.\d)"
_HABITUAL = r"(?<!every\s)(?<!todo\s)(?<!toda\s)(?<!cada\s)"  # "every Saturday" is no date


def _rule(pattern: str, resolver: Resolver) -> Rule:
    return Rule(re.compile(pattern), resolver)


_ENGLISH = [
    _rule(
        r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening)|(?:earlier|later)\s+today)\b", resolve.shift("day", 0)
    ),
    _rule(r"\b(?:yesterday|last\s+night)\b", resolve.shift("day", -1)),
    _rule(r"\b(?:the\s+)?day\s+before\s+yesterday\b", resolve.shift("day", -2)),
    _rule(r"\btomorrow\b", resolve.shift("day", 1)),
    _rule(r"\b(?:the\s+)?day\s+after\s+tomorrow\b", resolve.shift("day", 2)),
    _rule(r"\b(?:last|previous|this\s+past)\s+(?P<unit>week|month|year)\b", resolve.unit_shift(-1)),
    _rule(r"\b(?:this|the\s+current)\s+(?P<unit>week|month|year)\b", resolve.unit_shift(0)),
    _rule(r"\bnext\s+(?P<unit>week|month|year)\b", resolve.unit_shift(1)),
    _rule(r"\bthe\s+(?P<unit>week|month|year)\s+before\s+last\b", resolve.unit_shift(-2)),
    _rule(r"\bthe\s+(?P<unit>week|month|year)\s+after\s+next\b", resolve.unit_shift(2)),
    _rule(r"\bearlier\s+this\s+(?P<unit>week|month|year)\b", resolve.part_of_this(earlier=True)),
    _rule(r"\blater\s+this\s+(?P<unit>week|month|year)\b", resolve.part_of_this(earlier=False)),
    _rule(r"\b(?:last|past|this\s+past)\s+weekend\b", resolve.shift("weekend", -1)),
    _rule(r"\bthis\s+weekend\b", resolve.shift("weekend", 0)),
    _rule(r"\bnext\s+weekend\b", resolve.shift("weekend", 1)),
    _rule(r"\bthe\s+weekend\b", resolve.the_weekend),
    _rule(rf"\b{APPROX}{NUM}\s+{UNIT}\s+(?:ago|back)\b", resolve.counted(-1)),
    _rule(rf"\bin\s+{APPROX}{NUM}\s+{UNIT}\b", resolve.counted(1, not_in_past=True)),
    _rule(rf"\b{APPROX}{NUM}\s+{UNIT}\s+from\s+(?:now|today)\b", resolve.counted(1)),
    _rule(rf"\b(?:last|past|this\s+past)\s+{WD_EN}\b", resolve.last_weekday()),
    _rule(rf"\b{WD_EN}\s+before\s+last\b", resolve.last_weekday(weeks_back=1)),
    _rule(rf"\b(?:next|this\s+coming|coming)\s+{WD_EN}\b", resolve.next_weekday),
    _rule(rf"\bthis\s+{WD_EN}\b", resolve.this_weekday),
    _rule(rf"{_HABITUAL}\b{WD_EN}\b", resolve.bare_weekday),
    _rule(rf"\b(?:last|this\s+past)\s+{MON_EN_FULL}", resolve.named_month("last")),
    _rule(rf"\bnext\s+{MON_EN_FULL}", resolve.named_month("next")),
    _rule(rf"\bthis\s+{MON_EN_FULL}", resolve.named_month("this")),
    _rule(
        r"(?:\b(?:in|during|since|until|till|(?:beginning|start|end|middle)\s+of)\s+(?:(?:early|late|mid)[-\s]+)?"
        rf"|\b(?:early|late|mid)[-\s]+)(?P<core>{MON_EN_FULL})",
        resolve.named_month("bare"),
    ),
    _rule(rf"\b{MON_EN}\s*,?\s+(?:of\s+)?(?P<year>(?:1[89]|2\d)\d\d)\b", resolve.month_of_year),
    _rule(rf"\b(?:{WD_EN},?\s+)?{MON_EN}\s+{DAY}{ORD}\b(?!:\d)(?:,?\s+{YEAR}\b)?", resolve.month_first_en),
    _rule(rf"\b(?:{WD_EN},?\s+)?{DAY}{ORD}\s+(?P<of>of\s+)?{MON_EN}(?:,?\s+{YEAR}\b)?", resolve.day_first_en),
    _rule(rf"\bon\s+(?P<core>the\s+{DAY}(?:st|nd|rd|th))\b(?!\s+(?:{EN_ORDINAL_NOUNS})\b)", resolve.day_of_month),
]

_PORTUGUESE = [
    _rule(
        r"\bhoje\b(?!\s+em\s+dia)(?:\s+(?:a|de)\s+(?:noite|manha|tarde)\b|\s+(?:mais\s+)?cedo\b)?",
        resolve.shift("day", 0),
    ),
    _rule(r"\bn?esta\s+(?:manha|tarde|noite|madrugada)\b", resolve.shift("day", 0)),
    _rule(r"\bontem\b(?:\s+(?:a|de)\s+(?:noite|manha|tarde)\b)?", resolve.shift("day", -1)),
    _rule(r"\b(?:anteontem|antes\s+de\s+ontem)\b", resolve.shift("day", -2)),
    _rule(r"\bamanha\b(?:\s+(?:a|de)\s+(?:noite|manha|tarde)\b)?", resolve.shift("day", 1)),
    _rule(r"\bdepois\s+de\s+amanha\b", resolve.shift("day", 2)),
    _rule(r"\b(?P<unit>semana|mes|ano)\s+passad[oa]\b", resolve.unit_shift(-1)),
    _rule(r"\bultim[oa]\s+(?P<unit>semana|mes)\b", resolve.unit_shift(-1)),
    _rule(r"\b(?P<unit>semana|mes|ano)\s+retrasad[oa]\b", resolve.unit_shift(-2)),
    _rule(rf"\b{_THIS_PT}\s+(?P<unit>semana|mes|ano)\b", resolve.unit_shift(0)),
    _rule(r"\b(?P<unit>semana|mes|ano)\s+que\s+vem\b", resolve.unit_shift(1)),
    _rule(r"\bproxim[oa]\s+(?P<unit>semana|mes|ano)\b", resolve.unit_shift(1)),
    _rule(rf"\b(?:{WEEKEND_PT}\s+passado|ultimo\s+{WEEKEND_PT})\b", resolve.shift("weekend", -1)),
    _rule(rf"\b{_THIS_PT}\s+{WEEKEND_PT}\b", resolve.shift("weekend", 0)),
    _rule(rf"\b(?:proximo\s+{WEEKEND_PT}|{WEEKEND_PT}\s+que\s+vem)\b", resolve.shift("weekend", 1)),
    _rule(rf"{_HABITUAL}\b{WEEKEND_PT}\b", resolve.the_weekend),
    _rule(rf"\b(?:ha|faz|fazem)\s+{APPROX}{NUM}\s+{UNIT}\b(?:\s+atras\b)?", resolve.counted(-1)),
    _rule(rf"\b{APPROX}{NUM}\s+{UNIT}\s+atras\b", resolve.counted(-1)),
    _rule(rf"\b(?:daqui\s+a|dentro\s+de)\s+{APPROX}{NUM}\s+{UNIT}\b", resolve.counted(1)),
    _rule(rf"\bem\s+{APPROX}{NUM}\s+{UNIT}\b", resolve.counted(1, not_in_past=True)),
    _rule(rf"\b{WD_PT}\s+passad[oa]\b", resolve.last_weekday()),
    _rule(rf"\b(?:ultim[oa]|passad[oa])\s+{WD_PT}", resolve.last_weekday()),
    _rule(rf"\b{WD_PT}\s+retrasad[oa]\b", resolve.last_weekday(weeks_back=1)),
    _rule(rf"\b{WD_PT}\s+(?:que\s+vem|proxim[oa])\b", resolve.next_weekday),
    _rule(rf"\bproxim[oa]\s+{WD_PT}", resolve.next_weekday),
    _rule(rf"\b{_THIS_PT}\s+{WD_PT}", resolve.this_weekday),
    _rule(rf"\bn[oa]\s+(?P<core>{WD_PT})", resolve.bare_weekday),
    _rule(rf"{_HABITUAL}\b{WD_PT_FIRM}\b", resolve.bare_weekday),
    _rule(rf"\b{MON_PT_FULL}\s+passado\b", resolve.named_month("last")),
    _rule(rf"\b{MON_PT_FULL}\s+(?:que\s+vem|proximo)\b", resolve.named_month("next")),
    _rule(rf"\bproximo\s+(?:mes\s+de\s+)?{MON_PT_FULL}", resolve.named_month("next")),
    _rule(rf"\b{_THIS_PT}\s+(?:mes\s+de\s+)?{MON_PT_FULL}", resolve.named_month("this")),
    _rule(rf"\b{MON_PT_FULL}\s+do\s+ano\s+passado\b", resolve.month_in_year(-1)),
    _rule(rf"\b{MON_PT_FULL}\s+do\s+ano\s+que\s+vem\b", resolve.month_in_year(1)),
    _rule(rf"\b{MON_PT_FULL}\s+d[ea]st[ea]\s+ano\b", resolve.month_in_year(0)),
    _rule(
        r"\b(?:em|durante|desde|ate|no\s+mes\s+de|(?:no|em)\s+(?:inicio|comeco|fim|final|meio)\s+de"
        rf"|(?:em\s+)?(?:meados|fins|inicios)\s+de)\s+(?P<core>{MON_PT_FULL})",
        resolve.named_month("bare"),
    ),
    _rule(rf"\b{MON_PT_FULL}\s+de\s+{YEAR}\b", resolve.month_of_year),
    _rule(rf"\b(?:{WD_PT},?\s+)?(?:dia\s+)?{DAY}o?\s+de\s+{MON_PT}(?:\s+de\s+{YEAR}\b)?", resolve.day_and_month),
    _rule(r"\bdia\s+(?P<day>\d{1,2})o?\b(?![/.-]\d)", resolve.day_of_month),
]

_NUMERIC = [
    _rule(
        r"\b(?:in|during|since|em|durante|desde|ano\s+de|the\s+year|(?:back|early|late)\s+in)\s+"
        r"(?P<core>(?P<year>(?:1[89]|2\d)\d\d))\b(?![-/.:,]\d|\s*%)",
        resolve.year,
    ),
    _rule(rf"{_NOT_AFTER_DIGITS}{YEAR}(?P<sep>[-/.])(?P<mo>\d{{1,2}})(?P=sep){DAY}{_NOT_BEFORE_DIGITS}", resolve.iso),
    _rule(
        rf"{_NOT_AFTER_DIGITS}(?P<a>\d{{1,2}})(?P<sep>[-/.])(?P<b>\d{{1,2}})(?P=sep)(?P<year>\d{{4}}|\d{{2}})"
        rf"{_NOT_BEFORE_DIGITS}",
        resolve.numeric,
    ),
]

RULES: tuple[Rule, ...] = (*_ENGLISH, *_PORTUGUESE, *_NUMERIC)
"""Every rule, in priority order: when two equally long matches overlap, the earlier rule wins."""
