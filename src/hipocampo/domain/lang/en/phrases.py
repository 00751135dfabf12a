"""English words of summaries and consolidated memories: month names, change sentences, the words
too general to be a topic, and the stems of everyday topics."""

from __future__ import annotations

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")  # fmt: skip
IN_MONTH = "in {month}"
MONTH_YEAR = "{month} {year}"
SUBJECT = "The user"
SUBJECT_FEMININE = "The user"
POSSESSIVE = "{who}'s"  # a named speaker's: "Ana's"
_HOME = ("home", "home_city", "home_country", "city", "country")
CHANGES = {
    **dict.fromkeys(_HOME, "{S} moved from {old} to {new} {when}."),
    "employer": "{S} changed jobs from {old} to {new} {when}.",
    "occupation": "{S} went from {old} to {new} {when}.",
    "work_city": "{S} went from working in {old} to working in {new} {when}.",
    "school": "{S} changed schools from {old} to {new} {when}.",
    "diet": "{S} went from {old} to {new} {when}.",
    "marital": "{S} went from {old} to {new} {when}.",
    "status": "{S} went from {old} to {new} {when}.",
    "*": "{P} {label} changed from {old} to {new} {when}.",
}
"""A superseded fact as one sentence, by slot ("*": any other)."""

GENERIC = frozenset(
    """today yesterday tomorrow week day days month year time thing things now always still good going
    went get got make made think know want need feel really much lot pretty user users
    thinking thought thoughts maybe guess wondering wonder actually honestly probably lately stuff kind sort
    basically literally trying tried i'm i've i'd i'll it's that's there's don't doesn't didn't can't won't
    isn't wasn't scratch forget forgot""".split()
)
"""Words too general to say two memories share a topic or to title one ("thinking", "acho");
("user" is the subject of every fact)."""
TOPICS = {
    "work": ("work", "job", "office", "boss", "colleague", "coworker", "meeting", "career", "salary", "promot"),
    "fitness": ("gym", "workout", "running", "training", "exercis", "marathon", "yoga", "pilates", "crossfit"),
    "family": ("wife", "husband", "daughter", "family", "kids"),
    "health": ("health", "doctor", "therapy", "anxiety", "insomnia"),
    "travel": ("trip", "travel", "vacation", "holiday"),
}
"""Word beginnings (folded) of everyday topics."""
DETAILS_OMITTED = "(+{n} details omitted)"
"""The last line of a thread summary that could not keep every number, date, name and decision."""
