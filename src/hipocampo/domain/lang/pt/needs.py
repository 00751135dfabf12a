# ruff: noqa: E501  (rules are regular expressions: split over lines they hide)
"""Portuguese statements about what the user needs and wants: health, diet, money, time, tastes, plans."""

from __future__ import annotations

import re

from ...extraction import lexicon as lex
from ...extraction.base import (
    Draft,
    Rule,
    canon,
    clean,
    draft,
    is_deictic,
    items,
    money_at,
    on,
    purpose_key,
    slug,
    word_count,
)
from ...extraction.context import SAME_SLOT
from ...extraction.roles import goal, learnt, likes, medication, schedule
from ...extraction.validate import trim_plan
from ...model import MemoryType as T
from ...text import fold
from . import forms
from .profile import ADV, ESTOU, EU, SOU, TENHO, adjective

RULES: list[Rule] = []
PHRASES: list[Rule] = []
"""Budgets said in passing, read anywhere in a clause (see :func:`_money`)."""

TIME = (  # one group: "às quartas à noite" is one time, the day with its part of the day
    r"(?:(?:(?:às|as|aos|nas|nos|na|no|à|a|de|pela|pelo|pelas|pelos|durante\s+[oa]|depois\s+das?|antes\s+das?|"
    r"até\s+[àa]s|todas?\s+as|todos\s+os|toda|todo|em|aos)\s+)*(?:segundas?|terças?|tercas?|quartas?|quintas?|"
    r"sextas?|sábados?|sabados?|domingos?)(?:-feiras?)?|(?:(?:às|as|aos|nas|nos|na|no|à|a|de|pela|pelo|"
    r"durante\s+[oa]|depois\s+das?|antes\s+das?|todas?\s+as|todos\s+os|em|nos|aos)\s+)*(?:fins?\s+de\s+semana|"
    r"finais?\s+de\s+semana|dias?\s+(?:úteis|uteis|de\s+semana)|manhãs?|manhas?|tardes?|noites?|madrugadas?|"
    r"almoço|almoco|\d{1,2}\s*(?:h|horas|:\d{2})\b))"
)


on(RULES, rf"(?:{ESTOU}|{EU}fiquei\s+)gr[áa]vida\b")(
    lambda m: [draft(T.CRITICAL_INFO, "condition:pregnancy", "grávida", "pregnant")]
)
_PREP = r"(?:a|à|ao|aos|às|as|de|do|da|dos|das|com|por)"


def _items_pt(value: str) -> list[str]:
    return [re.sub(rf"^{_PREP}\s+", "", v, flags=re.I) for v in items(value)]


@on(RULES, rf"{SOU}(?:muito\s+)?al[ée]rgic[oa]s?\s+{_PREP}\s+(?P<v>.+)")
@on(
    RULES,
    rf"{TENHO}(?:uma\s+)?(?:(?:forte|grave|séria|seria|severa|leve)\s+)?alergia(?:\s+(?:forte|grave|séria|"
    rf"severa|leve))?\s+{_PREP}\s+(?P<v>.+)",
)
def _allergy(m: re.Match[str]) -> list[Draft]:
    return [
        draft(T.CRITICAL_INFO, f"allergy:{canon(v, lex.FOODS)}", v, "allergy")
        for v in _items_pt(m["v"])
        if not is_deictic(v) and word_count(v) <= 4
    ]


@on(RULES, rf"(?:{SOU}intolerante|{TENHO}intoler[âa]ncia)\s+(?:a|à|ao|aos|às)\s+(?P<v>.+)")
def _intolerance(m: re.Match[str]) -> list[Draft]:
    return [draft(T.CRITICAL_INFO, f"intolerance:{canon(v, lex.FOODS)}", v, "intolerance") for v in _items_pt(m["v"])]


@on(
    RULES,
    r"(?:agora\s+)?(?:eu\s+)?me\s+(?:considero|chamo\s+de)\s+(?P<v>vegetarian[oa]|vegan[oa]|pescetarian[oa]|"
    r"pescatarian[oa]|ovolactovegetarian[oa]|flexitarian[oa])\b",
)
@on(
    RULES,
    rf"{SOU}(?P<v>vegetarian[oa]|vegan[oa]|pescetarian[oa]|pescatarian[oa]|ovolactovegetarian[oa]|"
    rf"flexitarian[oa])\b",
)
def _diet(m: re.Match[str]) -> list[Draft] | None:
    return adjective("diet", m["v"], lex.DIETS, T.CONSTRAINT, "diet")


@on(
    RULES,
    rf"{EU}(?:sigo|faço|faco|estou\s+(?:em|numa|fazendo)|tô\s+(?:em|numa|fazendo))\s+(?:uma\s+)?dieta\s+(?P<v>.+)",
)
def _diet_plan(m: re.Match[str]) -> list[Draft] | None:
    v = clean(m["v"])
    return [draft(T.CONSTRAINT, "diet", v.lower(), "diet_plan")] if v and word_count(v) <= 3 else None


_AVOID_VERBS = {"como": "não come", "comer": "não pode comer", "bebo": "não bebe", "beber": "não pode beber",
                "consumo": "não consome", "consumir": "não pode consumir"}  # fmt: skip


@on(
    RULES,
    rf"{EU}(?P<neg>não|nao|nunca|já\s+não)\s+(?:posso\s+|consigo\s+|devo\s+)?(?P<verb>como|bebo|consumo|comer|"
    rf"beber|consumir)\s+(?P<v>.+)",
)
@on(RULES, rf"{EU}(?P<verb>evito|parei\s+de\s+comer|parei\s+de\s+beber|cortei)\s+(?P<v>.+)")
def _avoid(m: re.Match[str]) -> list[Draft]:
    verb = " ".join(m["verb"].lower().split())
    said = _AVOID_VERBS.get(verb) or ("não bebe" if "beber" in verb else "não come" if "comer" in verb else "evita")
    return [
        draft(T.CONSTRAINT, f"avoids:{canon(v, lex.FOODS)}", v, "avoids", verb=said)
        for v in _items_pt(m["v"])
        if not is_deictic(v) and word_count(v) <= 4
    ]


@on(
    RULES,
    rf"{SOU}(?P<v>diab[ée]tic[oa]|asm[áa]tic[oa]|epil[ée]p?tic[oa]|cel[íi]ac[oa]|hipertens[oa]|an[êe]mic[oa]|"
    rf"autista)\b",
)
def _condition_adjective(m: re.Match[str]) -> list[Draft] | None:
    word = fold(m["v"]).replace("epiletic", "epileptic")
    v = lex.CONDITION_ADJECTIVES.get(word[:-1] + "o") or lex.CONDITION_ADJECTIVES.get(word)
    return [draft(T.CRITICAL_INFO, f"condition:{canon(v, lex.CONDITIONS)}", v, "condition")] if v else None


# --- money and time -----------------------------------------------------------------------------


@on(
    RULES,
    r"(?:o\s+)?meu\s+(?:orçamento|orcamento|limite)\s+(?:(?:total|máximo|maximo|mensal)\s+)?(?:(?:para|pra|pro|"
    r"de|do|da)\s+(?P<p>.+?)\s+)?(?:(?:agora|ainda|só|so)\s+)?(?:é|e|será|seria|fica|está)\s+"
    r"(?:(?:agora|ainda|só|so)\s+)?(?:de\s+)?(?P<v>.+)",
)
@on(RULES, rf"{TENHO}(?:um\s+)?(?:orçamento|orcamento)\s+(?:de\s+)?(?P<v>.+)")
@on(RULES, rf"{EU}(?:só\s+|so\s+)?(?:posso|consigo)\s+gastar\s+(?P<v>.+)")
@on(RULES, rf"{EU}não\s+(?:posso|quero|consigo)\s+gastar\s+mais\s+(?:do\s+)?(?:que|de)\s+(?P<v>.+)")
def _budget(m: re.Match[str]) -> list[Draft] | None:
    found = _money(m)
    if re.search(r"\bagora\b", m[0], re.IGNORECASE) and not m.groupdict().get("p"):
        for d in found or []:  # "my budget is agora ...": a change of the budget held
            d.args[SAME_SLOT] = "budget"
    return found


@on(
    RULES,
    r"(?:o\s+|nosso\s+|o\s+nosso\s+|meu\s+|o\s+meu\s+)?(?:orçamento|orcamento)\s+(?:d[oa]\s+(?P<p>[\w ]+?)\s+)?"
    r"(?:(?:agora\s+)?(?:já\s+|ja\s+)?(?:subiu|passou|caiu|baixou|aumentou|diminuiu|mudou)\s+(?:para|pra|a\s+ser)|ficou\s+em|"
    r"agora\s+(?:é|e|fica))\s+(?:agora\s+)?(?:de\s+)?(?P<v>.+)",
)
@on(
    RULES,
    r"(?:eu\s+|a\s+gente\s+|nós\s+)?(?:aumentamos|aumentei|baixamos|baixei|cortamos|cortei|reduzimos|reduzi|subimos|"
    r"subi|mudamos|mudei|passamos|passei)\s+o\s+(?:nosso\s+|meu\s+)?(?:orçamento|orcamento)\s+(?:d[oa]\s+(?P<p>[\w ]+?)\s+)?"
    r"(?:para|pra|pro)\s+(?P<v>.+)",
)
@on(
    PHRASES,
    r"\b(?:orçamento|orcamento)\s+(?:d[oa]\s+(?P<p>\w+(?:\s+\w+)?)\s+)?agora\s+(?:é|fica)\s+(?:de\s+)?(?P<v>\d.*)",
)
def _budget_changed(m: re.Match[str]) -> list[Draft] | None:
    """A new budget said with no purpose ("o orçamento subiu para 5 mil"): it replaces the one budget
    the memory holds, whatever its purpose (:func:`~hipocampo.domain.extraction.context.resolve`)."""
    found = _money(m)
    for d in found or []:
        d.args[SAME_SLOT] = "budget"
    return found


# Said in passing, anywhere in a clause ("ando a juntar para um carro, orçamento de 15 mil euros",
# "e o orçamento agora é 15k"): the amount must follow at once, so the phrase names what the money is.
on(
    PHRASES,
    r"\b(?:orçamento|orcamento)\s+(?:(?:para|pra|pro|d[oa])\s+(?:[oa]\s+)?(?P<p>\w+(?:\s+\w+)?)\s+)?"
    r"(?:(?:é|será|sera|fica)\s+(?:de\s+)?|de\s+)(?:uns\s+|umas\s+|até\s+|ate\s+|cerca\s+de\s+)?(?P<v>\d.*)",
)(lambda m: _money(m))


def _money(m: re.Match[str]) -> list[Draft] | None:
    money = money_at(m["v"])
    if not money:
        return None
    value, rest = money
    purpose = m.groupdict().get("p") or ""
    if not purpose:
        found = re.match(r"[\s,]*(?:para|pra|pro|com|em)\s+(.+)", rest)
        purpose = clean(found.group(1)) if found else ""
    if purpose and fold(purpose.split()[0]) in forms.AUXILIARIES:
        purpose = ""  # "15 mil para ser algo mais recente": a reason, not what the money is for
    if purpose and word_count(purpose) <= 4 and fold(purpose) not in ("gastos", "despesas", "tudo"):
        return [draft(T.CONSTRAINT, f"budget:{purpose_key(purpose)}", value, "budget_for", purpose=purpose)]
    return [draft(T.CONSTRAINT, "budget", value)]


_DO = r"(?:(?:ir|vir|falar|treinar|trabalhar|me\s+encontrar|marcar)\s+)?"
on(
    RULES,
    rf"{EU}não\s+(?:posso|consigo|tenho\s+tempo|estou\s+disponível|tô\s+disponível|fico\s+disponível)\s+{_DO}(?P<v>{TIME}.*)",
)(schedule("unavailable", "unavailable"))
on(
    RULES,
    rf"{EU}(?:só|so|somente|apenas)\s+(?:posso|consigo|tenho\s+tempo|estou\s+(?:disponível|livre)|tô\s+livre|"
    rf"fico\s+livre)\s+{_DO}(?P<v>{TIME}.*)",
)(schedule("available", "available_only"))
on(RULES, rf"{ESTOU}(?:disponível|livre)\s+(?:só\s+|somente\s+|apenas\s+)(?P<v>{TIME}.*)")(
    schedule("available", "available_only")
)
on(RULES, rf"{ESTOU}(?:disponível|livre)\s+(?P<v>{TIME}.*)")(schedule("available", "available"))


@on(
    RULES,
    rf"{EU}{ADV}(?P<verb>tenho|sofro\s+de|convivo\s+com|fui\s+diagnosticad[oa]\s+com|descobri\s+que\s+tenho|"
    rf"estou\s+com|tô\s+com)\s+(?P<v>.+)",
)
def _condition(m: re.Match[str]) -> list[Draft]:
    explicit = not re.match(r"tenho|estou|tô|descobri", m["verb"], re.I)
    out = []
    for v in items(m["v"]):
        known = fold(v) in lex.CONDITIONS or fold(re.sub(r"^(?:uma?)\s+", "", v)) in lex.CONDITIONS
        if (known or explicit) and word_count(v) <= 5 and not is_deictic(v):
            out.append(draft(T.CRITICAL_INFO, f"condition:{canon(v, lex.CONDITIONS)}", v, "condition"))
    return out


on(RULES, rf"{EU}{ADV}(?:tomo|estou\s+tomando|tô\s+tomando|to\s+tomando|(?P<use>faço\s+uso\s+de|uso))\s+(?P<v>.+)")(
    lambda m: medication(m["v"], "usa" if m["use"] else "toma")
)


@on(
    RULES,
    rf"{EU}{ADV}(?:desisti|larguei|sa[íi]|parei\s+com|abandonei)\s+(?:d[oa]\s+|[oa]\s+)?(?:dieta\s+)?"
    r"(?P<v>low\s*carb|keto|cetog[êe]nica|vegetarianismo|veganismo|paleo|jejum\s+intermitente)\b",
)
def _diet_dropped(m: re.Match[str]) -> list[Draft]:
    """ "desisti do low carb", "larguei a dieta keto": the diet held is over."""
    v = {"vegetarianismo": "vegetariano", "veganismo": "vegano"}.get(fold(m["v"]))
    d = draft(T.CONSTRAINT, "diet", v, "diet", adj=v) if v else draft(T.CONSTRAINT, "diet", m["v"].lower(), "diet_plan")
    d.negated = True
    return [d]


_PRESCRIBER = (
    r"(?:(?:o|a|meu|minha|o\s+meu|a\s+minha)\s+)?(?:m[ée]dic[oa]|doutor[a]?|dr[a]?\.?\s+\w+|psiquiatra|cardiologista|"
    r"neuro\w*|endocrino\w*|gp|cl[íi]nico\s+geral)"
)
on(
    RULES,
    rf"(?:{_PRESCRIBER}\s+(?:me\s+)?(?:passou|receitou|prescreveu)|"
    rf"{_PRESCRIBER}\s+(?:(?:tirou|suspendeu|cortou)\s+(?:[oa]\s+)?\w+\s+e\s+)?(?:me\s+)?(?:trocou|mudou|passou)(?:-me)?\s+"
    rf"(?:o\s+(?:meu\s+)?rem[ée]dio\s+)?(?:para|pra|pro|por)|"
    rf"(?:trocaram|mudaram|passaram)(?:-me|\s+me)\s+(?:para|pra|pro)|{EU}(?:comecei|passei)\s+(?:a\s+tomar|com)|{EU}comecei|"
    rf"{EU}(?:troquei|mudei)\s+(?:para|pra|pro))\s+(?:[oa]\s+)?(?P<v>.+)",
)(lambda m: medication(m["v"], "toma"))


# --- tastes and plans ---------------------------------------------------------------------------

_INTENSE = r"(?:(?:muito|bastante|demais|mesmo|também|tambem|realmente|super)\s+)*"


@on(RULES, rf"{EU}{ADV}gosto\s+{_INTENSE}(?P<prep>de|do|da|dos|das)\s+(?P<v>.+)")
def _like(m: re.Match[str]) -> list[Draft]:
    return likes(m["v"], f"gosta {m['prep'].lower()}", "pt")


_LOVE = {"adoro": "adora", "amo": "ama", "curto": "curte"}
_HATE = {"odeio": "odeia", "detesto": "detesta", "não suporto": "não suporta", "nao suporto": "não suporta",
         "não aguento": "não aguenta", "nao aguento": "não aguenta"}  # fmt: skip


@on(RULES, rf"{EU}{ADV}(?P<verb>adoro|amo|curto|odeio|detesto|n[ãa]o\s+suporto|n[ãa]o\s+aguento)\s+{_INTENSE}(?P<v>.+)")
def _love(m: re.Match[str]) -> list[Draft]:
    verb = " ".join(m["verb"].lower().split())
    if verb in _HATE:
        return likes(m["v"], "gosta de", "pt", negated_verb=_HATE[verb])
    return likes(m["v"], _LOVE[verb], "pt")


@on(
    RULES,
    rf"{SOU}(?:muito\s+|super\s+)?(?:fã|fa|fanátic[oa]|apaixonad[oa]|louc[oa])(?:\s+de\s+carteirinha)?\s+(?:de|"
    rf"do|da|dos|das|por|pelo|pela|pelos|pelas)\s+(?P<v>.+)",
)
def _fan(m: re.Match[str]) -> list[Draft]:
    return likes(m["v"], "adora", "pt")


_ADVERBIAL = re.compile(
    rf"(?:{TIME}|noite|tarde|manhã|manha|distância|distancia|vista|pé|pe|mão|mao|parte|sós|sos|vontade|moda|"
    rf"mesa|janela|beira|luz|noitinha|tardinha|hora|horas|partir|prazo|dois|duas|três|tres)\b",
    re.IGNORECASE,
)


@on(RULES, rf"{EU}{ADV}prefiro\s+(?P<v>.+)")
def _prefer(m: re.Match[str]) -> list[Draft]:
    first, *other = re.split(r"\s+(?:do\s+que|em\s+vez\s+de|ao\s+inv[ée]s\s+de)\s+", m["v"], maxsplit=1)
    if not other:
        first, *other = re.split(r"\s+(?:a|ao|à|aos|às)\s+", m["v"], maxsplit=1)
        if other and _ADVERBIAL.match(other[0]):  # "reuniões à tarde": when, not "rather than"
            first, other = m["v"], []
    rest = clean(other[0]) if other else ""
    if rest and word_count(first) > 3:
        first, rest = m["v"], ""
    return likes(first, "prefere", "pt", key="prefers", other=f" em vez de {rest}" if rest else "")


def _singular(word: str) -> str:
    for plural, one in (("ões", "ão"), ("ães", "ão"), ("eis", "el"), ("res", "r"), ("s", "")):
        if word.endswith(plural):
            return word[: -len(plural)] + one
    return word


@on(
    RULES,
    r"(?:o\s+|a\s+|os\s+|as\s+)?(?P<poss>meu|minha|meus|"
    r"minhas)\s+(?P<cat>[\wà-ÿ ]{2,30}?)\s+(?P<adj>favorit[oa]s?|preferid[oa]s?)\s+(?:é|são|e|sao)\s+(?P<v>.+)",
)
def _favorite(m: re.Match[str]) -> list[Draft]:
    cat, adj = m["cat"].lower(), m["adj"].lower()
    art = {"meu": "O", "minha": "A", "meus": "O", "minhas": "A"}[m["poss"].lower()]
    if m["poss"].lower().endswith("s"):  # "meus filmes favoritos são X e Y": one fact per film
        cat, adj = _singular(cat), adj[:-1]
    key = canon(cat, lex.CATEGORIES)
    return [
        draft(T.PREFERENCE, f"favorite:{key}", v, "favorite", cat=cat, art=art, adj=adj)
        for v in (re.sub(r"^(?:[oa]s?)\s+(?=[A-ZÀ-Ý])", "", x) for x in items(m["v"]))
        if not is_deictic(v)
    ]


_GOAL_VERBS = {"quero": "quer", "queria": "queria", "gostaria de": "gostaria de", "pretendo": "pretende",
               "planejo": "planeja", "estou planejando": "está planejando", "tô planejando": "está planejando",
               "espero": "espera", "estou tentando": "está tentando", "tô tentando": "está tentando",
               "sonho em": "sonha em", "tenho vontade de": "tem vontade de", "desejo": "deseja"}  # fmt: skip


WANTED = frozenset({"quer", "queria", "gostaria de", "tem vontade de", "deseja"})
"""How a bare want is worded: in a turn that asks the assistant something, it is what the request
is for ("me ajuda c uma query sql? quero somar vendas por mês"), not a plan for the user's life."""


@on(
    RULES,
    rf"{EU}{ADV}(?P<verb>quero|queria|gostaria\s+de|pretendo|planejo|estou\s+planejando|tô\s+planejando|espero|"
    rf"estou\s+tentando|tô\s+tentando|sonho\s+em|tenho\s+vontade\s+de|desejo)\s+(?:muito\s+)?(?P<v>.+)",
)
def _goal(m: re.Match[str]) -> list[Draft] | None:
    return goal(m["v"], _GOAL_VERBS[" ".join(m["verb"].lower().split())], "pt")


@on(
    RULES,
    r"(?:o\s+|a\s+)?(?:meu|minha)\s+(?:maior\s+|grande\s+|principal\s+|próximo\s+|proximo\s+|"
    r"nov[oa]\s+)?(?P<kind>objetivo|meta|sonho|plano|propósito|proposito)\s+(?:(?:para|pra)\s+(?:este|esse|"
    r"o\s+próximo)\s+ano\s+|deste\s+ano\s+)?(?:é|e)\s+(?P<v>.+)",
)
def _goal_is(m: re.Match[str]) -> list[Draft] | None:
    found = goal(m["v"], "", "pt")
    kind = m["kind"].lower()
    for d in found or []:
        d.template, d.args = "goal_is", {"kind": kind, "art": "A" if kind == "meta" else "O"}
    return found


@on(
    RULES,
    rf"{ESTOU}(?:economizando|juntando\s+dinheiro|guardando\s+dinheiro|poupando|"
    rf"juntando\s+grana)\s+(?P<prep>para|pra|pro|pela)\s+(?P<v>.+)",
)
def _saving(m: re.Match[str]) -> list[Draft] | None:
    v = clean(m["v"])
    if not v or word_count(v) > 12:
        return None
    key = slug(re.sub(r"^(?:[oa]s?|um|uma)\s+", "", v))
    return [draft(T.GOAL, f"saving_for:{key}", v, "saving", prep=m["prep"].lower())]


@on(
    RULES,
    rf"(?:{EU}{ADV}(?:comecei|entrei\s+(?:n[uo]m?a?|em\s+uma?)|me\s+inscrevi\s+(?:n[uo]m?a?|em\s+uma?)|"
    rf"inscrevi-me\s+(?:n[uo]m?a?|em\s+uma?)|fa[çc]o|t[ôo]\s+fazendo|estou\s+(?:a\s+fazer|fazendo)|ando\s+a\s+fazer))\s+"
    rf"(?:um\s+|uma\s+|o\s+|a\s+)?(?:curso|aulas?|cadeira)\s+(?:online\s+)?de\s+(?P<v>[a-zà-ÿ]+)\b",
)
@on(RULES, rf"{ESTOU}aprendendo\s+(?:a\s+)?(?P<v>.+)")
def _learning(m: re.Match[str]) -> list[Draft] | None:
    v = learnt(trim_plan(clean(m["v"]), "pt"))  # "guitarra nas horas vagas": how, not what
    return [draft(T.GOAL, f"learning:{slug(v)}", v, "learning")] if v and word_count(v) <= 6 else None
