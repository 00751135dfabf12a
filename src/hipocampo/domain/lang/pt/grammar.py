# ruff: noqa: E501  (rules are regular expressions: split over lines they hide)
"""Portuguese for the fact extractor: rule order, clause rewrites, openers, hedges and templates.

Portuguese marks gender on adjectives ("sou alérgica", "obrigada"), so values are stored in the
masculine (a fact about the user has no gender) and sentences agree with the subject: "A usuária é
vegetariana." when the turn shows a feminine speaker, "O usuário ..." otherwise.
"""

from __future__ import annotations

import re

from ...extraction import lexicon as lex
from ...extraction.base import Grammar, Person, leading_name
from ...text import fold
from . import ids, losses, needs, profile
from . import lexicon as own
from .profile import REL
from .roles import feminine as pt_feminine

_GENDERED = (*own.OCCUPATIONS, *lex.NATIONALITIES, *lex.DIETS, *lex.MARITAL, *lex.STATUSES, "alérgico", "diabético",
             "celíaco", "cansado", "formado", "obrigado", "ocupado", "preocupado", "grávido", "sozinho", "reformado",
             "aposentado", "casado", "cansado", "animado", "nervoso", "feliz")  # fmt: skip
# Only words with two forms tell the speaker's gender: "analista", "motorista", "gerente" are
# said alike by anyone ("sou motorista de app" said nothing of it, and was read as feminine).
_TWO_FORMS = [w for w in _GENDERED if fold(pt_feminine(w)) != fold(w)]
_FEMININE_WORDS = frozenset(fold(pt_feminine(w)) for w in _TWO_FORMS) - {"estudanta"}
_MASCULINE_WORDS = frozenset(fold(w) for w in _TWO_FORMS) - _FEMININE_WORDS
_GENDERED_FOLDED = frozenset(fold(w) for w in _GENDERED)
_SELF = re.compile(
    r"\b(?:sou|aqui\s+é|aqui\s+e)\s+(?P<art>[oa])\s+[A-ZÀ-Ý]|"
    r"\b(?P<word>obrigad[oa]|grávida|gravida)\b|\b(?:sou|estou|tô|fico|ando|virei|deixei\s+de\s+ser|passei\s+a\s+ser)\s+(?:(?:muito|bem|super|mais|já|"
    r"tão|tao)\s+)?(?P<adj>\w+)\b|"
    r"\b(?:fui|fiquei)\s+(?P<part>\w+)\b",  # "fui contratada", "fiquei chateado"
    re.I,
)


_PARTICIPLE = re.compile(r"\w{2,}(?:ad|id)[oa]")


def speaker_gender(text: str) -> bool | None:
    """The grammatical gender the user gives themselves in this turn: True for feminine ("sou
    alérgica", "obrigada", "sou a Ana", "estou grávida"), False for masculine ("cansado", "sou o
    Rui"), None when the turn does not say. The first self-reference decides."""
    for m in _SELF.finditer(text):
        word = fold(m["word"] or m["adj"] or m["part"] or "")
        if m["art"]:
            return m["art"].lower() == "a"
        if word in ("gravida", "obrigada") or word in _FEMININE_WORDS:
            return True
        if word == "obrigado" or word in _MASCULINE_WORDS:
            return False
        if _PARTICIPLE.fullmatch(word):  # "estou chateada", "fui contratado"
            return word.endswith("a")
    return None


_USER = re.compile(r"\b(?P<art>[OoAa]|d[oa]|a[o]|à|pel[oa])\s+(?P<noun>usuári[oa])\b")
_ARTICLES = {"o": "a", "a": "o", "do": "da", "da": "do", "ao": "à", "à": "ao", "pelo": "pela", "pela": "pelo"}


def regender(content: str, value: str, fem: bool) -> str:
    """A sentence about the user worded for the gender learnt since it was written: "O usuário é
    vegano." -> "A usuária é vegana." (the subject, and the value when it is a gendered word)."""

    def swap(m: re.Match[str]) -> str:
        art, noun = m["art"], m["noun"]
        if noun.endswith("a") == fem:
            return m.group(0)
        new = _ARTICLES[art.lower()]
        new = new.capitalize() if art[0].isupper() else new
        return f"{new} {'usuária' if fem else 'usuário'}"

    out = _USER.sub(swap, content)
    if out != content and value and fold(value) in _GENDERED_FOLDED:
        word = pt_feminine(value) if fem else value
        other = value if fem else pt_feminine(value)
        out = re.sub(rf"\b{re.escape(other)}\b", word, out)
    return out


def feminine(text: str) -> bool:
    """Does the turn show a feminine speaker ("sou alérgica", "obrigada")?"""
    return bool(speaker_gender(text))


# --- whole-clause rewrites ----------------------------------------------------------------------

_NOT = re.compile(r"^(eu\s+)?(?:não|nao|já\s+não|ja\s+nao|nunca\s+mais|nunca)\s+", re.I)
_MORE = re.compile(r"^((?:eu\s+)?(?:me\s+)?\S+)\s+mais\b\s*", re.I)


_STOPPED = re.compile(r"^(?:eu\s+)?(?:deixei|parei)\s+de\s+(?P<verb>\w+)\b", re.I)
_LEFT = re.compile(r"^(?:eu\s+)?(?:deixei|larguei|parei\s+com|abandonei|parei)\s+(?=(?:[oa]s?\s+)?[^\W\d_])", re.I)
_PRESENT = {"ser": "sou", "estar": "estou", "ter": "tenho", "ir": "vou", "fazer": "faço", "poder": "posso",
            "querer": "quero", "ver": "vejo", "dizer": "digo", "trazer": "trago", "seguir": "sigo"}  # fmt: skip


def present(infinitive: str) -> str | None:
    """First person present of a Portuguese infinitive: "morar" -> "moro", "ser" -> "sou"."""
    word = infinitive.lower()
    if word in _PRESENT:
        return _PRESENT[word]
    return word[:-2] + "o" if len(word) > 4 and word.endswith(("ar", "er", "ir")) else None


def positive(clause: str) -> str | None:
    """ "não moro mais em Lisboa" -> "moro em Lisboa", "deixei de ser vegetariana" -> "sou
    vegetariana" (the caller marks it negated)."""
    stopped = _STOPPED.match(clause)
    if stopped and (verb := present(stopped["verb"])) and fold(stopped["verb"]) not in ("comer", "beber"):
        return verb + clause[stopped.end() :]  # "parei de comer carne" is a rule of its own (avoids)
    if left := _LEFT.match(clause):
        return "tomo " + clause[left.end() :]  # only a drug makes a fact of it: "deixei a melatonina"
    if not _NOT.match(clause):
        return None
    return _MORE.sub(r"\1 ", _NOT.sub(r"\1", clause, count=1), count=1)


_GERUND = {"ar": "ando", "er": "endo", "ir": "indo", "or": "ondo"}
_PROGRESSIVE = re.compile(
    r"^((?:eu\s+)?(?:\w+\s+){0,2}?(?:estou|estás|está|ando|estamos))\s+a\s+(\w+?)(ar|er|ir|or)\b", re.I
)
_BECAME = re.compile(
    r"^(?:eu\s+)?(?:virei|fiquei|passei\s+a\s+ser|tornei-me|me\s+tornei|agora\s+sou|voltei\s+a\s+ser)\s+"
    r"(?=(?:vegan|vegetarian|pescetarian|pescatarian|flexitarian|casad|solteir|divorciad|noiv|viúv|viuv|"
    r"aposentad|reformad|desempregad|autônom|autonom|mãe|pai)\w*\b)",
    re.I,
)
_RETIRED = re.compile(r"^(?:eu\s+)?(?:me\s+(?:aposentei|reformei)|(?:aposentei|reformei)-me)\b", re.I)


_PROMOTED = re.compile(
    r"^(?:eu\s+)?(?:fui|acabei\s+de\s+ser)\s+promovid[oa]\s+(?:a|para|pra)\s+(?:(?:o|a)\s+)?", re.IGNORECASE
)
"""A promotion names the new job: "fui promovido a diretor de obra" reads as "sou diretor de obra"."""


def normalize(clause: str) -> str:
    """European and spoken shapes read as the plain statement: "estou a trabalhar na Sonae" ->
    "estou trabalhando na Sonae"; "virei vegana" -> "sou vegana"; "reformei-me" -> "sou reformado"."""
    clause = _PROGRESSIVE.sub(lambda m: f"{m[1]} {m[2]}{_GERUND[m[3].lower()]}", clause, count=1)
    if _PROMOTED.match(clause):
        return _PROMOTED.sub("sou ", clause, count=1)
    if _RETIRED.match(clause):
        return _RETIRED.sub("sou reformado", clause, count=1)
    return _BECAME.sub("sou ", clause, count=1)


_THIRD = {
    "mora": "moro", "vive": "vivo", "trabalha": "trabalho", "é": "sou", "tem": "tenho",
    "gosta": "gosto", "adora": "adoro", "ama": "amo", "odeia": "odeio", "detesta": "detesto",
    "prefere": "prefiro", "toma": "tomo", "quer": "quero", "pretende": "pretendo", "está": "estou",
    "estuda": "estudo", "come": "como", "bebe": "bebo", "segue": "sigo", "curte": "curto", "sofre": "sofro",
    "usa": "uso", "nasceu": "nasci", "mudou": "mudei", "se": "me",
}  # fmt: skip
_LEADS = {"nao", "tambem", "ainda", "ja"}  # folded: words that may come between subject and verb
_THIRD_FOLDED = {fold(w) for w in _THIRD} - {"se"}
_OTHER = re.compile(
    rf"(?:[oa]\s+)?(?:meu|minha|nosso|nossa)\s+(?P<rel>{REL})\b(?:\s+mais\s+(?:velh[oa]|nov[oa]))?\s*,?\s*", re.I
)


_PRONOUN = re.compile(r"(?:ele|ela)\s+", re.I)


def about_other(clause: str, previous: Person | None = None) -> tuple[Person, str] | None:
    """ "minha irmã Maria mora em Roma" -> (irmã Maria, "moro em Roma"); "ela adora jazz", right
    after a clause about her, -> (irmã Maria, "adoro jazz")."""
    rel = _OTHER.match(clause)
    rest = clause[rel.end() :] if rel else re.sub(r"^[oa]\s+(?=[A-ZÀ-Ý])", "", clause)
    name = leading_name(rest)
    pronoun = _PRONOUN.match(clause) if previous else None
    if pronoun:
        rest = clause[pronoun.end() :]
    elif name:
        rest = rest[len(name) :].lstrip(" ,")
    elif not rel and not (previous and fold(clause.split()[0]) in _THIRD_FOLDED):
        return None
    words = rest.split()
    out = []
    while words and fold(words[0]) in _LEADS:
        out.append(words.pop(0).lower())
    if not words or words[0].lower() not in _THIRD:
        return None
    if words[0].lower() == "se":  # "se chama", "se mudou"
        if len(words) < 2 or words[1].lower() not in ("chama", "mudou"):
            return None
        words = ["me", "chamo" if words[1].lower() == "chama" else "mudei", *words[2:]]
    else:
        words[0] = _THIRD[words[0].lower()]
    word = rel["rel"].lower() if rel else None
    if word:
        person = Person(own.RELATIONS[fold(word)], word, name, fold(word) in own.FEMININE_RELATIONS)
    elif name:
        person = Person(None, None, name)
    elif previous is not None:
        person = previous
    else:
        return None
    return person, " ".join([*out, *words])


_WE = r"^(?:(?:eu\s+e\s+)?(?:[oa]\s+)?(?:meu|minha)\s+\w+(?:\s+e\s+eu)?\s+|nós\s+|a\s+gente\s+)?(?:também\s+)?"
_US = [
    (re.compile(rf"{_WE}(?:moramos|vivemos)\b|^a\s+gente\s+(?:mora|vive)\b", re.I), "moro"),
    (re.compile(rf"{_WE}temos\b|^a\s+gente\s+tem\b", re.I), "tenho"),
    (re.compile(rf"{_WE}(?:adotamos|adotámos)\b|^a\s+gente\s+adotou\b", re.I), "adotei"),
    (re.compile(rf"{_WE}nos\s+mudamos\b|^a\s+gente\s+se\s+mudou\b", re.I), "me mudei"),
]


def about_us(clause: str) -> str | None:
    """ "moramos em Braga", "eu e minha namorada adotamos um cachorro" -> "moro em Braga", "adotei um
    cachorro" (the caller keeps home, pets and family only)."""
    for pattern, verb in _US:
        if pattern.match(clause):
            return pattern.sub(verb, clause, count=1)
    return None


def subject(person: Person | None, speaker: str | None, fem: bool) -> tuple[str, str]:
    if speaker:
        user, of_user = speaker, f"de {speaker}"
    else:
        user, of_user = ("a usuária", "da usuária") if fem else ("o usuário", "do usuário")
    if person is None:
        return user, of_user
    if person.word:
        art = "a" if person.feminine else "o"
        base = f"{art} {person.word} {of_user}"
        return (f"{base}, {person.name},", f"de {person.name}") if person.name else (base, f"d{base}")
    return person.name or "alguém", f"de {person.name}"


TEMPLATES = {
    "name": ("O nome {P} é {v}.", "O nome {P} não é {v}.", "O nome {P} é {v}, não {p}."),
    "nickname": ("{S} prefere ser chamado de {v}.", "{S} não quer ser chamado de {v}.", None),
    "home": ("{S} mora {prep} {v}.", "{S} não mora mais {prep} {v}.", "{S} se mudou de {p} para {v}."),
    "origin": ("{S} é {prep} {v}.", "{S} não é {prep} {v}.", None),
    "moving": ("{S} vai se mudar para {v}.", "{S} não vai mais se mudar para {v}.", None),
    "nationality": ("{S} é {adj}.", "{S} não é {adj}.", None),
    "age": ("{S} tem {v} anos.", "{S} não tem {v} anos.", None),
    "marital": ("{S} é {adj}.", "{S} não é mais {adj}.", None),
    "occupation": ("{S} trabalha como {v}.", "{S} não trabalha mais como {v}.", "{S} trabalha como {v} (antes: {p})."),
    "status": ("{S} {verb} {adj}.", "{S} não {verb} mais {adj}.", None),
    "employer": (
        "{S} trabalha {prep} {v}.", "{S} não trabalha mais {prep} {v}.", "{S} trabalha {prep} {v} (antes: {p})."
    ),
    "work_city": ("{S} trabalha em {v}.", "{S} não trabalha mais em {v}.", None),
    "work_field": ("{S} trabalha com {v}.", "{S} não trabalha mais com {v}.", None),
    "work_mode": ("{S} trabalha remotamente.", "{S} não trabalha mais remotamente.", None),
    "school": ("{S} estuda {prep} {v}.", "{S} não estuda mais {prep} {v}.", None),
    "likes": ("{S} {verb} {v}.", "{S} {nverb} {v}.", None),
    "prefers": ("{S} prefere {v}{other}.", "{S} não prefere mais {v}{other}.", None),
    "favorite": ("{art} {cat} {adj} {P} é {v}.", "{art} {cat} {adj} {P} não é mais {v}.", None),
    "goal": ("{S} {verb} {v}.", "{S} não {verb} mais {v}.", None),
    "goal_is": ("{art} {kind} {P} é {v}.", "{art} {kind} {P} não é mais {v}.", None),
    "saving": ("{S} está economizando {prep} {v}.", "{S} não está mais economizando {prep} {v}.", None),
    "learning": ("{S} está aprendendo {v}.", "{S} não está mais aprendendo {v}.", None),
    "budget": ("O orçamento {P} é de {v}.", "O orçamento {P} não é de {v}.", "O orçamento {P} é de {v} (antes: {p})."),
    "budget_for": (
        "O orçamento {P} para {purpose} é de {v}.", "O orçamento {P} para {purpose} não é de {v}.", None
    ),
    "diet": ("{S} é {adj}.", "{S} não é mais {adj}.", None),
    "diet_plan": ("{S} segue uma dieta {v}.", "{S} não segue mais uma dieta {v}.", None),
    "avoids": ("{S} {verb} {v}.", "{S} voltou a consumir {v}.", None),
    "available": ("{S} está disponível {v}.", "{S} não está disponível {v}.", None),
    "available_only": ("{S} só pode {v}.", "{S} não está mais restrito a {v}.", None),
    "unavailable": ("{S} não pode {v}.", "{S} agora pode {v}.", None),
    "allergy": ("{S} tem alergia a {v}.", "{S} não tem alergia a {v}.", None),
    "intolerance": ("{S} tem intolerância a {v}.", "{S} não tem intolerância a {v}.", None),
    "condition": ("{S} tem {v}.", "{S} não tem {v}.", None),
    "pregnant": ("{S} está grávida.", "{S} não está grávida.", None),
    "medication": ("{S} {verb} {v}.", "{S} não {verb} mais {v}.", None),
    "pet": ("{S} tem {phrase}.", "{S} não tem mais {phrase}.", None),
    "pet_named": ("{S} tem {art} {sp} {called} {v}.", "{S} não tem mais {art} {sp} {called} {v}.", None),
    "relation": ("{art} {rel} {P} se chama {v}.", "{art} {rel} {P} não se chama {v}.", None),
    "dislikes": ("{S} {verb} {v}.", "{S} não tem mais aversão a {v}.", None),
    "identifier": ("{art} {what} {P} é {v}.", "{art} {what} {P} não é {v}.", "{art} {what} {P} é {v} (antes: {p})."),
    "birthday": ("O aniversário {P} é {v}.", "O aniversário {P} não é {v}.", None),
    "trip_off": ("{S} cancelou a viagem ({what}: {v}).", "{S} cancelou a viagem ({what}: {v}).", None),
    "budget_dropped": ("{S} desistiu do orçamento{for_pt}.", "{S} desistiu do orçamento{for_pt}.", None),
    "family": ("{S} tem {phrase}.", "{S} não tem {phrase}.", None),
    "dating": ("{S} namora com {v}.", "{S} não namora mais com {v}.", None),
    "changed_mind": ("{S} mudou de ideia sobre {about}.", "{S} mudou de ideia sobre {about}.", None),
}  # fmt: skip

FILLERS = re.compile(
    r"^(?:ah+|oh+|olha|bom|bem|então|entao|e|mas|s[óo]\s+que|entretanto|também|tambem|aliás|alias|na\s+verdade|na\s+real|inclusive|"
    r"(?:eu\s+)?(?:descobri|fiquei\s+a\s+saber|fiquei\s+sabendo|soube)\s+que|"
    r"além\s+disso|alem\s+disso|agora|atualmente|hoje\s+em\s+dia|hoje|ultimamente|recentemente|sim|não,|nao,|"
    r"oi+e?|olá+|ola+|opa+|ok+|tá|ta|beleza|enfim|só\s+pra\s+(?:você|vc)\s+saber|só\s+para\s+(?:você|vc)\s+saber|"
    r"pra\s+constar|para\s+constar|lembr[ae](?:-se)?\s+que|vale\s+lembrar\s+que|como\s+(?:você|vc)\s+sabe|"
    r"sabe|tipo|né|hmm|haha|kkk+|bom\s+dia|boa\s+tarde|boa\s+noite|corrigindo|correção|atualizando|que|"
    r"pelo\s+menos|ao\s+menos|finalmente|pois|olha|vlw|valeu|mds|gente|aff|poxa|novidade|novidades|update)\b[\s,!:.-]*",
    re.IGNORECASE,
)
HEDGES = re.compile(
    r"^(?:(?:eu\s+)?(?:acho|creio|acredito|suponho|imagino)\s+que|talvez|provavelmente|possivelmente|"
    r"aparentemente|se\s+não\s+me\s+engano|pelo\s+que\s+sei|não\s+tenho\s+certeza,?\s+mas)\b[\s,]*",
    re.IGNORECASE,
)

MINE = {"meu": "seu", "minha": "sua", "meus": "seus", "minhas": "suas"}
"""First-person words in a value, as a sentence about the user says them ("open my bakery")."""

READER = Grammar(
    code="pt", rules=[*ids.RULES, *losses.RULES, *profile.RULES, *needs.RULES, *profile.LAST], phrases=[*profile.PHRASES, *needs.PHRASES, *ids.PHRASES], templates=TEMPLATES, fillers=FILLERS, hedges=HEDGES,
    positive=positive, about_other=about_other, about_us=about_us, subject=subject,
    agree=lambda word, fem: pt_feminine(word) if fem else word, normalize=normalize, mine=MINE, appositive="sou ",
)  # fmt: skip
