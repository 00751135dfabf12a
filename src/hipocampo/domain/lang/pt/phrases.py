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
