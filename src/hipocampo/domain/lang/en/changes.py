"""English cues that a statement takes back or ends what the user said before, whatever the
phrasing of the rest: the generic change detector (:mod:`hipocampo.domain.truth.changes`) pairs
them with an earlier fact the same sentence names. Patterns run over folded text."""

from __future__ import annotations

RETRACT = (
    r"\bno\s+longer\b|\bnot\b[^.!?]{0,40}\b(?:anymore|any\s+more|any\s+longer)\b|\bdon'?t\b[^.!?]{0,40}\banymore\b|"
    r"\bscratch\s+(?:that|what\s+i\s+said)\b|\bforget\s+(?:about\s+)?(?:the|my|our|that|what\s+i\s+said)\b|"
    r"\b(?:is|are|'s|was)\s+(?:off|cancell?ed|called\s+off)\b|\bcancell?ed\b|\bcalled\s+off\b|"
    r"\bsold\b|\bbroke\s+up\b|\bsplit\s+up\b|\b(?:died|passed\s+away)\b|\bgave\s+up\s+(?:on\s+)?\b|"
    r"\bstopped\b|\bquit\b|\bnot\s+(?:doing|going\s+to\s+do|running|going)\b[^.!?]{0,30}\bthis\s+year\b|"
    r"\bnever\s+mind\b|\bdropped\b|\bended\b"
)
"""Ending cues: with an earlier fact named in the same sentence, that fact no longer holds."""
RESUME = r"\b(?:back\s+to|again|started\s+(?:eating|drinking)\s+\w+\s+again)\b"
"""Taking something up again: ends an earlier "avoids" or "dislikes" of the thing named."""
SLOT_ENDINGS = {
    "employer": r"\b(?:quit|left)\s+(?:my|the)\s+job\b|\b(?:got\s+)?(?:fired|laid\s+off)\b|\bresigned\b",
    "person:partner": r"\b(?:broke|split)\s+up\b|\bex-?(?:boyfriend|girlfriend|partner)\b",
}
"""Cues that end one slot without naming its value ("I quit my job", "we broke up")."""

SLOT_WORDS = {"budget": r"\bbudget\b", "diet": r"\bdiet\b", "employer": r"\bjob\b"}
"""A slot's own name, for a single-valued slot an ending names without its value: "forget what I said
about the budget", "já não tenho emprego". Patterns over folded text."""

UNSURE = r"if|unless|suppose|imagine|what\s+if|in\s+case|maybe|perhaps|should\s+i"
"""Openers of a sentence that ends nothing: a hypothetical, a doubt, a question to oneself."""
REPORTED = r"said|says|told|asked"
"""Reported speech: someone else's words, not the user's change."""
OWN_WORDS = r"what\s+i\s+(?:said|told\s+you)"
"""The user quoting themselves ("scratch what I said"), which is no reported speech."""
CLAUSE_BREAKS = r"but|so|because|since|while"
"""Words that start another clause: an ending applies to what its own clause names."""
