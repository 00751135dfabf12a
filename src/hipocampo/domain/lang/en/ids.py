# ruff: noqa: E501  (rules are regular expressions: split over lines they hide)
"""English shapes of codes, birthdays and budgets taken back (the parsing is shared:
:mod:`hipocampo.domain.extraction.ids`)."""

from __future__ import annotations

import re

from ...extraction.base import Rule, on
from ...extraction.ids import birthday, drop_budget, identifier

RULES: list[Rule] = []

_ID = r"(?:number|no\.?|#|code|reference|ref|id|locator|confirmation|pnr)"
on(
    RULES,
    rf"(?:my|our|the)\s+(?P<what>(?:[\w-]+\s+){{0,3}}?{_ID})(?:\s+is\b|'s\b|\s*[:=])\s*(?:now\s+|still\s+)?(?P<v>.+)",
)(lambda m: identifier(m["what"], m["v"]))
on(RULES, r"(?:my|our)\s+(?P<what>booking|reservation|flight|order|ticket|passport)\s+(?:is|'s)\s+(?P<v>.+)")(
    lambda m: identifier(m["what"], m["v"])
)

PHRASES: list[Rule] = []
"""Codes said in passing, after what they are ("flight is JL 9 ... booking ref QZ4HMT"), anywhere
in a clause: the value must look like a code (:func:`~hipocampo.domain.extraction.ids.identifier`)."""
on(
    PHRASES,
    r"(?<!'s\s)(?<!\bher\s)(?<!\bhis\s)(?<!\btheir\s)(?<!\byour\s)\b(?P<what>booking|reservation|confirmation|flight|ticket|locator)(?:\s+(?:ref|reference|code|number|no\.?|id))?"
    r"(?:\s+is|\s*[:=#])?\s+(?P<v>[A-Z0-9][\w-]+)",
)(lambda m: identifier(m["what"], m["v"]))

_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
DAY = re.compile(
    rf"(?:{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH})(?:,?\s+\d{{4}})?",
    re.IGNORECASE,
)
on(RULES, r"my\s+birthday(?:'s|\s+is)\s+(?:on\s+)?(?:the\s+)?(?P<v>.+)")(
    lambda m: birthday(m["v"], DAY, capitalise=True)
)
on(RULES, r"i\s+was\s+born\s+on\s+(?:the\s+)?(?P<v>.+)")(lambda m: birthday(m["v"], DAY, capitalise=True))

_FORGET = r"(?:forget|scrap|drop|ignore|cancel|never\s+mind)\s+(?:about\s+)?"
on(
    RULES,
    rf"{_FORGET}(?:the|my|our)\s+(?:(?P<p>[\w -]+?)\s+)?budget(?:\s+for\s+(?:the\s+|my\s+)?(?P<q>[\w -]+))?(?:[,;].*)?$",
)(lambda m: drop_budget(m["q"] or m["p"]))
