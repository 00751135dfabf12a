"""Portuguese shapes of a loss (Brazil and Portugal): a job left, a partner left, a pet died, a
course given up (builders and why in :mod:`hipocampo.domain.extraction.losses`). Anchored at the
clause start."""

from __future__ import annotations

import re

from ...extraction.base import Draft, Rule, name_at, on
from ...extraction.lexicon import common_word
from ...extraction.losses import course_dropped, job_lost, partner_gone, pet_lost
from ...extraction.roles import signed_name
from .profile import _PET, ADV, ESTOU, EU, SOU

RULES: list[Rule] = []

_PARTNER = r"(?:namorad[oa]|noiv[oa]|companheir[oa]|marido|mulher|esposa|parceir[oa])"
_WHEN = (
    r"(?:\s+(?:ontem|hoje|semana|m[êe]s|ano|h[áa]|faz|de\s+vez|finalmente|agora|recentemente|anteontem|"
    r"(?:n[oa]\s+|est[ae]\s+|ess[ae]\s+)?(?:semana|m[êe]s|ano|fim|dia|domingo|s[áa]bado|segunda|ter[çc]a|quarta|"
    r"quinta|sexta))\b.*)?"
)
_NAME = r"(?P<v>[A-ZÀ-Ý][\w'-]*)"
_ART = r"(?:[oa]\s+)?"
_ANY_NAME = r"(?P<v>[^\W\d_][\w'-]*)"
"""A name in any case where the couple is the subject ("eu e o rodrigo nos separamos"): chat writes
names in lowercase, and :func:`signed_name` turns away a common word ("eu e a vida terminamos")."""


@on(
    RULES,
    rf"{EU}{ADV}(?:(?:larguei|deixei|perdi)\s+(?:o\s+)?|sa[íi]\s+d[oa]\s+)(?:meu\s+)?(?:emprego|trabalho)(?:{_WHEN}|\s*[,;.!].*)$",
)
@on(RULES, rf"{EU}{ADV}(?:fui|acabei\s+de\s+ser)\s+(?:demitid[oa]|despedid[oa]|mandad[oa]\s+embora){_WHEN}$")
@on(RULES, rf"{EU}{ADV}(?:me\s+demiti|despedi-me|pedi\s+(?:a\s+)?demiss[ãa]o){_WHEN}$")
@on(RULES, rf"(?:{SOU}|{ESTOU})desempregad[oa]\b.*")
def _job(m: re.Match[str]) -> list[Draft] | None:
    return job_lost()


@on(RULES, rf"{EU}{ADV}(?:terminei|acabei|rompi)\s+com\s+{_ART}{_NAME}{_WHEN}$")
@on(RULES, rf"{EU}{ADV}(?:me\s+separei|separei-me)\s+d[oa]\s+{_NAME}{_WHEN}$")
@on(RULES, rf"{_ART}{_ANY_NAME}\s+e\s+eu\s+(?:terminamos|acabamos|separ[áa]mo-nos|nos\s+separamos){_WHEN}$")
@on(RULES, rf"eu\s+e\s+{_ART}{_ANY_NAME}\s+(?:terminamos|acabamos|separ[áa]mo-nos|nos\s+separamos){_WHEN}$")
@on(RULES, rf"{EU}{ADV}(?:terminei|acabei|rompi)\s+com\s+(?:[oa]\s+)?(?:meu|minha)\s+{_PARTNER}{_WHEN}$")
@on(
    RULES, rf"(?:eu\s+)?{ADV}(?:terminamos|terminámos|nos\s+separamos|separ[áa]mo-nos|acab[áa]mos\s+o\s+namoro){_WHEN}$"
)
@on(RULES, rf"{EU}{ADV}(?:me\s+separei|separei-me)\s+d[oa]\s+(?:meu|minha)\s+{_PARTNER}{_WHEN}$")
def _partner(m: re.Match[str]) -> list[Draft] | None:
    name = m.groupdict().get("v")
    if name and name_at(name) != name and (name := signed_name(name)) is None:
        return None
    return partner_gone(name, "pt")


@on(
    RULES,
    rf"(?:(?P<det>[oa])\s+)?(?:(?:meu|minha|nosso|nossa)\s+)?(?:(?:querid[oa]|velh[oa]|pobre)\s+)?"
    rf"(?P<v>(?:{_PET})(?:\s+[A-ZÀ-Ý][\w'-]*)?|[A-ZÀ-Ý][\w'-]*)\s+(?:morreu|faleceu|partiu|fugiu|se\s+foi)"
    rf"{_WHEN}$",
)
@on(RULES, rf"{EU}{ADV}perdi\s+(?:(?P<det>[oa])\s+)?(?:(?:meu|minha)\s+)?(?P<v>{_PET}|[A-ZÀ-Ý][\w'-]*){_WHEN}$")
def _pet(m: re.Match[str]) -> list[Draft] | None:
    return pet_lost(m["v"], m["det"] or "", _PET, "pt")


@on(
    RULES,
    rf"{EU}{ADV}(?:desisti|larguei|sa[íi]|parei|abandonei|tranquei|deixei)\s+(?:d[oa]s?\s+|[oa]s?\s+|com\s+[oa]s?\s+)?"
    rf"(?:curso|aulas?|cadeira)\s+(?:online\s+)?de\s+(?P<v>[a-zà-ÿ]+){_WHEN}(?:\s*[,;.!].*)?$",
)
@on(  # a thing learnt, in lowercase ("desisti do alemão"); never a name ("desisti do Pedro") nor a job or a plan
    RULES,
    rf"{EU}{ADV}(?:desisti|larguei)\s+d[oa]\s+(?!(?:curso|aulas?|cadeira|emprego|trabalho|trampo|projeto|namoro|"
    rf"casamento|apartamento|ap|carro|plano|viagem|dieta|low|keto|jejum|vegetarianismo|veganismo)\b)"
    rf"(?P<v>[a-zà-ÿ][\wà-ÿ]*){_WHEN}$",
)
@on(RULES, rf"{EU}{ADV}(?:parei|deixei)\s+de\s+(?:estudar|aprender)\s+(?:o\s+|a\s+)?(?P<v>[\wÀ-ÿ]+){_WHEN}$")
def _course(m: re.Match[str]) -> list[Draft] | None:
    if m["v"][0].isupper() and name_at(m["v"]) == m["v"] and not common_word(m["v"]):
        return None  # "desisti do Pedro": a person, not a thing learnt
    return course_dropped(m["v"])
