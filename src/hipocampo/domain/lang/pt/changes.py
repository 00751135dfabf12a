"""Portuguese cues (Brazil and Portugal) that a statement takes back or ends what the user said
before, whatever the phrasing of the rest: the generic change detector
(:mod:`hipocampo.domain.truth.changes`) pairs them with an earlier fact the same sentence names.
Patterns run over folded text (no accents)."""

from __future__ import annotations

RETRACT = (
    r"\bja\s+nao\b|\bnao\b[^.!?]{0,40}\bmais\b|\bnunca\s+mais\b|\bdeixei\s+de\b|\bparei\s+de\b|\badeus\b|"
    r"\bdeixei\s+(?:o|a|os|as)\b|"
    r"\besquece\b|\besqueca\b|\bdesconsidera\b|\besqueci\s+o\s+que\s+disse\b|"
    r"\bcancel(?:ei|ado|ada|amos|aram|ou)\b|\bdesisti\b|\bdesistimos\b|\bvendi\b|\bvendemos\b|"
    r"\bterminamos\b|\bterminei\b|\bacabou\b|\bacabamos\b|\bmorreu\b|\bfaleceu\b|\blarguei\b|\bnao\s+vai\s+(?:dar|rolar)\b|"
    r"\bfoi\s+por\s+agua\s+abaixo\b|\bsem\s+\w+\s+este\s+ano\b"
)
"""Ending cues: with an earlier fact named in the same sentence, that fact no longer holds."""
RESUME = r"\bvoltei\s+a\b|\bde\s+novo\b|\boutra\s+vez\b"
"""Taking something up again: ends an earlier "avoids" or "dislikes" of the thing named."""
SLOT_ENDINGS = {
    "employer": r"\b(?:sai|pedi\s+demissao|fui\s+demitid[oa]|fui\s+despedid[oa]|larguei)\b[^.!?]{0,30}"
    r"\b(?:emprego|empresa|trabalho)\b|\bpedi\s+demissao\b|\bfui\s+(?:demitid|despedid)[oa]\b",
    "person:partner": r"\b(?:terminamos|terminei\s+com|acabou\s+o\s+namoro|nos\s+separamos|separei-me)\b",
}
"""Cues that end one slot without naming its value ("pedi demissão", "terminamos")."""

SLOT_WORDS = {"budget": r"\bor[cç]amento\b", "diet": r"\bdieta\b", "employer": r"\b(?:emprego|trabalho)\b"}
"""A slot's own name, for a single-valued slot an ending names without its value: "forget what I said
about the budget", "já não tenho emprego". Patterns over folded text."""

UNSURE = r"se|caso|talvez|imagina|e\s+se|sera\s+que|devo"
"""Openers of a sentence that ends nothing: a hypothetical, a doubt, a question to oneself (folded)."""
REPORTED = r"disse|diz|falou|perguntou|contou"
"""Reported speech: someone else's words, not the user's change."""
OWN_WORDS = r"o\s+que\s+(?:eu\s+)?(?:disse|falei|te\s+disse)"
"""The user quoting themselves ("esquece o que eu disse"), which is no reported speech."""
CLAUSE_BREAKS = r"mas|porque|pois|entao|enquanto|embora"
"""Words that start another clause: an ending applies to what its own clause names (folded)."""
