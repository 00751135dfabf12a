"""Facts the user must be able to get back verbatim: codes and identifiers
(booking references, flight, order and document numbers), birthdays, and budgets taken back.

Identifiers are critical_info: a reservation code is useless if approximately remembered. A value
is kept only when it looks like a code (letters and digits, or a long run of capitals), so "my
order number is the one you sent" yields nothing. A birthday is kept only when it is a calendar
day ("March 14", "14 de março"), never a relative one ("tomorrow").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..model import MemoryType as T
from ..text import fold
from .base import Draft, draft, purpose_key

__all__ = ["birthday", "drop_budget", "identifier"]

# --- identifiers --------------------------------------------------------------------------------

_CODE = re.compile(
    r"(?:#\s*)?(?P<c>(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{2,19}|[A-Z]{5,8}|[A-Z]{2}\s\d{2,5})(?![\w-])", re.IGNORECASE
)
KINDS = {
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


def identifier(what: str, value: str, article: Callable[[str], str] = lambda _: "O") -> list[Draft] | None:
    """A code the user gave ("my booking reference is XK7P2Q"), kept only when it looks like one;
    ``article`` words the language's article for what it is ("A reserva", "O voo")."""
    code = _code(value, upper_needed=True)
    if not code:
        return None
    words = re.findall(r"\w+", fold(what))
    kind = next((KINDS[w] for w in words if w in KINDS), None)
    if kind is None:
        rest = [w for w in words if w not in _GENERIC]
        if not rest or len(rest) > 3:
            return None
        kind = "_".join(rest)
    shown = re.sub(r"\b(?:my|meu|minha)\s+", "", what.strip(), flags=re.IGNORECASE)
    shown = re.sub(r"^(?:the|o|a)\s+", "", shown, flags=re.IGNORECASE).lower()
    return [draft(T.CRITICAL_INFO, f"id:{kind}", code, "identifier", what=shown, art=article(shown))]


# --- birthdays ----------------------------------------------------------------------------------


def birthday(text: str, pattern: re.Pattern[str], *, capitalise: bool = False) -> list[Draft] | None:
    """A birthday, when ``text`` starts with a calendar day in the language's ``pattern``."""
    m = pattern.match(text.strip())
    if not m:
        return None
    day = re.sub(r"(\d)(?:st|nd|rd|th)\b(?:\s+of\b)?", r"\1", m.group(0))  # "14th of November" -> "14 November"
    day = day[:1].upper() + day[1:] if capitalise else day.lower()
    return [draft(T.USER_PROFILE, "birthday", day)]


# --- budgets taken back -------------------------------------------------------------------------


def drop_budget(purpose: str | None) -> list[Draft]:
    """ "forget the Peru trip budget": the budget for that purpose (or the budget) is retracted."""
    p = (purpose or "").strip()
    key = f"budget:{purpose_key(p)}" if p else "budget"
    d = draft(
        T.CONSTRAINT, key, "", "budget_dropped", for_en=f" for {p}" if p else "", for_pt=f" para {p}" if p else ""
    )
    d.negated = True
    return [d]
