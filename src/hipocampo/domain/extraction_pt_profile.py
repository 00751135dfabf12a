"""Portuguese statements about who the user is: name, home, work, age, family, pets, relatives.

The fragments here are shared with ``extraction_pt_needs``; ``extraction_pt`` puts the rules in order.
"""

from __future__ import annotations

import re

from . import extraction_lexicon as lex
from .extraction_base import (
    HIGH,
    MEDIUM,
    Draft,
    Rule,
    after,
    clean,
    draft,
    instead,
    is_deictic,
    name_at,
    on,
    org_at,
    place_at,
    word_count,
)
from .extraction_roles import family, job_title, pet, pt_masculine, relation
from .model import MemoryType as T
from .text import fold

RULES: list[Rule] = []
PHRASES: list[Rule] = []
LAST: list[Rule] = []  # rules that only apply when nothing else did

EU = r"(?:eu\s+)?"
ADV = (
    r"(?:(?:também|tambem|realmente|ainda|atualmente|agora|hoje|já|ja|só|so|sempre|muito|bastante|"
    r"de\s+fato|mesmo|inclusive|na\s+verdade)\s+)*"
)
SOU = rf"{EU}{ADV}sou\s+{ADV}"
ESTOU = rf"{EU}{ADV}(?:estou|tô|to|t[ôo])\s+{ADV}"
TENHO = rf"{EU}{ADV}tenho\s+{ADV}"
NUM = r"\d+|uma?|dois|duas|três|tres|quatro|cinco|seis|sete|oito|nove|dez"
REL = "|".join(sorted({*lex.RELATIONS_PT, "irmã", "irmão", "mãe", "avó", "avô"}, key=len, reverse=True))


def _home(value: str, prep: str = "em", previous: str | None = None) -> list[Draft]:
    key = "home_country" if fold(value) in lex.COUNTRIES else "home_city"
    d = draft(T.USER_PROFILE, key, value, "home", prep=prep.lower())
    d.previous_value = previous
    return [d]


def adjective(
    key: str, word: str, known: frozenset[str] | dict[str, str], memory_type: T, template: str
) -> list[Draft] | None:
    """A gendered adjective from a closed list, stored in the masculine ("vegana" -> "vegano")."""
    lemma = pt_masculine(word.lower(), known)
    return [draft(memory_type, key, lemma, template, lemma=lemma)] if lemma else None


# --- who the user is ----------------------------------------------------------------------------


def _name(text: str, *, lower_ok: bool = True, confidence: float = HIGH, call: bool = False) -> list[Draft] | None:
    v = name_at(text, lower_ok=lower_ok)
    if not v:
        return None
    d = draft(T.USER_PROFILE, "name", v, call="1" if call else "")
    d.confidence = confidence
    d.previous_value = instead(after(text, v), name_at)
    return [d]


on(RULES, r"(?:o\s+)?meu\s+nome\s+(?:completo\s+)?(?:é|e)\s+(?P<v>.+)")(lambda m: _name(m["v"]))
on(RULES, rf"(?:{EU}me\s+chamo|chamo-me)\s+(?P<v>.+)")(lambda m: _name(m["v"]))
on(RULES, r"(?:(?:você|voce|vc|vocês)\s+)?(?:pode|podem|podes)\s+me\s+chamar\s+(?:de\s+)?(?P<v>.+)")(
    lambda m: _name(m["v"], call=True)
)
on(RULES, r"me\s+chame?\s+de\s+(?P<v>.+)")(lambda m: _name(m["v"], call=True))
on(RULES, rf"(?:{SOU}(?:o|a)|aqui\s+(?:é|e|quem\s+fala\s+é)\s+(?:o\s+|a\s+)?)\s+(?P<v>.+)")(
    lambda m: _name(m["v"], lower_ok=False)
)

_MUDEI = rf"{EU}{ADV}(?:me\s+mudei|mudei-me|mudei|acabei\s+de\s+me\s+mudar|fui\s+morar)"


@on(RULES, rf"{_MUDEI}\s+(?:de|do|da|dos|das)\s+(?P<a>.+?)\s+(?:para|pra|pro|pras?|pros?)\s+(?P<b>.+)")
def _moved_from_to(m: re.Match[str]) -> list[Draft] | None:
    new = place_at(m["b"])
    return _home(new, previous=place_at(m["a"])) if new else None


@on(RULES, rf"{_MUDEI}\s+(?:para|pra|pro|pras?|pros?|em|no|na)\s+(?P<b>.+)")
def _moved_to(m: re.Match[str]) -> list[Draft] | None:
    new = place_at(m["b"])
    if not new:
        return None
    old = re.match(r"[\s,]*(?:vindo|vinda)\s+(?:de|do|da)\s+(.+)", after(m["b"], new))
    return _home(new, previous=place_at(old.group(1)) if old else None)


@on(RULES,
    rf"{EU}{ADV}(?:moro|vivo|resido|estou\s+morando|tô\s+morando|to\s+morando|"
    rf"estou\s+vivendo)\s+{ADV}(?P<prep>em|no|na|nos|nas)\s+(?P<v>.+)")
def _live(m: re.Match[str]) -> list[Draft] | None:
    v = place_at(m["v"])
    return _home(v, m["prep"], instead(after(m["v"], v), place_at)) if v else None


@on(RULES, rf"{SOU}(?:natural\s+)?(?P<prep>de|do|da|dos|das)\s+(?P<v>.+)")
@on(RULES, rf"{EU}(?:nasci|cresci)\s+(?P<prep>em|no|na|nos|nas)\s+(?P<v>.+)")
def _origin(m: re.Match[str]) -> list[Draft] | None:
    v = place_at(m["v"])
    prep = {"em": "de", "no": "do", "na": "da", "nos": "dos", "nas": "das"}.get(m["prep"].lower(), m["prep"].lower())
    return [draft(T.USER_PROFILE, "origin", v, prep=prep)] if v else None


@on(RULES,
    rf"{EU}(?:vou\s+me\s+mudar|estou\s+me\s+mudando|tô\s+me\s+mudando|vou\s+mudar)\s+(?:para|pra|"
    rf"pro)\s+(?P<v>.+)")
def _moving(m: re.Match[str]) -> list[Draft] | None:
    v = place_at(m["v"])
    return [draft(T.GOAL, "moving_to", v, "moving")] if v else None


on(RULES, rf"{SOU}(?P<v>[\w-]+)\b")(
    lambda m: adjective("nationality", m["v"], lex.NATIONALITIES, T.USER_PROFILE, "nationality")
)


@on(RULES, rf"{TENHO}(?P<n>\d{{1,3}}|{NUM})\s+anos(?:\s+de\s+idade)?(?P<rest>.*)")
@on(RULES, rf"{EU}(?:fiz|completei|acabei\s+de\s+fazer)\s+(?P<n>\d{{1,3}})\s+anos(?P<rest>)")
def _age(m: re.Match[str]) -> list[Draft] | None:
    n = int(m["n"]) if m["n"].isdigit() else None
    if n is None or clean(m["rest"]) or not 0 < n <= 120:
        return None
    return [draft(T.USER_PROFILE, "age", str(n))]


on(RULES, rf"(?:{SOU}|{ESTOU})(?P<v>casad[oa]|solteir[oa]|divorciad[oa]|viúv[oa]|viuv[oa]|noiv[oa]|separad[oa])\b")(
    lambda m: adjective("marital_status", m["v"], lex.MARITAL, T.USER_PROFILE, "marital")
)


@on(RULES, rf"(?:{SOU}|{ESTOU})(?P<v>aposentad[oa]|reformad[oa]|desempregad[oa]|autônom[oa]|autonom[oa])\b")
def _status(m: re.Match[str]) -> list[Draft] | None:
    found = adjective("occupation", m["v"], lex.STATUSES, T.USER_PROFILE, "status")
    for d in found or []:
        d.args["verb"] = "está" if fold(d.value).startswith("desempregad") else "é"
    return found


# --- work and study -----------------------------------------------------------------------------

_END = r"(?=\s+(?:na|no|nos|nas|em|para|pra|pela|pelo|numa|num|há|ha|desde|e|com)\s+|[,;]|$)"


def _work(rest: str) -> list[Draft]:
    """Read "como designer na Natura", "na Natura como designer", "com marketing", "de casa"."""
    out: list[Draft] = []
    rest = rest.strip()
    for _ in range(4):
        if m := re.match(
            r"(?:de\s+casa|remotamente|remoto|em\s+home\s+office|de\s+home\s+office|home\s+office|em\s+casa)\b", rest, re.I):
            out.append(draft(T.USER_PROFILE, "work_mode", "remoto"))
        elif m := re.match(rf"como\s+(?:um\s+|uma\s+)?(?P<v>.+?){_END}", rest, re.I):
            job = clean(m["v"])
            if job and word_count(job) <= 5:
                out.append(draft(T.USER_PROFILE, "occupation", job, "occupation"))
        elif m := re.match(r"(?P<prep>na|no|nos|nas|em|para|pra|pela|pelo|da|do)\s+(?P<v>.+)", rest, re.I):
            org = org_at(m["v"])
            if not org:
                break
            key = "work_city" if fold(org) in lex.PLACES else "employer"
            out.append(draft(T.USER_PROFILE, key, org, prep=m["prep"].lower()))
            rest = after(m["v"], org).strip(" ,")
            continue
        elif m := re.match(
            r"(?P<prep>num|numa|em\s+um|em\s+uma)\s+(?P<v>[a-zà-ÿ-]+(?:\s+[a-zà-ÿ-]+)?)(?=\s+(?:como|há|desde|"
            r"em|no|na)\b|[,;]|$)", rest, re.I):
            art = "uma" if m["prep"].lower().endswith("a") else "um"
            out.append(draft(T.USER_PROFILE, "employer", f"{art} {m['v']}", prep="em"))
        elif m := re.match(rf"com\s+(?P<v>[a-zà-ÿ][\wà-ÿ ]*?){_END}", rest, re.I):
            field = clean(m["v"])
            if field and word_count(field) <= 3 and not is_deictic(field):
                out.append(draft(T.USER_PROFILE, "work_field", field))
        else:
            break
        rest = rest[m.end() :].strip(" ,")
    return out


on(RULES, rf"{EU}{ADV}(?:trabalho|estou\s+trabalhando|tô\s+trabalhando|to\s+trabalhando|atuo)\s+(?P<v>.+)")(
    lambda m: _work(m["v"]) or None
)


@on(RULES, rf"{SOU}(?:um\s+|uma\s+)?(?P<v>.+)")
def _job(m: re.Match[str]) -> list[Draft] | None:
    title = job_title(m["v"], "pt")
    if not title:
        return None
    student = fold(title).startswith("estudante")
    out = [draft(T.USER_PROFILE, "occupation", title, "status" if student else "occupation", verb="é", lemma=title)]
    for d in _work(after(m["v"], title)):
        if student and d.key == "employer":
            d.key, d.template = "school", "school"
        out.append(d)
    return out


@on(RULES, rf"{EU}(?:comecei\s+a\s+trabalhar|entrei|fui\s+contratad[oa])\s+(?P<prep>na|no|em|pela|pelo|para|"
    rf"pra)\s+(?P<v>.+)")
def _employer(m: re.Match[str]) -> list[Draft] | None:
    org = org_at(m["v"])
    if not org or fold(org) in lex.PLACES:
        return None
    prep = m["prep"].lower()
    return [draft(T.USER_PROFILE, "employer", org, prep=prep if prep in ("na", "no", "em") else "em")]


@on(RULES, rf"{EU}(?:saí|sai|pedi\s+demissão|pedi\s+demissao|fui\s+demitid[oa]|me\s+demiti)\s+(?P<prep>da|do|"
    rf"de)\s+(?P<v>.+)")
def _left(m: re.Match[str]) -> list[Draft] | None:
    org = org_at(m["v"])
    if not org or fold(org) in lex.PLACES:
        return None
    prep = {"da": "na", "do": "no"}.get(m["prep"].lower(), "em")
    d = draft(T.USER_PROFILE, "employer", org, prep=prep)
    d.negated = True
    return [d]


@on(RULES, rf"{EU}(?:estudo|faço\s+faculdade|faço\s+mestrado|faço\s+doutorado)\s+(?:[a-zà-ÿ]+\s+)?(?P<prep>na|no|"
    rf"em)\s+(?P<v>.+)")
def _school(m: re.Match[str]) -> list[Draft] | None:
    org = org_at(m["v"])
    return [draft(T.USER_PROFILE, "school", org, prep=m["prep"].lower())] if org and fold(org) not in lex.PLACES else None


# --- family, pets, health -----------------------------------------------------------------------

_KIN = r"filhos|filhas|filho|filha|irmãos|irmaos|irmãs|irmas|irmão|irmao|irmã|irma|netos|netas|neto|neta|gêmeos|gemeos"
_PET = (
    r"gat[oa]s?|gatinh[oa]s?|cachorr[oa]s?|cachorrinh[oa]s?|cães|cão|cadelas?|papagaios?|calopsitas?|coelhos?|"
    r"peixes?|hamsters?|tartarugas?|cavalos?"
)
_ADJ = r"(?:(?:lindos?|lindas?|pequen[oa]s?)\s+)?"


@on(RULES, rf"{EU}(?:tenho|temos)\s+(?P<n>{NUM})\s+{_ADJ}(?P<noun>{_KIN})\b(?P<rest>.*)")
def _family(m: re.Match[str]) -> list[Draft] | None:
    return family(m["n"], m["noun"], m["rest"], "pt")


@on(RULES, rf"{EU}(?:tenho|temos|adotei|ganhei)\s+(?P<n>{NUM})\s+{_ADJ}(?P<sp>{_PET})\b(?P<rest>.*)")
def _pets(m: re.Match[str]) -> list[Draft] | None:
    found = pet(m["n"], m["sp"], m["rest"], "pt")
    more = re.match(rf"\s*(?:,|e)\s+(?P<n>{NUM})\s+{_ADJ}(?P<sp>{_PET})\b(?P<rest>.*)", m["rest"], re.I)
    return (found or []) + (_pets(more) or []) if more else found


on(LAST, rf"{SOU}(?P<v>[A-ZÀ-Ý].*)")(lambda m: _name(m["v"], lower_ok=False, confidence=MEDIUM))


# --- noun phrases -------------------------------------------------------------------------------

_RELATION_NAME = r"(?:\s+se\s+chama|\s+chama-se|\s+chama|\s+chamad[oa]|\s+(?:é|e)\s+[oa]|\s*,)?\s+(?:[oa]\s+(?=[A-ZÀ-Ý]))?(?P<name>\S.*)"


@on(PHRASES, rf"\b(?:meu|minha)\s+(?P<rel>{REL})(?:\s+mais\s+(?:velh[oa]|nov[oa]))?{_RELATION_NAME}")
@on(PHRASES, rf"\bo\s+nome\s+d[oa]\s+(?:meu|minha)\s+(?P<rel>{REL})\s+(?:é|e)\s+(?P<name>.+)")
@on(PHRASES, rf"\b(?P<name>[A-ZÀ-Ý][\w'-]+(?:\s+[A-ZÀ-Ý][\w'-]+)?)\s*(?:,|\()\s*(?:meu|minha)\s+(?P<rel>{REL})\b")
def _relation(m: re.Match[str]) -> list[Draft] | None:
    name = name_at(m["name"])
    if not name or (m.start("name") < m.start("rel") and name != m["name"].strip()):
        return None
    word = m["rel"].lower()
    rel = lex.RELATIONS_PT[fold(word)]
    return [relation(rel, word, name, fold(word) in lex.PT_FEMININE_RELATIONS)]


@on(PHRASES, rf"\b(?:meu|minha)\s+(?P<sp>{_PET}){_RELATION_NAME}")
@on(PHRASES, rf"\bo\s+nome\s+d[oa]\s+(?:meu|minha)\s+(?P<sp>{_PET})\s+(?:é|e)\s+(?P<name>.+)")
def _pet_name(m: re.Match[str]) -> list[Draft] | None:
    name = name_at(m["name"])
    art = "uma" if fold(m["sp"]) in lex.PT_FEMININE_PETS else "um"
    return pet(art, m["sp"].lower(), f" chamado {name}", "pt") if name else None
