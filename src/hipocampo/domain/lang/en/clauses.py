"""How English turns split into clauses and which clauses state nothing of the user's: clause
openers, questions, hypotheticals, hedges, tag questions and reported speech. Regex fragments,
case-insensitive, joined with every other language's by :mod:`hipocampo.domain.extraction`."""

from __future__ import annotations

ABBREVIATIONS = r"dr|mr|mrs|ms|st|prof"
"""Titles whose full stop ends no sentence ("Dr. Silva")."""
SPEECH = r"said|says|told(?:\s+\w+)?|asked|wrote|replied"
"""Verbs of reported speech: what follows them ("she said: ...") is someone else's statement."""
STARTERS = (
    r"i|i'm|im|i've|i'd|i'll|my|we|we're|our|call\s+me|you\s+can\s+call\s+me|actually|also|maybe|probably|"
    r"he|she|he's|she's|now"
)
"""Words that open a new clause about someone (after a comma or a conjunction)."""
QUESTIONS = (
    r"can\s+you|could\s+you|would\s+you|do\s+you|did\s+you|will\s+you|what|where|how|which|who|why|"
    r"any\s+(?:ideas?|tips?|suggestions?)|help\s+me|(?:is|are)\s+(?:it|that|this|there|\w+)\s+"
    r"(?:ok|okay|good|fine|safe|possible)"
)
"""Openers of a question or request to the assistant, which a clause of its own then holds."""
COMMA_LINKS = r"and|but|so|also|plus"
"""Words that may follow the comma before a new clause ("..., and I live...")."""
CONJUNCTIONS = r"and|but|so|because|bc|b/c|cuz|coz|cos|'cause|since|while|although|though"
"""Conjunctions that open a new clause when a clause opener follows them ("bc i'm allergic to
penicillin": chat spells "because" many ways)."""
AND = r"and"
"""The plain "and", which before :data:`THIRD_PERSON` continues a sentence about someone else."""
THIRD_PERSON = r"lives|works|loves|likes|has"
"""Verbs that, after "and", continue a sentence about someone else ("Ana and lives...")."""
CONDITIONALS = (
    r"if|unless|suppose|supposing|imagine|what\s+if|in\s+case|assuming|let'?s\s+say|hypothetically|"
    r"i\s+wish|if\s+only|i'?m\s+not\s+sure\s+(?:if|whether)|i\s+don'?t\s+know\s+(?:if|whether)"
)
"""Openers of a hypothetical: the clause, and the one that answers it, state nothing."""
CONDITION_INSIDE = r"\b(?:if|unless|in\s+case|assuming|provided\s+(?:that\s+)?(?:i|we)|as\s+long\s+as|once\s+i\s+get)\b"
"""A condition anywhere in a sentence ("I'm moving to Stockholm if the offer comes through"): what
the sentence says depends on it, so none of it is a fact (a precise reader keeps the turn)."""
DESIRES = r"\b(?:i'?d|i\s+would|would|wish|wished|someday|some\s+day|one\s+day)\b"
"""Anywhere in a clause, a wish ("I'd love to live in Rome someday", "I wish I lived in Lisbon"): what
the user wants, not what is; such a clause may state a goal, never a fact of another kind."""
DOUBTS = (
    r"\b(?:may\s+(?:be|have|need|move|go|start|get)|might|could|should|thinking\s+(?:of|about)|considering|"
    r"wondering|not\s+sure|unsure|pretend|imagine|supposed\s+to)\b"
)
"""Anywhere in a clause, a possibility or a doubt ("I may be allergic to cats", "I'm thinking about
moving"): what may be, not what is; kept as a turn, no fact."""
MOMENT = r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening)|right\s+now|at\s+the\s+moment)\b"
"""A clause about this moment ("I'd rather stay in tonight", "I want pizza today"): a taste or a plan
said of today is no lasting preference or goal."""
FIRST_PERSON = r"\b(?:i|i'm|we)\b"
"""A hypothetical about the user ("if I moved..."), whose next clause ("I'd...") answers it."""
TAG_QUESTIONS = r"ok|okay|right|remember|yeah|eh"
"""A statement asking for a nod ("I'm vegan, ok?"): no question."""
HEDGE_WORDS = r"maybe|perhaps|probably|possibly|i\s+think|i\s+guess|kind\s+of|sort\s+of|might"
"""Words anywhere in a clause that lower its confidence."""

VALUE_ENDS = (
    r"if|unless|because|'?cause|cuz|coz|since|when|but|although|though|while|so(?!\s+(?:much|many|far)\b)|whenever|"
    r"instead\s+of|rather\s+than|"
    r"for\s+(?:\d+|a\s+few|many|several|two|three|five|ten)\s+(?:years|months|weeks)"
)
"""Where a captured value ends: a new clause or a duration ("Porto since 2019", "for five years")."""
VALUE_ENDS_AFTER_COMMA = r"so|then|and\s+then|which|that'?s|that\s+is"
"""After a comma, words that start a comment on the value rather than more of it."""
GERUND = r"[a-z]{2,}ing"
"""A verb's -ing form: a list item that starts with one and says more ("meat, going veggie") is a
new clause, unless the list is all of them ("cooking, hiking and swimming")."""
POLITE = r"please"
REMARKS = (
    r"(?:keep|bear)\s+(?:that|this|it)\s+in\s+mind|remember\s+(?:that|this|it)|don'?t\s+forget|"
    r"just\s+so\s+you\s+know|fyi|for\s+the\s+record|(?:take|make\s+a)\s+note|note\s+(?:that|it)"
)
"""A remark to the listener after a statement ("peanuts, keep that in mind"): no part of the value."""
TRAILING = (
    r"now|anymore|any more|too|as well|a lot|so much|very much|really|right now|currently|these days|"
    r"nowadays|lately|though|haha|lol|the most|more than anything|again|actually|for now|by the way|btw|ok|"
    r"okay|remember|hahaha+|either|neither"
)
"""Words a value may end with that are no part of it ("jazz, really", "Lisbon now")."""
