"""Portuguese cues (Brazil and Portugal) that a statement takes back or ends what the user said
before, whatever the phrasing of the rest: the generic change detector
(:mod:`hipocampo.domain.truth.changes`) pairs them with an earlier fact the same sentence names.
Patterns run over folded text (no accents)."""

from __future__ import annotations

RETRACT = (
    r"\bja\s+nao\b|\bnao\b[^.!?]{0,40}\bmais\b|\bnunca\s+mais\b|\bdeixei\s+de\b|\bparei\s+de\b|\badeus\b|"
    r"\bdeixei\s+(?:o|a|os|as)\b|"
    r"\besquece\b|\besqueca\b|\bdesconsidera\b|\besqueci\s+o\s+que\s+disse\b|"
    r"\bcancel(?:ei|ado|ada|amos|aram|ou)\b|\bdesisti\b|\bdesistimos\b|\bvendi\b|\bvendemos\b|"
    r"\bterminamos\b|\bterminei\b|\bacab(?:ou|ado|ada)\b|\bja\s+era\b|\bacabamos\b|\bmorreu\b|\bfaleceu\b|\blarguei\b|\bnao\s+vai\s+(?:dar|rolar)\b|"
    r"\bfoi\s+por\s+agua\s+abaixo\b|\bsem\s+\w+\s+este\s+ano\b|"
    r"\b(?:eu\s+)?(?:antes\s+)?(?:trabalhava|morava|vivia|namorava)\b|\bmeu\s+ex\b|\bminha\s+ex\b|"
    r"\bex-(?:namorad[oa]|marido|mulher|esposa|noiv[oa])\b"
)
"""Ending cues: with an earlier fact named in the same sentence, that fact no longer holds."""
RESUME = r"\bvoltei\s+a\b|\bde\s+novo\b|\boutra\s+vez\b"
"""Taking something up again: ends an earlier "avoids" or "dislikes" of the thing named."""
DIET_EXCLUDES = {
    r"vegan[oa]?": r"carnes?|frango|bife|porco|bacon|peixes?|marisco|camarao|queijo|laticinios|leite|ovos?|"
    r"manteiga|mel",
    r"vegetarian[oa]": r"carnes?|frango|bife|porco|bacon|peixes?|marisco|camarao|sushi|hamburguer",
    r"pesc[ae]tarian[oa]": r"carnes?|frango|bife|porco|bacon|hamburguer",
}
"""What each diet leaves out (patterns over the folded diet value, then over the folded clause):
taking one of these up again ("voltei a comer peixe") ends the diet, though the sentence never
names it."""
SLOT_ENDINGS = {
    "employer": r"\b(?:sai|pedi\s+demissao|fui\s+demitid[oa]|fui\s+despedid[oa]|larguei)\b[^.!?]{0,30}"
    r"\b(?:emprego|empresa|trabalho)\b|\bpedi\s+demissao\b|\bfui\s+(?:demitid|despedid)[oa]\b",
    "person:partner": r"\b(?:terminamos|terminei\s+com|acabou\s+o\s+namoro|nos\s+separamos|separei-me)\b",
}
"""Cues that end one slot without naming its value ("pedi demissão", "terminamos")."""

VALUE_ENDINGS = {
    "employer": r"\b(?:sai|saimos)\s+d[aoe]\s+(?!\S+\s+(?:as|cedo|tarde|hoje|agora\s+(?:ha|a)\s+pouco|mais|antes|"
    r"depois|pra\s+almocar)\b)|\b(?:despedi-me|me\s+despedi|me\s+demiti|demiti-me)\s+d[aoe]\b",
}
"""Cues that end a fact of one slot when the sentence also names its value: "saí da Natura",
"despedi-me da Sonae" end the employer Natura or Sonae, and nothing else ("saí do cinema" names no
employer). Leaving the office for the day ("saí do Itaú às 19h", "saí da Natura cedo hoje") is no
ending: a time right after the place keeps the job."""

SLOT_WORDS = {"budget": r"\bor[cç]amento\b", "diet": r"\bdieta\b", "employer": r"\b(?:emprego|trabalho)\b"}
"""A slot's own name, for a single-valued slot an ending names without its value: "forget what I said
about the budget", "já não tenho emprego". Patterns over folded text."""

NEGATIONS = r"nao|nunca|nem|jamais|sem"
"""Words that deny the cue after them: "nunca desisti do alemão", "não cancelei" end nothing. Folded text."""
ARGUMENT_ENDS = r"e|eu|nos|mas|depois|entao"
"""Words after an ending cue that start another clause ("parei e pensei" ends no thought). Folded
text."""
COMPLETION = r"\b(?:acab(?:ou|ado|ada)|terminou)\b"
"""An ending cue that may say one occurrence is over ("a aula acabou"): it ends no recurring
activity (:data:`RECURRING`). Folded text."""
RECURRING = (
    r"\btod[ao]s?\s+(?:[oa]s?\s+)?(?:dia|dias|semana|semanas|manha|manhas|noite|noites|segunda|terca|quarta|quinta|sexta|sabado|domingo)s?\b|"
    r"\b(?:segundas|tercas|quartas|quintas|sextas|sabados|domingos)\b|\b\d+\s*x\s+(?:por|na)\s+semana\b|\bsemanal\b|"
    r"\bdiariamente\b|\bfins?\s+de\s+semana\b"
)
"""Words of a recurring activity ("cerâmica às quintas", "academia 3x por semana"): one session
being over does not end it. Folded text."""
UNSURE = r"se|caso|talvez|imagina|e\s+se|sera\s+que|devo"
"""Openers of a sentence that ends nothing: a hypothetical, a doubt, a question to oneself (folded)."""
REPORTED = r"disse|diz|falou|perguntou|contou"
"""Reported speech: someone else's words, not the user's change."""
OWN_WORDS = r"o\s+que\s+(?:eu\s+)?(?:disse|falei|te\s+disse)"
"""The user quoting themselves ("esquece o que eu disse"), which is no reported speech."""
CLAUSE_BREAKS = r"mas|porque|pois|entao|enquanto|embora"
"""Words that start another clause: an ending applies to what its own clause names (folded)."""

SUBJECTS = {
    "home": r"\b(?:moro|moramos|vivo|vivemos|morando|a\s+morar|a\s+viver)\s+(?:agora\s+)?(?:em|no|na|nos|nas)\s+|"
    r"\b(?:me\s+mudei|mudei-me|mudei|mudamos|nos\s+mudamos|mudamo-nos)\s+(?:de\s+vez\s+)?(?:pra|para|pro|pa)\s+(?:o\s+|a\s+)?|"
    r"\b(?:primeir[oa]s?|1a|1o)\s+(?:semana|mes|dias?|noite)\s+(?:morando\s+|a\s+viver\s+)?(?:em|no|na)\s+|"
    r"\b(?:ap|ape|apartamento|casa)\s+nov[oa]\s+(?:em|no|na)\s+|"
    r"\b(?:vim|viemos|fui|fomos)\s+(?:morar|viver)\s+(?:pra|para|pro|em|no|na)\s+(?:o\s+|a\s+)?|"
    r"\b(?:comprei|compramos|compr[aá]mos)\s+(?:uma\s+)?(?:casa|ap|ape|apartamento)\s+(?:em|no|na)\s+",
    "work": r"\b(?:trabalho|trampo|trabalhando|trampando|a\s+trabalhar)\s+(?:agora\s+)?"
    r"(?:na|no|em|numa|num|pra|para|pro)\s+(?:a\s+|o\s+)?|"
    r"\b(?:comecei|entrei|comecamos)\s+(?:a\s+trabalhar\s+)?(?:na|no|em)\s+|"
    r"\b(?:primeir[oa]|1a|1o)\s+(?:semana|dia|mes)\s+(?:na|no)\s+|\bfui\s+contratad[oa]\s+(?:pela|pelo|na|no)\s+|"
    r"\bemprego\s+nov[oa]\s+(?:na|no)\s+|\bnovo\s+emprego\s+(?:na|no)\s+|"
    r"\bsou\s+(?!de\b|do\b|da\b|fa\b)\w+\s+(?:na|no)\s+",
    "role": r"\b(?:trabalho|trampo|comecei|entrei|contratad[oa]|promovid[oa]|trabalhando|trampando|trabalhar)\b"
    r"[^.!?,;]{0,40}?\bcomo\s+(?:um\s+|uma\s+)?|\bpromovid[oa]\s+(?:a|para|pra)\s+|"
    r"\bsou\s+(?:um\s+|uma\s+)?(?P<v>(?!de\b|do\b|da\b|fa\b)[a-z]+(?:\s+[a-z]+)?)\s+(?=(?:na|no|numa|num)\s)",
    "partner": r"\b(?:meu|minha|o\s+meu|a\s+minha)\s+(?:nov[oa]\s+)?(?:namorad[oa]|noiv[oa]|marido|esposa|mulher|"
    r"companheir[oa]|boy|crush)\s*,?\s*(?:(?:e|chama|se\s+chama|chamad[oa])\s+)?(?:o\s+|a\s+)?|"
    r"\b(?:saindo|ficando)\s+com\s+(?:o\s+|a\s+)?|\bnamorando\s+(?:com\s+)?(?:o\s+|a\s+)?|\bnamoro\s+(?:com\s+)?(?:o\s+|a\s+)",
    "diet": r"\b(?:sou|to|tou|estou|virei|fiquei)\s+(?:agora\s+)?(?P<v>vegan[oa]|vegetarian[oa]|pescetarian[oa]|"
    r"flexitarian[oa]|low\s*carb|keto)\b|"
    r"(?:^|[,;]\s*)(?P<v3>vegan[oa]|vegetarian[oa]|pescetarian[oa]|flexitarian[oa])\s+(?=agora\b|acho\b|de\s+novo|kkk|haha)",
    "rent": r"\b(?:aluguel|renda)\s+(?:e|ta|esta|fica|de|agora\s+e|subiu\s+(?:pra|para))\s+(?:de\s+)?(?:r\$\s*)?|"
    r"\bpago\s+(?=(?:r\$\s*)?\d[\d.,]*\s*(?:reais|euros)?\s+de\s+(?:aluguel|renda))",
}
"""Subjects a person holds one value of at a time, and the frames (folded) that state their value:
the value follows the frame (or is its group ``v``). A later own sentence stating another value of
the same subject makes the earlier statement earlier (:mod:`hipocampo.domain.truth.replaced`).
Pets, children, hobbies and allergies are left out: a new one adds, it does not replace."""
SUBJECT_CHANGES = {
    "work": r"\b(?:mudei|troquei|mudamos|trocamos)\s+de\s+(?:emprego|trabalho|trampo|empresa|firma)\b|"
    r"\b(?:comecei|arrumei|consegui|peguei|arranjei)\s+(?:um\s+|o\s+)?(?:(?:emprego|trampo|trabalho)\s+novo|"
    r"novo\s+(?:emprego|trampo|trabalho))\b|\b(?:meu|no)\s+(?:(?:emprego|trampo|trabalho)\s+novo|novo\s+(?:emprego|trampo|trabalho))\b|"
    r"\b(?:pedi|pedimos)\s+(?:a\s+)?(?:demissao|conta)\b|\bme\s+demiti\b|\bdemiti-me\b|"
    r"\b(?:fui|fomos)\s+(?:demitid[oa]s?|despedid[oa]s?|mandad[oa]s?\s+embora)\b|"
    r"\b(?:larguei|deixei|perdi)\s+(?:o\s+|meu\s+|o\s+meu\s+)?(?:emprego|trabalho|trampo)\b|"
    r"\b(?:sai|saí)\s+d[aoe]\s+(?:empresa|firma|emprego|trabalho|trampo)\b|"
    r"\b(?:estou|to|tou|fiquei)\s+desempregad[oa]\b|"
    r"\b(?:reformei|aposentei)-me\b|\bme\s+(?:reformei|aposentei)\b|"
    r"\b(?:sou|estou|to|tou|fiquei|agora\s+sou)\s+(?:reformad|aposentad)[oa]\b",
    "partner": r"\bterminei\s+(?:com\b|o\s+namoro\b|tudo\b)|"
    r"\b(?:terminamos|separamos|divorciamos)\b(?!\s+(?:o|a|os|as)\s)|"
    r"\b(?:a\s+gente|nos)\s+(?:terminou|se\s+separou|acabou)\b|\bme\s+(?:separei|divorciei)\b|"
    r"\b(?:separei|divorciei)-me\b|\b(?:to|tou|estou|fiquei)\s+solteir[oa]\b",
    "home": r"\b(?:mudei|troquei|mudamos|trocamos)\s+de\s+(?:casa|ap|ape|apartamento|cidade)\b|"
    r"\b(?:minha|nossa)\s+casa\s+nova\b|\b(?:meu|nosso)\s+(?:ap|ape|apartamento)\s+novo\b|"
    r"\b(?:me\s+mudei|mudei-me|mudei|mudamos|nos\s+mudamos|mudamo-nos|fomos\s+morar|fui\s+morar)\s+"
    r"(?:de\s+vez\s+)?(?:pra|para|pro|numa?|em\s+uma?)\s+(?:uma?\s+)?(?:aldeia|vila|cidade|quinta|fazenda|sitio|"
    r"roca|interior|campo|praia|litoral|estrangeiro|fora)\b",
}
"""A change of a subject said without its new value ("mudei de emprego", "troquei de casa"): the
newest earlier statement of that subject is earlier (:func:`~hipocampo.domain.truth.replaced.replaced_statements`)."""
ADDING = r"\b(?:tambem|outr[oa]|segund[oa]|mais\s+um[a]?|alem\s+d[oa]|bico|freela|meio\s+periodo|part[-\s]time)\b"
"""Cues that a statement adds a value beside the earlier one ("também trabalho num bar")."""
ADDING_OPENERS = r"alias|e\s+mais"
"""Openers that only link sentences: no addition to the subject."""
OTHERS = (
    r"ele|ela|eles|elas|dele|dela|deles|delas|se\s+mudou|se\s+mudaram|mudou-se|mudaram-se|toda\s+a\s+gente|"
    r"todo\s+(?:o\s+)?mundo|todos|a\s+galera|o\s+pessoal|a\s+malta"
)
"""Third-person subjects: a clause about someone else's home or job ("ela mudou-se para o Porto")."""
OWNED_SUBJECT = (
    r"\b(?:(?:o|a|os|as)\s+)?(?:meu|minha|meus|minhas|nosso|nossa)\s+(?:[\w'-]+\s+){1,2}?"
    r"(?:e|esta|ta|vai|foi|tem|mudou|mudou-se|se|arranjou|conseguiu|is|was|moved|got)\b"
)
"""Someone of the user's as a clause's subject ("a minha flatmate is moving to Dublin", "meu irmão
se mudou pra Curitiba"): a place said there is theirs (folded)."""
NOT_VALUES = (
    r"agora|hoje|aqui|ai|la|casa|remoto|remota|sozinh[oa]|junt[oa]s?|de|do|da|um|uma|uns|umas|o|a|os|as|"
    r"mesmo|mesma|nov[oa]|velh[oa]|outr[oa]|esse|essa|este|esta|isso|meu|minha"
)
"""Words after a frame that are no value: "trabalho em casa", "moro aqui", "morando sozinha"."""
NOW = (
    r"\bagora\b|\bem\s+vez\s+d[eoa]s?\b|\bao\s+inves\b|\bhoje\s+em\s+dia\b|\bpassou\s+a\b|\bpassei\s+a\b|"
    r"\bmud(?:ou|aram|ei|amos|ar)\b|\bsubiu\b|\bdesceu\b|\bbaixou\b|\btroc(?:ou|aram|ei|amos|ar)\b|\bremarc\w*\b|"
    r"\batualiz\w*\b|\bafinal\b|\bsubi\b|\bsubimos\b|\baumentei\b|\baument(?:ou|aram|amos)\b|\breduzi\b|"
    r"\breduz(?:iu|imos)\b|\bcort(?:ei|amos)\b|\bbaix(?:ei|amos)\b|\btive\s+aumento\b"
    r"|\bagr\b|\bsubiram\b|\bdobr(?:ou|aram|ei|amos)\b|\bajust(?:ou|aram|ei|amos)\b|\bpass(?:ou|aram)-(?:me|nos)\b"
    r"|\bpromovid[oa]\b"
)
"""Cues that a statement gives the value holding now in place of an earlier one ("a minha preferida
agora é Succession", "a Gol mudou meu voo! agora é o G3 1460"): with the earlier statement's subject
and another name, number or code, the earlier statement is replaced (folded;
:mod:`hipocampo.domain.truth.restated`)."""
NEW_CODE = r"(?<!de\s)\bnov[oa]s?\b"
"""A new code or amount in place of the old ("a reserva nova é K9XT4M", not "de novo"): a change
cue only beside a code or a number."""
NOT_HOME = r"\b(?:emprego|empresa|cargo|equipa|equipe|firma|funcao|departamento|setor|promovid[oa])\b"
"""Words that make a move a change of workplace ("I moved to Globex, same role"): no home is read."""

INDEFINITE = frozenset({"um", "uma", "num", "numa"})
"""Indefinite articles: "trabalho numa fábrica" names the kind of place, not which one."""
NAMING = frozenset({"chamado", "chamada", "chama"})
"""Words that give a name after a description ("uma startup chamada Ramp")."""
CHAT_WORDS = frozenset("pro pra pros pras pa to ta tb tbm vc q eh kkk".split())
"""Chat's function words the stopword list does not hold ("pra", "tô", "vc"): they say nothing of
a subject."""
NOT_NAMES = frozenset("sim nao oi ola kkk afinal entao eh mas e".split())
"""Capitalised words at a sentence's start that name nothing ("Oi", "Afinal", "Sim")."""
SELF_INTRO = r"[Ss]ou\s+[oa]|[Cc]hamo-me|[Mm]e\s+chamo|[Mm]eu\s+nome\s+é"
"""How the speaker gives their own name ("sou a Ana", "chamo-me Rui"): a name said so is no value
of a subject. Case-sensitive: the name after it is capitalised."""
HERE = r"aqui"
"""The word after a name that introduces the speaker ("Ana aqui")."""
