"""What a well-formed Portuguese value looks like (Brazil and Portugal), for the check every
candidate fact passes (:mod:`hipocampo.domain.extraction.validate`). Words are folded."""

from __future__ import annotations

from .. import words_set

FILLERS = words_set(
    """alias, entendi, entendo, tipo, ne, pois, pois e, sei la, ta, beleza, valeu, entao, enfim, olha, bom,
    bem, sim, nao, ja agora, deixa pra la, deixa para la, esquece, nada, coisa, coisas, algo, alguma coisa,
    isso, aquilo, sabe, percebes, percebe, ora, pronto, claro, obrigado, obrigada, mesmo, mesma, demais,
    bastante, tudo, todos, todas, qualquer coisa, qualquer um, tudo isso"""
)
"""A value that is only chatter: "sou alérgico a, tipo, ..." stores nothing."""
DANGLING = frozenset(
    """sem com de do da dos das a ao à às os as o em no na nos nas para pra por pelo pela e ou mas não nao nem
    um uma meu minha que mais muito""".split()
)
"""Words a phrase cannot end on (it was cut), nor open when it is a thing ("prefiro sem gráficos")."""
ARTICLES = frozenset("a o os as um uma meu minha".split())
PRONOUNS = frozenset("eu me te se lhe nós nos voce vc ele ela eles elas tu comigo".split())
"""A subject or clitic pronoun inside a value means a clause was swallowed: "manhã eu treino"."""
VERB_FIRST = frozenset(
    """ser estar ter fazer ir dizer falar saber ver comer querer e esta tem foi deixa deixe fica ficar vou vai
    acho sei""".split()
)
"""Verbs that cannot open a thing's name."""
CLAUSE_MARKERS = frozenset("porque pois enquanto embora quando caso".split())
"""Words that open a clause of their own: a value containing one holds more than a phrase."""
FINITE_VERBS = frozenset(
    """sou estou tenho vou vai levo levei trago faço fiz fico fui tive posso quero preciso treino trabalho
    moro funciono obrigou obriga deixo deixei tomo pego acordo durmo saio chego corro bebo jogo""".split()
)
"""First-person and common finite verbs that never belong inside a noun phrase ("manhã levo o
Pixel ao veterinário"); "treino" and "trabalho" are nouns too, so they count only after a noun."""
TIME_WORDS = frozenset(
    """manha manhas tarde tardes noite noites madrugada cedo almoco meio-dia meio dia fim fins semana semanas
    final finais segunda segundas terca tercas quarta quartas quinta quintas sexta sextas sabado sabados
    domingo domingos feira feiras uteis hora horas h duas tres quatro cinco seis sete oito nove dez onze doze
    uma""".split()
)
"""Words a time phrase is made of, with numbers and :data:`FUNCTION_WORDS`."""
HEAD_FIRST = True
"""The head noun comes first ("reuniões de manhã"): a value opening with a time word is a time,
and whatever follows must be more of it ("manhã cedo"), never a clause ("manhã levo o Pixel")."""
FUNCTION_WORDS = frozenset(
    """a o as os de do da dos das em no na nos nas ao aos à às antes depois até ate por pela pelo pelas pelos
    durante entre após apos partir""".split()
)
TIME_TAIL = (
    r"(?:(?:no|este|esse|neste|nesse|para\s+o|pro|no\s+próximo|no\s+proximo|o)\s+)?ano\s+que\s+vem|"
    r"(?:este|esse|neste|nesse)\s+(?:ano|mês|mes|verão|verao|inverno|semestre)|"
    r"(?:até|ate)\s+(?:ao\s+|o\s+)?(?:fim|final)\s+d[oa]\s+(?:ano|mês|mes|semestre|verão|verao)|"
    r"(?:no|em)\s+(?:fim|final)\s+d[oa]\s+(?:ano|mês|mes|semestre)|em\s+\d{4}|"
    r"antes\s+d[oa]\s+(?:verão|verao|inverno|natal|carnaval|fim\s+do\s+ano|final\s+do\s+ano|próximo\s+ano|proximo\s+ano)|"
    r"agora\s+que\b.*|já\s+que\b.*|ja\s+que\b.*|(?:aqui|cá|ca)\s+(?:em|no|na|nos|nas)\b.*|"
    r"nas\s+horas\s+vagas|por\s+hobby|de\s+hobby|por\s+divers[ãa]o|"
    r"(?:em|até|ate|antes\s+de)\s+(?:janeiro|fevereiro|março|marco|abril|maio|junho|julho|agosto|setembro|outubro|"
    r"novembro|dezembro)|(?:até|ate)\s+(?:o\s+|ao\s+)?(?:verão|verao|inverno|natal|carnaval|outono)|"
    r"no\s+(?:verão|verao|inverno|outono)"
)
"""A time, a reason or where the speaker is, after a plan ("correr a maratona do Rio ano que vem",
"aprender kitesurf agora que moro na praia", "abrir um food truck aqui em campinas"): no part of what
is planned, nor how ("guitarra nas horas vagas"); the turn keeps it, the date resolver reads the time."""

POSSIBILITY = (
    r"^(?:(?:ah|olha|bom|e|mas|entao)[\s,]+)*(?:talvez|quem\s+sabe|se\s+calhar|pode\s+ser\s+que|possivelmente)[\s,]+"
    r"(?:eu\s+|a\s+gente\s+|nos\s+)?(?:\w+(?:e|a|emos|amos)|va|vamos|me\s+\w+|mude|faca|seja|esteja|tenha|vou)\b"
)
"""A possibility, not a plan ("talvez eu mude para o Porto", "se calhar vou viver para Braga"):
kept as a turn, never a fact. Folded text: "faça" is "faca"."""

DEICTIC = frozenset("isso isto aquilo voce voces ele ela eles elas lhe lhes te ti".split())
"""Words that point into the talk (folded): a value holding one names nothing by itself ("fazer
isso", "ver ela"); its turn keeps what it pointed at."""
CHAT_TOKENS = frozenset("kk kkk kkkk kkkkk rs rsrs haha hahaha ne pq vc tb tbm blz sqn aff".split())
"""Chat shorthand (folded): no value holds one; a value that does ran on into the chatter."""
AUXILIARIES = frozenset("ser estar ter ficar haver".split())
"""Bare auxiliaries: a thing that holds one after its first word is a verb phrase ("cá estar")."""
GERUND = r"^[a-z]+ndo$"
"""A gerund ("acordando cedo"): an allergen, a condition or a drug that opens with one is a doing."""
ING_FOODS: frozenset[str] = frozenset()
NOT_OPENING = frozenset(
    """sou estou tenho vou levo bebo faço fico posso quero preciso moro tomo pego acordo durmo menos
    la ali aqui ca super bem muito mega hiper bastante bue nao nem nunca""".split()
)
"""First-person verbs, quantities, adverbs of place and of degree, and negations, that cannot open a
thing ("bebo uns quatro por dia", "menos noites", "intolerância ao glúten e lá comem bué pão": a new
clause after "e"; "alérgico a amendoim, super sério": a comment on the item before)."""
INSIDE = (
    r"\b(?:todo\s+(?:o\s+)?dia|tod[oa]s?\s+(?:as\s+|os\s+)?(?:noites?|manhãs?|manhas?|dias|semanas?|tardes?)|"
    r"por\s+(?:dia|semana|mês|mes)|dessa|desse|disso|nisso|nessa|daquilo)\b"
)
"""A habit ("toda noite", "por dia") or a pointer to the talk ("depois dessa") inside a value: a
clause about doing, not a thing."""
INTENSIFIER = r"^(?:mil\s+vezes|muito\s+mais|bem\s+mais|cem\s+vezes)\b"
"""Openers that weigh a preference, with the thing preferred after them ("mil vezes em casa")."""

SUBJECT_PRONOUNS = frozenset("eu nos nós".split())
"""A subject inside a plan opens a new clause ("... agora que eu moro na praia")."""
NOT_IN_ALLERGENS = frozenset("com para sem cuidado".split())
"""Words no allergen holds ("cuidado com ..." is a warning)."""
NEGATION = r"não|nao|nunca|já\s+não|ja\s+nao|sem"
"""Negations: a saved memory that has one states the opposite of a positive fact."""
USER_WORDS = frozenset("usuario usuaria utilizador utilizadora".split())
"""The subject of every sentence the rules write: shared by all facts, it says nothing of one."""
