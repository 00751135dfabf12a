"""How Portuguese turns (Brazil and Portugal) split into clauses and which clauses state nothing
of the user's: clause openers, questions, hypotheticals, hedges, tag questions and reported speech.
Regex fragments, case-insensitive, joined with every other language's by
:mod:`hipocampo.domain.extraction`."""

from __future__ import annotations

ABBREVIATIONS = r"dr|dra|sr|sra|prof|profa"
"""Titles whose full stop ends no sentence ("Dra. Silva")."""
SPEECH = r"disse|diz|falou|perguntou|escreveu|respondeu|contou"
"""Verbs of reported speech: what follows them ("ela disse: ...") is someone else's statement."""
STARTERS = (
    r"eu|meu|minha|meus|minhas|nós|a\s+gente|n[ãa]o(?!\s+(?:em|no|na|nos|nas|de|do|da|para|pra|a|o|as|os)\b)|"
    r"já|moro|vivo|sou|estou|tô|tenho|trabalho|gosto|adoro|amo|curto|odeio|detesto|prefiro|quero|queria|"
    r"gostaria|pretendo|planejo|tomo|me\s+chamo|me\s+mudei|mudei|nasci|estudo|sofro|posso|só|evito|parei|"
    r"moramos|temos|sigo|faço|comecei|saí|acabei|uso|entrei|deixei|virei|voltei|passei|namoro|chamo-me|"
    r"reformei-me|pode\s+me\s+chamar|acho\s+que|talvez|na\s+verdade|ele|ela|agora"
)
"""Words that open a new clause about someone (after a comma or a conjunction)."""
QUESTIONS = (
    r"você|voce|vc|pode(?:ria)?\s+(?:me\s+)?(?:ajudar|indicar|sugerir|recomendar|dizer)|qual|quais|onde|"
    r"como\s+(?:posso|faço|\w{2,}o\b)|quando|alguma\s+(?:dica|sugestão|ideia)|"
    r"me\s+(?:ajuda|ajude|ajudas|diz|diga|indica|indique|recomenda|recomende|sugere|sugira)"
)
"""Openers of a question or request to the assistant, which a clause of its own then holds."""
COMMA_LINKS = r"e|mas|também|porém|então|aliás"
"""Words that may follow the comma before a new clause ("..., e moro...")."""
CONJUNCTIONS = r"e|mas|porque|pq|porq|pois|enquanto|embora|porém"
"""Conjunctions that open a new clause when a clause opener follows them ("pq sou alérgico": chat
writes "porque" as "pq")."""
AND = r"e"
"""The plain "and", which before :data:`THIRD_PERSON` continues a sentence about someone else."""
THIRD_PERSON = r"mora|trabalha|tem|gosta|adora|ama|estuda"
"""Verbs that, after "e", continue a sentence about someone else ("a Ana e mora...")."""
CONDITIONALS = (
    r"se|caso|supondo|imagina|e\s+se|a\s+menos\s+que|digamos\s+que|hipoteticamente|quem\s+dera|não\s+sei\s+se"
)
"""Openers of a hypothetical: the clause, and the one that answers it, state nothing."""
CONDITION_INSIDE = (
    r"\b(?:se\s+(?:eu|a\s+gente|nós|nos|você|voce|vc|tu|calhar|tudo|der|for|fosse|tiver|tivesse|conseguir|"
    r"conseguisse|puder|pudesse|quiser|quisesse|ficar|arranjar|arrumar|passar|sair|vier)|caso|a\s+menos\s+que|"
    r"a\s+n[ãa]o\s+ser\s+que|supondo|imaginando)\b"
)
"""A condition anywhere in a sentence ("caso eu consiga a vaga, eu me mudo"): what the sentence says
depends on it, so none of it is a fact (a precise reader keeps the turn)."""
DESIRES = (
    r"\b(?:gostaria|gostava|queria|quereria|adoraria|adorava|preferiria|moraria|viveria|iria|seria|teria|"
    r"faria|mudaria|trabalharia|compraria|voltaria|sonhava|um\s+dia|quem\s+me\s+dera|tomara|oxal[áa])\b"
)
"""Anywhere in a clause, a wish ("queria morar em Floripa", "gostava imenso de viver em Lisboa"):
what the user wants, not what is; such a clause may state a goal, never a fact of another kind."""
DOUBTS = (
    r"\b(?:poderia|deveria|devia|ser[áa]\s+que|devo|pensando\s+em|a\s+pensar\s+em|posso\s+ser|pode\s+ser|"
    r"talvez|se\s+calhar|n[ãa]o\s+sei|imagina|imagine|fingir)\b"
)
"""Anywhere in a clause, a possibility or a doubt ("será que sou intolerante", "se calhar mudo-me"):
what may be, not what is; kept as a turn, no fact."""
MOMENT = r"\b(?:hoje|hj|(?:esta|essa)\s+(?:noite|manh[ãa]|tarde)|agora\s+mesmo|neste\s+momento|no\s+momento)\b"
"""A clause about this moment ("prefiro ficar em casa hoje"): a taste or a plan said of today is no
lasting preference or goal."""
FIRST_PERSON = r"\b(?:eu|nós|a\s+gente)\b|\w+ss(?:e|emos)\b"
"""A hypothetical about the user ("se eu morasse..."), whose next clause answers it."""
TAG_QUESTIONS = r"tá|ta|tá\s+bom|né|ne|sabe|viu|certo|entendeu|percebes|percebeste"
"""A statement asking for a nod ("Sou vegana, tá?"): no question."""
HEDGE_WORDS = r"talvez|provavelmente|possivelmente|acho\s+que|meio\s+que"
"""Words anywhere in a clause that lower its confidence."""

VALUE_ENDS = (
    r"se|caso|porque|pq|porq|pois|ent[ãa]o|quando|mas|embora|enquanto|já que|desde que|desde|há\s+\d+|"
    r"em\s+vez\s+d[eoa]s?|"
    r"ao\s+inv[ée]s\s+d[eoa]s?|"
    r"há\s+(?:muito|uns|umas|alguns|algumas|dois|duas|três|cinco|dez)"
)
"""Where a captured value ends: a new clause or a duration ("Porto desde 2019", "há cinco anos")."""
VALUE_ENDS_AFTER_COMMA = r"ent[ãa]o|ou\s+seja|sen[ãa]o|porque|pois"
"""After a comma, words that start a comment on the value rather than more of it."""
GERUND = r"[a-zà-ÿ]{2,}(?:ando|endo|indo)"
"""The gerund: a list item that starts with one and says more ("carne, virando vegetariana") is a
new clause, unless the list is all of them ("cozinhando, correndo")."""
POLITE = r"por\s+favor"
REMARKS = (
    r"lembr(?:a|e|a-te|e-se)\s+(?:disso|isso|dessa?|desse)|n[ãa]o\s+(?:te\s+|se\s+)?esque[çc](?:a|as|e|es)|"
    r"s[óo]\s+para\s+(?:saber(?:es)?|voc[êe]\s+saber)|anot[ae](?:\s+(?:a[íi]|isso))?|guard[ae]\s+isso|toma\s+nota"
)
"""A remark to the listener after a statement ("amendoim, lembra disso"): no part of the value."""
TRAILING = (
    r"agora|mais|também|tambem|muito|demais|bastante|atualmente|hoje em dia|ultimamente|de novo|por enquanto|"
    r"haha|né|viu|mesmo|kkk+|rs|hoje|por agora|aliás|alias|já agora|ja agora|tá|ok|okay|pois|sabe|entende|"
    r"hahaha+|kkkk+"
)
"""Words a value may end with that are no part of it ("jazz, mesmo", "Lisboa agora")."""
