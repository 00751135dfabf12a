"""Portuguese speech-act cues (Brazilian and European): what makes a turn a request to the
assistant, social filler, or a statement about the speaker's life, and what makes a question one
about the user.

Plain data, matched on folded text (lowercase, no accents) by
:mod:`hipocampo.domain.retrieval.speech_acts`. Cues are generic forms of the language (how people
ask, thank and greet), never topics. Portuguese drops the subject pronoun ("comecei na X",
"moro em Y"), so :data:`FIRST_PERSON_VERBS` lists the common first-person forms that say the
speaker is talking about themselves.
"""

from __future__ import annotations

REQUEST_OPENERS: tuple[str, ...] = (
    r"(?:me |nos )?(?:passa|passe|da|de|diz|diga|fala|fale|manda|mande|mostra|mostre|conta|conte|indica|indique"
    r"|ajuda|ajude|explica|explique|sugere|sugira|recomenda|recomende|ensina|ensine|arruma|arranja|traduz"
    r"|traduza|resume|resuma|lista|liste|escreve|escreva|faz|faca|cria|crie|gera|gere|calcula|calcule|corrige"
    r"|corrija|revisa|revise|organiza|organize|monta|monte|compara|compare|descreve|descreva|planeja|planeje"
    r"|lembra|lembre|busca|procura|procure|verifica|verifique|converte|converta)\b",
    r"(?:podes|pode|poderia|podia|consegue|consegues|voce pode|vc pode|tu podes|sera que (?:voce|vc|tu))\b",
    r"(?:por favor|pfv|pf|pfvr)\b",
    r"(?:me |nos )?(?:passa|da|de|manda)-?(?:me)?\b",
    r"(?:explica|diz|conta|mostra|indica|sugere|recomenda|resume|ensina|arranja|passa|manda|da)-me\b",
    r"como (?:faco|faz|se faz|tiro|posso|devo|e que|fazer|funciona|eu faco|se diz|e|sao)\b",
    r"o que (?:e|sao|significa|quer dizer|acha|voce acha|vc acha|achas|fazer|eu faco|devo|posso)\b",
    r"quanto (?:tempo|custa|e|da)\b",
    r"(?:qual|quais|quantos|quantas)\b",  # "quantos ml de leite pro bebê", "qual app uso pra isso"
    r"(?:onde|quando|porque|por que|pq|quem) (?:fica|e|foi|inventou|escreveu|posso|devo)\b",
    r"tem (?:como|alguma|algum)\b",
    r"(?:quero|queria|gostaria) (?:que (?:voce|vc|tu)|de (?:uma|um|ajuda|dicas|ideias|sugest))\b",
    r"preciso (?:de (?:uma|um|ajuda|dicas|ideias)|que (?:voce|vc|tu))\b",
    r"(?:ideias|dicas|sugestoes) (?:de|para|pra|pro)\b",
    r"bora\b",
    r"vamos\b",
)
"""A clause opening like these asks the assistant for something (after any filler opener)."""

FILLER_WORDS: frozenset[str] = frozenset(
    """ok okay beleza blz show top massa legal otimo otima perfeito perfeita boa bom fixe brutal valeu
    vlw obrigado obrigada obg brigado brigada brigadao brigadão agradeco kkk kkkk kkkkk kkkkkk rs rsrs
    haha hahaha hehe sim nao nop isso exato certo claro entendi entendido ah oh eita nossa uau
    oi ola bom dia boa tarde boa noite tchau ate logo mais abraco abracos bjs beijo beijos fui
    de nada tranquilo suave tudo bem otimo adorei adoro amei muito mto mt mesmo demais viu ne
    pois e ta bem tá certo combinado fechou fechado mano cara vei véi pa pá epa ui que a o e aff afe
    aham uhum hum hmm poxa putz caramba eba oba opa""".split()
)
"""Words a purely social turn is made of ("valeu!!", "kkkk obrigada", "fixe, obrigado")."""

OPENER_WORDS: frozenset[str] = frozenset(
    """ok okay entao então bom olha oi ola ah oh e mas tipo mano cara bro vei pa epa blz beleza show
    valeu ai aí agora alias aliás outra coisa pergunta rapidinho rapida""".split()
)
"""Words skipped before a clause's opener: "oi, me passa..." asks like "me passa...\""""

FIRST_PERSON: frozenset[str] = frozenset(
    """eu meu minha meus minhas mim comigo me nos nós nosso nossa nossos nossas""".split()
)
"""Pronouns of the speaker: a statement holding one speaks of the speaker's own world."""

OTHERS: tuple[str, ...] = (
    r"\b(?:meu|minha|meus|minhas|nosso|nossa) (?:\w+ )?(?:irma|irmao|mae|pai|pais|amig[oa]|colega|chefe|esposa|"
    r"marido|mulher|namorad[oa]|filh[oa]|prim[oa]|ti[oa]|vizinh[oa]|sogr[oa]|companheir[oa]|cunhad[oa]|"
    r"av[oó]|sobrinh[oa]|mozao|noiv[oa])s?\b",
    r"\b(?:ele|ela|eles|elas)\b",
)
"""Another person as the subject ("a minha irmã vai viver para o Porto", "ele ama vinho"): folded text."""

SELF_SUBJECT: frozenset[str] = frozenset("""eu""".split())
"""The speaker as the subject of a clause; with :data:`FIRST_PERSON_VERBS` ("sou", "moro"), as
against only their possessions or relations ("meu irmão trabalha no Google")."""

FIRST_PERSON_VERBS: frozenset[str] = frozenset(
    """sou estou to tô tou tava estava estive fui sera serei era tenho tinha tive terei moro morava
    morei vivo vivi trabalho trabalhava trabalhei trampo trampava comecei comeco entrei sai saí
    mudei mudei-me fiz faco faço vou ia irei vim venho fico fiquei estudo estudei aprendo
    aprendi gosto gostei adoro odeio prefiro quero queria preciso precisei comprei aluguei
    casei separei namoro conheci perdi ganhei consegui tirei passei fechei pedi acho achei sei
    sabia posso pude corro corri treino treinei jogo joguei toco leio li assisto vi viajei
    cheguei voltei nasci cresci tomo uso usei sinto senti ando andei ando a estou a tou a dou dei""".split()
)
"""First-person verb forms: Portuguese drops the pronoun ("comecei na X", "moro em Y")."""

FIRST_PERSON_ENDINGS: dict[str, tuple[str, ...]] = {
    "o": ("ar", "er", "ir"),  # ganho, poupo, pratico, bebo: ganhar, poupar, praticar, beber
    "ei": ("ar",),  # poupei, mudei: poupar, mudar
    "guei": ("gar",),  # paguei, cheguei: pagar, chegar (the stem is spelled gu before e)
    "quei": ("car",),  # fiquei, marquei: ficar, marcar (and qu for c)
    "amos": ("ar",),  # voamos, mudamos: voar, mudar
    "emos": ("er",),  # vivemos, temos: viver, ter
    "imos": ("ir",),  # partimos, dividimos: partir, dividir
}
"""How a verb says "I" or "we" in its ending, and the infinitives it comes from: no list of forms
holds every verb ("quanto poupo por mês?", "quando é que voamos?", "que desporto pratico?"). A
word is such a form when its stem plus one of these infinitive endings is a word of the language."""

NOT_BEFORE_VERB: frozenset[str] = frozenset(
    """o a os as um uma uns umas do da dos das no na nos nas ao aos pelo pela pelos pelas meu minha
    teu tua seu sua nosso nossa esse essa este esta aquele aquela qualquer cada outro outra melhor
    pior bom boa novo nova primeiro ultimo proximo mesmo algum nenhum todo toda de em pro pra para
    por com sem sobre""".split()
)
"""Words after which a word ending in -o is a noun ("o trabalho", "um livro", "bom treino"), not
a verb in the first person ("onde trabalho?")."""

GENERIC_FORMS: frozenset[str] = frozenset({"devo", "devia", "deveria", "devemos"})
"""First-person forms that ask for advice anyone could take ("quantos litros de água devo
beber?"), not about the user's life."""

SELF_QUESTION: tuple[str, ...] = (
    r"\b(?:meu|minha|meus|minhas|mim|comigo)\b",
    r"\beu\b",
    r"\b(?:nosso|nossa|nossos|nossas)\b",
    r"\b(?:sou|estou|to|tou|moro|trabalho|trampo|tenho|tinha|fui|estudo|gosto|prefiro|vou|ia|faco|"
    r"comecei|entrei|mudei|comprei|aluguei|namoro|corro|treino|uso|tomo|sei)\b",
    # Asked to be reminded of what the user said: "qd é o casório msm", "onde fica a loja mesmo?".
    r"\b(?:msm|mesmo)\W*$",
    r"\b(?:te|lhe) (?:disse|falei|contei)\b",
)
"""A question holding one of these asks about the user ("qual é meu cargo?", "onde moro?", "qd é
o casório msm": a reminder of something said)."""

HOW_TO: tuple[str, ...] = (
    r"^\W*(?:como (?:eu )?(?:faco|posso|devo|tiro|fazer|consigo)|o que (?:eu )?(?:faco|devo|posso) "
    r"(?:fazer|cozinhar|comer|ler|ver|comprar))\b",
    r"^\W*(?:qual (?:e )?(?:a |o )?melhor (?:forma|jeito|maneira)|posso (?:usar|tomar|comer|misturar))\b",
)
"""First-person questions that ask for instructions or advice, not about the user's life
("como faço um bolo?"): the first person there is generic."""

ASKS_NAME: tuple[str, ...] = (
    r"\b(?:quem|onde|aonde|donde)\b",
    r"\bde onde\b",
    r"\b(?:que|qual|em que|para que|pra que|de que) (?:cidade|pais|bairro|empresa|firma|escola|faculdade"
    r"|universidade|time|clube|banda|hospital|companhia|zona)\b",
    r"\b(?:qual|que) (?:e |era )?(?:o |a )?(?:nome|apelido)\b",
    r"\bcomo (?:se |e que se )?(?:chama|chamam|chamava)\b",
)
"""A question answered by a name (a person, a place, a company): "quem...", "onde...", "como se
chama o meu cão?"."""

ASKS_PLACE: tuple[str, ...] = (
    r"\b(?:onde|aonde|donde)\b(?!(?: \w+){0,3} (?:trabalh|tramp))",  # "onde trabalho?": an employer, not a town
    r"\b(?:que|qual|em que|de que|pra que|para que) (?:cidade|pais|bairro|zona|estado|terra)\b",
)
"""A question answered by a place: "onde...", "em que cidade...". Its answer names the place,
capitalised or not ("trampo de designer em bh")."""

ASKS_EMPLOYER: tuple[str, ...] = (
    r"\bonde (?:e que )?(?:eu )?(?:trabalho|trampo|to trabalhando|estou trabalhando|estou a trabalhar"
    r"|tou a trabalhar)\b",
    r"\b(?:pra|para|em) (?:que|qual) (?:empresa|firma) (?:eu )?(?:trabalho|trampo)\b",
    r"\b(?:qual|que) (?:e |era )?(?:a )?(?:minha )?(?:empresa|firma|empregador|entidade patronal)\b",
)
"""A question answered by an employer: "onde é que trabalho?", "qual a minha empresa?". Chat
writes it in lowercase ("trampo na coqueiral sistemas"); see the English bundle."""

EMPLOYER_AT: tuple[str, ...] = (r"na", r"no", r"nas", r"nos", r"pela", r"pelo", r"pra", r"para a", r"para o")
"""Words before where one works ("at bramblecourt freight", "na coqueiral sistemas")."""

ASKS_HOURLY: tuple[str, ...] = (
    r"\b(?:por|a|à)\s+hora\b",
    r"\bvalor\s*/\s*hora\b",
    r"/\s*(?:h|hora)\b",
)
"""A question on an amount per hour ("how much do i make an hour?", "meu valor/hora?"): answered by
an amount said as a rate per hour ("18.50/hr", "14€ à hora"), not by any number."""

ASKS_MONTHLY: tuple[str, ...] = (
    r"\b(?:por|ao|a)\s+m[eê]s\b",
    r"\bmensal(?:idade)?\b",
    r"/\s*m[eê]s\b",
)
"""A question on an amount per month ("what do i pay a month?", "quanto pago por mês?")."""

ASKS_OCCUPATION: tuple[str, ...] = (
    r"\b(?:meu|minha) (?:cargo|profissao|funcao|oficio|area)\b",
    r"\bo que (?:e que )?(?:eu )?fa[cç]o (?:da vida|no trampo|no trabalho|profissionalmente|de trabalho)\b",
    r"\btrabalho (?:com|de|como) (?:o )?que\b",
    r"\b(?:qual|que) (?:e |era )?(?:o |a )?(?:meu |minha )?(?:cargo|profissao|funcao|oficio)\b",
    r"\bo que (?:e que )?(?:eu )?ensino\b",
)
"""A question answered by an occupation: "qual é o meu cargo?", "o que eu faço da vida?". Its
answer names a job (each bundle's ``OCCUPATIONS``), said in any words ("sou dev backend")."""

ASKS_MEDICATION: tuple[str, ...] = (
    r"\b(?:que|qual|quais) (?:e |sao )?(?:o |a |os |as )?(?:meu |minha |meus |minhas )?(?:\w+ )?(?:remedio|remedios"
    r"|medicamento|medicamentos|medicacao|comprimido|comprimidos|antidepressivo|anticoagulante|dose)\b",
    r"\b(?:remedio|medicamento|comprimido)s? (?:eu )?(?:tomo|to tomando|estou a tomar|tou a tomar)\b",
)
"""A question answered by a medication: "que antidepressivo eu tomo agora?", "qual remédio de
pressão eu tomo?". Its answer names a drug (each bundle's ``MEDICATIONS`` and ``DRUG_SUFFIXES``)."""

ASKS_NUMBER: tuple[str, ...] = (
    r"\bquant(?:o|a|os|as)\b",
    r"\b(?:numero|codigo|referencia|reserva|voo|pedido|protocolo|apolice|localizador|senha|orcamento|preco"
    r"|aluguel|aluguer|renda|salario|idade)\b",
    r"\b(?:que|qual) (?:horas|hora|ano|data|dia)\b",
    r"\bq(?:nt|nto|nta|to|ta|tos|tas|ts)\b",  # chat's "quanto": "qnt eu ganho", "qto é a parcela"
    r"\b(?:dose|peso|parcela|valor|turno|horario|prestacao|mensalidade)\b",
)
"""A question answered by a number or a code: "quantos anos...", "qual o número do voo?"."""

ACKNOWLEDGED: tuple[str, ...] = (
    r"(?:vou|vamos|ja vou|deixa eu|vou sim)(?: \w+)? (?:falar|tentar|testar|perguntar|ver|olhar|conversar|ligar|mandar|"
    r"avisar|pensar|fazer|experimentar)\b",
)
"""After a word of filler, a short promise to act on the assistant's advice ("ok vou falar pra ela",
"blz, vou testar", "fixe, vou experimentar"): an acknowledgement, social like a thank-you (folded)."""

ASIDES: tuple[str, ...] = ("alias", "ah e", "e tambem")
"""Words that start another clause inside a line ("valeu! ah e sou alérgica a camarão"):
each clause is read for its own act (folded)."""
