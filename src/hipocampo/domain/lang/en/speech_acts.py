"""English speech-act cues: what makes a turn a request to the assistant, social filler, or a
statement about the speaker's life, and what makes a question one about the user.

Plain data, matched on folded text (lowercase, no accents) by
:mod:`hipocampo.domain.retrieval.speech_acts`. Cues are generic forms of the language (how people
ask, thank and greet), never topics: "give me a recipe" and "give me a poem" are requests alike.
"""

from __future__ import annotations

REQUEST_OPENERS: tuple[str, ...] = (
    r"(?:can|could|would|will) (?:you|u|ya)\b",
    r"(?:please|pls|plz)\b",
    r"(?:give|gimme|get|send|show|tell|teach|find|make|write|draft|list|name|translate|explain|summari[sz]e"
    r"|suggest|recommend|help|remind|check|fix|convert|compare|describe|plan|create|generate|rewrite|correct"
    r"|proofread|calculate|book|brainstorm|outline|define)\b",
    r"how (?:do|can|should|would) (?:i|we|you|u|one)\b",
    r"how (?:do|does|can|could|should|would|will)\b",  # "how do student loans work"
    # "what shots does a pup need", not "what i do is design" (a subject after "what" states):
    r"(?:what|which)(?! (?:i|we|you|u|he|she|they|my|our|his|her|their)\b)(?: [\w'-]+){1,2}"
    r" (?:do|does|did|should|can|could|would|will|is|are)\b",
    r"how (?:to|much|many|long|far|often)\b",
    r"what(?:'?s| is| are| was| were| does| do| should| would| can| if)\b",
    r"whats\b",
    r"which\b",
    r"who (?:is|was|are|invented|wrote)\b",
    r"where (?:is|are|can|should)\b",
    r"why (?:is|are|do|does|did)\b",
    r"when (?:is|was|did|does)\b",
    r"is (?:it|there|this|that)\b",
    r"are (?:there|they|you)\b",
    r"do you\b",
    r"any (?:tips|ideas|advice|suggestions)\b",
    r"i (?:need|want|would like|'d like) (?:you|u) to\b",
    r"i need (?:a|an|some|help|ideas|tips)\b",
    r"(?:ideas|tips|advice) (?:for|on)\b",
    r"let'?s\b",
)
"""A clause opening like these asks the assistant for something (after any filler opener)."""

FILLER_WORDS: frozenset[str] = frozenset(
    """ok okay k kk cool nice great awesome perfect thanks thank thx ty tysm thnx thank-you lol lmao haha
    hahaha hah heh hehe yay wow omg oh ah hmm hm yes yeah yep yup no nope nah sure right alright
    hi hey hello yo morning evening night gn gm bye cya later see you good bad sweet love it got noted
    np welcome cheers appreciate appreciated man dude bro sis mate amazing fine ugh meh indeed true
    exactly totally agreed agree sounds fun interesting wild crazy smh fr ikr idk nvm anyway anyways
    much so very really too that this all rock rocks lifesaver helpful you u a the is was will ooh oooh
    aw aww awww whoa woah yikes oof dang lovely neat""".split()
)
"""Words a purely social turn is made of ("thanks!!", "lol nice", "ok cool ty")."""

OPENER_WORDS: frozenset[str] = frozenset(
    """ok okay so well hey hi hello yo oh ah btw anyway anyways also and but um uh hmm lol haha cool
    nice great thanks thx ty man dude bro quick question question q""".split()
)
"""Words skipped before a clause's opener: "ok so can you..." asks like "can you...\""""

FIRST_PERSON: frozenset[str] = frozenset(
    """i i'm im i've ive i'd id i'll ill me my mine myself we we're we've our ours us""".split()
)
"""Pronouns of the speaker: a statement holding one speaks of the speaker's own world."""

OTHERS: tuple[str, ...] = (
    r"\b(?:my|our) (?:\w+ )?(?:brother|sister|mom|mum|mother|dad|father|parents?|friend|colleague|coworker|"
    r"co-worker|boss|roommate|flatmate|wife|husband|partner|boyfriend|girlfriend|bf|gf|son|daughter|kids?|"
    r"cousin|uncle|aunt|neighbou?r|grandma|grandpa|niece|nephew|in-laws?|manager)s?\b",
    r"\b(?:he|she|he's|she's|hes|shes)\b",
)
"""Another person as the subject ("my brother is a data engineer", "she's 2"): folded text."""

SELF_SUBJECT: frozenset[str] = frozenset("""i i'm im i've ive i'd i'll we we're we've""".split())
"""The speaker as the subject of a clause ("i'm a pharmacist"), as against only their possessions
or relations ("my brother is a data engineer")."""

DROPPED_SUBJECT: str = (
    r"^(?:just |finally |officially |also |then |and )?(?:(?!\w*eed\b)\w{3,}ed|got|went|began|took|left|quit|"
    r"bought|sold|found|became|made|signed|switched|joined|landed|adopted|started)\b"
)
"""A clause with its subject dropped, as chat drops it ("moved into a 2br with my friend tess", "got
promoted!!", "just started at Stripe"): a past verb opens it, and its subject is the speaker.
Folded text, one clause, its opener words skipped."""

SELF_QUESTION: tuple[str, ...] = (
    r"\b(?:my|mine|myself)\b",
    r"\b(?:do|did|am|was|have|had|can|should|will|would) i\b",
    r"\bi(?:'m|m| am| have| had| work| live| like| hate| do| did| was| used)\b",
    r"\bwhere (?:do|did) i\b",
    r"\bwho (?:am|is) i\b",
    r"\b(?:about|of|for|with|to) me\b",
    r"\bour\b",
    # Asked to be reminded of what the user said: "when's the wedding again?", "remind me...".
    r"\bagain\W*$",
    r"\bremind me\b",
    r"\bi (?:told|said|mentioned)\b",
)
"""A question holding one of these asks about the user ("what's my job?", "where do I live?",
"when's the wedding again?": a reminder of something said)."""

HOW_TO: tuple[str, ...] = (
    r"^\W*(?:how (?:do|can|should|would) (?:i|we)|how to|can (?:i|we)|should i (?:use|try|buy|get|go))\b",
    r"^\W*(?:what(?:'?s| is) (?:a|an|the) (?:good|best|easy|quick)|what should i (?:cook|make|eat|read|watch|buy))\b",
)
"""First-person questions that ask for instructions or advice, not about the user's life
("how do I boil an egg?"): the first person there is generic."""

ASKS_NAME: tuple[str, ...] = (
    r"\b(?:who|whom|whose)\b",
    r"\bwhere\b",
    r"\bwhich (?:city|town|country|company|firm|school|uni|university|team|band|hospital|airline|neighbou?rhood)\b",
    r"\bwhat(?:'s| is| was)? (?:the |my |our |his |her )?(?:name|called|company|city|town|country)\b",
    r"\b(?:named|called)\b",
)
"""A question answered by a name (a person, a place, a company): "who...", "where...", "what's
my dog called?"."""

ASKS_PLACE: tuple[str, ...] = (
    r"\bwhere\b(?!(?: \w+){1,3} work)",  # "where do I work?" asks for an employer, not a town
    r"\bwhich (?:city|town|country|state|neighbou?rhood|part of town)\b",
    r"\bwhat(?:'s| is| was)? (?:the |my |our |his |her )?(?:city|town|country|state|neighbou?rhood)\b",
)
"""A question answered by a place: "where...", "which city...". Its answer names the place,
capitalised or not ("phd student here in austin")."""

ASKS_EMPLOYER: tuple[str, ...] = (
    r"\bwhere (?:do|did|am) i (?:work|working)\b",
    r"\bwho (?:do|did) i work for\b",
    r"\b(?:which|what) (?:company|firm|employer|agency|clinic|hospital|restaurant|shop|store|bank|place)"
    r"(?: do| did)? i work\b",
    r"\b(?:my|current) (?:employer|company|workplace)\b",
)
"""A question answered by an employer: "where do I work?", "who do I work for?". Chat writes the
employer in lowercase ("shift lead at bramblecourt freight"), a word no dictionary holds or a word
companies are named with; :func:`~hipocampo.domain.retrieval.speech_acts.names_employer` reads it."""

EMPLOYER_AT: tuple[str, ...] = (r"at", r"for", r"with", r"joined")
"""Words before where one works ("at bramblecourt freight", "na coqueiral sistemas")."""

ASKS_HOURLY: tuple[str, ...] = (
    r"\b(?:an?|per|each)\s+hour\b",
    r"\bhourly\b",
    r"/\s*(?:h|hr|hour)\b",
)
"""A question on an amount per hour ("how much do i make an hour?", "meu valor/hora?"): answered by
an amount said as a rate per hour ("18.50/hr", "14€ à hora"), not by any number."""

ASKS_MONTHLY: tuple[str, ...] = (
    r"\b(?:a|per|each)\s+month\b",
    r"\bmonthly\b",
    r"/\s*(?:mo|month)\b",
)
"""A question on an amount per month ("what do i pay a month?", "quanto pago por mês?")."""

ASKS_OCCUPATION: tuple[str, ...] = (
    r"\bwhat do i do\b(?! (?:if|when|about|with|now that)\b)",
    r"\bdo i do for (?:a living|work|money)\b",
    r"\bwhat(?:'s| is| was)? my (?:job|role|title|job title|position|profession|occupation|line of work)\b",
    r"\bwhat (?:job|role|title|position|profession|kind of work) do i\b",
    r"\bwhat do i (?:teach|work as)\b",
)
"""A question answered by an occupation: "what do I do for a living?", "what's my job title?".
Its answer names a job (each bundle's ``OCCUPATIONS``), said in any words ("im a ux researcher")."""

ASKS_MEDICATION: tuple[str, ...] = (
    r"\bwhat(?:'?s| is| are)? (?:the |my )?(?:\w+ ){0,2}"
    r"(?:med|meds|medication|medicine|pill|pills|drug|drugs|dose|dosage)\b",
    r"\b(?:med|meds|medication|medicine|pill|pills|drugs?) (?:am i|do i) (?:on|take|taking)\b",
    r"\bwhat am i (?:taking|on) for\b",
)
"""A question answered by a medication: "what bp med am I on?", "what pill do I take for my
thyroid?". Its answer names a drug (each bundle's ``MEDICATIONS`` and ``DRUG_SUFFIXES``)."""

ASKS_NUMBER: tuple[str, ...] = (
    r"\bhow (?:many|much|old|long|far)\b",
    r"\b(?:number|code|reference|booking|flight|order|policy|id|pin|budget|price|rent|salary|age)\b",
    r"\b(?:dose|dosage|weigh|weight|rate|wage|payment|shift|hours)\b",
    r"\bwhat (?:time|year|date|day)\b",
)
"""A question answered by a number or a code: "how old...", "what's my flight number?"."""

ACKNOWLEDGED: tuple[str, ...] = (
    r"(?:i'?ll|i will|will|gonna|im gonna|i'?m gonna|let me|lemme)(?: \w+)? "
    r"(?:try|ask|tell|check|talk|text|call|look|see|do|test|think|keep|let|give)\b",
)
"""After a word of filler, a short promise to act on the assistant's advice ("ok i'll try that",
"sure, will do", "ok, i'll ask her"): an acknowledgement, social like a thank-you (folded)."""

ASIDES: tuple[str, ...] = ("btw", "by the way", "also")
"""Words that start another clause inside a line ("lol nice. btw im allergic to shellfish"):
each clause is read for its own act (folded)."""
