# ruff: noqa: E501  (rules are regular expressions: split over lines they hide)
"""English for the fact extractor: rule order, clause rewrites, openers, hedges and templates."""

from __future__ import annotations

import re

from ...extraction import lexicon as lex
from ...extraction.base import Grammar, Person, leading_name
from . import ids, losses, needs, profile, roles
from .profile import REL, REL_ADJ


def speaker_gender(text: str) -> bool | None:
    """English sentences do not mark the speaker's gender ("I'm tired" for anyone)."""
    return None


def regender(content: str, value: str, fem: bool) -> str:
    """English sentences about the user do not change with their gender ("The user is vegan.")."""
    return content


# --- whole-clause rewrites ----------------------------------------------------------------------

_NEGATIONS = [
    (re.compile(r"^i\s+(?:do\s+not|don'?t|no\s+longer|never)\s+", re.I), "I "),
    (re.compile(r"^i\s+used\s+to\s+be\s+", re.I), "I am "),
    (re.compile(r"^i\s+used\s+to\s+", re.I), "I "),
    (re.compile(r"^(i'?m|i\s+am)\s+(?:not|no\s+longer)\s+(?:really\s+)?", re.I), r"\1 "),
    (
        re.compile(r"^i\s+(?:'ve\s+|have\s+)?(?:stopped|quit)\s+taking\s+|^i\s+(?:came|come|got|went)\s+off\s+", re.I),
        "I take ",
    ),
]


def positive(clause: str) -> str | None:
    """ "I don't live in Paris anymore" -> "I live in Paris anymore" (the caller marks it negated)."""
    for pattern, repl in _NEGATIONS:
        if pattern.match(clause):
            return pattern.sub(repl, clause, count=1)
    return None


_THIRD = {
    "lives": "live", "works": "work", "is": "am", "has": "have", "likes": "like", "loves": "love",
    "hates": "hate", "enjoys": "enjoy", "prefers": "prefer", "takes": "take", "wants": "want",
    "plans": "plan", "moved": "moved", "studies": "study", "doesn't": "don't", "doesnt": "don't",
    "isn't": "am not", "isnt": "am not", "adores": "adore", "hopes": "hope", "eats": "eat",
    "drinks": "drink", "can't": "can't", "cannot": "cannot",
}  # fmt: skip
_ADVERBS = {"just", "also", "still", "really", "recently", "currently", "no"}
_OTHER = re.compile(rf"(?:my|our)\s+{REL_ADJ}(?P<rel>{REL})\b\s*,?\s*", re.I)
_PRONOUN = re.compile(r"(?:he|she)(?:'s\s+|\s+)", re.I)


def about_other(clause: str, previous: Person | None = None) -> tuple[Person, str] | None:
    """ "my sister Maria lives in Rome" -> (sister Maria, "I live in Rome"); "she loves jazz", right
    after a clause about her, -> (sister Maria, "I love jazz")."""
    rel = _OTHER.match(clause)
    rest = clause[rel.end() :] if rel else clause
    name = leading_name(rest)
    pronoun = _PRONOUN.match(clause) if previous else None
    if pronoun:
        rest = ("is " if "'" in pronoun.group(0) else "") + clause[pronoun.end() :]
    elif name:
        rest = rest[len(name) :].lstrip(" ,")
    elif not rel and not (previous and clause.split()[0].lower() in _THIRD):
        return None
    words = rest.split()
    lead = []
    while words and words[0].lower() in _ADVERBS and len(words) > 1:
        if words[0].lower() == "no" and words[1].lower() == "longer":
            lead.append("no longer")
            words = words[2:]
            continue
        lead.append(words.pop(0).lower())
    if not words or words[0].lower() not in _THIRD:
        return None
    verb = _THIRD[words[0].lower()]
    word = rel["rel"].lower() if rel else None
    if rel or name:
        person = Person(lex.RELATIONS[word] if word else None, word, name)
    elif previous is not None:
        person = previous
    else:
        return None
    return person, " ".join(["I", *lead, verb, *words[1:]])


_MODAL = re.compile(r"^i\s+(?:might|may|could|must)\s+be\s+", re.I)
_DROPPED = re.compile(
    r"^(?:(?:just|finally|recently|also|officially)\s+)?(?:can'?t|cannot|can\s+only|allergic\s+to|live\s+in|"
    r"work\s+(?:at|as|for)|moved\s+to|started\s+(?:at|working\s+(?:at|for)|a\s+new\s+job\s+at)|"
    r"quit|left|adopted|broke\s+up\s+with|split\s+(?:up\s+)?with|switched\s+to|relocated\s+to|"
    r"got\s+(?:a|an)\s+(?:dog|cat|puppy|kitten|new\s+job)|got\s+(?:a|an|the)\s+(?:new\s+)?(?:job|position|role)\s+(?:at|with)|"
    r"landed\s+(?:a|an|the)\s+(?:new\s+)?(?:job|position|role)|started\s+(?:on\s+)?\w+\s+at|"
    r"(?:started|joined|signed\s+up\s+for|dropped)\s+(?:an?\s+|my\s+|the\s+)?[\w-]+(?:\s+[\w-]+)?\s+"
    r"(?:class|course|classes|lessons))\b",
    re.I,
)
_PROMOTED = re.compile(
    r"^(?:i(?:'ve|\s+have)?\s+)?(?:just\s+|finally\s+)?(?:got|been|was|were)\s+promoted\s+to\s+(?:an?\s+)?", re.I
)
"""A promotion names the new job: "I got promoted to team lead" reads as "I'm a team lead"."""
_NOT_ANYMORE = re.compile(
    r"^(?:not|no\s+longer)\s+(?!(?:sure|really|yet|now|much|bad|great)\b)\w+.*\b(?:anymore|any\s+more)\b", re.I
)
"""'not vegetarian anymore': the dropped "I'm" of a retraction."""
_LIVING = re.compile(r"^(?:i(?:'ve|\s+have)?\s+)?(?:been\s+)?living\s+in\s+", re.I)
"""Chat drops the subject ("just moved to Glasgow!!", "quit Deliveroo last week"): read as the user's."""


_TITLE_NOW = re.compile(r"^(?P<t>[a-z][\w-]*(?:\s+[\w-]+){0,3}?)\s+now\s*(?:$|[^\w\s])", re.I)
"""'senior accountant now 🥳' after a promotion: the dropped "I'm a" of a new title."""
_STARTING = re.compile(r"^(?:(?:just|finally|officially)\s+)?starting\s+(?:(?:on\s+)?\w+\s+)?at\s", re.I)
"""'starting monday at pollenworks': the dropped "I'm" of a new job."""


_BECAME = re.compile(
    r"^i(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:went|gone|became|become|turned|got)\s+"
    r"(?:(?:fully|full|completely|totally)\s+)?(?=(?:an?\s+)?(?:vegan|vegetarian|pescatarian|pescetarian|flexitarian|plant-based|married|engaged|divorced|retired|"
    r"self-employed|unemployed)\b)",
    re.I,
)


def normalize(clause: str) -> str:
    """ "I might be lactose intolerant" -> "I am ..." (hedge words lower its confidence);
    "Can't do Thursdays" -> "I can't do Thursdays"; "I went vegan" -> "I am vegan"."""
    if _MODAL.match(clause):
        return _MODAL.sub("I am ", clause, count=1)
    if _BECAME.match(clause):
        return _BECAME.sub("I am ", clause, count=1)
    if _PROMOTED.match(clause):
        return _PROMOTED.sub("I'm a ", clause, count=1)
    if _NOT_ANYMORE.match(clause):
        return f"I'm {clause}"
    if _LIVING.match(clause):
        return _LIVING.sub("I live in ", clause, count=1)
    if _STARTING.match(clause):
        return f"I'm {clause}"
    if (title := _TITLE_NOW.match(clause)) and roles.job_title(title["t"]) == title["t"]:
        return f"I'm a {title['t']} now"
    return f"I {clause}" if _DROPPED.match(clause) else clause


def about_us(clause: str) -> str | None:
    """ "we live in Porto" -> "I live in Porto" (the caller keeps home, pets and family only)."""
    if re.match(r"we(?:'re|\s+are)\s+", clause, re.I):
        return re.sub(r"^we(?:'re|\s+are)\s+", "I am ", clause, flags=re.I)
    if re.match(
        r"we\s+(?:(?:just|finally|recently|also)\s+)*(?:live|have|moved|relocated|got|adopted|also)\b", clause, re.I
    ):
        return re.sub(r"^we\s+", "I ", clause, flags=re.I)
    return None


def subject(person: Person | None, speaker: str | None, feminine: bool) -> tuple[str, str]:
    user, user_pos = (speaker, f"{speaker}'s") if speaker else ("the user", "the user's")
    if person is None:
        return user, user_pos
    if person.word:
        s = f"{user_pos} {person.word}" + (f" {person.name}" if person.name else "")
    else:
        s = person.name or "someone"
    return s, f"{s}'s"


TEMPLATES = {
    "name": ("{P} name is {v}.", "{P} name is not {v}.", "{P} name is {v}, not {p}."),
    "nickname": ("{S} likes to be called {v}.", "{S} does not like to be called {v}.", None),
    "home": ("{S} lives in {v}.", "{S} no longer lives in {v}.", "{S} moved from {p} to {v}."),
    "origin": ("{S} is from {v}.", "{S} is not from {v}.", None),
    "moving": ("{S} is moving to {v}.", "{S} is no longer moving to {v}.", None),
    "nationality": ("{S} is {v}.", "{S} is not {v}.", None),
    "age": ("{S} is {v} years old.", "{S} is not {v} years old.", None),
    "marital": ("{S} is {v}.", "{S} is no longer {v}.", None),
    "occupation": ("{S} works as {a} {v}.", "{S} no longer works as {a} {v}.", "{S} works as {a} {v} (previously {p})."),
    "status": ("{S} is {a} {v}.", "{S} is no longer {a} {v}.", None),
    "employer": ("{S} works at {v}.", "{S} no longer works at {v}.", "{S} works at {v} (previously {p})."),
    "work_city": ("{S} works in {v}.", "{S} no longer works in {v}.", None),
    "work_field": ("{S} works in {v}.", "{S} no longer works in {v}.", None),
    "work_mode": ("{S} works remotely.", "{S} no longer works remotely.", None),
    "school": ("{S} studies at {v}.", "{S} no longer studies at {v}.", None),
    "likes": ("{S} {verb} {v}.", "{S} {nverb} {v}.", None),
    "prefers": ("{S} prefers {v}{other}.", "{S} no longer prefers {v}{other}.", None),
    "favorite": ("{P} favorite {cat} is {v}.", "{P} favorite {cat} is no longer {v}.", None),
    "goal": ("{S} {verb} {v}.", "{S} no longer {verb} {v}.", None),
    "goal_is": ("{P} {kind} is {to}{v}.", "{P} {kind} is no longer {to}{v}.", None),
    "saving": ("{S} is saving {prep} {v}.", "{S} is no longer saving {prep} {v}.", None),
    "learning": ("{S} is learning {v}.", "{S} is no longer learning {v}.", None),
    "budget": ("{P} budget is {v}.", "{P} budget is not {v}.", "{P} budget is {v} (previously {p})."),
    "budget_for": ("{P} budget for {purpose} is {v}.", "{P} budget for {purpose} is not {v}.", None),
    "diet": ("{S} is {v}.", "{S} is no longer {v}.", None),
    "diet_plan": ("{S} follows a {v} diet.", "{S} no longer follows a {v} diet.", None),
    "avoids": ("{S} {verb} {v}.", "{S} no longer avoids {v}.", None),
    "available": ("{S} is available {v}.", "{S} is not available {v}.", None),
    "available_only": ("{S} is only available {v}.", "{S} is no longer only available {v}.", None),
    "unavailable": ("{S} is not available {v}.", "{S} is available {v} again.", None),
    "allergy": ("{S} is allergic to {v}.", "{S} is not allergic to {v}.", None),
    "intolerance": ("{S} is intolerant to {v}.", "{S} is not intolerant to {v}.", None),
    "condition": ("{S} has {v}.", "{S} does not have {v}.", None),
    "pregnant": ("{S} is pregnant.", "{S} is not pregnant.", None),
    "medication": ("{S} {verb} {v}.", "{S} no longer {verb} {v}.", None),
    "pet": ("{S} has {phrase}.", "{S} no longer has {phrase}.", None),
    "pet_named": ("{S} has {art} {sp} named {v}.", "{S} no longer has {art} {sp} named {v}.", None),
    "relation": ("{P} {rel} is named {v}.", "{P} {rel} is not named {v}.", None),
    "dislikes": ("{S} {verb} {v}.", "{S} no longer dislikes {v}.", None),
    "identifier": ("{P} {what} is {v}.", "{P} {what} is not {v}.", "{P} {what} is {v} (previously {p})."),
    "birthday": ("{P} birthday is {v}.", "{P} birthday is not {v}.", None),
    "trip_off": ("{S} called off the trip ({what}: {v}).", "{S} called off the trip ({what}: {v}).", None),
    "budget_dropped": ("{S} no longer has a budget{for_en}.", "{S} no longer has a budget{for_en}.", None),
    "family": ("{S} has {phrase}.", "{S} does not have {phrase}.", None),
    "dating": ("{S} is dating {v}.", "{S} is no longer dating {v}.", None),
    "changed_mind": ("{S} changed their mind about {about}.", "{S} changed their mind about {about}.", None),
}  # fmt: skip

FILLERS = re.compile(
    r"^(?:oh+|ah+|well|so|and|but|also|actually|btw|by\s+the\s+way|fyi|for\s+the\s+record|just\s+so\s+you\s+know|"
    r"i\s+(?:just\s+|also\s+|recently\s+)?(?:found\s+out|learned|learnt|discovered|realized|realised)(?:\s+that)?|"
    r"anyway|anyways|honestly|ok+|okay+|yes|yeah|yep|no|nope|hi+|hiya|heya|hello+|hey+|yo|morning|evening|now|currently|these\s+days|nowadays|"
    r"today|recently|lately|right\s+now|as\s+of\s+now|as\s+you\s+know|you\s+know|remember|note|please\s+note|"
    r"keep\s+in\s+mind|in\s+fact|to\s+be\s+honest|tbh|um|uh|hmm|lol|haha|plus|besides|that\s+said|though|"
    r"good\s+(?:morning|afternoon|evening)|that|oh\s+and|sorry|wait|correction|update|at\s+least|finally|"
    r"guess\s+what|ngl|welp|omg|news)\b[\s,!:.-]*",
    re.IGNORECASE,
)
HEDGES = re.compile(
    r"^(?:i\s+think|i\s+guess|i\s+believe|i\s+suppose|i\s+reckon|i'?m\s+(?:pretty|fairly)\s+sure|probably|"
    r"maybe|perhaps|possibly|apparently|i\s+feel\s+like|i'?m\s+not\s+(?:sure|certain)\s+but)(?:\s+that)?\b[\s,]*",
    re.IGNORECASE,
)

MINE = {"my": "their", "mine": "theirs", "me": "them", "myself": "themselves", "i": "they", "i'm": "they're"}
"""First-person words in a value, as a sentence about the user says them ("open my bakery")."""

READER = Grammar(
    code="en", rules=[*ids.RULES, *losses.RULES, *profile.RULES, *needs.RULES, *profile.LAST], phrases=[*profile.PHRASES, *needs.PHRASES, *ids.PHRASES], templates=TEMPLATES, fillers=FILLERS, hedges=HEDGES,
    positive=positive, about_other=about_other, about_us=about_us, subject=subject, agree=lambda word, _: word,
    normalize=normalize, mine=MINE, appositive="I'm ",
)  # fmt: skip
