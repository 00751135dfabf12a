"""Portuguese words of summaries and consolidated memories: month names, change sentences, the
words too general to be a topic, and the stems of everyday topics (Brazil and Portugal)."""

from __future__ import annotations

MONTHS = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
          "novembro", "dezembro")  # fmt: skip
IN_MONTH = "em {month}"
MONTH_YEAR = "{month} de {year}"
SUBJECT = "O usuário"
SUBJECT_FEMININE = "A usuária"
POSSESSIVE = "The user's"  # unused: Portuguese templates say "de {S}"
_HOME = ("home", "home_city", "home_country", "city", "country")
CHANGES = {
    **dict.fromkeys(_HOME, "{S} mudou de {old} para {new} {when}."),
    "employer": "{S} trocou de emprego, de {old} para {new}, {when}.",
    "occupation": "{S} passou de {old} a {new} {when}.",
    "work_city": "{S} passou a trabalhar em {new} (antes em {old}) {when}.",
    "school": "{S} mudou de escola, de {old} para {new}, {when}.",
    "*": "{label} de {S} mudou de {old} para {new} {when}.",
}
"""A superseded fact as one sentence, by slot ("*": any other)."""

GENERIC = frozenset(
    """hoje ontem amanha semana dia dias mes ano vez coisa coisas gente agora sempre ainda bem bom boa
    usuario usuaria usuarios utilizador utilizadora pensando pensei penso acho achei talvez tipo realmente
    ultimamente tentando tentei esquece esquecer esqueci""".split()
)
"""Words too general to say two memories share a topic or to title one ("thinking", "acho");
("usuário" is the subject of every fact)."""
TOPICS = {
    "work": ("trabalh", "emprego", "empresa", "chefe", "colega", "escritorio", "reuniao", "carreira", "salario"),
    "fitness": ("treino", "academia", "corrida", "correr", "musculacao", "maratona", "exercic"),
    "family": ("esposa", "marido", "filho", "filha", "familia"),
    "health": ("saude", "medic", "doenca", "ansiedade", "terapia", "insonia"),
    "travel": ("viagem", "viajar", "ferias"),
}
"""Word beginnings (folded) of everyday topics."""
DETAILS_OMITTED = "(+{n} detalhes omitidos)"
"""The last line of a thread summary that could not keep every number, date, name and decision."""

# --- what makes a sentence worth a summary line (read by domain/summaries/signals.py) ---------

_MONTHS = (
    "janeiro",
    "fevereiro",
    "marco",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
)
"""Month names, folded."""

_PLANNED = (
    "vamos",
    "combinamos",
    "combinad[oa]",
    "combinei",
    "plano",
    "planej\\w*",
    "pretendo",
    "prometo",
    "prometi",
    "marcamos",
    "marquei",
    "agendei",
    "agendamos",
)
"""Words of a plan or a commitment that was settled: in both lists below."""
DECISION_CUES: tuple[str, ...] = (
    *_PLANNED,
    "vou",
    "vai",
)
"""Words of a decision, a plan or a commitment, settled or only said (folded): a summary line's signal."""

SETTLED_CUES: tuple[str, ...] = (
    *_PLANNED,
    "decidi\\w*",
    "fechamos",
    "fechado",
)
"""The strong part of ``DECISION_CUES``: what was settled, not a bare future. A summary keeps these sentences whole."""

PREFERENCE_CUES: tuple[str, ...] = (
    "alergi\\w*",
    "prefiro",
    "prefere",
    "preferimos",
    "preferenc\\w*",
    "nao posso",
    "nao pode",
    "nao gosto",
    "nao como",
    "nao bebo",
    "nao consigo",
    "odeio",
    "adoro",
    "favorit\\w*",
    "intolerante",
    "evito",
    "nunca",
)
"""Words of a preference or a constraint (an allergy must never be dropped from a summary)."""

DATE_CUES: tuple[str, ...] = (
    *_MONTHS,
    "segunda-feira",
    "terca-feira",
    "quarta-feira",
    "quinta-feira",
    "sexta-feira",
    "sabado",
    "domingo",
    "hoje",
    "amanha",
    "ontem",
    "fim de semana",
    "(?:semana|mes|ano) que vem",
    "(?:proxima|semana) passada",
    "proxima semana",
    "euros?",
    "reais",
)
"""Month, weekday and relative-day words, and currency words: a summary line's number or date signal."""

CHANGE_CUES: tuple[str, ...] = (
    "(?:me )?mude[ia]",
    "mudou",
    "mudamos",
    "troque[ia]",
    "trocou",
    "nao \\w+(?: \\w+)? mais",
    "agora (?:moro|trabalho|sou|estou)",
    "deixei",
    "larguei",
    "comecei (?:a trabalhar|na|no|em)",
)
"""Words of a change (a move, a new job, something stopped): what makes older lines wrong."""

FIRST_PERSON: tuple[str, ...] = (
    "eu",
    "meu",
    "minha",
    "meus",
    "minhas",
    "nos",
    "nosso",
    "nossa",
    "comigo",
)
"""Pronouns of the speaker: a sentence about the speaker themselves."""

SECOND_PERSON: tuple[str, ...] = (
    "voce",
    "voces",
    "te",
    "contigo",
    "teu",
    "tua",
)
"""Pronouns of the listener: a sentence about the listener, usually praise."""

# --- filler and dates in summaries (read by domain/summaries/salience.py and details.py) -------

FILLER: tuple[str, ...] = (
    "(?:ha){2,}h?",
    "(?:he){2,}",
    "(?:hu){2,}",
    "k{3,}",
    "(?:rs){1,}",
    "ok",
    "valeu",
    "vlw",
    "obrigad[oa]s?",
    "oi",
    "ola",
    "bom dia",
    "boa tarde",
    "boa noite",
    "tchau",
    "legal",
    "beleza",
    "blz",
    "tudo bem",
    "tudo certo",
    "super",
)
"""Greetings, thanks, laughter, acknowledgements and praise (folded): what a chat repeats most
and a memory needs least."""
LEADING_FILLER = (
    r"oi|ol[aá]|opa|nossa|sim|bem|ent[aã]o|entendi|entendo|certo|claro|beleza|legal|"
    r"que bom|que legal|valeu|obrigad[oa]|perfeito|show|k{2,}|rs+|uau|puxa|poxa|ah|ok"
)
"""Interjections that open a line ("Opa, ...", "kkk valeu"), matched case-insensitively."""
DATE_DETAILS: tuple[str, ...] = (
    *_MONTHS,
    "segunda(?:-feira)?",
    "terca(?:-feira)?",
    "quarta(?:-feira)?",
    "quinta(?:-feira)?",
    "sexta(?:-feira)?",
    "sabado",
    "domingo",
    "hoje",
    "amanha",
    "ontem",
    "fim de semana",
    "fds",
    "(?:semana|mes|ano) (?:que vem|passad[oa])",
    "(?:proxim[oa]|n[oa]) (?:semana|mes|ano)",
)
"""Month and weekday names and day words (folded) a summary must keep."""
