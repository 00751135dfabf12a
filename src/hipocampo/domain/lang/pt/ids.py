# ruff: noqa: E501  (rules are regular expressions: split over lines they hide)
"""Portuguese shapes of codes, birthdays and budgets taken back (the parsing is shared:
:mod:`hipocampo.domain.extraction.ids`)."""

from __future__ import annotations

import re

from ...extraction.base import Rule, on
from ...extraction.ids import birthday, drop_budget, identifier
from ...text import fold

RULES: list[Rule] = []


def _article(what: str) -> str:
    """ "A reserva", "O voo": a noun ending in -a takes the feminine article."""
    return "A" if re.match(r"\w*a\b", fold(what)) else "O"


_ID = r"(?:número|numero|n[º°o]\.?|código|codigo|localizador|protocolo)"
on(
    RULES,
    rf"(?:[oa]\s+)?(?:(?:meu|minha)\s+)?(?P<what>{_ID}(?:\s+(?:d[oa]s?|de))?(?:\s+(?:meu|minha))?"
    rf"(?:\s+[\wà-ÿ]+){{0,3}}?)(?:\s+(?:é|e)\b|\s*[:=])\s*(?:agora\s+|ainda\s+)?(?:[oa]\s+)?(?P<v>.+)",
)(lambda m: identifier(m["what"], m["v"], _article))
on(
    RULES,
    r"(?:[oa]\s+)?(?:meu|minha)\s+(?P<what>reserva|voo|pedido|encomenda|bilhete|passaporte|nif|cpf)\s+(?:é|e)\s+"
    r"(?:agora\s+)?(?:[oa]\s+)?(?P<v>.+)",
)(lambda m: identifier(m["what"], m["v"], _article))

PHRASES: list[Rule] = []
"""Codes said in passing, after what they are ("voo TP1691 a 8 de agosto", "reserva do hostel é
PRG-55810"), anywhere in a clause: the value must look like a code
(:func:`~hipocampo.domain.extraction.ids.identifier`)."""
on(
    PHRASES,
    r"\b(?P<what>reserva|voo|localizador|bilhete|passagem)(?:\s+d[oa]\s+[\wà-ÿ]+)?(?:\s+(?:é|e)|\s*[:=#])?\s+"
    r"(?P<v>[A-Z0-9][\w-]+)",
)(lambda m: identifier(m["what"], m["v"], _article))

_MONTH = r"(?:janeiro|fevereiro|março|marco|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro)"
DAY = re.compile(rf"\d{{1,2}}º?\s+de\s+{_MONTH}(?:\s+de\s+\d{{4}})?|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?", re.I)
on(
    RULES,
    r"(?:o\s+)?(?:meu|minha)\s+(?:aniversário|aniversario|data\s+de\s+nascimento)\s+(?:é|e|será|sera|cai)\s+"
    r"(?:em\s+|no\s+dia\s+|dia\s+|a\s+)?(?P<v>.+)",
)(lambda m: birthday(m["v"], DAY))
on(RULES, r"(?:eu\s+)?(?:faço|faco)\s+anos\s+(?:a|em|no\s+dia|dia)\s+(?P<v>.+)")(lambda m: birthday(m["v"], DAY))
on(RULES, r"(?:eu\s+)?nasci\s+(?:em|no\s+dia|a|dia)\s+(?P<v>\d.+)")(lambda m: birthday(m["v"], DAY))

_FORGET = r"(?:esquece|esqueça|esqueca|esqueçam|ignora|ignore|cancela|cancele|desconsidera|desconsidere)\s+"
on(
    RULES,
    rf"{_FORGET}(?:o\s+)?(?:(?:meu|nosso)\s+)?(?:orçamento|orcamento)(?:\s+(?:d[oa]s?|de|para\s+[oa]|para|pra)\s+"
    rf"(?P<p>[\wà-ÿ -]+))?(?:[,;].*)?$",
)(lambda m: drop_budget(m["p"]))
