"""What a well-formed English value looks like, for the check every candidate fact passes
(:mod:`hipocampo.domain.extraction.validate`). Words are folded (lowercase, no accents)."""

from __future__ import annotations

from .. import words_set

FILLERS = words_set(
    """by the way, btw, anyway, whatever, never mind, nevermind, i mean, you know, like, ok, okay, lol, lmao,
    rofl, haha, hehe, yeah, yes, no, nope, sure, thanks, thank you, hmm, um, uh, well, so, actually, idk,
    i guess, i dont know, oh, ah, right, cool, nice, something, stuff, things, a ton, a lot, lots, loads, tons,
    heaps, a bunch, so much, plenty, a little, a bit, everything, anything, nothing, all, all of it, all of them"""
)
"""A value that is only chatter: "I'm allergic to, by the way..." stores nothing."""
DANGLING = frozenset("to of for with without at in on from by about than and or but not no the a an my your".split())
"""Words a phrase cannot end on (it was cut), nor open when it is a thing ("likes to")."""
ARTICLES = frozenset("a an the my".split())
PRONOUNS = frozenset("i me you he she we they it i'm im i've i'd i'll myself".split())
"""A subject or object pronoun inside a value means a clause was swallowed: "here I have to drive"."""
VERB_FIRST = frozenset("be is are was do does did go say know think get make want see eat".split())
"""Verbs that cannot open a thing's name ("allergic to eat ...")."""
CLAUSE_MARKERS = frozenset("because since while although though whereas unless which who whom whose".split())
"""Words that open a clause of their own: a value containing one holds more than a phrase."""
FINITE_VERBS = frozenset(
    """is are was were has had does did would should must goes went takes took brings brought needs makes
    gets got feels feel seems seem looks""".split()
)
"""Finite verbs that never belong inside a noun phrase ("the mornings I take the dog out")."""
TIME_WORDS = frozenset(
    """morning mornings afternoon afternoons evening evenings night nights noon midday weekend weekends
    weekday weekdays early late lunch lunchtime monday tuesday wednesday thursday friday saturday sunday
    mondays tuesdays wednesdays thursdays fridays saturdays sundays am pm oclock o'clock hours""".split()
)
"""Words a time phrase is made of, with numbers and :data:`FUNCTION_WORDS`."""
HEAD_FIRST = False
"""English puts modifiers first ("morning meetings"): a time word opening a value is no head."""
FUNCTION_WORDS = frozenset("a an the in at on by before after from to until till of during around about".split())
TIME_TAIL = (
    r"(?:next|this|later\s+this|by\s+(?:the\s+)?end\s+of(?:\s+the)?|before\s+the\s+end\s+of(?:\s+the)?)\s+"
    r"(?:year|month|summer|winter|spring|fall|autumn|week)|in\s+\d{4}|by\s+\d{4}|"
    r"(?:over|during|before)\s+the\s+(?:summer|winter|holidays|break)|before\s+(?:christmas|summer|winter)|"
    r"(?:now|especially)\s+that\b.*|now\s+(?:i|we)\b.*|(?:over\s+|out\s+|up\s+|down\s+)?here\s+in\b.*|"
    r"on\s+the\s+side|as\s+a\s+hobby|for\s+fun|"
    r"(?:in|by|before|until|till|this|next)\s+(?:january|february|march|april|may|june|july|august|september|"
    r"october|november|december)|(?:in|by|before|until|till)\s+(?:the\s+)?(?:summer|winter|spring|fall|autumn)"
)
"""A time, a reason or where the speaker is, after a plan ("run a marathon next year", "learn to surf
now that I live by the sea", "open a bakery here in leeds"): no part of what is planned, nor how
("spanish on the side"); the turn keeps it, and the date resolver reads the time."""

POSSIBILITY = (
    r"^(?:(?:oh|well|so|and|but|also|honestly)[\s,]+)*(?:maybe|perhaps|possibly|probably)[\s,]+"
    r"(?:i'?ll|i\s+will|i'?m\s+going\s+to|i'?m\s+gonna|i\s+could|i\s+might|i'?d|we'?ll|we\s+will|we\s+might)\b"
)
"""A possibility, not a plan ("maybe I'll move to Berlin"): kept as a turn, never a fact."""

DEICTIC = frozenset("it it's it'll this that that's that'll these those them they you him her us".split())
"""Words that point into the talk: a value holding one names nothing by itself ("try it", "the taste
of these", "help people go through it"); its turn keeps what it pointed at."""
CHAT_TOKENS = frozenset(
    "tbh lol lmao rofl btw idk imo imho omg haha hehe smh rn ngl fr ikr ffs wtf tho pls plz".split()
)
"""Chat shorthand: no value holds one; a value that does ran on into the chatter ("Google one day tbh")."""
AUXILIARIES = frozenset("be being been have".split())
"""Bare auxiliaries: a thing that holds one is a verb phrase ("to be there")."""
GERUND = r"^[a-z]{3,}ing$"
"""A verb's -ing form: an allergen, a condition or a drug that opens with one is a doing ("waking up
early"), unless it is a known food (:data:`ING_FOODS`)."""
ING_FOODS = frozenset("pudding dressing stuffing icing frosting seasoning filling dumpling dumplings herring".split())
NOT_OPENING = frozenset(
    """am is are was were have has had tastes smells sounds looks feels seems how when what why
    there there's theres here very really so super pretty quite totally extremely not never""".split()
)
"""Verbs, adverbs of place and of degree, and negations, that cannot open a thing ("allergic to
peanuts and there they fry everything in peanut oil": a new clause after "and"; "peanuts, super
serious": a comment on the item before)."""
INSIDE = r"\b(?:every\s+(?:day|morning|night|evening|week|weekend)|per\s+(?:day|week)|a\s+day|each\s+(?:day|morning))\b"
"""A habit inside a value ("the crossword every morning"): a clause about doing, not a thing."""
INTENSIFIER = r"^(?:way\s+more|much\s+more|a\s+thousand\s+times)\b"
"""Openers that weigh a preference, with the thing preferred after them."""

SUBJECT_PRONOUNS = frozenset("i we".split())
"""A subject inside a plan opens a new clause ("... now that I live by the sea")."""
NOT_IN_ALLERGENS = frozenset("with for without careful".split())
"""Words no allergen holds ("careful with ..." is a warning)."""
NEGATION = r"not|no|never|n't|no\s+longer"
"""Negations: a saved memory that has one states the opposite of a positive fact."""
USER_WORDS = frozenset("user".split())
"""The subject of every sentence the rules write: shared by all facts, it says nothing of one."""
