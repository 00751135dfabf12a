"""English cues that a statement takes back or ends what the user said before, whatever the
phrasing of the rest: the generic change detector (:mod:`hipocampo.domain.truth.changes`) pairs
them with an earlier fact the same sentence names. Patterns run over folded text."""

from __future__ import annotations

RETRACT = (
    r"\bno\s+longer\b|\bnot\b[^.!?]{0,40}\b(?:anymore|any\s+more|any\s+longer)\b|\bdon'?t\b[^.!?]{0,40}\banymore\b|"
    r"\bscratch\s+(?:that|what\s+i\s+said|the|my|our)\b|\bforget\s+(?:about\s+)?(?:the|my|our|that|what\s+i\s+said)\b|"
    r"\b(?:is|are|'s|was)\s+(?:off|cancell?ed|called\s+off)\b|\bcancell?ed\b|\bcalled\s+off\b|"
    r"\bsold\b|\bbroke\s+up\b|\bsplit\s+up\b|\b(?:died|passed\s+away)\b|\bgave\s+up\s+(?:on\s+)?\b|"
    r"\bstopped\b|\bquit\b|\bnot\s+(?:doing|going\s+to\s+do|running|going)\b[^.!?]{0,30}\bthis\s+year\b|"
    r"\bnever\s+mind\b|\bdropp(?:ed|ing)\b(?!\s+(?:off|by|in)\b)(?![^.!?,]{0,30}\boff\b)|\bended\b|\bquitting\b|"
    r"(?<!phone\s)(?<!battery\s)(?<!laptop\s)\b(?:are|'re|is|was)\s+(?:so\s+|totally\s+|officially\s+)?"
    r"(?:done|over|dead|finished)(?=\s*(?:$|[.,!;:)]|with\b|for\s+good\b|now\b|lol\b|tbh\b|ngl\b))|"
    r"\b(?:had|have)\s+to\s+put\s+(?:\w+\s+){1,2}down\b|"
    r"(?<!i'm\s)(?<!im\s)(?<!am\s)(?<!get\s)(?<!got\s)(?<!be\s)\bused\s+to\b|"
    r"\bmoved\s+(?:out\s+of|away\s+from)\b|\bmy\s+ex\b|\bex-(?:boyfriend|girlfriend|husband|wife|partner)\b"
)
"""Ending cues: with an earlier fact named in the same sentence, that fact no longer holds."""
RESUME = r"\b(?:back\s+to|again|started\s+(?:eating|drinking)\s+\w+\s+again)\b"
"""Taking something up again: ends an earlier "avoids" or "dislikes" of the thing named."""
DIET_EXCLUDES = {
    r"vegan": r"meat|chicken|beef|pork|bacon|steak|burgers?|fish|seafood|shrimp|prawns|cheese|dairy|milk|eggs?|butter|"
    r"honey",
    r"vegetarian|veggie": r"meat|chicken|beef|pork|bacon|steak|burgers?|fish|seafood|shrimp|prawns|sushi",
    r"pesc[ae]tarian": r"meat|chicken|beef|pork|bacon|steak|burgers?",
}
"""What each diet leaves out (patterns over the folded diet value, then over the folded clause):
taking one of these up again ("im eating fish again") ends the diet, though the sentence never
names it."""
SLOT_ENDINGS = {
    "employer": r"\b(?:quit|left)\s+(?:my|the)\s+job\b|\b(?:got\s+)?(?:fired|laid\s+off)\b|\bresigned\b",
    "person:partner": r"\b(?:broke|split)\s+up\b|\bex-?(?:boyfriend|girlfriend|partner)\b",
}
"""Cues that end one slot without naming its value ("I quit my job", "we broke up")."""

VALUE_ENDINGS = {
    "employer": r"\b(?:left|resigned\s+from|walked\s+out\s+of)\s+(?!\S+\s+(?:at|early|late|today|tonight|"
    r"before|after|for\s+lunch|for\s+the\s+day)\b)",
}
"""Cues that end a fact of one slot when the sentence also names its value: "I left Deloitte" ends
the employer Deloitte and nothing else ("I left the keys at home" names no employer). Leaving the
office for the day ("left Deloitte at 7", "left Acme early today") is no ending."""

SLOT_WORDS = {"budget": r"\bbudget\b", "diet": r"\bdiet\b", "employer": r"\bjob\b"}
"""A slot's own name, for a single-valued slot an ending names without its value: "forget what I said
about the budget", "já não tenho emprego". Patterns over folded text."""

NEGATIONS = r"won'?t|wont|never|don'?t|dont|didn'?t|can'?t|cannot|not|wouldn'?t|shouldn'?t|no\s+longer"
"""Words that deny the cue after them: "I won't quit", "I'll never forget the day" end nothing.
Folded text."""
ARGUMENT_ENDS = r"and|i|we|but|then|so"
"""Words after an ending cue that start another clause ("time stopped and I felt like..." ends no
feeling). Folded text."""
COMPLETION = r"\b(?:done|over|finished)\b"
"""An ending cue that may say one occurrence is over ("class is over", "gym is done"): it ends no
recurring activity (:data:`RECURRING`). Folded text."""
RECURRING = (
    r"\bevery\b|\beach\s+(?:week|day|morning|night)\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|\bweekly\b|"
    r"\bdaily\b|\b\d+\s*x\s+(?:a|per)\s+week\b|\b(?:once|twice)\s+a\s+week\b|\bweekends\b"
)
"""Words of a recurring activity ("pottery class on thursdays", "gym 3x a week"): one session
being over does not end it. Folded text."""
UNSURE = r"if|unless|suppose|imagine|what\s+if|in\s+case|maybe|perhaps|should\s+i"
"""Openers of a sentence that ends nothing: a hypothetical, a doubt, a question to oneself."""
REPORTED = r"said|says|told|asked"
"""Reported speech: someone else's words, not the user's change."""
OWN_WORDS = r"what\s+i\s+(?:said|told\s+you)"
"""The user quoting themselves ("scratch what I said"), which is no reported speech."""
CLAUSE_BREAKS = r"but|so|because|since|while"
"""Words that start another clause: an ending applies to what its own clause names."""

SUBJECTS = {
    "home": r"\b(?:i|we)\s+(?:now\s+)?(?:live|am\s+living|'m\s+living|m\s+living)\s+in\s+|"
    r"\b(?:just\s+)?moved\s+(?:back\s+|out\s+)?to\s+|\bbought\s+a\s+(?:house|place|flat|apartment|home|condo)\s+in\s+|"
    r"\b(?:live|living)\s+in\s+|\bfirst\s+(?:week|month|days?|night)\s+(?:living\s+)?in\s+|\brelocated\s+to\s+|"
    r"\bnew\s+(?:apartment|apt|flat|place|house)\s+in\s+|\bsettled\s+in(?:to)?\s+|\b(?:now\s+)?based\s+in\s+",
    "work": r"\b(?:work|working)\s+(?:at|for)\s+|\bjoined\s+|\bstarted\s+(?:work(?:ing)?\s+)?at\s+|"
    r"\bfirst\s+(?:week|day|month)\s+at\s+|\bnew\s+job\s+at\s+|\bgot\s+(?:a|the)\s+job\s+at\s+|\bhired\s+(?:at|by)\s+|"
    r"\b(?:i'?m|i\s+am)\s+(?:now\s+)?an?\s+\w+(?:\s+\w+)?\s+at\s+|\btook\s+(?:a|the)\s+job\s+(?:at|with)\s+|"
    r"\baccepted\s+(?:an?\s+|the\s+)?(?:offer|job)\s+(?:at|from|with)\s+|\bgot\s+hired\s+(?:at|by)\s+",
    "role": r"\b(?:work|working|started|joined|hired|promoted|job)\b[^.!?,;]{0,40}?\bas\s+(?:an?\s+)?|"
    r"\bpromoted\s+to\s+|\b(?:(?:they|he|she)\s+(?:just\s+)?)?promoted\s+(?:me|us)\s+to\s+|\b(?:i'?m|i\s+am)\s+(?:now\s+)?an?\s+(?P<v>[a-z]+(?:\s+[a-z]+){0,2}?)\s+(?=(?:at|for)\s)",
    "partner": r"\bmy\s+(?:new\s+)?(?:boyfriend|girlfriend|bf|gf|partner|husband|wife|fiance|fiancee)\s*,?\s*"
    r"(?:(?:is|called|named)\s+)?|\b(?:dating|seeing)\s+",
    "diet": r"\b(?:i'?m|i\s+am|im)\s+(?:now\s+|fully\s+|mostly\s+)?(?P<v>vegan|vegetarian|pescatarian|flexitarian|keto|"
    r"carnivore|paleo)\b|\b(?:went|gone|going)\s+(?P<v2>vegan|vegetarian|pescatarian|keto)\b|"
    r"(?:^|[,;]\s*)(?P<v3>vegan|vegetarian|pescatarian|flexitarian)\s+(?=i\s+guess|now\b|these\s+days|again\b|lol|haha)",
    "rent": r"\brent\s+(?:is|'s|of|went\s+up\s+to|now)\s+(?:now\s+)?|"
    r"\bpay\s+(?:\$|eur|gbp)?\s*(?=\d[\d.,]*\s*(?:a|per|/)\s*month\s+(?:in\s+)?rent)",
}
"""Subjects a person holds one value of at a time, and the frames that state their value: the
value follows the frame (or is its group ``v``). A later own sentence stating another value of the
same subject makes the earlier statement earlier (:mod:`hipocampo.domain.truth.replaced`). Pets,
children, hobbies and allergies are left out: a new one adds, it does not replace."""
SUBJECT_CHANGES = {
    "work": r"\b(?:changed|switched|swapped)\s+jobs\b|\b(?:started|starting|got|landed|took)\s+(?:a|my)\s+new\s+"
    r"(?:job|role|position)\b|\b(?:my|the)\s+new\s+job\b|"
    r"\b(?:quit|left|lost)\s+(?:my|the|that)\s+(?:job|company|firm)\b|\b(?:i|i'?ve|i\s+have)\s+(?:quit|resigned)\b|"
    r"\b(?:got|was|been|just\s+got)\s+(?:fired|laid\s+off|let\s+go|sacked)\b|\b(?:i'?m|im|i\s+am)\s+(?:now\s+)?(?:unemployed|between\s+jobs|retired)\b|"
    r"\b(?:i|i'?ve|i\s+have|we|just)\s+(?:finally\s+)?retired\b",
    "partner": r"\b(?:we|i)\s+(?:just\s+|finally\s+)?(?:broke\s+up|split\s+up|separated|got\s+divorced)\b|"
    r"\bbroke\s+up\s+with\b|\b(?:i'?m|im|i\s+am)\s+(?:single|divorced)\s+(?:now|again)\b",
    "home": r"\bmoved\s+(?:house|out|places|apartments?|flats?|cities)\b|"
    r"\b(?:our|my)\s+new\s+(?:place|apartment|flat|house)\b|"
    r"(?:\b(?:we|i)\s+|^\W*)(?:just\s+|finally\s+|recently\s+)?moved\s+(?:(?:to|into)\s+(?:a|an|the)\s+"
    r"(?:small\s+|little\s+|tiny\s+)?(?:village|town|countryside|country|farm|suburbs|coast|island)|abroad|overseas|"
    r"upstate|out\s+of\s+(?:town|the\s+city))\b",
}
"""A change of a subject said without its new value ("I changed jobs", "we moved house"): the
newest earlier statement of that subject is earlier (:func:`~hipocampo.domain.truth.replaced.replaced_statements`)."""
ADDING = r"\b(?:also|too|another|second|as\s+well|in\s+addition|on\s+the\s+side|part[-\s]time|side\s+(?:job|gig))\b"
"""Cues that a statement adds a value beside the earlier one ("I also work at a bar")."""
ADDING_OPENERS = r"also|plus|oh\s+and|and\s+also"
"""Openers that only link sentences ("also moved to Brooklyn"): no addition to the subject."""
OTHERS = r"he|she|they|his|her|their|him|them|it|its|everyone|everybody|people"
"""Third-person subjects: a clause about someone else's home or job ("she moved to Paris")."""
OWNED_SUBJECT = r"\b(?:my|our)\s+(?:[\w'-]+\s+){1,2}?(?:is|was|has|'s|got|gets|moved|moves|moving|will|just)\b"
"""Someone of the user's as a clause's subject ("my flatmate is moving to Dublin", "my sister moved
to Berlin"): a place said there is theirs (folded)."""
NOT_VALUES = (
    r"now|today|here|there|home|remote|remotely|alone|together|again|currently|atm|rn|full|time|a|an|the|some|"
    r"this|that|my|our|same|different|new|old|heart|night|times|moment|work|first|least|best|most|all"
)
"""Words after a frame that are no value: "I work from home", "living here", "moved again"."""
NOW = (
    r"\bnow\b|\binstead\b|\bthese\s+days\b|\bnowadays\b|\bswitched\b|\bchanged\b|\bmove[ds]?\s+(?:it|us|me)\b|"
    r"\brescheduled\b|\bupdated?\b|\bwent\s+up\b|\bwent\s+down\b|\braised\b|\bnew\s+one\b"
    r"|\bupped\b|\bbumped\b|\bincreased\b|\bdecreased\b|\blowered\b|\breduced\b|\bcut\s+(?:it|back|down)\b"
    r"|\brn\b|\ba\s+raise\b|\bpromoted\b|\bdoubled\b|\bhalved\b|\bswapped\b|\btraded\b|\bmov(?:e|ed|ing)\b"
)
"""Cues that a statement gives the value holding now in place of an earlier one ("Ethiopian is my
favourite cuisine now", "they put me on TP1357 instead"): with the earlier statement's subject and
another name, number or code, the earlier statement is replaced (:mod:`hipocampo.domain.truth.restated`)."""
NEW_CODE = r"\bnew\b"
"""A new code or amount in place of the old ("new code is EMB-5820"): a change cue only beside a
code or a number, since "trying out new recipes" restates no name."""
NOT_HOME = r"\b(?:job|role|team|company|position|firm|employer|promoted|department)\b"
"""Words that make a move a change of workplace ("I moved to Globex, same role"): no home is read."""

INDEFINITE = frozenset({"a", "an"})
"""Indefinite articles: "I work at a hospital" names the kind of place, not which one."""
NAMING = frozenset({"called", "named"})
"""Words that give a name after a description ("a startup called Ramp")."""
CHAT_WORDS = frozenset("btw im u ur tho lol haha".split())
"""Chat's function words the stopword list does not hold: they say nothing of a subject."""
NOT_NAMES = frozenset("i im i'm ok okay yep yes no hi hey hello ugh lol haha so well oh ah sad big new but and".split())
"""Capitalised words at a sentence's start that name nothing ("Ok", "Hey", "Sad")."""
SELF_INTRO = r"[Ii]'?m|I\s+am|[Mm]y\s+name\s+is"
"""How the speaker gives their own name ("I'm Kim", "my name is Kim"): a name said so is no value
of a subject. Case-sensitive: the name after it is capitalised."""
HERE = r"here"
"""The word after a name that introduces the speaker ("Kim here")."""
