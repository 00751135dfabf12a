"""Words of date expressions in English and Portuguese, and the regex fragments built from them.

Everything here is accent-folded and lowercase: the patterns run over folded text (see dates.py),
so "Sábado", "SABADO" and "sábado" read alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

WEEKDAYS = {
    name: i % 7
    for i, name in enumerate(
        "monday tuesday wednesday thursday friday saturday sunday "
        "segunda terca quarta quinta sexta sabado domingo".split()
    )
}

_EN_MONTHS = "january february march april may june july august september october november december".split()
_PT_MONTHS = "janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro".split()
_EN_ABBREVIATIONS = {name[:3]: i for i, name in enumerate(_EN_MONTHS, 1) if name != "may"} | {"sept": 9}
_PT_ABBREVIATIONS = {name[:3]: i for i, name in enumerate(_PT_MONTHS, 1)}  # jan fev mar abr mai ... dez
MONTHS = (
    {name: i for i, name in enumerate(_EN_MONTHS, 1)}
    | {name: i for i, name in enumerate(_PT_MONTHS, 1)}
    | _EN_ABBREVIATIONS
    | _PT_ABBREVIATIONS
)
VERB_MONTHS = frozenset({"may", "march", "mar"})
"""English month names that are also verbs: "this may be", "the 3 may", "20 mar"."""

NUMBERS = (
    {w: i for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split(), 1)}
    | {w: i for i, w in enumerate("um dois tres quatro cinco seis sete oito nove dez onze doze".split(), 1)}
    | {"a": 1, "an": 1, "uma": 1, "duas": 2, "a couple of": 2, "a couple": 2, "couple of": 2, "um par de": 2}
    # Vague counts read as three: "a few days ago", "há uns dias", "poucas semanas atrás".
    | dict.fromkeys(["a few", "few", "alguns", "algumas", "uns", "umas", "poucos", "poucas"], 3)
)
_APPROXIMATELY = "about|around|roughly|almost|nearly|over|just|only|like|maybe".split("|")
_APPROXIMATELY += "cerca de|uns|umas|quase|mais de|mais ou menos|apenas|tipo".split("|")

# Nouns that "segunda".."sexta" qualify as ordinals: "segunda vez", "quinta série", "na quinta do avô".
_ORDINAL_NOUNS = """vez vezes parte partes serie guerra opcao mao classe fase etapa edicao temporada pessoa
    filha rodada tentativa pagina linha hora chance volta dose metade geracao instancia divisao posicao
    colocada colocacao semana lei via onda faixa questao pergunta aula sessao fila casa turma ordem unidade
    camada categoria rua do da dos das""".split()
# Nouns an English ordinal day would otherwise swallow: "on the 20th floor".
_EN_ORDINAL_NOUNS = """century centuries floor anniversary birthday time place row try attempt page lap round
    line street avenue minute hour step grade amendment percentile""".split()


def _alternatives(words: Iterable[str]) -> str:
    """A regex alternation, longest first so "a couple of" wins over "a"; spaces match any run."""
    ordered = sorted(set(words), key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(part) for part in w.split()) for w in ordered)


NUM = rf"(?P<num>\d{{1,3}}|{_alternatives(NUMBERS)})"
APPROX = rf"(?:(?:{_alternatives(_APPROXIMATELY)})\s+)?"
UNIT = r"(?P<unit>days?|weeks?|months?|years?|dias?|semanas?|mes(?:es)?|anos?)"
DAY = r"(?P<day>\d{1,2})"
ORD = r"(?P<ord>st|nd|rd|th)?"
YEAR = r"(?P<year>\d{4})"
WEEKEND_PT = r"fi(?:m|nal)\s+de\s+semana"

WD_EN = r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
WD_PT = (
    r"(?P<wd>(?:segunda|terca|quarta|quinta|sexta)"
    rf"(?:[-\s]feira\b|\b(?!\s+(?:{_alternatives(_ORDINAL_NOUNS)})\b))|sabado|domingo)"
)
WD_PT_FIRM = r"(?P<wd>(?:segunda|terca|quarta|quinta|sexta)[-\s]feira|sabado|domingo)"
"""Portuguese weekdays that need no context: with "-feira", or sábado and domingo."""
EN_ORDINAL_NOUNS = _alternatives(_EN_ORDINAL_NOUNS)

MON_EN_FULL = rf"(?P<mon>{_alternatives(_EN_MONTHS)})\b"
MON_EN = rf"(?P<mon>(?:{_alternatives(_EN_MONTHS)})\b|(?:{_alternatives(_EN_ABBREVIATIONS)})\b\.?)"
MON_PT_FULL = rf"(?P<mon>{_alternatives(_PT_MONTHS)})\b"
MON_PT = rf"(?P<mon>(?:{_alternatives(_PT_MONTHS)})\b|(?:{_alternatives(_PT_ABBREVIATIONS)})\b\.?)"

PAST = re.compile(
    r"\b(?:was|were|did|had|went|came|got|saw|met|made|took|told|said|bought|spent|left|ate|felt|found|gave"
    r"|ago|yesterday|last|been|\w{3,}ed"
    r"|foi|fui|fomos|foram|era|eram|estive|esteve|estivemos|estava|estavam|tive|teve|tivemos|tinha|fiz|fez"
    r"|fizemos|vi|viu|vimos|ontem|anteontem|passad[oa]|atras"
    # Past endings: "viajou", "saiu", "falaram", "morava", "comprei"; not "estou", nor future "-arei".
    r"|(?!estou\b)\w{2,}(?:ou|iu|aram|eram|iram|ava|avam)|\w{2,}(?<![aei]r)ei)\b"
)
FUTURE = re.compile(
    r"\b(?:will|shall|gonna|going\s+to|\w+['’]ll|next|tomorrow|upcoming|planning|plan\s+to|hope\s+to"
    r"|vou|vai|vamos|vao|irei|iremos|ira|pretendo|planejo|planejamos|planeio|planeamos|planejando|planeando"
    r"|amanha|proxim[oa]|que\s+vem|daqui"
    r"|\w{2,}(?:arei|erei|irei|aremos|eremos|iremos))\b"
)
AHEAD = re.compile(
    r"\b(?:tickets?|booked|booking|reservations?|reserved|signed\s+up|registered\s+for|appointment|scheduled"
    r"|ingressos?|bilhetes?|reservei|reservamos|reservad[oa]s?|marquei|marcamos|marcad[oa]s?|agendei|agendamos"
    r"|agendad[oa]s?|inscrevi|inscrevemos|inscrit[oa]s?)\b"
)
"""Words for holding a place at an event: what one has tickets, a booking or an appointment for
is still ahead, even when the sentence tells of the purchase in the past tense ("I bought tickets
for the show in April", "comprei ingressos para o show em abril")."""


def number_value(word: str) -> int:
    """3 for "3", "three", "três" (folded "tres"), "a few"; 1 for "a", "uma"."""
    return int(word) if word.isdigit() else NUMBERS[" ".join(word.split())]


def unit_of(word: str) -> str:
    """'day', 'week', 'month' or 'year' for an English or Portuguese unit word, singular or plural."""
    if word.startswith(("day", "dia")):
        return "day"
    if word.startswith(("week", "semana")):
        return "week"
    if word.startswith(("month", "mes")):
        return "month"
    return "year"


def weekday_number(word: str) -> int:
    """0 (Monday) to 6 for "monday", "segunda-feira", "terca feira", "sabado"..."""
    return WEEKDAYS[re.split(r"[-\s]", word, maxsplit=1)[0]]


def month_number(word: str) -> int:
    return MONTHS[word.rstrip(".")]
