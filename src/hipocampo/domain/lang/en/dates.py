"""English date words, folded (lowercase, no accents): the date resolver
(:mod:`hipocampo.domain.dates`) builds its patterns from every language's lists."""

from __future__ import annotations

WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()  # Monday first
MONTHS = "january february march april may june july august september october november december".split()
MONTH_ABBREVIATIONS = {name[:3]: i for i, name in enumerate(MONTHS, 1) if name != "may"} | {"sept": 9}
VERB_MONTHS = frozenset({"may", "march", "mar"})
"""Month names that are also verbs: "this may be", "the 3 may", "20 mar"."""
NUMBERS = {w: i for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split(), 1)} | {
    "a": 1, "an": 1, "a couple of": 2, "a couple": 2, "couple of": 2, "a few": 3, "few": 3,
}  # fmt: skip
"""Vague counts read as three: "a few days ago"."""
APPROXIMATELY = "about|around|roughly|almost|nearly|over|just|only|like|maybe".split("|")
UNITS = {"day": "day", "week": "week", "month": "month", "year": "year"}  # a unit word's start -> the unit
UNIT_PATTERN = r"days?|weeks?|months?|years?"
ORDINAL_NOUNS = """century centuries floor anniversary birthday time place row try attempt page lap round
    line street avenue minute hour step grade amendment percentile""".split()
"""Nouns an ordinal day would otherwise swallow: "on the 20th floor"."""
PAST = (
    r"was|were|did|had|went|came|got|saw|met|made|took|told|said|bought|spent|left|ate|felt|found|gave"
    r"|ago|yesterday|last|been|\w{3,}ed"
)
FUTURE = r"will|shall|gonna|going\s+to|\w+['’]ll|next|tomorrow|upcoming|planning|plan\s+to|hope\s+to"
AHEAD = (
    r"tickets?|booked|booking|reservations?|reserved|signed\s+up|registered\s+for|appointment|scheduled"
    r"|flights?|airbnb|hotel"
)
"""Holding a place at an event: what one has tickets for is still ahead."""
