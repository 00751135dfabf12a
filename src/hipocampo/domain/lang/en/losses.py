"""English shapes of a loss: a job quit, a partner left, a pet died, a course given up
(builders and why in :mod:`hipocampo.domain.extraction.losses`). Anchored at the clause start,
after the clause rewrites (a dropped "I" is restored: "broke up with Tom")."""

from __future__ import annotations

import re

from ...extraction.base import Draft, Rule, on
from ...extraction.losses import course_dropped, job_lost, partner_gone, pet_lost
from ...extraction.roles import signed_name
from .profile import _PET, I_, IM

RULES: list[Rule] = []

_PARTNER = r"(?:boyfriend|girlfriend|partner|fianc[ée]e?|bf|gf)"
_WHEN = r"(?:\s+(?:last|this|yesterday|today|on|in|a\s+few|two|three|recently|finally|for\s+good)\b.*)?"
_OVER = r"(?:are|r)\s+(?:done|over|through|finished)|'re\s+(?:done|over|through)|called\s+it\s+(?:quits|off)"
"""A couple said to be over ("tyler and i are done", "me and jordan called it quits"): chat says
it as often as "broke up"."""


@on(RULES, rf"{I_}(?:quit|left|lost)\s+(?:my|the)\s+job(?:{_WHEN}|\s*[,;.!].*)$")
@on(RULES, rf"{I_}(?:got|was|have\s+been|'ve\s+been)\s+(?:fired|laid\s+off|let\s+go|made\s+redundant){_WHEN}$")
@on(RULES, rf"{IM}(?:unemployed|out\s+of\s+work|between\s+jobs)\b.*")
def _job(m: re.Match[str]) -> list[Draft] | None:
    return job_lost()


@on(RULES, rf"{I_}(?:broke\s+up|split\s+up|split|separated|parted\s+ways)\s+with\s+(?P<v>[A-ZÀ-Ý][\w'-]*){_WHEN}$")
@on(
    RULES,
    rf"(?P<v>[^\W\d_][\w'-]*)\s+and\s+i\s+(?:just\s+|finally\s+)?(?:broke\s+up|split(?:\s+up)?|separated|{_OVER}){_WHEN}$",
)
@on(
    RULES,
    rf"me\s+and\s+(?P<v>[^\W\d_][\w'-]*)\s+(?:just\s+|finally\s+)?(?:broke\s+up|split(?:\s+up)?|separated|{_OVER}){_WHEN}$",
)
@on(RULES, rf"{I_}(?:broke\s+up|split\s+up|split|separated)\s+with\s+my\s+{_PARTNER}{_WHEN}$")
@on(RULES, rf"(?:me\s+and\s+|my\s+){_PARTNER}\s+and\s+i\s+(?:broke\s+up|split(?:\s+up)?|separated){_WHEN}$")
@on(RULES, rf"(?:{I_}|we\s+(?:just\s+|finally\s+)?)(?:broke\s+up|split\s+up|split|separated){_WHEN}$")
@on(
    RULES, rf"(?:i\s+(?:are|r)\s+(?:done|over|through)|we(?:'re|\s+are|\s+r)\s+(?:so\s+)?over){_WHEN}$"
)  # "tyler and | i are done"
def _partner(m: re.Match[str]) -> list[Draft] | None:
    name = m.groupdict().get("v")
    if name and (name := signed_name(name)) is None:
        return None  # "it and i", "work and i": no one's name
    return partner_gone(name, "en")


@on(
    RULES,
    rf"(?:(?P<det>my|our)\s+)?(?:(?:old|sweet|poor|little|lovely|beloved)\s+)?(?P<v>(?:{_PET})(?:\s+[A-Z][\w'-]*)?|"
    rf"[A-Z][\w'-]*)\s+(?:has\s+|have\s+)?(?:died|passed\s+away|passed|was\s+put\s+(?:down|to\s+sleep)|ran\s+away)"
    rf"{_WHEN}$",
)
def _pet(m: re.Match[str]) -> list[Draft] | None:
    return pet_lost(m["v"], m["det"] or "", _PET, "en")


@on(RULES, rf"{I_}(?:gave\s+up|quit|stopped)\s+(?:on\s+)?(?:learning\s+|studying\s+)(?P<v>[\w\s]+?){_WHEN}$")
@on(RULES, rf"{I_}gave\s+up\s+on\s+(?P<v>[A-Z][\w]+){_WHEN}$")
@on(
    RULES,
    rf"{I_}(?:gave\s+up(?:\s+on)?|quit|stopped|dropped|dropped\s+out\s+of|abandoned)\s+(?:the|my)\s+(?P<v>[a-z][\w-]*)"
    rf"(?:\s+(?:evening|night|online|weekly|beginners?|conversation))?\s+(?:thing|class|classes|course|lessons){_WHEN}"
    rf"(?:\s*[,;.!].*)?$",
)
def _course(m: re.Match[str]) -> list[Draft] | None:
    return course_dropped(m["v"])
