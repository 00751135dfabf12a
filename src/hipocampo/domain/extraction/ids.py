"""Facts the user must be able to get back verbatim, in both languages: codes and identifiers
(booking references, flight, order and document numbers), birthdays, and budgets taken back.

Identifiers are critical_info: a reservation code is useless if approximately remembered. A value
is kept only when it looks like a code (letters and digits, or a long run of capitals), so "my
order number is the one you sent" yields nothing. A birthday is kept only when it is a calendar
day ("March 14", "14 de março"), never a relative one ("tomorrow").
"""

from __future__ import annotations

import re

from ..model import MemoryType as T
from ..text import fold
from .base import Draft, Rule, draft, on, purpose_key

EN_RULES: list[Rule] = []
PT_RULES: list[Rule] = []

# --- identifiers --------------------------------------------------------------------------------

_CODE = re.compile(
    r"(?:#\s*)?(?P<c>(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{2,19}|[A-Z]{5,8}|[A-Z]{2}\s\d{2,5})(?![\w-])", re.IGNORECASE
)
_KINDS = {
    "booking": "reservation", "reservation": "reservation", "confirmation": "reservation", "reserva": "reservation",
    "localizador": "reservation", "pnr": "reservation", "flight": "flight", "voo": "flight", "order": "order",
    "pedido": "order", "encomenda": "order", "passport": "passport", "passaporte": "passport", "ticket": "ticket",
    "bilhete": "ticket", "tracking": "tracking", "rastreio": "tracking", "rastreamento": "tracking",
    "policy": "insurance_policy", "apolice": "insurance_policy", "protocolo": "case", "case": "case",
    "claim": "case", "membership": "membership", "socio": "membership", "cliente": "customer",
    "customer": "customer", "account": "account", "conta": "account", "nif": "tax_id", "cpf": "tax_id",
    "rg": "id_card", "cidadao": "id_card", "identidade": "id_card", "license": "license", "carta": "license",
    "cnh": "license", "matricula": "plate", "placa": "plate", "plate": "plate",
}  # fmt: skip
_GENERIC = frozenset(
    "number no nr num code reference ref id confirmation numero codigo n º de do da dos das of my the meu minha "
    "o a".split()
)


def _code(text: str, upper_needed: bool) -> str | None:
    m = _CODE.match(text.strip())
    if not m:
        return None
    code = m["c"]
    if code.isalpha() and (upper_needed and not code.isupper()):
        return None  # "my booking is great": a word, not a code
    if code.isalpha() and fold(code) in ("number", "numero", "codigo", "code"):
        return None
    return re.sub(r"\s+", "", code).upper()


def _identifier(what: str, value: str, lang: str) -> list[Draft] | None:
    code = _code(value, upper_needed=True)
    if not code:
        return None
    words = re.findall(r"\w+", fold(what))
    kind = next((_KINDS[w] for w in words if w in _KINDS), None)
    if kind is None:
        rest = [w for w in words if w not in _GENERIC]
        if not rest or len(rest) > 3:
            return None
        kind = "_".join(rest)
    shown = re.sub(r"\b(?:my|meu|minha)\s+", "", what.strip(), flags=re.IGNORECASE)
    shown = re.sub(r"^(?:the|o|a)\s+", "", shown, flags=re.IGNORECASE).lower()
    art = "A" if lang == "pt" and re.match(r"\w*a\b", fold(shown)) else "O"
    return [draft(T.CRITICAL_INFO, f"id:{kind}", code, "identifier", what=shown, art=art)]


_ID_EN = r"(?:number|no\.?|#|code|reference|ref|id|locator|confirmation|pnr)"
on(
    EN_RULES,
    rf"(?:my|our|the)\s+(?P<what>(?:[\w-]+\s+){{0,3}}?{_ID_EN})(?:\s+is\b|'s\b|\s*[:=])\s*(?:now\s+|still\s+)?(?P<v>.+)",
)(lambda m: _identifier(m["what"], m["v"], "en"))
on(EN_RULES, r"(?:my|our)\s+(?P<what>booking|reservation|flight|order|ticket|passport)\s+(?:is|'s)\s+(?P<v>.+)")(
    lambda m: _identifier(m["what"], m["v"], "en")
)
_ID_PT = r"(?:número|numero|n[º°o]\.?|código|codigo|localizador|protocolo)"
on(
    PT_RULES,
    rf"(?:[oa]\s+)?(?:(?:meu|minha)\s+)?(?P<what>{_ID_PT}(?:\s+(?:d[oa]s?|de))?(?:\s+(?:meu|minha))?"
    rf"(?:\s+[\wà-ÿ]+){{0,3}}?)(?:\s+(?:é|e)\b|\s*[:=])\s*(?:agora\s+|ainda\s+)?(?:[oa]\s+)?(?P<v>.+)",
)(lambda m: _identifier(m["what"], m["v"], "pt"))
on(
    PT_RULES,
    r"(?:[oa]\s+)?(?:meu|minha)\s+(?P<what>reserva|voo|pedido|encomenda|bilhete|passaporte|nif|cpf)\s+(?:é|e)\s+"
    r"(?:agora\s+)?(?:[oa]\s+)?(?P<v>.+)",
)(lambda m: _identifier(m["what"], m["v"], "pt"))

# --- birthdays ----------------------------------------------------------------------------------

_MONTH_EN = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
_MONTH_PT = r"(?:janeiro|fevereiro|março|marco|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro)"
_DAY_EN = re.compile(
    rf"(?:{_MONTH_EN}\s+\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_EN})(?:,?\s+\d{{4}})?",
    re.IGNORECASE,
)
_DAY_PT = re.compile(rf"\d{{1,2}}º?\s+de\s+{_MONTH_PT}(?:\s+de\s+\d{{4}})?|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?", re.I)


def _birthday(text: str, pattern: re.Pattern[str]) -> list[Draft] | None:
    m = pattern.match(text.strip())
    if not m:
        return None
    day = m.group(0)
    day = day[:1].upper() + day[1:] if pattern is _DAY_EN else day.lower()
    return [draft(T.USER_PROFILE, "birthday", day)]


on(EN_RULES, r"my\s+birthday(?:'s|\s+is)\s+(?:on\s+)?(?:the\s+)?(?P<v>.+)")(lambda m: _birthday(m["v"], _DAY_EN))
on(EN_RULES, r"i\s+was\s+born\s+on\s+(?:the\s+)?(?P<v>.+)")(lambda m: _birthday(m["v"], _DAY_EN))
on(
    PT_RULES,
    r"(?:o\s+)?(?:meu|minha)\s+(?:aniversário|aniversario|data\s+de\s+nascimento)\s+(?:é|e|será|sera|cai)\s+"
    r"(?:em\s+|no\s+dia\s+|dia\s+|a\s+)?(?P<v>.+)",
)(lambda m: _birthday(m["v"], _DAY_PT))
on(PT_RULES, r"(?:eu\s+)?(?:faço|faco)\s+anos\s+(?:a|em|no\s+dia|dia)\s+(?P<v>.+)")(
    lambda m: _birthday(m["v"], _DAY_PT)
)
on(PT_RULES, r"(?:eu\s+)?nasci\s+(?:em|no\s+dia|a|dia)\s+(?P<v>\d.+)")(lambda m: _birthday(m["v"], _DAY_PT))

# --- budgets taken back -------------------------------------------------------------------------


def _drop_budget(purpose: str | None) -> list[Draft]:
    """ "forget the Peru trip budget": the budget for that purpose (or the budget) is retracted."""
    p = (purpose or "").strip()
    key = f"budget:{purpose_key(p)}" if p else "budget"
    d = draft(
        T.CONSTRAINT, key, "", "budget_dropped", for_en=f" for {p}" if p else "", for_pt=f" para {p}" if p else ""
    )
    d.negated = True
    return [d]


_FORGET_EN = r"(?:forget|scrap|drop|ignore|cancel|never\s+mind)\s+(?:about\s+)?"
on(
    EN_RULES,
    rf"{_FORGET_EN}(?:the|my|our)\s+(?:(?P<p>[\w -]+?)\s+)?budget(?:\s+for\s+(?:the\s+|my\s+)?(?P<q>[\w -]+))?(?:[,;].*)?$",
)(lambda m: _drop_budget(m["q"] or m["p"]))
_FORGET_PT = r"(?:esquece|esqueça|esqueca|esqueçam|ignora|ignore|cancela|cancele|desconsidera|desconsidere)\s+"
on(
    PT_RULES,
    rf"{_FORGET_PT}(?:o\s+)?(?:(?:meu|nosso)\s+)?(?:orçamento|orcamento)(?:\s+(?:d[oa]s?|de|para\s+[oa]|para|pra)\s+"
    rf"(?P<p>[\wà-ÿ -]+))?(?:[,;].*)?$",
)(lambda m: _drop_budget(m["p"]))
