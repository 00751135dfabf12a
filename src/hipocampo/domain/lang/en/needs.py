# ruff: noqa: E501  (rules are regular expressions: split over lines they hide)
"""English statements about what the user needs and wants: health, diet, money, time, tastes, plans."""

from __future__ import annotations

import re

from ...extraction import lexicon as lex
from ...extraction.base import (
    Draft,
    Rule,
    canon,
    clean,
    draft,
    is_deictic,
    items,
    money_at,
    on,
    purpose_key,
    slug,
    without_article,
    word_count,
)
from ...extraction.context import SAME_SLOT
from ...extraction.roles import goal, learnt, likes, medication, schedule
from ...extraction.validate import trim_plan
from ...model import MemoryType as T
from ...text import fold
from .profile import ADV, HAVE, I_, IM

RULES: list[Rule] = []
PHRASES: list[Rule] = []
"""Budgets said in passing, read anywhere in a clause (see :func:`_money`)."""

TIME = (
    r"(?:(?:on|in|at|during|after|before|until|every|the|most|any)\s+)*(?:mondays?|tuesdays?|wednesdays?|"
    r"thursdays?|fridays?|saturdays?|sundays?|weekends?|weekdays?|mornings?|afternoons?|evenings?|nights?|"
    r"lunch(?:time)?|noon|midnight|\d{1,2}(?::\d{2})?\s*(?:am|pm|h)\b)"
)


on(RULES, rf"{IM}(?:\d+\s+(?:weeks?|months?)\s+)?pregnant\b")(
    lambda m: [draft(T.CRITICAL_INFO, "condition:pregnancy", "pregnant", "pregnant")]
)


@on(
    RULES,
    rf"{IM}(?:very\s+|highly\s+|deathly\s+|severely\s+|extremely\s+|mildly\s+|slightly\s+)?allergic\s+to\s+(?P<v>.+)",
)
@on(RULES, rf"{HAVE}(?:an?\s+|some\s+)?(?:(?:severe|serious|bad|mild|strong|food)\s+)?allerg(?:y|ies)\s+to\s+(?P<v>.+)")
@on(RULES, rf"{HAVE}(?:an?\s+)?(?:(?:severe|serious|bad|mild|strong)\s+)?(?P<v>[\w -]+?)\s+allerg(?:y|ies)\b")
def _allergy(m: re.Match[str]) -> list[Draft]:
    return [
        draft(T.CRITICAL_INFO, f"allergy:{canon(v, lex.FOODS)}", v, "allergy")
        for v in items(m["v"])
        if not is_deictic(v) and word_count(v) <= 4
    ]


@on(RULES, rf"{IM}(?P<v>[\w-]+)\s+intolerant\b")
@on(RULES, rf"{IM}intolerant\s+to\s+(?P<v>.+)")
@on(RULES, rf"{HAVE}(?:an?\s+)?(?P<v>[\w-]+)\s+intolerance\b")
def _intolerance(m: re.Match[str]) -> list[Draft]:
    return [draft(T.CRITICAL_INFO, f"intolerance:{canon(v, lex.FOODS)}", v, "intolerance") for v in items(m["v"])]


_DIET = (
    r"vegetarian|vegan|pescatarian|pescetarian|plant-based|flexitarian|keto|paleo|kosher|halal|gluten-free|"
    r"lactose-free|dairy-free"
)
_FULLY = r"(?:(?:fully|full|completely|totally|100%|strictly)\s+)?"
_ENDS = r"(?=\s*(?:$|[,;.!]|\b(?:because|bc|cuz|since|last|this|after|lol|tbh|for\s+good)\b))"


@on(RULES, rf"{IM}(?:an?\s+)?(?:strict\s+|full\s+)?(?P<v>{_DIET})\b")
@on(
    RULES,
    rf"{IM}(?:going|turning|becoming)\s+{_FULLY}(?P<v>{_DIET})\b",  # "i went vegan": grammar.normalize
)
@on(RULES, rf"(?:so\s+)?(?:now\s+)?{I_}(?:now\s+)?(?:call|consider)\s+myself\s+(?:an?\s+)?(?P<v>{_DIET})\b")
def _diet(m: re.Match[str]) -> list[Draft]:
    return [draft(T.CONSTRAINT, "diet", lex.DIETS.get(m["v"].lower(), m["v"].lower()))]


@on(
    RULES,
    rf"{I_}(?:quit|stopped|dropped|ditched|gave\s+up(?:\s+on)?)\s+(?:the\s+|my\s+)?"
    rf"(?P<v>{_DIET}|low[- ]carb)(?:\s+(?:diet|thing))?{_ENDS}",
)
@on(RULES, rf"{IM}(?:done\s+with|off)\s+(?:the\s+|my\s+)?(?P<v>{_DIET}|low[- ]carb)(?:\s+(?:diet|thing))?{_ENDS}")
def _diet_dropped(m: re.Match[str]) -> list[Draft]:
    """ "i quit keto", "im done with the vegan thing": the diet held is over."""
    v = m["v"].lower()
    d = (
        draft(T.CONSTRAINT, "diet", lex.DIETS[v])
        if v in lex.DIETS
        else draft(T.CONSTRAINT, "diet", v.replace("-", " "), "diet_plan")
    )
    d.negated = True
    return [d]


@on(
    RULES,
    rf"(?:{I_}(?:eat|keep|follow|do)\s+(?:an?\s+)?|{IM}on\s+an?\s+)(?P<v>{_DIET}|low[- ]carb|mediterranean|[\w-]+)\s+diet\b",
)
@on(RULES, rf"{I_}(?:eat|keep)\s+(?P<v>kosher|halal|vegan|vegetarian|plant-based)\b")
def _diet_plan(m: re.Match[str]) -> list[Draft]:
    return [draft(T.CONSTRAINT, "diet", m["v"].lower(), "diet_plan")]


@on(
    RULES,
    rf"{I_}(?P<neg>don'?t|do\s+not|never|can'?t|cannot|can\s+not|won'?t|stopped|no\s+longer|try\s+not\s+to)\s+(?P<verb>eat|drink|consum)(?:e|ing)?\s+(?P<v>.+)",
)
@on(RULES, rf"{I_}(?P<verb>avoid|stay\s+away\s+from|cut\s+out)\s+(?P<v>.+)")
def _avoid(m: re.Match[str]) -> list[Draft]:
    verb = m["verb"].lower()
    if verb.startswith("consum"):
        verb = "consume"
    neg = (m.groupdict().get("neg") or "").lower()
    if not neg:
        said = "avoids"
    elif neg.startswith("can"):
        said = f"cannot {verb}"
    else:
        said = f"does not {verb}"
    return [
        draft(T.CONSTRAINT, f"avoids:{canon(v, lex.FOODS)}", v, "avoids", verb=said)
        for v in items(m["v"])
        if not is_deictic(v) and word_count(v) <= 4
    ]


@on(RULES, rf"{IM}(?:an?\s+)?(?P<v>diabetic|asthmatic|epileptic|celiac|coeliac|hypertensive|anemic|autistic|bipolar)\b")
def _condition_adjective(m: re.Match[str]) -> list[Draft]:
    v = lex.CONDITION_ADJECTIVES[m["v"].lower()]
    return [draft(T.CRITICAL_INFO, f"condition:{canon(v, lex.CONDITIONS)}", v, "condition")]


# --- money and time -----------------------------------------------------------------------------


@on(
    RULES,
    r"my\s+(?:total\s+|max(?:imum)?\s+|monthly\s+|overall\s+)?budget\s+(?:for\s+(?P<p>.+?)\s+)?"
    r"(?:(?:now|still)\s+)?(?:is|'s|will\s+be|would\s+be|of|:)\s+(?:(?:now|still|only|just)\s+)?(?P<v>.+)",
)
@on(RULES, rf"{HAVE}(?:an?\s+)?(?:budget|max(?:imum)?)\s+of\s+(?P<v>.+)")
@on(RULES, rf"{I_}(?:can|could)\s+(?:only\s+)?(?:spend|afford)\s+(?P<v>.+)")
@on(
    RULES,
    rf"{I_}(?:can'?t|cannot|can\s+not|don'?t\s+want\s+to|do\s+not\s+want\s+to|won'?t)\s+(?:spend|"
    rf"pay)\s+more\s+than\s+(?P<v>.+)",
)
def _budget(m: re.Match[str]) -> list[Draft] | None:
    found = _money(m)
    if re.search(r"\bnow\b", m[0], re.IGNORECASE) and not m.groupdict().get("p"):
        for d in found or []:  # "my budget is now ...": a change of the budget held
            d.args[SAME_SLOT] = "budget"
    return found


@on(
    RULES,
    r"(?:the\s+|our\s+|my\s+)?(?:total\s+)?budget\s+(?:is\s+now|now\s+is|(?:has\s+)?(?:went|gone)\s+(?:up|down)\s+to|"
    r"(?:has\s+)?(?:increased|decreased|dropped|risen|rose|grown|grew|changed|moved)\s+to|is\s+(?:up|down)\s+to)\s+(?P<v>.+)",
)
@on(
    RULES,
    r"(?:we|i)\s+(?:just\s+|finally\s+)?(?:bumped|raised|increased|upped|cut|lowered|reduced|dropped|changed|moved)\s+"
    r"(?:the|our|my)\s+budget\s+(?:up\s+|down\s+)?to\s+(?P<v>.+)",
)
@on(RULES, r"(?:the\s+|our\s+|my\s+)?(?:[a-z]+\s+)?budget\s+(?:is|'s)\s+(?:more\s+like\s+)?(?P<v>.+?)\s+now\b.*")
def _budget_changed(m: re.Match[str]) -> list[Draft] | None:
    """A new budget said with no purpose ("the budget went up to 2000 euros"): it replaces the one
    budget the memory holds, whatever its purpose (:func:`~hipocampo.domain.extraction.context.resolve`)."""
    found = _money(m)
    for d in found or []:
        d.args[SAME_SLOT] = "budget"
    return found


# Said in passing, anywhere in a clause ("wedding is oct 3 💍 our budget is 18k total", "parents chipped
# in so budget is 22k now"): the amount must follow at once, so the phrase names what the money is.
on(
    PHRASES,
    r"(?<!'s\s)(?<!\bher\s)(?<!\bhis\s)(?<!\btheir\s)(?<!\byour\s)(?<![\w'’])(?:(?:our|my|the)\s+)?"
    r"(?:(?!her\b|his\b|their\b|your\b)(?P<q>[a-z]+)\s+)??budget\s+(?:for\s+(?:the\s+|our\s+|my\s+)?(?P<p>\w+(?:\s+\w+)?)\s+)?"
    r"(?:is|'s)\s+(?:now\s+)?(?:(?:only|just|about|around|more\s+like)\s+)?(?P<v>\d.*)",
)(lambda m: _budget(m))


_NOT_PURPOSES = frozenset("total max maximum monthly overall new whole so and but".split())
"""Words before "budget" that say nothing of what it is for ("the total budget is 18k")."""


def _money(m: re.Match[str]) -> list[Draft] | None:
    money = money_at(m["v"])
    if not money:
        return None
    value, rest = money
    purpose = m.groupdict().get("p") or (m.groupdict().get("q") or "").strip()  # "the trip budget"
    if fold(purpose) in _NOT_PURPOSES:
        purpose = ""
    if not purpose:
        found = re.match(r"[\s,]*(?:for|on)\s+(.+)", rest)
        purpose = clean(found.group(1)) if found else ""
    if purpose and word_count(purpose) <= 4 and fold(purpose) not in ("spending", "expenses", "everything"):
        return [draft(T.CONSTRAINT, f"budget:{purpose_key(purpose)}", value, "budget_for", purpose=purpose)]
    return [draft(T.CONSTRAINT, "budget", value)]


_DO = r"(?:(?:do|make\s+it|meet|come|work|go|train|talk|be\s+there|make)\s+)?"
on(RULES, rf"{I_}(?:can'?t|cannot|can\s+not|won'?t\s+be\s+able\s+to)\s+{_DO}(?P<v>{TIME}.*)")(
    schedule("unavailable", "unavailable")
)
on(RULES, rf"{I_}(?:don'?t|do\s+not)\s+have\s+(?:any\s+)?time\s+(?P<v>{TIME}.*)")(
    schedule("unavailable", "unavailable")
)
on(
    RULES, rf"{IM}(?:not\s+available|unavailable|busy|not\s+free|never\s+free|never\s+available|away)\s+(?P<v>{TIME}.*)"
)(schedule("unavailable", "unavailable"))
on(
    RULES,
    rf"(?:{I_}(?:can\s+only|only\s+can)\s+{_DO}|{IM}only\s+(?:available|free)\s+|{I_}only\s+have\s+time\s+|"
    rf"{IM}(?:available|free)\s+only\s+)(?P<v>{TIME}.*)",
)(schedule("available", "available_only"))
on(RULES, rf"{IM}(?:available|free)\s+(?P<v>{TIME}.*)")(schedule("available", "available"))


@on(
    RULES,
    rf"{I_}(?P<verb>have|have\s+got|got|suffer\s+from|live\s+with|was\s+diagnosed\s+with|got\s+diagnosed\s+with|"
    rf"have\s+been\s+diagnosed\s+with)\s+(?P<v>.+)",
)
@on(RULES, r"i'?ve\s+(?P<verb>got|been\s+diagnosed\s+with)\s+(?P<v>.+)")
def _condition(m: re.Match[str]) -> list[Draft]:
    explicit = "diagnos" in m["verb"] or "suffer" in m["verb"] or "live" in m["verb"]
    out = []
    for v in items(m["v"]):
        known = fold(v) in lex.CONDITIONS or fold(without_article(v)) in lex.CONDITIONS or fold(v).endswith("itis")
        if (known or explicit) and word_count(v) <= 5 and not is_deictic(v):
            out.append(draft(T.CRITICAL_INFO, f"condition:{canon(v, lex.CONDITIONS)}", v, "condition"))
    return out


on(RULES, rf"(?:{I_}(?P<verb>take|use)|{IM}(?:taking|on))\s+(?P<v>.+)")(
    lambda m: medication(m["v"], "uses" if m["verb"] and m["verb"].lower() == "use" else "takes")
)
_PRESCRIBER = (
    r"(?:(?:my|the)\s+)?(?:doc|doctor|gp|dr\.?\s+\w+|physician|psychiatrist|psych|cardiologist|neurologist|neuro|"
    r"specialist|they|she|he)"
)
on(
    RULES,
    rf"(?:{_PRESCRIBER}\s+(?:just\s+|(?:stopped|took\s+me\s+off)\s+(?:the\s+|my\s+)?\w+\s+and\s+)?"
    rf"(?:put|started|switched|moved|changed|swapped)\s+me\s+(?:on(?:to)?|to|over\s+to)|"
    rf"{I_}(?:started|began)\s+(?:taking|on)|{I_}(?:got|was|'?ve\s+been|have\s+been)\s+(?:put\s+on|prescribed)|"
    rf"{I_}(?:switched|changed|moved)\s+(?:over\s+)?(?:to|onto))\s+(?P<v>.+)",
)(lambda m: medication(m["v"], "takes"))


@on(
    RULES,
    rf"(?:{_PRESCRIBER}\s+(?:just\s+)?(?:(?:took|has\s+taken|'s\s+taken)\s+me\s+off|stopped|discontinued)|"
    rf"{I_}(?:was|got)\s+taken\s+off)\s+(?P<v>.+)",
)
def _taken_off(m: re.Match[str]) -> list[Draft] | None:
    drugs = medication(m["v"], "takes")
    for d in drugs or ():
        d.negated = True
    return drugs


# --- tastes and plans ---------------------------------------------------------------------------

_LIKE = {"like": "likes", "love": "loves", "enjoy": "enjoys", "adore": "adores", "prefer": "prefers"}
_HATE = {"hate": "hates", "dislike": "dislikes", "detest": "detests", "loathe": "loathes"}


@on(
    RULES,
    rf"{I_}(?P<verb>like|love|enjoy|adore|prefer|hate|dislike|detest|loathe|can'?t\s+stand|cannot\s+stand|"
    rf"can'?t\s+bear)\s+(?P<v>.+)",
)
def _likes(m: re.Match[str]) -> list[Draft]:
    verb = " ".join(m["verb"].lower().split())
    if verb == "prefer":
        first, *other = re.split(r"\s+(?:over|to|rather\s+than|instead\s+of|more\s+than)\s+", m["v"], maxsplit=1)
        rest = clean(other[0]) if other else ""
        return likes(first, "prefers", "en", key="prefers", other=f" over {rest}" if rest else "")
    if verb in _HATE or "stand" in verb or "bear" in verb:
        return likes(m["v"], "likes", "en", negated_verb=_HATE.get(verb, "cannot stand"))
    return likes(m["v"], _LIKE[verb], "en")


on(RULES, rf"{IM}(?:an?\s+)?(?:(?:big|huge|great|massive|real)\s+)?fan\s+of\s+(?P<v>.+)")(
    lambda m: likes(m["v"], "is a fan of", "en")
)
on(RULES, rf"{IM}(?P<verb>into|passionate\s+about|crazy\s+about|obsessed\s+with|keen\s+on|fond\s+of)\s+(?P<v>.+)")(
    lambda m: likes(m["v"], "is " + " ".join(m["verb"].lower().split()), "en")
)


@on(
    RULES,
    r"my\s+(?:all[- ]time\s+|absolute\s+|current\s+|new\s+)?(?:favou?rite|"
    r"fave)\s+(?P<cat>[a-z][\w -]{1,30}?)\s+(?:is|are|'s|has\s+to\s+be|would\s+be)\s+(?P<v>.+)",
)
@on(
    RULES,
    r"(?P<v>(?:[\w'-]+\s+){0,3}?[\w'-]+)\s+(?:is|are)\s+(?:now\s+)?my\s+(?:new\s+)?(?:favou?rite|fave)\s+"
    r"(?P<cat>[a-z][\w -]{1,30}?)(?:\s+now)?\s*(?:[,;].*)?$",
)
def _favorite(m: re.Match[str]) -> list[Draft]:
    cat = m["cat"].lower()
    cat = cat[:-1] if cat.endswith("s") and not cat.endswith(("ss", "series")) else cat
    key = canon(cat, lex.CATEGORIES)
    return [draft(T.PREFERENCE, f"favorite:{key}", v, "favorite", cat=cat) for v in items(m["v"]) if not is_deictic(v)]


_GOAL = (
    rf"(?:{I_}(?:want\s+to|wanna|plan\s+to|plan\s+on|hope\s+to|intend\s+to|aim\s+to|dream\s+of|would\s+(?:really\s+)?"
    rf"(?:like|love)\s+to|have\s+always\s+wanted\s+to)|i'?d\s+{ADV}(?:like|love)\s+to|{IM}(?:planning\s+(?:to|on)|"
    rf"hoping\s+to|trying\s+to|aiming\s+to|working\s+towards?)|i'?ve\s+{ADV}always\s+wanted\s+to)"
)
_GOAL_VERBS = [
    ("always", "has always wanted to"), ("wanna", "wants to"), ("want", "wants to"), ("like", "would like to"),
    ("love", "would love to"), ("planning on", "is planning on"), ("planning", "is planning to"),
    ("plan on", "plans on"), ("plan", "plans to"), ("hoping", "is hoping to"), ("hope", "hopes to"),
    ("intend", "intends to"), ("aiming", "is aiming to"), ("aim", "aims to"), ("trying", "is trying to"),
    ("dream", "dreams of"), ("working", "is working towards"),
]  # fmt: skip


WANTED = frozenset({"wants to", "would like to", "would love to"})
"""How a bare want is worded: in a turn that asks the assistant something, it is what the request
is for ("help me with a sql query? i want to sum sales by month"), not a plan for the user's life."""


@on(RULES, rf"(?P<verb>{_GOAL})\s+(?P<v>.+)")
def _goal(m: re.Match[str]) -> list[Draft] | None:
    verb = " ".join(m["verb"].lower().split())
    said = next(s for k, s in _GOAL_VERBS if k in verb)
    return goal(m["v"], said, "en")


@on(
    RULES,
    r"(?:my|one\s+of\s+my)\s+(?:main\s+|big\s+|biggest\s+|ultimate\s+|long[- ]term\s+|new\s+|next\s+|"
    r"current\s+)?(?P<kind>goal|dream|plan|objective|aim|resolution|target)s?\s+(?:for\s+(?:this|next)\s+year\s+|"
    r"this\s+year\s+)?(?:is|'s|are)\s+(?P<to>to\s+)?(?P<v>.+)",
)
def _goal_is(m: re.Match[str]) -> list[Draft] | None:
    found = goal(m["v"], "", "en")
    for d in found or []:
        d.template, d.args = "goal_is", {"kind": m["kind"].lower(), "to": "to " if m["to"] else ""}
    return found


@on(
    RULES,
    rf"{IM}(?:saving|saving\s+up|putting\s+money\s+aside|setting\s+money\s+aside)\s+(?:money\s+)?(?P<prep>for|"
    rf"to)\s+(?P<v>.+)",
)
def _saving(m: re.Match[str]) -> list[Draft] | None:
    v = clean(m["v"])
    if not v or word_count(v) > 12:
        return None
    return [draft(T.GOAL, f"saving_for:{slug(without_article(v))}", v, "saving", prep=m["prep"].lower())]


_CLASS = r"(?:\s+(?:evening|night|online|weekly|beginners?|intro|intensive|conversation))?\s+(?:course|class|classes|lessons)\b"


@on(
    RULES,
    rf"(?:{IM}(?:taking|doing|in)|{I_}(?:started|began|joined|signed\s+up\s+for|enrolled\s+in|take|do))\s+"
    rf"(?:an?\s+|the\s+|my\s+|some\s+)?(?P<v>[a-z][\w-]*){_CLASS}",
)
@on(RULES, rf"{IM}learning\s+(?:to\s+|how\s+to\s+)?(?P<v>.+)")
def _learning(m: re.Match[str]) -> list[Draft] | None:
    v = learnt(trim_plan(clean(m["v"]), "en"))  # "spanish on the side": how, not what
    if not v or word_count(v) > 6 or is_deictic(v):
        return None
    return [draft(T.GOAL, f"learning:{slug(v)}", v, "learning")]
