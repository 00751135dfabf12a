"""Hand-written bilingual retrieval data for ``benchmarks/embedders.py``.

Ten themes. Each theme states one personal fact once in Portuguese and once in English, and
asks for it with two paraphrased queries per language that avoid repeating the fact's key words
where a natural paraphrase allows. Distractors are everyday sentences in each language; several
share a topic or a word with a fact (peanut butter, a neighbour's cat, a brother's job) so that
word overlap alone is not enough.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Theme:
    key: str
    fact_pt: str
    fact_en: str
    queries_pt: tuple[str, ...]
    queries_en: tuple[str, ...]


THEMES: tuple[Theme, ...] = (
    Theme(
        "allergy",
        "Sou alérgico a amendoim.",
        "I am allergic to peanuts.",
        ("Qual alimento me causa reação alérgica?", "De que alergia alimentar eu sofro?"),
        ("Which food triggers an allergic reaction in me?", "What food allergy do I have?"),
    ),
    Theme(
        "pet",
        "Meu cachorro se chama Bolinha.",
        "My dog is called Bolinha.",
        ("Que nome dei ao meu animal de estimação?", "Como se chama o meu cão?"),
        ("What is my pet's name?", "What did I name my puppy?"),
    ),
    Theme(
        "job",
        "Trabalho como enfermeira no hospital de Coimbra.",
        "I work as a nurse at the hospital in Coimbra.",
        ("Qual é a minha profissão?", "Onde fica o meu emprego?"),
        ("What do I do for a living?", "What is my occupation?"),
    ),
    Theme(
        "birthday",
        "O aniversário da minha irmã é no dia 12 de março.",
        "My sister's birthday is on March 12.",
        ("Quando a minha irmã faz anos?", "Em que data nasceu a minha irmã?"),
        ("When does my sister celebrate turning a year older?", "What day was my sister born?"),
    ),
    Theme(
        "diet",
        "Sou vegetariano há cinco anos.",
        "I have been a vegetarian for five years.",
        ("Eu como carne?", "Que tipo de alimentação eu sigo?"),
        ("Do I eat meat?", "What kind of diet do I follow?"),
    ),
    Theme(
        "home",
        "Moro em Lisboa, perto do rio Tejo.",
        "I live in Lisbon, close to the Tagus river.",
        ("Em que cidade fica a minha casa?", "Onde eu resido?"),
        ("Which city is my home?", "Where is my house?"),
    ),
    Theme(
        "hobby",
        "Aos sábados jogo futebol com os amigos.",
        "On Saturdays I play football with my friends.",
        ("Que esporte pratico no fim de semana?", "O que costumo fazer no sábado?"),
        ("What sport do I play at the weekend?", "How do I usually spend Saturday?"),
    ),
    Theme(
        "car",
        "O meu carro é um Fiat Uno vermelho.",
        "My car is a red Fiat Uno.",
        ("Que veículo eu dirijo?", "De que cor é o meu automóvel?"),
        ("What vehicle do I drive?", "What colour is my automobile?"),
    ),
    Theme(
        "language",
        "Estou aprendendo japonês para uma viagem a Tóquio.",
        "I am learning Japanese for a trip to Tokyo.",
        ("Que idioma estou estudando?", "Para qual país vou viajar?"),
        ("Which language am I studying?", "Which country am I going to visit?"),
    ),
    Theme(
        "health",
        "Tomo remédio para pressão alta todas as manhãs.",
        "I take blood pressure medication every morning.",
        ("Que medicamento uso diariamente?", "Eu tenho hipertensão?"),
        ("What medicine do I take daily?", "Do I have hypertension?"),
    ),
)

DISTRACTORS_PT: tuple[str, ...] = (
    "Minha amiga adora pasta de amendoim no café da manhã.",
    "O gato da vizinha se chama Mingau.",
    "Meu irmão trabalha como engenheiro em São Paulo.",
    "O aniversário da minha mãe é em dezembro.",
    "O restaurante novo serve churrasco aos domingos.",
    "Meus pais moram no interior de Minas Gerais.",
    "Assisti ao jogo de basquete na televisão ontem.",
    "A oficina trocou os pneus da moto do meu primo.",
    "Meu colega fala francês fluentemente.",
    "O médico recomendou caminhar trinta minutos por dia.",
    "Preciso pagar a conta de luz até sexta-feira.",
    "Choveu muito durante a noite.",
    "Comprei um livro de receitas italianas.",
    "A reunião da equipe foi adiada para terça.",
    "Esqueci o guarda-chuva no ônibus.",
    "O filme de ontem foi muito longo.",
    "Vou pintar a parede da sala de azul.",
    "A internet caiu durante a videochamada.",
    "Plantei tomates e manjericão na varanda.",
    "O trem para o aeroporto sai de hora em hora.",
)

DISTRACTORS_EN: tuple[str, ...] = (
    "My friend loves peanut butter for breakfast.",
    "The neighbour's cat is called Mittens.",
    "My brother works as an engineer in Chicago.",
    "My mother's birthday is in December.",
    "The new restaurant serves barbecue on Sundays.",
    "My parents live in the countryside.",
    "I watched the basketball game on TV last night.",
    "The garage replaced the tyres on my cousin's motorbike.",
    "My colleague speaks fluent French.",
    "The doctor recommended walking thirty minutes a day.",
    "I need to pay the electricity bill by Friday.",
    "It rained heavily during the night.",
    "I bought an Italian cookbook.",
    "The team meeting was moved to Tuesday.",
    "I left my umbrella on the bus.",
    "Last night's movie was very long.",
    "I am going to paint the living room wall blue.",
    "The internet dropped during the video call.",
    "I planted tomatoes and basil on the balcony.",
    "The airport train leaves every hour.",
)


def corpus(language: str) -> tuple[list[str], dict[str, int]]:
    """Facts then distractors of one language (``"pt"`` or ``"en"``), and each theme's row."""
    facts = [theme.fact_pt if language == "pt" else theme.fact_en for theme in THEMES]
    distractors = DISTRACTORS_PT if language == "pt" else DISTRACTORS_EN
    return facts + list(distractors), {theme.key: row for row, theme in enumerate(THEMES)}


def queries(language: str) -> list[tuple[str, str]]:
    """``(theme key, query)`` pairs asked in ``language``."""
    return [
        (theme.key, query) for theme in THEMES for query in (theme.queries_pt if language == "pt" else theme.queries_en)
    ]
