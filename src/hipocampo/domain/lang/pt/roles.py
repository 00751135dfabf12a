"""Portuguese side of the fact builders both languages share
(:mod:`hipocampo.domain.extraction.roles`): gender, articles, and the shapes only Portuguese has."""

from __future__ import annotations

import re

from ...text import fold
from . import lexicon

AND = " e "
NOT_LIKE = "não gosta de"
FAMILY_MEMBER = {"children": "filho", "sons": "filho", "daughters": "filha", "brothers": "irmão",
                 "sisters": "irmã", "siblings": "irmão", "grandchildren": "neto"}  # fmt: skip
QUALIFIER = re.compile(
    r"\s+(?:de|do|da|dos|das|à|às|a|ao|aos|em|no|na|nos|nas|com|sem|pela|pelo|por|durante|antes|depois)\s+",
    re.IGNORECASE,
)
"""Where a preference's head ends: "reuniões de manhã cedo" -> "reuniões"."""
COMPANY_ARTICLES: frozenset[str] = frozenset({"a"})
"""Articles before a destination's name that mark a company ("mudei para a Globex")."""
BARE_NAME_IS_PLACE = True
"""A destination named with no article is a place ("mudei para Sorocaba")."""
COMPOUND_HEAD_LAST = False  # "reuniões matinais" is about reuniões, the first noun

_TO_MASCULINE = (("esa", "ês"), ("ã", "ão"), ("ora", "or"), ("eia", "eu"), ("a", "o"), ("as", "os"))
_TO_FEMININE = (("ês", "esa"), ("ão", "ã"), ("or", "ora"), ("eu", "eia"), ("o", "a"), ("os", "as"))


def masculine(word: str, known: frozenset[str] | dict[str, str]) -> str | None:
    """The masculine form of a word when it (or its masculine) is in ``known``:
    "brasileira" -> "brasileiro", "portuguesa" -> "português", "dentista" -> "dentista"."""
    if fold(word) in known:
        return word
    head, _, tail = word.rpartition(" ")
    for fem, masc in _TO_MASCULINE:
        if tail.endswith(fem):
            cand = (f"{head} " if head else "") + tail[: -len(fem)] + masc
            if fold(cand) in known:
                return cand
    return None


def feminine(word: str) -> str:
    for masc, fem in _TO_FEMININE:
        if word.endswith(masc):
            return word[: -len(masc)] + fem
    return word


def is_feminine(word: str) -> bool:
    """ "irmã", "gata": a relation or pet word of feminine gender."""
    f = fold(word)
    return f in lexicon.FEMININE_RELATIONS or f in lexicon.FEMININE_PETS


def infinitive(value: str) -> tuple[str, str]:
    return "", value


def object_of(item: str) -> str:
    """ "de jazz", "do mar" -> "jazz", "mar": the preposition after "gostar" is no part of the taste."""
    return re.sub(r"^(?:de|do|da|dos|das)\s+", "", item, flags=re.IGNORECASE)


def topic_of(item: str) -> str:
    """ "das reuniões", "ao sushi" -> "reuniões", "sushi": what a change of mind is about."""
    return re.sub(r"^(?:de|do|da|dos|das|a|à|ao|aos|às)\s+", "", item, flags=re.IGNORECASE)


NAME_GIVEN = (
    r"(?:o\s+)?nome\s+d(?:ela|ele)\s+(?:é|e)|(?:ela|ele)\s+se\s+chama|(?:ela|ele)\s+chama-se|"
    r"(?:chamei|chamamos|batizei|batizamos|pus|pusemos|botei|botamos)[- ](?:a|o|ela|ele)?\s*(?:de\s+)?"
)
"""A name given in the sentence after the animal it names ("adotei uma gatinha 🐱 o nome dela é
Mel", "pegamos um cachorro, batizamos de Thor")."""


def pet_phrase(word: str) -> str:
    """ "a gata", "os cachorros": how a retracted pet is worded."""
    art = "a" if fold(word).rstrip("s") in lexicon.FEMININE_PETS else "o"
    return f"{art}{'s' if word.endswith('s') else ''} {word}"


def pet_named(det: str, name: str) -> str:
    """ "a Mimi": Portuguese puts an article before a pet's name."""
    return f"{det.lower()} {name}".strip()


_INFINITIVE = re.compile(r"\w+(?:ar|er|ir|or)(?:-\w+)?$")  # folded: "pôr" is "por"


def plan_ok(first_word: str) -> bool:
    """A Portuguese plan opens with an infinitive ("aprender", "correr"), never a noun."""
    return bool(_INFINITIVE.match(first_word))


_COMPLEMENT = re.compile(  # "engenheira [de software]", "professora [de Educação Física]", "engenheiro [civil] em"
    r"\s+de\s+(?P<field>[a-zà-ÿ]+(?:\s+(?![a-zà-ÿ]+mente\b|(?:aqui|ali|cá|ca|lá|la|agora|hoje)\b)[a-zà-ÿ]+)?|"
    r"[A-ZÀ-Ý][a-zà-ÿ]+(?:\s+[A-ZÀ-Ý][a-zà-ÿ]+)?)"
    r"(?=\s+(?:na|no|numa|num|em|pela|pelo|da|do|e|há|ha|aqui|ali|cá|lá|agora|hoje|[a-zà-ÿ]+mente)\b|\s*[,;.!]|\s*$)"
    r"|\s+em\s+[a-zà-ÿ]+(?:\s+(?![a-zà-ÿ]+mente\b)[a-zà-ÿ]+)?"
    r"(?=\s+(?:na|no|numa|num|em|pela|pelo|da|do|e|há|ha|[a-zà-ÿ]+mente)\b|\s*[,;.!]|\s*$)"
    r"|\s+(?!(?:agora|hoje|aqui|lá|la|também|tambem|ainda|já|ja|só|so|mesmo)\b)[a-zà-ÿ]{3,}"
    r"(?=\s+(?:na|no|numa|num|pela|pelo|em)\s)"
)


def _is_place(words: str) -> bool:
    from ...extraction.lexicon import PLACES  # the merged lexicon reads this bundle: looked up late

    return fold(words) in PLACES


def job_title(text: str) -> str | None:
    """The job at the start of ``text`` ("engenheira de software na Sonae" -> "engenheira de software")."""
    text = text.strip()
    ws = text.split()
    for n in (3, 2, 1):
        cand = " ".join(ws[:n]).strip(",.;!")
        if len(ws) >= n and masculine(cand, lexicon.OCCUPATIONS):
            comp = _COMPLEMENT.match(text[len(cand) :])
            if comp and comp["field"] and _is_place(comp["field"]):
                comp = None  # "professor de Lisboa" is where the teacher is from
            elif comp and (at := re.match(r"\s+em\s+(.+)", comp.group(0))) and _is_place(at.group(1)):
                comp = None  # "freelancer em lisboa", "designer em bh": where the work is, no title
            title = cand + (comp.group(0) if comp else "")
            level = _LEVEL.match(text[len(title) :])
            return title + level.group(0).rstrip(",.;!") if level else title
    return None


_LEVEL = re.compile(r"\s+(?:j[úu]nior|s[êe]nior|pleno|jr\.?|sr\.?|trainee)(?=\s|[,.;!]|$)", re.IGNORECASE)
"""A seniority after the title ("dev júnior", "analista sênior"): part of it."""


# --- a move to a name: a new job or a new home (read by domain/extraction/context.py) ----------

WORK_WORDS = (
    r"emprego|trabalho|trabalhar|empresa|firma|cargo|vaga|função|funcao|promoção|promocao|proposta|contratad[oa]|"
    r"salário|salario|colegas?|chefe|equipa|equipe|carreira|contrato|entrevista|patrão|patrao"
)
"""Words of a turn about work: with them, "mudei para a Globex" is a new job."""
RELOCATING_FOR_WORK = (
    r"\b(?:por\s+causa\s+d[oa]|pelo|pela|para|a)\s+(?:(?:meu|minha|novo|nova|um|uma)\s+)*"
    r"(?:trabalho|emprego|trabalhar|contrato|carreira)\b"
)
"""Why a city move happened ("mudei pra Curitiba por causa do trabalho"), not where the job is."""
HOME_WORDS = r"apartamento|casa|renda|aluguel|bairro|cidade|vila|clima|senhorio"
"""Words of a turn about a home: with them, "mudei para Sorocaba" is a new home."""
HERE = r"(?:aqui|ca|cá)\s+(?:em|no|na|nos|nas)"
"""Where the speaker is, said in passing ("aqui em campinas", "cá no porto"): the place after it is
their home when the memory knows none (:func:`~hipocampo.domain.extraction.context.located_here`)."""
BEING_IN = r"(?:estou|tô|to|estamos)\s+(?:agora\s+|ainda\s+|finalmente\s+|já\s+|ja\s+)?(?:em|no|na)"
"""Being somewhere, said of oneself ("já estou em lisboa há um mês"): read as :data:`HERE`, unless
the sentence says for how long (:data:`STAY`)."""
STAY = (
    r"(?:esta|essa|nesta|nessa)\s+semana|hoje|por\s+(?:uns|alguns|umas|algumas|poucos)\s+(?:dias|semanas)|"
    r"por\s+enquanto|at[ée]"
)
"""How long one is somewhere: "estou em Lisboa esta semana" names no home."""
MOVED = (
    r"\b(?:mud(?:ei|amos|ámos)|mudei-me|mudámo-nos|mudamo-nos|me\s+mudei|nos\s+mudamos)\b|"
    r"\b(?:(?:primeir[oa]|\d+|um|uma|dois|duas|tr[êe]s)\s+(?:dias?|semanas?|m[êe]s|meses|anos?)\s+(?:morando|vivendo|a\s+viver)|"
    r"primeir[oa]\s+(?:semana|m[êe]s|dia))(?=\s+(?:em|no|na)\b)"
)
"""A move said in the same turn ("pronto, mudei!! tô em curitiba desde sábado", "primeira semana
em Lisboa", "1 mês morando em floripa"): the place the speaker is in is then their new home,
whatever home the memory held."""
AWAY = (
    r"viagem|viajando|viajar|f[eé]rias|visita|visitar|a\s+passeio|de\s+passagem|congresso|confer[eê]ncia|"
    r"(?:este|esse|neste|nesse|no)\s+fim\s+de\s+semana"
)
"""Words of being somewhere for a while: "aqui em Roma de férias" names no home."""
ALLERGIC_ALONE = r"(?:(?:eu\s+)?sou\s+(?:muito\s+|super\s+)?al[ée]rgic[oa]|tenho\s+alergia)"
"""Saying one is allergic with nothing after it ("dipirona não, sou alérgica",
"nem posso tomar dipirona pq sou alérgico"): the allergen is the one thing of the lexicon
the sentence named before (:func:`~hipocampo.domain.extraction.context.allergic_to_named`)."""
JOINING = (
    r"emprego\s+novo|novo\s+emprego|trampo\s+novo|novo\s+trampo|trabalho\s+novo|novo\s+trabalho|"
    r"pedi\s+(?:a\s+)?demiss[ãa]o|me\s+demiti|demiti-me|despedi-me|me\s+despedi|fui\s+contratad[oa]|"
    r"sa[íi]\s+de\s+l[áa]|sa[íi]\s+do\s+(?:emprego|trampo|trabalho)|mudei\s+de\s+emprego|troquei\s+de\s+emprego|"
    r"aceitei\s+a\s+proposta|primeiro\s+dia\s+(?:no|de)\s+(?:trampo|trabalho|emprego)|mesma\s+fun[çc][ãa]o|"
    r"mesmo\s+cargo|nova\s+fun[çc][ãa]o|novo\s+cargo|(?:já|ja)\s+não\s+(?:trabalho|estou|tô|to|trampo)\s+n[ao]|"
    r"sa[íi]\s+d[ao]\s+[A-Za-zÀ-ÿ]+(?=[\s!.,]+(?:now|agora)\b)"
)
"""A job change said in a turn ("pedi demissão", "saí de lá", "emprego novo!!"): with it, where the
speaker now is (:data:`AT_WORK`) is their employer
(:func:`~hipocampo.domain.extraction.said_in_passing.working_at`)."""
AT_WORK = r"(?:estou|tô|to|tou)\s+(?:agora\s+|já\s+|ja\s+|oficialmente\s+)?(?:na|no)"
"""Where the speaker now is, said without a work verb ("agora tô na Vetra Saúde", "a partir de
segunda estou na Clínica Sol Nascente"): an employer only in a turn that says a job changed
(:data:`JOINING`)."""
DRUG_SWITCHED = (
    r"troc(?:ou|aram|ei|ar)|mud(?:ou|aram|ei)|substitu(?:iu|íram|iram|i)|em\s+vez\s+d[aeo]|no\s+lugar\s+d[ao]|"
    r"tir(?:ou|aram)|suspend(?:eu|eram)|pass(?:ou|aram)\s+(?:para|pra|pro)"
)
"""A drug replaced ("o médico trocou pra anlodipino", "mudaram-me para o escitalopram"): the new
drug ends the one the turn names, or the only held one taken for the same thing
(:func:`~hipocampo.domain.extraction.said_in_passing.drug_switched`)."""
EATING_AGAIN = (
    r"volt(?:ei|amos|ámos)\s+a\s+comer\s+(?P<food>[\wà-ÿ]+(?:\s+[\wà-ÿ]+)?)",
    r"(?:como|comer|comendo|a\s+comer)\s+(?P<food>[\wà-ÿ]+(?:\s+[\wà-ÿ]+)?)\s+(?:de\s+novo|outra\s+vez)\b",
)
"""Eating a food again ("voltei a comer carne", "tô comendo peixe de novo"): it ends the held diet
that leaves it out and the avoidance of it
(:func:`~hipocampo.domain.extraction.said_in_passing.eating_again`)."""
REBOOKED = (
    r"remar(?:c|qu)\w+|novo\s+(?:voo|c[óo]digo|localizador|bilhete)|nova\s+(?:reserva|passagem)|"
    r"(?:troquei|mudei|mudaram|trocaram)(?:-me|\s+me)?\s+(?:o\s+voo|a\s+reserva|a\s+passagem|de\s+voo)|pass(?:ei|aram)\s+(?:para|pro|pra)\s+o(?=\s+[A-Z]{2})"
)
"""A code changed ("remarquei pro TP2150", "nova reserva é HB-90477"): a code in the same shape as
one the memory holds replaces it (:func:`~hipocampo.domain.extraction.said_in_passing.code_changed`)."""
TRIP_OFF = (
    r"(?:viagem|voo|reserva|f[ée]rias)\s+(?:\S+\s+)?(?:foi|está|esta|tá|ta|ficou)\s+cancelad[ao]|"
    r"cancel(?:ei|amos|ámos)\s+(?:a\s+viagem|o\s+voo|a\s+reserva|as\s+f[ée]rias|tudo)|"
    r"esque(?:ce|ça|ca)\s+(?:a\s+)?viagem|(?:já\s+|ja\s+)?não\s+vou\s+mais\s+(?:a|à|ao|pra|para|pro)\s|"
    r"(?:já|ja)\s+não\s+vou\s+(?:a|à|ao|pra|para|pro)\s"
)
"""A trip called off ("esquece a viagem a praga", "já não vou à madeira", "cancelei tudo" in a turn
about a trip): the codes, budget and plan the memory holds for a trip end with it
(:func:`~hipocampo.domain.extraction.said_in_passing.trip_called_off`)."""
TRIP_WORDS = frozenset("viagem viagens ferias voo hotel hostel reserva passagem".split())
"""Words that name a trip in a slot ("budget:viagem", "goal:viagem_a_praga") or in a turn."""
JOB_AS = r"como"
"""The word before a job title after the name ("mudei para a Sonae como analista")."""
INDEFINITE_ARTICLES = r"um|uma"
"""Articles a job title may take after :data:`JOB_AS`."""
COMPANY_SUFFIXES = r"s\.?a|lda|ltda|grupo|banco"
"""The last word of a company's name ("Banco Inter", "Sonae S.A.", "Ferragens Lda")."""
WORK_NOUNS = frozenset("emprego empresa trabalho firma".split())
"""What a move leaves when it leaves a job, not a named place ("saí da empresa para a Globex")."""


# --- a person named in a turn (read by domain/extraction/people.py) ---------------------------

PLACE_PREPOSITIONS = frozenset("em no na nos nas de do da dos das para pra pro perto".split())
"""Words before a capitalised word that make it a place ("em Porto", "pra Floripa"), not a person."""
PERSON_VERBS = frozenset("mora trabalha e foi tem tinha disse falou ligou vai adora gosta quer pode".split())
"""Verbs after a capitalised word that opens a sentence and make it a person ("Ana mora no Porto")."""
