"""Portuguese date words (Brazil and Portugal), folded (lowercase, no accents): the date resolver
(:mod:`hipocampo.domain.dates`) builds its patterns from every language's lists."""

from __future__ import annotations

WEEKDAYS = "segunda terca quarta quinta sexta sabado domingo".split()  # Monday first
MONTHS = "janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro".split()
MONTH_ABBREVIATIONS = {name[:3]: i for i, name in enumerate(MONTHS, 1)}  # jan fev mar abr mai ... dez
VERB_MONTHS: frozenset[str] = frozenset()
NUMBERS = {w: i for i, w in enumerate("um dois tres quatro cinco seis sete oito nove dez onze doze".split(), 1)} | {
    "uma": 1, "duas": 2, "um par de": 2, "alguns": 3, "algumas": 3, "uns": 3, "umas": 3, "poucos": 3, "poucas": 3,
}  # fmt: skip
"""Vague counts read as three: "há uns dias", "poucas semanas atrás"."""
APPROXIMATELY = "cerca de|uns|umas|quase|mais de|mais ou menos|apenas|tipo".split("|")
UNITS = {"dia": "day", "semana": "week", "mes": "month", "ano": "year"}
UNIT_PATTERN = r"dias?|semanas?|mes(?:es)?|anos?"
ORDINAL_NOUNS = """vez vezes parte partes serie guerra opcao mao classe fase etapa edicao temporada pessoa
    filha rodada tentativa pagina linha hora chance volta dose metade geracao instancia divisao posicao
    colocada colocacao semana lei via onda faixa questao pergunta aula sessao fila casa turma ordem unidade
    camada categoria rua do da dos das""".split()
"""Nouns that "segunda".."sexta" qualify as ordinals: "segunda vez", "quinta série", "na quinta do avô"."""
PAST = (
    r"foi|fui|fomos|foram|era|eram|estive|esteve|estivemos|estava|estavam|tive|teve|tivemos|tinha|fiz|fez"
    r"|fizemos|vi|viu|vimos|ontem|anteontem|passad[oa]|atras"
    # Past endings: "viajou", "saiu", "falaram", "morava", "comprei"; not "estou", nor future "-arei".
    r"|(?!estou\b)\w{2,}(?:ou|iu|aram|eram|iram|ava|avam)|\w{2,}(?<![aei]r)ei"
)
FUTURE = (
    r"vou|vai|vamos|vao|irei|iremos|ira|pretendo|planejo|planejamos|planeio|planeamos|planejando|planeando"
    r"|amanha|proxim[oa]|que\s+vem|daqui|(?:pra|para)(?=\s+(?:o\s+)?(?:dia\s+)?\d)"
    r"|\w{2,}(?:arei|erei|irei|aremos|eremos|iremos)"
)
AHEAD = (
    r"ingressos?|bilhetes?|reservei|reservamos|reservad[oa]s?|marquei|marcamos|marcad[oa]s?|agendei|agendamos"
    r"|agendad[oa]s?|inscrevi|inscrevemos|inscrit[oa]s?|passagens?|voos?|airbnb|hot[eé]is|hotel|pousada"
)
"""Holding a place at an event: "comprei ingressos para o show em abril" is still ahead."""
