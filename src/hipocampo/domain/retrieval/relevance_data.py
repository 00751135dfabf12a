"""Texts behind calibrated relevance (see :mod:`hipocampo.domain.retrieval.relevance`).

``BACKGROUND`` is what "unrelated" looks like: generic memories, in Portuguese and English, in the
shapes hipocampo stores (facts about the user, first-person chat turns). Every query is compared
with them at search time, so they must stay generic: about nobody and nothing in particular.

``PAIRS`` are the calibration set: a topic, a query, and a text that answers or restates it (a
question to the fact that answers it, or a paraphrase, within a language and across PT/EN). Each
query is also paired with every text of *other* topics to sample unrelated pairs. Written for this
purpose: no benchmark or scenario data, and no food or allergy pairs, so the tests that check the
allergy paraphrase check the calibration instead of repeating it.
"""

from __future__ import annotations

INDEXED_DAY = "[14 March 2024] "
"""Stored memories are embedded with their day in front (``MemoryItem.index_text``); the background
and calibration texts are embedded the same way, so the prefix's share of the cosine cancels out."""


def as_indexed(text: str) -> str:
    return INDEXED_DAY + text


BACKGROUND: tuple[str, ...] = (
    # Portuguese: facts as extraction and agents write them, and chat turns
    "O usuário gosta de ouvir rádio de manhã.",
    "O usuário comprou uma bicicleta nova.",
    "O usuário tem uma reunião na quinta-feira.",
    "O usuário prefere pagar com cartão.",
    "O usuário está pintando a sala de azul.",
    "O usuário coleciona selos antigos.",
    "O usuário quer aprender a tocar violão.",
    "O usuário usa óculos para ler.",
    "O código do pedido é 55821.",
    "O usuário perdeu o guarda-chuva no ônibus.",
    "Hoje choveu o dia inteiro por aqui.",
    "Preciso trocar o pneu do carro esta semana.",
    "Meu irmão mudou de emprego no mês passado.",
    "Vi um documentário sobre vulcões ontem.",
    "Estou procurando uma cadeira de escritório confortável.",
    "A internet lá de casa caiu de novo.",
    "Fui ao cinema com uns amigos no sábado.",
    "Quero organizar as fotos da família.",
    "O prazo do relatório é sexta.",
    "Minha planta favorita é a samambaia.",
    # English
    "The user listens to podcasts while commuting.",
    "The user repainted the fence last weekend.",
    "The user has a dentist appointment on Monday.",
    "The user prefers aisle seats.",
    "The user is learning to knit.",
    "The user keeps a journal every night.",
    "The ticket number is 7731-B.",
    "The user's laptop battery is failing.",
    "The user wants to visit a lighthouse.",
    "The user volunteers at the library.",
    "It was really windy this afternoon.",
    "I need to renew my passport soon.",
    "My cousin just adopted a kitten.",
    "We watched an old western movie last night.",
    "I'm thinking about rearranging the living room.",
    "The printer at work jammed again.",
    "I finally fixed the squeaky door.",
    "My neighbour plays the trumpet every evening.",
    "The report is due on Friday.",
    "I started a puzzle with a thousand pieces.",
)

PAIRS: tuple[tuple[str, str, str], ...] = (
    # Portuguese questions to the fact that answers them
    ("home", "onde ela mora?", "O usuário mora em Curitiba."),
    ("job", "qual é a profissão dele?", "O usuário trabalha como enfermeiro."),
    ("kids", "ele tem filhos?", "O usuário tem duas filhas."),
    ("team", "qual o time dele?", "O usuário torce para o Grêmio."),
    ("language", "que língua ela está estudando?", "O usuário está aprendendo japonês."),
    ("birthday", "quando é o aniversário dele?", "O aniversário do usuário é em 12 de março."),
    ("car", "qual carro ele tem?", "O usuário dirige um Honda Civic."),
    ("pet", "ele tem algum animal de estimação?", "O usuário tem um gato chamado Mingau."),
    ("budget", "qual é o orçamento da reforma?", "O orçamento máximo da reforma é R$ 20.000."),
    ("sport", "que esporte ela pratica?", "O usuário joga vôlei às terças."),
    ("reference", "qual o número do protocolo?", "O protocolo do último atendimento foi 448812."),
    ("travel", "para onde ele vai viajar?", "O usuário está planejando uma viagem ao Chile em julho."),
    ("music", "de que música ele gosta?", "O usuário gosta de samba e bossa nova."),
    ("health", "ela tem algum problema de saúde?", "O usuário tem asma."),
    # Portuguese paraphrases
    ("home", "Moro em Recife há dez anos.", "O usuário mora em Recife."),
    ("job", "Trabalho como professora de química.", "O usuário é professor de química."),
    ("travel_pref", "Prefiro voos de manhã cedo.", "O usuário gosta de viajar em voos matinais."),
    ("goal", "Meu objetivo é correr uma maratona este ano.", "O usuário quer completar uma maratona."),
    # English questions to the fact that answers them
    ("home", "where does she live?", "The user lives in Denver."),
    ("job", "what is his job?", "The user works as a software engineer."),
    ("kids", "does he have kids?", "The user has a son and a daughter."),
    ("team", "which team does she support?", "The user is a Liverpool fan."),
    ("language", "what language is he learning?", "The user is studying Italian."),
    ("birthday", "when is her birthday?", "The user's birthday is on October 3."),
    ("car", "what car does he drive?", "The user drives a Subaru."),
    ("pet", "does she have pets?", "The user has a dog named Biscuit."),
    ("budget", "what's the budget for the wedding?", "The wedding budget is at most $15,000."),
    ("sport", "what sport does he play?", "The user plays tennis on weekends."),
    ("reference", "what's the booking reference?", "The hotel booking reference is QX7731."),
    ("travel", "where is she travelling to?", "The user is planning a trip to Japan in April."),
    ("music", "what kind of music does he like?", "The user enjoys jazz and blues."),
    ("health", "any health issues?", "The user has high blood pressure."),
    # English paraphrases
    ("home", "I moved to Boston last year.", "The user lives in Boston."),
    ("travel_pref", "I'd rather stay in hotels with a pool.", "The user prefers hotels that have a swimming pool."),
    ("goal", "My goal is to save for a house.", "The user wants to buy a house."),
    # Across languages
    ("job", "where does he work?", "O usuário trabalha num banco."),
    ("language", "ela fala inglês?", "The user speaks English fluently."),
    ("hobby", "what does she do on weekends?", "O usuário faz trilhas nos fins de semana."),
    ("hobby", "qual é o hobby dele?", "The user's hobby is woodworking."),
    ("fear", "Tenho medo de avião.", "The user is afraid of flying."),
)
