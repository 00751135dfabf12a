"""English side of the fact builders both languages share (:mod:`hipocampo.domain.extraction.roles`):
the words they need and the shapes only English has."""

from __future__ import annotations

import re

from ...text import fold
from . import lexicon

AND = " and "  # joins listed names: "Leo and Mia"
NOT_LIKE = "does not like"
FAMILY_MEMBER = {"children": "child", "sons": "son", "daughters": "daughter", "brothers": "brother",
                 "sisters": "sister", "siblings": "sibling", "grandchildren": "grandchild"}  # fmt: skip
QUALIFIER = re.compile(r"\s+(?:in|at|on|during|before|after|with|without|by|from|for|over)\s+", re.IGNORECASE)
"""Where a preference's head ends: "meetings in the afternoon" -> "meetings"."""
COMPANY_ARTICLES: frozenset[str] = frozenset()
"""Articles before a destination's name that mark a company ("mudei para a Globex")."""
BARE_NAME_IS_PLACE = False
"""A destination named with no article is a place ("mudei para Sorocaba")."""
COMPOUND_HEAD_LAST = True  # "morning meetings" is about meetings


def masculine(word: str, known: frozenset[str] | dict[str, str]) -> str | None:
    """English words have no gender: the word itself when known."""
    return word if fold(word) in known else None


def feminine(word: str) -> str:
    return word


def is_feminine(word: str) -> bool:
    return False


def infinitive(value: str) -> tuple[str, str]:
    """ "to swim" -> ("to ", "swim"): a liked activity keeps its "to"."""
    if re.match(r"to\s+", value, re.IGNORECASE):
        return "to ", value.strip()[3:]
    return "", value


def object_of(item: str) -> str:
    """A liked thing as written ("jazz"); English puts no preposition before it."""
    return item


def topic_of(item: str) -> str:
    """What a change of mind is about, as written ("sushi")."""
    return item


NAME_GIVEN = (
    r"(?:her|his|its)\s+name(?:'s|\s+is)|(?:she|he)(?:'s|\s+is)\s+(?:called|named)|"
    r"(?:we|i)\s+(?:named|called)\s+(?:her|him)"
)
"""A name given in the sentence after the animal it names ("we adopted a kitten 🥹 her name is
Tofu", "got a puppy!! we named him Rex")."""


def pet_phrase(word: str) -> str:
    """ "the cat", "the dogs": how a retracted pet is worded."""
    return f"the {word}"


def pet_named(det: str, name: str) -> str:
    return name


def plan_ok(first_word: str) -> bool:
    """Any verb may open an English plan ("learn Spanish", "run a marathon")."""
    return True


_TITLE = re.compile(
    r"[\w-]+(?:\s+[\w-]+){0,4}?(?=\s+(?:at|for|in|with|from|and|who|that|since|by|on|but|"
    r"last|this|yesterday|today|now|recently|there|here|lol|tho)\b|\s*[,;.!]|\s*$)",
    re.IGNORECASE,
)


def job_title(text: str) -> str | None:
    """The job at the start of ``text`` ("software engineer at Google" -> "software engineer")."""
    m = _TITLE.match(text.strip())
    if not m:
        return None
    head = fold(m.group(0).split()[-1])
    known = head in lexicon.OCCUPATIONS or head in lexicon.STATUSES or head.endswith(lexicon.OCCUPATION_SUFFIXES)
    return m.group(0) if known and head not in lexicon.NOT_OCCUPATIONS else None


# --- a move to a name: a new job or a new home (read by domain/extraction/context.py) ----------

WORK_WORDS = (
    r"jobs?|work(?:ing)?|company|companies|employer|firm|startup|office|role|position|promotion|offer|hired|"
    r"salary|pay|colleagues?|coworkers?|boss|manager|team|career|contract|interview|recruiter"
)
"""Words of a turn about work: with them, "I moved to Globex" is a new job."""
RELOCATING_FOR_WORK = (
    r"\b(?:for|because\s+of|closer\s+to|near(?:er)?(?:\s+to)?|next\s+to)\s+(?:a\s+|the\s+|my\s+|his\s+|her\s+|our\s+)?"
    r"(?:new\s+)?(?:job|work|office|position|role|contract|career)\b"
)
"""Why a city move happened ("moved to Halden for a new job"), not where the job is: no work word."""
HOME_WORDS = r"apartment|flat|house|home|rent|neighbou?rhood|city|town|weather|moving\s+boxes|landlord"
"""Words of a turn about a home: with them, "I moved to Oakridge" is a new home."""
HERE = r"(?:here|over\s+here|out\s+here|up\s+here|down\s+here)\s+in"
"""Where the speaker is, said in passing ("my night shifts here in glasgow"): the place after it
is their home when the memory knows none (:func:`~hipocampo.domain.extraction.context.located_here`)."""
BEING_IN = r"(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:now\s+|still\s+|finally\s+|already\s+)?in|(?<![\w'])now\s+in"
"""Being somewhere, said of oneself ("i'm in leeds and the butcher near me is tiny"): read as
:data:`HERE`, unless the sentence says for how long (:data:`STAY`)."""
STAY = (
    r"this\s+(?:week(?:end)?|month)|today|tonight|for\s+(?:now|a\s+(?:few\s+)?(?:days|weeks))|right\s+now|rn|"
    r"atm|until|till"
)
"""How long one is somewhere: "I'm in Lisbon this week" names no home."""
MOVED = (
    r"\b(?:moved|relocated|settled\s+in)\b|"
    r"\b(?:(?:first|1st|\d+|one|two|three|a)\s+(?:days?|weeks?|months?|years?)\s+(?:of\s+)?living|first\s+(?:day|week|month))"
    r"(?=\s+in\b)"
)
"""A move said in the same turn ("pronto, já estou em dublin! moved last weekend", "first week in
berlin", "2 months living in tacoma"): the place the speaker is in is then their new home,
whatever home the memory held."""
AWAY = (
    r"visit(?:ing)?|trip|vacation|holiday|conference|business\s+trip|for\s+the\s+(?:week(?:end)?|day|summer)|"
    r"travell?ing"
)
"""Words of being somewhere for a while: "here in Rome for the weekend" names no home."""
ALLERGIC_ALONE = r"(?:i'?m|i\s+am)\s+(?:so\s+|very\s+|super\s+|highly\s+|severely\s+)?allergic"
"""Saying one is allergic with nothing after it ("no shellfish pls, i'm allergic",
"can't take ibuprofen cuz i'm allergic"): the allergen is the one thing of the lexicon
the sentence named before (:func:`~hipocampo.domain.extraction.context.allergic_to_named`)."""
JOINING = (
    r"new\s+job|new\s+role|new\s+position|handed\s+in\s+my\s+notice|gave\s+(?:my\s+)?notice|put\s+in\s+my\s+notice|"
    r"resigned|got\s+hired|got\s+the\s+job|accepted\s+the\s+offer|took\s+the\s+offer|left\s+my\s+job|"
    r"quit\s+my\s+job|switched\s+jobs|changed\s+jobs|first\s+day\s+at\s+work|same\s+role|"
    r"(?:don'?t|no\s+longer)\s+work\s+(?:at|for)"
)
"""A job change said in a turn ("handed in my notice", "new job!!"): with it, where the speaker now
is (:data:`AT_WORK`) is their employer (:func:`~hipocampo.domain.extraction.said_in_passing.working_at`)."""
AT_WORK = (
    r"(?:i'?m|i\s+am)\s+(?:now\s+|officially\s+)?(?:at|with)|(?<![\w'])now\s+at|"
    r"(?:^|(?<=[,;.!:]\s)|(?<=\bi\s)|(?<=\bjust\s)|(?<=\bnow\s))(?:starting|started|start)\s+(?:at|with)"
)
"""Where the speaker now is, said without a work verb ("starting at Brightwater Clinic on monday",
"i'm at Maplewire now"): an employer only in a turn that says a job changed (:data:`JOINING`)."""
DRUG_SWITCHED = (
    r"switch(?:ed|ing)?|chang(?:ed|ing)|swap(?:ped|ping)?|replac(?:ed|ing)|instead\s+of|stopped|took\s+me\s+off"
)
"""A drug replaced ("doc switched me to amlodipine", "they changed me to escitalopram"): the new
drug ends the one the turn names, or the only held one taken for the same thing
(:func:`~hipocampo.domain.extraction.said_in_passing.drug_switched`)."""
EATING_AGAIN = (
    r"(?:eat(?:ing)?|having)\s+(?P<food>\w+(?:\s+\w+)?)\s+again\b",
    r"(?:start(?:ed)?|went\s+back\s+to|gone\s+back\s+to|back\s+to)\s+eating\s+(?P<food>\w+(?:\s+\w+)?)",
)
"""Eating a food again ("i eat fish again", "went back to eating meat"): it ends the held diet that
leaves it out and the avoidance of it (:func:`~hipocampo.domain.extraction.said_in_passing.eating_again`)."""
REBOOKED = (
    r"re-?book(?:ed|ing)?|new\s+(?:flight|booking|reservation|code|ref|reference|confirmation)|"
    r"changed\s+(?:my|the)\s+(?:flight|booking|reservation)|moved\s+(?:me\s+)?(?:to|on)(?=\s+[A-Z]{2})|switched\s+to(?=\s+[A-Z]{2})"
)
"""A code changed ("rebooked on TP2150", "new booking is HB-90477"): a code in the same shape as
one the memory holds replaces it (:func:`~hipocampo.domain.extraction.said_in_passing.code_changed`)."""
TRIP_OFF = (
    r"(?:trip|vacation|holiday|travel\s+plans?|flight)\s+(?:is|'s|was|got|has\s+been)\s+(?:now\s+)?(?:off|cancell?ed|called\s+off|"
    r"scrapped)|cancell?ed\s+(?:the|my|our)\s+(?:\w+\s+)?(?:trip|flight|booking|reservation|vacation|holiday)|"
    r"call(?:ed|ing)?\s+off\s+(?:the|my|our)\s+(?:\w+\s+)?(?:trip|vacation|holiday)|"
    r"(?:forget|scrap)\s+(?:about\s+)?(?:the|my|our)\s+(?:\w+\s+)?trip|not\s+going\s+to\s+[A-Z]\w+\s+(?:anymore|after\s+all)"
)
"""A trip called off ("the japan trip is off", "cancelled the flight and everything"): the codes,
budget and plan the memory holds for a trip end with it
(:func:`~hipocampo.domain.extraction.said_in_passing.trip_called_off`)."""
TRIP_WORDS = frozenset("trip travel vacation holiday holidays flight hotel hostel booking".split())
"""Words that name a trip in a slot ("budget:japan_trip", "goal:trip_to_japan")."""
JOB_AS = r"as"
"""The word before a job title after the name ("moved to Kestrel Labs as a data engineer")."""
INDEFINITE_ARTICLES = r"an?"
"""Articles a job title may take after :data:`JOB_AS`."""
COMPANY_SUFFIXES = (
    r"inc|corp|corporation|ltd|llc|plc|gmbh|group|bank|labs|technologies|tech|software|systems|consulting|partners|"
    r"holdings|industries|solutions|studios|ventures"
)
"""The last word of a company's name ("Kestrel Labs", "Acme Inc.")."""
WORK_NOUNS = frozenset("job work company employer firm".split())
"""What a move leaves when it leaves a job, not a named place ("I left my job for Globex")."""


# --- a person named in a turn (read by domain/extraction/people.py) ---------------------------

PLACE_PREPOSITIONS = frozenset("in at from to for into near".split())
"""Words before a capitalised word that make it a place ("in Porto"), not a person."""
PERSON_VERBS = frozenset("lives works is was has had said says told called loves likes wants and will can".split())
"""Verbs after a capitalised word that opens a sentence and make it a person ("Ana lives in Porto")."""
