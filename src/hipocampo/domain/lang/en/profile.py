# ruff: noqa: E501  (rules are regular expressions: split over lines they hide)
"""English statements about who the user is: name, home, work, age, family, pets, relatives.

The patterns and phrases here are shared with ``extraction.en_needs`` (the fragments) and read by
``extraction.en``, which puts the rule lists in order.
"""

from __future__ import annotations

import re

from ...extraction import lexicon as lex
from ...extraction.base import (
    HIGH,
    MEDIUM,
    Draft,
    Rule,
    after,
    clean,
    draft,
    instead,
    is_deictic,
    lower_org_at,
    name_alone,
    name_at,
    on,
    org_at,
    place_at,
    without_article,
    word_count,
)
from ...extraction.context import destination
from ...extraction.roles import changed_mind, dating, family, job_title, pet, pet_gone, relation, signed_name
from ...model import MemoryType as T
from ...text import fold
from . import lexicon as own

RULES: list[Rule] = []
PHRASES: list[Rule] = []

ADV = (
    r"(?:(?:really|also|absolutely|totally|just|still|actually|currently|now|truly|honestly|definitely|do|"
    r"very\s+much|seriously|genuinely|kinda|kind\s+of|pretty\s+much|recently|finally|already|even|"
    r"generally|usually|always|personally|mostly|only|officially|basically|literally|technically|fully)\s+)*"
)
I_ = rf"i\s+{ADV}"  # "I" and the adverbs that may follow it
IM = rf"(?:i'?m|i\s+am)\s+{ADV}"
HAVE = rf"(?:i\s+{ADV}(?:have|have\s+got|got)|i'?ve\s+{ADV}got)\s+"
NUM = r"\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten"
REL = "|".join(sorted(own.RELATIONS, key=len, reverse=True))
REL_ADJ = r"(?:(?:older|younger|little|big|elder|baby|oldest|youngest|late|dear)\s+)?"
LAST: list[Rule] = []  # rules that only apply when nothing else did
_FULLY = r"(?:(?:fully|full[-\s]?time|full|completely|100\s?%)\s+)?"
"""How chat stresses a way of working ("i work fully remote", "I'm 100% remote now")."""


def _home(value: str, previous: str | None = None) -> list[Draft]:
    key = "home_country" if fold(value) in lex.COUNTRIES else "home_city"
    d = draft(T.USER_PROFILE, key, value, "home")
    d.previous_value = previous
    return [d]


def _place_fact(key: str, text: str, template: str | None = None) -> list[Draft] | None:
    v = place_at(text)
    return [draft(T.USER_PROFILE, key, v, template)] if v else None


# --- who the user is ----------------------------------------------------------------------------


def _name(text: str, *, lower_ok: bool = True, confidence: float = HIGH, call: bool = False) -> list[Draft] | None:
    v = name_at(text, lower_ok=lower_ok)
    if not v:
        return None
    d = draft(T.USER_PROFILE, "name", v, call="1" if call else "")
    d.confidence = confidence
    d.previous_value = instead(after(text, v), name_at)
    return [d]


on(RULES, r"my\s+(?:full\s+)?name(?:\s+is|'s)\s+(?P<v>.+)")(lambda m: _name(m["v"]))
on(RULES, r"(?:you\s+can\s+|please\s+|just\s+)?call\s+me\s+(?P<v>.+)")(lambda m: _name(m["v"], call=True))
on(RULES, rf"{I_}go\s+by\s+(?P<v>.+)")(lambda m: _name(m["v"], call=True))


def _moved(place_text: str, previous: str | None) -> list[Draft] | None:
    """A move to a known place is a new home; to any other name, a new home or a new job, as
    the turn and the memory tell (:mod:`~hipocampo.domain.extraction.context`)."""
    new = place_at(place_text) or org_at(place_text)
    if not new:
        return None
    new = re.split(r"['’]s\b", new)[0]  # "Google's Zurich office" is Google's
    if fold(new) in lex.PLACES:
        return _home(new, previous)
    return [destination(new, "en", previous=previous, tail=after(place_text, new))]


@on(
    RULES,
    rf"i(?:'ve|\s+have)?\s+{ADV}(?:moved|relocated)\s+(?:back\s+|here\s+|over\s+)?from\s+(?P<a>.+?)\s+to\s+(?P<b>.+)",
)
def _moved_from_to(m: re.Match[str]) -> list[Draft] | None:
    return _moved(m["b"], place_at(m["a"]) or org_at(m["a"]))


@on(RULES, rf"i(?:'ve|\s+have)?\s+{ADV}(?:moved|relocated)\s+(?:back\s+|over\s+)?to\s+(?P<b>.+)")
def _moved_to(m: re.Match[str]) -> list[Draft] | None:
    new = place_at(m["b"]) or org_at(m["b"])
    old = re.match(r"[\s,]*from\s+(.+)", after(m["b"], new)) if new else None
    return _moved(m["b"], (place_at(old.group(1)) or org_at(old.group(1))) if old else None)


@on(
    RULES,
    rf"(?:{I_}(?:live|reside)|{IM}(?:living|based|settled|located)|i(?:'ve|\s+have)\s+{ADV}(?:lived|"
    rf"been\s+living))\s+in\s+(?P<v>.+)",
)
def _live(m: re.Match[str]) -> list[Draft] | None:
    text = m["v"]
    if (dwelling := _DWELLING.match(text)) is not None:
        text = dwelling["p"]  # "a tiny flat in dublin": the place the home is in
    v = place_at(text)
    if v and _SUBJECT_OF.match(after(text, v)):
        return None  # "living in Lisbon sounds amazing": the subject of a judgement, no home
    return _home(v, instead(after(text, v), place_at)) if v else None


_SUBJECT_OF = re.compile(r"\s+(?:sounds|seems|looks|is|was|would|must|could|might)\b", re.IGNORECASE)


_DWELLING = re.compile(
    r"(?:a|an|the|my|our)\s+(?:[\w-]+\s+){0,2}?(?:flat|apartment|apt|house|studio|condo|room|loft|townhouse|"
    r"cottage|bungalow|basement|place)\s+in\s+(?P<p>.+)",
    re.IGNORECASE,
)
"""A home described before its place ("a tiny flat in dublin", "a studio in Berlin")."""

on(RULES, r"(?:(?:all|finally|now|just)\s+)?(?:settled|based)\s+in\s+(?P<v>.+)")(_live)  # "settled in bristol now"
# "I'm Ana, portuguesa, living in London for 3 years now": a place said as one's own, without "I"
# ("living in Lisbon sounds amazing" is the subject of a sentence, no statement).
_LIVING = r"living\s+in\s+(?P<v>[^,.;!?]+?)(?=\s*(?:$|[,.;!]|\s+(?:for|since|now|atm|rn)\b))"


def _living(m: re.Match[str]) -> list[Draft] | None:
    """Only when what follows "living in" is the place and nothing else ("living in Lisbon sounds
    amazing" goes on: a subject, not a statement)."""
    return _live(m) if place_at(m["v"]) == m["v"].strip() else None


# A bare "living in" at a clause's start is read already: the chat normaliser makes it "I live in".
on(RULES, rf"(?:currently|now|still)\s+{_LIVING}")(_living)
_SELF_BEFORE = re.compile(r"\bi(?:'m|\s+am)\s+[^,]*,(?:\s*[^,\s]+\s*,)?\s*$", re.IGNORECASE)


def _living_after_self(m: re.Match[str]) -> list[Draft] | None:
    """After a comma, only in a self-introduction ("I'm Ana, portuguesa, living in London"), never
    after someone else ("my sister, living in Porto, says hi")."""
    return _living(m) if _SELF_BEFORE.search(m.string[: m.start()]) else None


on(PHRASES, rf"(?<=,)\s*(?:(?:currently|now|still)\s+)?{_LIVING}")(_living_after_self)


on(RULES, rf"{IM}(?:originally\s+)?from\s+(?P<v>.+)")(lambda m: _place_fact("origin", m["v"]))
on(RULES, rf"{I_}(?:was\s+born|grew\s+up|was\s+raised)(?:\s+and\s+(?:raised|born))?\s+in\s+(?P<v>.+)")(
    lambda m: _place_fact("origin", m["v"])
)


@on(
    RULES,
    rf"(?:{IM}(?:moving|relocating)|(?:i'?ll|i\s+will)\s+(?:be\s+)?mov(?:e|ing)|{IM}going\s+to\s+move)\s+to\s+(?P<v>.+)",
)
def _moving(m: re.Match[str]) -> list[Draft] | None:
    v = place_at(m["v"])
    return [draft(T.GOAL, "moving_to", v, "moving")] if v else None


@on(RULES, rf"{IM}(?:an?\s+)?(?P<v>[a-z-]+(?:\s+verdean)?)\b")
def _nationality(m: re.Match[str]) -> list[Draft] | None:
    v = m["v"].lower()
    return [draft(T.USER_PROFILE, "nationality", v.title())] if v in lex.NATIONALITIES and v.isascii() else None


@on(RULES, rf"{IM}(?P<n>\d{{1,3}})(?P<unit>\s*(?:years?\s*old|yrs?\s*old|y/?o|years?)\b)?(?P<rest>.*)")
def _age(m: re.Match[str]) -> list[Draft] | None:
    if not re.match(r"\s*(?:$|[,;.!]|and\b|but\b)", m["rest"]) or not 0 < int(m["n"]) <= 120:
        return None
    d = draft(T.USER_PROFILE, "age", str(int(m["n"])))
    d.confidence = HIGH if m["unit"] else MEDIUM
    return [d]


on(RULES, rf"{I_}(?:just\s+)?turned\s+(?P<n>\d{{1,3}})\b")(lambda m: [draft(T.USER_PROFILE, "age", m["n"])])


@on(RULES, rf"{IM}(?P<v>married|single|divorced|widowed|engaged|separated)\b(?:\s+to\s+(?P<to>.+))?")
def _marital(m: re.Match[str]) -> list[Draft]:
    out = [draft(T.USER_PROFILE, "marital_status", m["v"].lower(), "marital")]
    partner = name_at(m["to"] or "")
    if partner:
        out.append(relation("partner", "partner", partner))
    return out


on(RULES, rf"{IM}{_FULLY}remote(?:ly)?\b")(lambda m: [draft(T.USER_PROFILE, "work_mode", "remote")])
on(RULES, rf"{IM}(?P<v>retired|unemployed|self-employed)\b")(
    lambda m: [draft(T.USER_PROFILE, "occupation", m["v"].lower(), "status", a="")]
)


# --- work and study -----------------------------------------------------------------------------

_ORG_END = r"(?=\s+(?:as|at|for|in|with|since|from|and|where|doing)\s+|[,;]|$)"


def _work(rest: str) -> list[Draft]:
    """Read "as a designer at Google", "for Google as a designer", "in tech", "from home"."""
    out: list[Draft] = []
    rest = rest.strip()
    for _ in range(4):
        if m := re.match(rf"{_FULLY}(?:from\s+home|remotely|remote)\b", rest, re.I):
            out.append(draft(T.USER_PROFILE, "work_mode", "remote"))
        elif m := re.match(rf"(?:as|like)\s+(?:an?\s+)?(?P<v>.+?){_ORG_END}", rest, re.I):
            job = clean(m["v"])
            if job and word_count(job) <= 5:
                out.append(draft(T.USER_PROFILE, "occupation", job, "occupation"))
        elif m := re.match(r"(?:at|for|in)\s+(?P<v>.+)", rest, re.I):
            org = (
                place_at(m["v"])
                if rest[:2].lower() == "in"
                else org_at(m["v"]) or _described_org(m["v"]) or lower_org_at(m["v"])
            )
            if org:
                key = "work_city" if fold(org) in lex.PLACES else "employer"
                out.append(draft(T.USER_PROFILE, key, org))
                rest = after(m["v"], org).strip(" ,")
                continue
            field = re.match(rf"in\s+(?P<v>[a-z][\w -]*?){_ORG_END}", rest, re.I)
            if not field or word_count(field["v"]) > 3 or is_deictic(field["v"]):
                break
            out.append(draft(T.USER_PROFILE, "work_field", without_article(clean(field["v"]))))
            m = field
        else:
            break
        rest = rest[m.end() :].strip(" ,")
    return out


def _described_org(text: str) -> str | None:
    """ "a bank", "a small startup": an employer described rather than named."""
    m = re.match(r"(?:an?\s+)(?:[a-z-]+\s+){0,2}[a-z-]+(?=\s+(?:as|in|with|since|and)\b|[,;.]|$)", text.strip())
    return m.group(0) if m else None


on(RULES, rf"(?:{I_}work|{IM}working)\s+(?P<v>.+)")(lambda m: _work(m["v"]) or None)


@on(
    RULES, rf"(?:{I_}|{IM})?(?:start(?:ed|ing)?|began|beginning)\s+(?:work(?:ing)?\s+)?as\s+(?:an?\s+|the\s+)?(?P<v>.+)"
)
@on(RULES, rf"{IM}(?:an?\s+)(?P<v>.+)")
@on(RULES, rf"{IM}(?!(?:an?|the)\s)(?=(?:[\w-]+\s+){{1,3}}(?:at|for)\s)(?P<v>.+)")  # "im officially sous chef at X"
@on(RULES, rf"(?:{I_}(?:became|have\s+become)|i'?ve\s+{ADV}become)\s+(?:an?\s+|the\s+)?(?P<v>.+)")
@on(
    RULES,
    rf"{I_}(?:got|landed|accepted|took)\s+(?:an?\s+|the\s+)?(?:new\s+)?(?:job|position|role)\s+as\s+(?:an?\s+)?(?P<v>.+)",
)
def _job(m: re.Match[str]) -> list[Draft] | None:
    title = job_title(m["v"], "en")
    if not title:
        return None
    status = fold(title.split()[-1]) in lex.STATUSES
    out = [draft(T.USER_PROFILE, "occupation", title, "status" if status else "occupation")]
    for d in _work(after(m["v"], title)):
        if status and d.key == "employer":
            d.key, d.template = "school", "school"
        out.append(d)
    return out


_NOT_A_JOB = re.compile(  # "I joined Tom for lunch", "I joined Ana and her friends": company of another kind
    r"^(?:'s\b|\s+(?:and|with)\s)|\bfor\s+(?:lunch|dinner|breakfast|brunch|coffee|drinks?|a\s+(?:walk|run|drink|coffee|"
    r"meal|chat|game|ride|trip|hike)|the\s+(?:weekend|night|evening|day|ride|trip|party))\b",
    re.I,
)


@on(RULES, rf"{I_}(?:started|began)\s+(?:working\s+|a\s+new\s+job\s+|a\s+job\s+)?(?:at|for|with)\s+(?P<v>.+)")
@on(RULES, rf"{I_}(?:got|landed)\s+(?:an?\s+|the\s+)?(?:new\s+)?job\s+(?:at|with)\s+(?P<v>.+)")
@on(RULES, rf"{I_}(?:joined|was\s+hired\s+by|got\s+hired\s+(?:by|at))\s+(?P<v>.+)")
@on(RULES, rf"(?:{I_}(?:start|am\s+starting|'m\s+starting)|my\s+first\s+day)\s+(?:is\s+|was\s+)?at\s+(?P<v>[A-Z].+)")
@on(
    RULES,
    rf"(?:{I_}(?:start|started|am\s+starting)|i'?m\s+{ADV}starting)\s+(?:on\s+)?(?:monday|tuesday|wednesday|thursday|"
    rf"friday|saturday|sunday|tomorrow|today|next\s+week|next\s+month)\s+at\s+(?P<v>.+)",
)
@on(RULES, r"(?:.*?\s)?at\s+(?P<v>[\w&'’ -]+?)\s+where\s+i\s+(?:work|am\s+working|'m\s+working)\b.*")
def _employer(m: re.Match[str]) -> list[Draft] | None:
    org = org_at(m["v"]) or lower_org_at(m["v"])
    if not org or fold(org) in lex.PLACES or _NOT_A_JOB.search(after(m["v"], org)):
        return None
    return [draft(T.USER_PROFILE, "employer", org)]


@on(RULES, rf"{I_}(?:left|quit)\s+(?:my\s+job\s+(?:at|with)\s+)?(?P<a>.+?)\s+(?:for|to\s+join)\s+(?P<b>.+)")
def _left_for(m: re.Match[str]) -> list[Draft] | None:
    """ "I left Acme for Globex" (a job) or "I left Boston for Denver" (a home)."""
    old = place_at(m["a"]) or org_at(m["a"])
    if not old or old != m["a"].strip():
        return None
    return _moved(m["b"], old) if org_at(m["b"]) or place_at(m["b"]) else None


@on(RULES, rf"{I_}(?:quit|left)\s+(?:my\s+job\s+(?:at|with)\s+)?(?P<v>.+)")
@on(RULES, rf"{I_}(?:got|was)\s+(?:fired|laid\s+off)\s+(?:from\s+)?(?P<v>.+)")
def _left(m: re.Match[str]) -> list[Draft] | None:
    found = _employer(m)
    for d in found or []:
        d.negated = True
    return found


@on(RULES, rf"(?:{I_}study|{IM}studying)\s+(?:[a-z][\w ]*?\s+)?(?:at|in)\s+(?P<v>.+)")
def _school(m: re.Match[str]) -> list[Draft] | None:
    org = org_at(m["v"])
    return [draft(T.USER_PROFILE, "school", org)] if org and fold(org) not in lex.PLACES else None


# --- family, pets, health -----------------------------------------------------------------------

_KIN = (
    r"kids|children|sons|daughters|son|daughter|kid|child|brothers|sisters|brother|sister|siblings|grandchildren|"
    r"grandkids|twins"
)
_ADJ = (
    r"(?:(?:little|young|small|grown(?:-up)?|adult|older|younger|teenage|lovely|wonderful|beautiful|amazing|big|"
    r"old|cute|black|white|grey|gray|orange|rescue|new)\s+)*"
)
_PET = (
    r"cats?|kittens?|dogs?|pupp(?:y|ies)|parrots?|birds?|fish|hamsters?|rabbits?|turtles?|horses?|guinea\s+pigs?|"
    r"(?:golden\s+|labrador\s+)?retrievers?|labradors?|poodles?|beagles?|bulldogs?|terriers?|huskies|husky|pugs?|"
    r"chihuahuas?|dachshunds?|corgis?|german\s+shepherds?"
)


@on(RULES, rf"{HAVE}(?P<n>{NUM})\s+{_ADJ}(?P<noun>{_KIN})\b(?P<rest>.*)")
def _family(m: re.Match[str]) -> list[Draft] | None:
    return family(m["n"], m["noun"], m["rest"], "en")


@on(RULES, rf"(?:{HAVE}|{I_}(?:adopted|rescued|got)\s+)(?P<n>{NUM})\s+{_ADJ}(?P<sp>{_PET})\b(?P<rest>.*)")
def _pets(m: re.Match[str]) -> list[Draft] | None:
    found = pet(m["n"], m["sp"], m["rest"], "en")
    more = re.match(rf"\s*(?:,|and)\s+(?:{HAVE})?(?P<n>{NUM})\s+{_ADJ}(?P<sp>{_PET})\b(?P<rest>.*)", m["rest"], re.I)
    return (found or []) + (_pets(more) or []) if more else found


@on(
    RULES,
    rf"(?:{I_}(?:don'?t|do\s+not|no\s+longer)\s+have|i\s+(?:haven'?t|have\s+not)\s+got)\s+(?:got\s+)?"
    rf"(?:(?P<det>my|the|our)\s+)?(?P<v>.+)",
)
def _pet_gone(m: re.Match[str]) -> list[Draft] | None:
    """ "I don't have the cat anymore" (the species' slot), "I don't have Miso anymore" (the pet
    with that name, if memory has one: see :mod:`~hipocampo.domain.extraction.context`)."""
    return pet_gone(m["v"], m["det"] or "", _PET, "en")


_DATING = rf"(?:{IM}(?:dating|in\s+a\s+relationship\s+with|together\s+with)|i(?:'ve|\s+have)\s+been\s+dating)"


@on(RULES, rf"{_DATING}\s+(?P<v>.+)")
def _dating(m: re.Match[str]) -> list[Draft] | None:
    return dating(m["v"], "en")


@on(
    RULES,
    rf"{IM}(?:seeing|dating)\s+(?:someone|somebody|a\s+(?:guy|girl|woman|man))(?:\s+new)?\s*[,.!;:—-]?\s*"
    rf"(?:(?:her|his|their)\s+name\s+is|(?:she|he)(?:'s|\s+is)\s+called|called|named)\s+(?P<v>[^\W\d_][\w'-]*)",
)
def _seeing_someone(m: re.Match[str]) -> list[Draft] | None:
    """ "im seeing someone new, her name is noor": the name said after the partner."""
    name = signed_name(m["v"])
    return dating(name, "en") if name else None


on(LAST, rf"{IM}(?P<v>.+)")(lambda m: _name(m["v"], lower_ok=False, confidence=MEDIUM) if name_alone(m["v"]) else None)
on(LAST, r"(?P<v>[^\W\d_]+)\s+here(?=\s*(?:$|[^\w\s]))")(
    lambda m: _name(v, lower_ok=True) if (v := signed_name(m["v"])) else None
)


# --- noun phrases -------------------------------------------------------------------------------


_VERB_ENDINGS = ("ed", "ing", "s")
"""Endings of a verb right after a relation word ("minha namorada adotamos"): no lowercase name."""


@on(PHRASES, rf"\bmy\s+{REL_ADJ}(?P<rel>{REL})(?:'s\s+name\s+is|\s+is\s+(?:called|named)|\s*,)?\s+(?P<name>\S.*)")
@on(PHRASES, rf"\b(?P<name>[A-ZÀ-Ý][\w'-]+(?:\s+[A-ZÀ-Ý][\w'-]+)?)\s*(?:,|\()\s*my\s+{REL_ADJ}(?P<rel>{REL})\b")
def _relation(m: re.Match[str]) -> list[Draft] | None:
    name = name_at(m["name"])
    if not name and m.start("name") > m.start("rel"):  # "my bf kevin says", "meu namorado rafa come tudo"
        word = m["name"].split()[0].strip(",.!?;:")
        name = None if fold(word).endswith(_VERB_ENDINGS) else signed_name(word)
    if not name or (m.start("name") < m.start("rel") and name != m["name"].strip()):
        return None
    rel = m["rel"].lower()
    return [relation(lex.RELATIONS[rel], rel, name)]


@on(PHRASES, r"\b(?:i\s+(?:have\s+|'ve\s+|just\s+)?)?changed\s+my\s+mind\s+(?:about|on|regarding)\s+(?P<v>[^,.;:!?]+)")
def _changed_mind(m: re.Match[str]) -> list[Draft] | None:
    return changed_mind(m["v"], m.string[m.end() : m.end() + 200], "en")


@on(
    PHRASES,
    r"\bmy\s+(?:(?:little|old|new|sweet|baby)\s+)?(?P<sp>cat|kitten|dog|puppy|parrot|bird|hamster|rabbit|"
    r"turtle|horse)(?:'s\s+name\s+is|\s+is\s+(?:called|named)|\s*,)?\s+(?P<name>\S.*)",
)
def _pet_name(m: re.Match[str]) -> list[Draft] | None:
    name = name_at(m["name"])
    return pet("a", m["sp"], f" named {name}", "en") if name else None


@on(PHRASES, rf"\b(?P<name>[\w'-]+)\s*\(\s*my\s+(?:own\s+|little\s+|old\s+)?(?P<sp>{_PET})\s*\)")
def _pet_aside(m: re.Match[str]) -> list[Draft] | None:
    """A pet named by an aside, lowercase or not: "biscuit (my beagle) steals everything", "luna
    (my cat) is judging us". The brackets leave no doubt the word before them is the name."""
    name = name_at(m["name"], lower_ok=True)
    return pet("a", m["sp"], f" named {name}", "en") if name else None
