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

# --- what makes a sentence worth a summary line (read by domain/summaries/signals.py) ---------

_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
"""Month names, folded (English "may" left out: it is a verb far more often)."""
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

_PLANNED = (
    "decid\\w*",
    "decision",
    "agreed? (?:to|on)",
    "we agreed",
    "plan(?:s|ned|ning)?",
    "promis\\w*",
    "let's",
    "schedul\\w*",
    "booked",
    "signed up",
    "commit\\w*",
)
"""Words of a plan or a commitment that was settled: in both lists below."""
DECISION_CUES: tuple[str, ...] = (
    *_PLANNED,
    "will",
    "won't",
    "(?:i|we|she|he|they)'ll",
    "going to",
    "gonna",
)
"""Words of a decision, a plan or a commitment, settled or only said (folded): a summary line's signal."""

SETTLED_CUES: tuple[str, ...] = (
    *_PLANNED,
    "we'll",
)
"""The strong part of ``DECISION_CUES``: what was settled, not a bare future. A summary keeps these sentences whole."""

PREFERENCE_CUES: tuple[str, ...] = (
    "allerg\\w*",
    "prefer\\w*",
    "can't",
    "cannot",
    "can not",
    "don't like",
    "doesn't like",
    "do not like",
    "hate",
    "loves?",
    "favou?rites?",
    "vegetarian\\w*",
    "vegan\\w*",
    "intolerant",
    "must not",
    "never",
    "avoid",
)
"""Words of a preference or a constraint (an allergy must never be dropped from a summary)."""

DATE_CUES: tuple[str, ...] = (
    *_MONTHS,
    *_WEEKDAYS,
    "today",
    "tonight",
    "tomorrow",
    "yesterday",
    "weekend",
    "(?:next|last) (?:week|month|year)",
    "dollars?",
    "bucks",
    "euros?",
)
"""Month, weekday and relative-day words, and currency words: a summary line's number or date signal."""

CHANGE_CUES: tuple[str, ...] = (
    "moved (?:from|to|out|back|in)",
    "(?:changed|switched) (?:jobs?|from|to|careers?)",
    "no longer",
    "anymore",
    "used to",
    "new job",
    "started (?:working|at|a new)",
    "quit\\w*",
    "left my job",
    "not anymore",
)
"""Words of a change (a move, a new job, something stopped): what makes older lines wrong."""

FIRST_PERSON: tuple[str, ...] = (
    "i",
    "i'm",
    "i've",
    "i'd",
    "i'll",
    "my",
    "me",
    "mine",
    "we",
    "we're",
    "we've",
    "our",
    "us",
)
"""Pronouns of the speaker: a sentence about the speaker themselves."""

SECOND_PERSON: tuple[str, ...] = (
    "you",
    "you're",
    "you've",
    "you'll",
    "you'd",
    "your",
    "yours",
)
"""Pronouns of the listener: a sentence about the listener, usually praise."""

# --- filler and dates in summaries (read by domain/summaries/salience.py and details.py) -------

FILLER: tuple[str, ...] = (
    "(?:ha){2,}h?",
    "(?:he){2,}",
    "(?:hu){2,}",
    "lol",
    "lmao",
    "ok",
    "okay",
    "okey",
    "thanks",
    "thank you",
    "thx",
    "hi",
    "hello",
    "hey",
    "good morning",
    "good night",
    "bye",
    "cool",
    "nice",
    "awesome",
    "great",
    "me too",
    "yeah",
    "yep",
    "yup",
    "sure",
    "claro",
    "de nada",
    "you're welcome",
    "wow",
    "uau",
    "hmm+",
    "ah",
    "oh",
    "aw+",
    "entendi",
    "entendo",
    "certo",
    "perfeito",
    "show",
    "que bom",
    "que legal",
    "boa sorte",
    "parabens",
    "good luck",
    "congrats",
    "congratulations",
    "got it",
    "i see",
    "sounds good",
    "sounds great",
    "understood",
    "no problem",
    "sem problemas",
    "imagina",
    "por nada",
    "totally",
    "agree",
    "agreed",
    "absolutely",
    "amazing",
    "lovely",
    "noted",
    "anotado",
    "otimo",
    "massa",
    "incrivel",
    "puxa",
    "poxa",
    "nossa",
    "opa",
    "good to see you",
    "good to hear",
    "glad to hear",
    "so happy",
    "that's great",
    "that's awesome",
    "that's amazing",
    "sounds fun",
    "fantastic",
    "wonderful",
    "super",
)
"""Greetings, thanks, laughter, acknowledgements and praise (folded): what a chat repeats most
and a memory needs least."""
LEADING_FILLER = (
    r"oh|ah|aw+|wow|hey|hi|hello|yeah|yes|yep|yup|well|so|"
    r"ok|okay|haha\w*|lol|thanks|thank you|totally|sure|cool|nice|great|awesome|absolutely|hm+"
)
"""Interjections that open a line ("Wow, ...", "haha ok so"), matched case-insensitively."""
DATE_DETAILS: tuple[str, ...] = (
    *_MONTHS,
    *_WEEKDAYS,
    "today",
    "tonight",
    "tomorrow",
    "yesterday",
    "weekend",
    "(?:next|last|this) (?:week|month|year)",
)
"""Month and weekday names and day words (folded) a summary must keep: English "May" is matched
only capitalised (lowercase "may" is a verb)."""
