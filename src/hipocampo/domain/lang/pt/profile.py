# ruff: noqa: E501  (rules are regular expressions: split over lines they hide)
"""Portuguese statements about who the user is: name, home, work, age, family, pets, relatives.

The fragments here are shared with ``extraction.pt_needs``; ``extraction.pt`` puts the rules in order.
"""

from __future__ import annotations

import re

from ...extraction import lexicon as lex
from ...extraction.base import (
    HIGH,
    MEDIUM,
    Draft,
    Rule,
    after,
    clean,
    draft,
    instead,
    is_deictic,
    lower_org_at,
    name_alone,
    name_at,
    on,
    org_at,
    place_at,
    word_count,
)
from ...extraction.context import destination
from ...extraction.roles import changed_mind, dating, family, job_title, pet, pet_gone, relation, signed_name
from ...model import MemoryType as T
from ...text import fold
from . import lexicon as own
from .roles import masculine as pt_masculine

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
_FULLY = r"(?:(?:100\s?%|full|totalmente|s[óo])\s+)?"
"""How chat stresses a way of working ("trabalho 100% remoto", "tô full remote")."""
TENHO = rf"{EU}{ADV}tenho\s+{ADV}"
NUM = r"\d+|uma?|dois|duas|três|tres|quatro|cinco|seis|sete|oito|nove|dez"
REL = "|".join(sorted({*own.RELATIONS, "irmã", "irmão", "mãe", "avó", "avô"}, key=len, reverse=True))


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
on(RULES, rf"(?:{SOU}(?:o|a)|aqui\s+(?:é|e|quem\s+fala\s+é)(?:\s+(?:o|a)(?=\s))?)\s+(?P<v>.+)")(
    lambda m: _name(m["v"], lower_ok=False)
)

_MUDEI = (
    rf"{EU}{ADV}(?:me\s+mudei|mudei-me|mudei|acabei\s+de\s+me\s+mudar|fui\s+morar|fui\s+viver|"
    rf"voltei\s+a\s+(?:morar|viver)|vim\s+(?:morar|viver))"
)


_TO = r"(?P<prep>para|pra|pro|pras?|pros?|em|no|na|pel[oa])\s+(?:(?P<art>[oa]s?)\s+(?=[A-ZÀ-Ý]))?"
_ARTICLE_IN = {"pro": "o", "pros": "o", "no": "o", "pelo": "o", "na": "a", "pras": "a", "pela": "a"}


def _moved(m: re.Match[str], previous: str | None) -> list[Draft] | None:
    """A move to a known place is a new home; to any other name, a new home or a new job, as the
    article ("para a Globex", "para Sorocaba"), the turn and the memory tell (:mod:`~hipocampo.domain.extraction.context`)."""
    new = place_at(m["b"]) or org_at(m["b"])
    if not new:
        return None
    if fold(new) in lex.PLACES:
        return _home(new, previous=previous)
    art = (m["art"] or _ARTICLE_IN.get(m["prep"].lower(), ""))[:1].lower()
    return [destination(new, "pt", article=art, previous=previous, tail=after(m["b"], new))]


def _left_place(text: str) -> str | None:
    """What a move left: a place or an organisation, or a bare noun ("mudei de emprego")."""
    text = text.strip()
    return place_at(text) or org_at(text) or (text.lower() if re.fullmatch(r"[a-zà-ÿ]+", text) else None)


@on(RULES, rf"{_MUDEI}\s+(?:de|do|da|dos|das)\s+(?!(?:ideia|idéia|opinião|opiniao)\b)(?P<a>.+?)\s+{_TO}(?P<b>.+)")
def _moved_from_to(m: re.Match[str]) -> list[Draft] | None:
    return _moved(m, _left_place(m["a"]))


@on(RULES, rf"{_MUDEI}\s+{_TO}(?P<b>.+)")
def _moved_to(m: re.Match[str]) -> list[Draft] | None:
    new = place_at(m["b"]) or org_at(m["b"])
    old = re.match(r"[\s,]*(?:vindo|vinda)\s+(?:de|do|da)\s+(.+)", after(m["b"], new)) if new else None
    return _moved(m, place_at(old.group(1)) if old else None)


@on(
    RULES,
    rf"{EU}(?:saí|sai|me\s+demiti|pedi\s+demissão|pedi\s+demissao)\s+(?:d[oa]s?|de)\s+(?P<a>.+?)\s+{_TO}(?P<b>.+)",
)
@on(RULES, rf"{EU}(?:troquei|deixei)\s+(?:[oa]\s+)?(?P<a>.+?)\s+{_TO}(?P<b>.+)")
def _left_for(m: re.Match[str]) -> list[Draft] | None:
    """ "Saí da Acme para a Globex", "troquei a Acme pela Globex" (a job), "saí de Lisboa para o
    Porto" (a home)."""
    old = place_at(m["a"]) or org_at(m["a"])
    return _moved(m, old) if old and old == m["a"].strip() else None


@on(
    RULES,
    rf"{EU}{ADV}(?:moro|vivo|resido|estou\s+morando|tô\s+morando|to\s+morando|"
    rf"estou\s+vivendo)\s+{ADV}(?P<prep>em|no|na|nos|nas|num|numa)\s+(?P<v>.+)",
)
def _live(m: re.Match[str]) -> list[Draft] | None:
    text, prep = m["v"], m["prep"].lower()
    if (dwelling := _DWELLING.match(f"{prep} {text}")) is not None:
        text, prep = dwelling["p"], dwelling["prep"].lower()  # "num apê pequeno em curitiba": the place
    elif prep in ("num", "numa"):
        return None
    v = place_at(text)
    return _home(v, prep, instead(after(text, v), place_at)) if v else None


_DWELLING = re.compile(
    r"(?:num|numa|no|na|em\s+um|em\s+uma)\s+(?:[\w-]+\s+){0,2}?(?:apartamento|apê|ape|ap|casa|quitinete|kitnet|"
    r"kitinete|estúdio|estudio|quarto|moradia|vivenda|t[0-4])\s+(?:[\w-]+\s+)?(?P<prep>em|no|na|nos|nas)\s+(?P<p>.+)",
    re.IGNORECASE,
)
"""A home described before its place ("num apê pequeno em curitiba", "numa casa em Sintra")."""


@on(RULES, rf"{SOU}(?:natural\s+)?(?P<prep>de|do|da|dos|das)\s+(?P<v>.+)")
@on(RULES, rf"{EU}(?:nasci|cresci)\s+(?P<prep>em|no|na|nos|nas)\s+(?P<v>.+)")
def _origin(m: re.Match[str]) -> list[Draft] | None:
    v = place_at(m["v"])
    prep = {"em": "de", "no": "do", "na": "da", "nos": "dos", "nas": "das"}.get(m["prep"].lower(), m["prep"].lower())
    return [draft(T.USER_PROFILE, "origin", v, prep=prep)] if v else None


@on(
    RULES,
    rf"{EU}(?:vou\s+me\s+mudar|estou\s+me\s+mudando|tô\s+me\s+mudando|vou\s+mudar)\s+(?:para|pra|"
    rf"pro)\s+(?P<v>.+)",
)
@on(  # "a gente muda pro porto mês que vem", "vamos mudar pra curitiba", "vamo-nos mudar para o Porto"
    RULES,
    r"(?:(?:n[óo]s|a\s+gente)\s+)?(?:(?:decidimos|decidimos\s+que)\s*:?\s*)?(?:a\s+gente\s+(?:muda|vai\s+mudar|se\s+muda)|"
    r"vamos\s+(?:nos\s+)?mudar|vamo-nos\s+mudar)\s+"
    r"(?:para|pra|pro)\s+(?P<v>.+)",
)
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


on(RULES, rf"(?:{SOU}|{ESTOU}|(?:agora\s+)?(?:é|e)\s+){_FULLY}(?:remot[oa]|remote|em\s+home\s+office)\b")(
    lambda m: [draft(T.USER_PROFILE, "work_mode", "remoto")]
)


@on(RULES, rf"(?:{SOU}|{ESTOU})(?P<v>aposentad[oa]|reformad[oa]|desempregad[oa]|autônom[oa]|autonom[oa])\b")
def _status(m: re.Match[str]) -> list[Draft] | None:
    found = adjective("occupation", m["v"], lex.STATUSES, T.USER_PROFILE, "status")
    for d in found or []:
        d.args["verb"] = "está" if fold(d.value).startswith("desempregad") else "é"
    return found


# --- work and study -----------------------------------------------------------------------------

_END = r"(?=\s+(?:na|no|nos|nas|em|para|pra|pela|pelo|numa|num|há|ha|desde|e|com)\s+|[,;]|$)"


_WHEN_WORKED = re.compile(
    r"(?:(?:a\s+)?meio[\s-]+per[ií]odo|part[\s-]?time|full[\s-]?time|a\s+tempo\s+(?:inteiro|parcial)|"
    r"ao\s+fim\s+de\s+semana|aos\s+fins\s+de\s+semana|aos\s+(?:s[áa]bados|domingos)|"
    r"(?:de|à|a|pela)\s+(?:manh[ãa]|tarde|noite)|[àa]\s+noite|durante\s+o\s+dia|de\s+dia)\b",
    re.I,
)
"""When or how much one works, said before where ("trabalho ao fim de semana no café X")."""


def _work(rest: str) -> list[Draft]:
    """Read "como designer na Natura", "na Natura como designer", "com marketing", "de casa"."""
    out: list[Draft] = []
    rest = rest.strip()
    for _ in range(4):
        if m := re.match(
            rf"{_FULLY}(?:de\s+casa|remotamente|remoto|em\s+home\s+office|de\s+home\s+office|home\s+office|em\s+casa)\b",
            rest,
            re.I,
        ):
            out.append(draft(T.USER_PROFILE, "work_mode", "remoto"))
        elif m := _WHEN_WORKED.match(rest):
            pass  # "ao fim de semana no café X", "meio período na clínica Y": when, not where
        elif m := re.match(rf"como\s+(?:um\s+|uma\s+)?(?P<v>.+?){_END}", rest, re.I):
            job = clean(m["v"])
            if job and word_count(job) <= 5:
                out.append(draft(T.USER_PROFILE, "occupation", job, "occupation"))
        elif m := re.match(r"(?P<prep>na|no|nos|nas|em|para|pra|pela|pelo|da|do)\s+(?P<v>.+)", rest, re.I):
            # A name in lowercase only after "na"/"no"/"em": "trabalho pra kct" is no employer.
            org = org_at(m["v"]) or (lower_org_at(m["v"]) if m["prep"].lower() in ("na", "no", "em") else None)
            if not org:
                break
            key = "work_city" if fold(org) in lex.PLACES else "employer"
            out.append(draft(T.USER_PROFILE, key, org, prep=m["prep"].lower()))
            rest = after(m["v"], org).strip(" ,")
            continue
        elif m := re.match(
            r"(?P<prep>num|numa|em\s+um|em\s+uma)\s+(?P<v>[a-zà-ÿ-]+(?:\s+[a-zà-ÿ-]+)?)(?=\s+(?:como|há|desde|"
            r"em|no|na)\b|[,;]|$)",
            rest,
            re.I,
        ):
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


on(
    RULES,
    rf"{EU}{ADV}(?:trabalho|trampo|(?:estou|tô|to)\s+(?:trabalhando|trampando)|atuo|voltei\s+a\s+trabalhar|"
    rf"continuo\s+(?:a\s+trabalhar|trabalhando)|continuo(?=\s+n[oa]\s))\s+(?P<v>.+)",
)(lambda m: _work(m["v"]) or None)


@on(RULES, rf"{SOU}(?:um\s+|uma\s+)?(?P<v>.+)")
@on(RULES, rf"{EU}{ADV}(?:virei|me\s+tornei|tornei-me|passei\s+a\s+ser)\s+(?:um\s+|uma\s+)?(?P<v>.+)")
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


@on(RULES, rf"{EU}{ADV}(?:comecei|entrei|voltei|fui\s+contratad[oa]|fiquei)\s+(?P<v>como\s+.+)")
def _started_as(m: re.Match[str]) -> list[Draft] | None:
    """ "comecei como marketing manager na brava foods": the job, and where."""
    return _work(m["v"]) or None


@on(RULES, rf"{EU}{ADV}(?:tô|to|estou)\s+(?:agora\s+)?(?P<prep>na|no)\s+(?P<v>.+?)\s+como\s+(?P<job>.+)")
def _there_as(m: re.Match[str]) -> list[Draft] | None:
    """ "agora tô na capivara pay como dev júnior": a job names the place an employer."""
    title = job_title(m["job"], "pt")
    org = org_at(m["v"]) or lower_org_at(m["v"])
    if not title or not org or fold(org) != fold(m["v"].strip()) or fold(org) in lex.PLACES:
        return None
    return [
        draft(T.USER_PROFILE, "occupation", title, "occupation", verb="é", lemma=title),
        draft(T.USER_PROFILE, "employer", org, prep=m["prep"].lower()),
    ]


@on(
    RULES,
    rf"{EU}(?:comecei\s+a\s+trabalhar|comecei|entrei|fui\s+contratad[oa]|fui\s+admitid[oa]|dou\s+aulas?)\s+(?P<prep>na|no|em|"
    rf"pela|pelo|para|pra)\s+(?:(?P<art>[oa])\s+(?=[A-ZÀ-Ý]))?(?P<v>.+)",
)
def _employer(m: re.Match[str]) -> list[Draft] | None:
    org = org_at(m["v"]) or lower_org_at(m["v"])
    if not org or fold(org) in lex.PLACES:
        return None
    art = m["art"] or _ARTICLE_IN.get(m["prep"].lower(), "")
    prep = m["prep"].lower() if m["prep"].lower() in ("na", "no", "em") else {"a": "na", "o": "no"}.get(art, "em")
    return [draft(T.USER_PROFILE, "employer", org, prep=prep)]


_FOR_THE_DAY = re.compile(
    r"\s*(?:as|cedo|tarde|hoje|agora\s+(?:ha|a)\s+pouco|mais\s+cedo|antes|depois|pra\s+almocar)\b"
)
"""What follows a place left for the day ("saí do Itaú às 19h", "saí da Natura cedo hoje"), folded:
the job is kept (as the ending detector reads it, ``changes.VALUE_ENDINGS``)."""


@on(
    RULES,
    rf"{EU}(?:saí|sai|pedi\s+demissão|pedi\s+demissao|fui\s+demitid[oa]|me\s+demiti)\s+(?P<prep>da|do|"
    rf"de)\s+(?P<v>.+)",
)
def _left(m: re.Match[str]) -> list[Draft] | None:
    org = org_at(m["v"])
    if not org or fold(org) in lex.PLACES or _FOR_THE_DAY.match(fold(after(m["v"], org))):
        return None  # "saí do Itaú às 19h": the office for the day, not the job
    prep = {"da": "na", "do": "no"}.get(m["prep"].lower(), "em")
    d = draft(T.USER_PROFILE, "employer", org, prep=prep)
    d.negated = True
    return [d]


@on(
    RULES,
    rf"{EU}(?:estudo|faço\s+faculdade|faço\s+mestrado|faço\s+doutorado)\s+(?:[a-zà-ÿ]+\s+)?(?P<prep>na|no|"
    rf"em)\s+(?P<v>.+)",
)
def _school(m: re.Match[str]) -> list[Draft] | None:
    org = org_at(m["v"])
    return (
        [draft(T.USER_PROFILE, "school", org, prep=m["prep"].lower())] if org and fold(org) not in lex.PLACES else None
    )


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


@on(
    RULES,
    rf"{EU}(?:já\s+|ja\s+)?(?:não|nao)\s+tenho\s+(?:mais\s+)?(?:(?P<det>[oa]s?)\s+)?(?:(?:meus?|minhas?)\s+)?(?P<v>.+)",
)
@on(
    RULES, rf"{EU}(?:deixei\s+de\s+ter|nunca\s+mais\s+tive)\s+(?:(?P<det>[oa]s?)\s+)?(?:(?:meus?|minhas?)\s+)?(?P<v>.+)"
)
def _pet_gone(m: re.Match[str]) -> list[Draft] | None:
    """ "Não tenho mais o gato" (the species' slot), "Já não tenho a Mimi" (the pet with that name,
    if memory has one: see :mod:`~hipocampo.domain.extraction.context`)."""
    return pet_gone(m["v"], m["det"] or "", _PET, "pt")


@on(
    RULES,
    rf"{EU}{ADV}(?:namoro|estou\s+namorando|tô\s+namorando|to\s+namorando|ando\s+namorando|"
    rf"comecei\s+a\s+namorar)\s+(?:com\s+)?(?:[oa]\s+(?=[A-ZÀ-Ý]))?(?P<v>.+)",
)
def _dating(m: re.Match[str]) -> list[Draft] | None:
    return dating(m["v"], "pt")


on(LAST, rf"{SOU}(?P<v>[A-ZÀ-Ý].*)")(
    lambda m: _name(m["v"], lower_ok=False, confidence=MEDIUM) if name_alone(m["v"]) else None
)
on(LAST, r"(?P<v>[^\W\d_]+)\s+aqui(?=\s*(?:$|[^\w\s]))")(
    lambda m: _name(v, lower_ok=True) if (v := signed_name(m["v"])) else None
)


# --- noun phrases -------------------------------------------------------------------------------

_RELATION_NAME = r"(?:\s+se\s+chama|\s+chama-se|\s+chama|\s+chamad[oa]|\s+(?:é|e)\s+[oa]|\s*,)?\s+(?:[oa]\s+(?=[A-ZÀ-Ý]))?(?P<name>\S.*)"


_VERB_ENDINGS = ("mos", "ou", "am", "em", "ava", "avam", "ia", "iam", "ando", "endo", "indo", "ar", "er", "ir", "ei")
"""Endings of a verb right after a relation word ("minha namorada adotamos"): no lowercase name."""


@on(PHRASES, rf"\b(?:meu|minha)\s+(?P<rel>{REL})(?:\s+mais\s+(?:velh[oa]|nov[oa]))?{_RELATION_NAME}")
@on(PHRASES, rf"\bo\s+nome\s+d[oa]\s+(?:meu|minha)\s+(?P<rel>{REL})\s+(?:é|e)\s+(?P<name>.+)")
@on(PHRASES, rf"\b(?P<name>[A-ZÀ-Ý][\w'-]+(?:\s+[A-ZÀ-Ý][\w'-]+)?)\s*(?:,|\()\s*(?:meu|minha)\s+(?P<rel>{REL})\b")
def _relation(m: re.Match[str]) -> list[Draft] | None:
    name = name_at(m["name"])
    if not name and m.start("name") > m.start("rel"):  # "my bf kevin says", "meu namorado rafa come tudo"
        word = m["name"].split()[0].strip(",.!?;:")
        name = None if fold(word).endswith(_VERB_ENDINGS) else signed_name(word)
    if not name or (m.start("name") < m.start("rel") and name != m["name"].strip()):
        return None
    word = m["rel"].lower()
    rel = own.RELATIONS[fold(word)]
    return [relation(rel, word, name, fold(word) in own.FEMININE_RELATIONS)]


@on(
    PHRASES,
    r"\b(?:eu\s+)?mudei\s+de\s+(?:ideia|idéia|opinião|opiniao)\s+(?:sobre|quanto\s+(?:a|à|ao|aos|às)|acerca\s+d[eoa]s?|"
    r"(?:em|com)\s+rela[çc][ãa]o\s+(?:a|à|ao|aos|às)|a\s+respeito\s+d[eoa]s?|d[eoa]s?)\s+(?P<v>[^,.;:!?]+)",
)
def _changed_mind(m: re.Match[str]) -> list[Draft] | None:
    return changed_mind(m["v"], m.string[m.end() : m.end() + 200], "pt")


@on(PHRASES, rf"\b(?:meu|minha)\s+(?P<sp>{_PET}){_RELATION_NAME}")
@on(PHRASES, rf"\bo\s+nome\s+d[oa]\s+(?:meu|minha)\s+(?P<sp>{_PET})\s+(?:é|e)\s+(?P<name>.+)")
def _pet_name(m: re.Match[str]) -> list[Draft] | None:
    name = name_at(m["name"])
    art = "uma" if fold(m["sp"]) in own.FEMININE_PETS else "um"
    return pet(art, m["sp"].lower(), f" chamado {name}", "pt") if name else None


@on(PHRASES, rf"\b(?P<name>[\w'-]+)\s*\(\s*(?:(?:o|a)\s+)?(?:meu|minha|nosso|nossa)\s+(?P<sp>{_PET})\s*\)")
def _pet_aside(m: re.Match[str]) -> list[Draft] | None:
    """A pet named by an aside, lowercase or not: "nacho (meu gato) is sitting on my notebook", "a
    mimi (a minha gata) já está nas natas". The brackets leave no doubt the word before them is the
    name."""
    name = name_at(m["name"], lower_ok=True)
    art = "uma" if fold(m["sp"]) in own.FEMININE_PETS else "um"
    return pet(art, m["sp"].lower(), f" chamado {name}", "pt") if name else None
