"""domain.extraction: typed facts from one user turn, in Portuguese and English. Positives with exact
slots and values, turns that must yield nothing, corrections, other people, wording, and a small
labelled set that measures precision and recall."""

from __future__ import annotations

import pytest

from hipocampo.domain.errors import InvalidInput
from hipocampo.domain.extraction import ExtractedFact, extract_facts, extract_people
from hipocampo.domain.model import MemoryType
from hipocampo.domain.text import fold

UP, PREF, GOAL, CON, CRIT, ENT = (
    MemoryType.USER_PROFILE,
    MemoryType.PREFERENCE,
    MemoryType.GOAL,
    MemoryType.CONSTRAINT,
    MemoryType.CRITICAL_INFO,
    MemoryType.ENTITY,
)
Triple = tuple[MemoryType, str, str]


def triples(text: str, **kwargs: str) -> set[Triple]:
    return {(f.memory_type, f.key, f.value) for f in extract_facts(text, **kwargs)}


def only(text: str, **kwargs: str) -> ExtractedFact:
    facts = extract_facts(text, **kwargs)
    assert len(facts) == 1, facts
    return facts[0]


POSITIVES: list[tuple[str, set[Triple]]] = [
    # who the user is
    ("My name is Ana.", {(UP, "name", "Ana")}),
    ("my name's joão", {(UP, "name", "João")}),
    ("Hi, I'm Sarah!", {(UP, "name", "Sarah")}),
    ("You can call me Bob", {(UP, "name", "Bob")}),
    ("Meu nome é Carla Souza", {(UP, "name", "Carla Souza")}),
    ("Me chamo Rafael", {(UP, "name", "Rafael")}),
    ("Pode me chamar de Zé", {(UP, "name", "Zé")}),
    ("Oi, sou a Beatriz", {(UP, "name", "Beatriz")}),
    ("I live in Lisbon", {(UP, "home_city", "Lisbon")}),
    ("I'm living in the Netherlands", {(UP, "home_country", "Netherlands")}),
    ("I moved to Berlin last year", {(UP, "home_city", "Berlin")}),
    ("Moro em São Paulo", {(UP, "home_city", "São Paulo")}),
    ("eu moro no Rio de Janeiro", {(UP, "home_city", "Rio de Janeiro")}),
    ("Me mudei para Portugal", {(UP, "home_country", "Portugal")}),
    ("I'm from Brazil", {(UP, "origin", "Brazil")}),
    ("Sou de Recife", {(UP, "origin", "Recife")}),
    ("I'm Brazilian", {(UP, "nationality", "Brazilian")}),
    ("Sou portuguesa", {(UP, "nationality", "português")}),
    ("I work as a data analyst", {(UP, "occupation", "data analyst")}),
    ("I'm an engineer at Siemens", {(UP, "occupation", "engineer"), (UP, "employer", "Siemens")}),
    ("I work at Google as a designer", {(UP, "employer", "Google"), (UP, "occupation", "designer")}),
    ("Trabalho como enfermeira", {(UP, "occupation", "enfermeira")}),
    ("Trabalho na Petrobras", {(UP, "employer", "Petrobras")}),
    ("Sou advogado", {(UP, "occupation", "advogado")}),
    (
        "Sou professora de matemática no Colégio Pedro II",
        {(UP, "occupation", "professora de matemática"), (UP, "employer", "Colégio Pedro II")},
    ),
    ("I work from home", {(UP, "work_mode", "remote")}),
    ("I'm 34 years old", {(UP, "age", "34")}),
    ("I'm 34", {(UP, "age", "34")}),
    ("Tenho 34 anos", {(UP, "age", "34")}),
    ("I'm married", {(UP, "marital_status", "married")}),
    ("Sou casada", {(UP, "marital_status", "casado")}),
    # family and pets
    ("My wife Ana is a doctor", {(ENT, "person:wife", "Ana"), (ENT, "person:wife:occupation", "doctor")}),
    ("I have two kids", {(ENT, "family:children", "2")}),
    ("Tenho três filhos", {(ENT, "family:children", "3")}),
    (
        "Minha irmã Maria mora em Roma",
        {(ENT, "person:sister", "Maria"), (ENT, "person:sister:maria:home_city", "Roma")},
    ),
    ("My sister lives in Rome", {(ENT, "person:sister:home_city", "Rome")}),
    ("Tenho um gato chamado Miso", {(ENT, "pet:cat", "Miso")}),
    ("I have a dog named Rex", {(ENT, "pet:dog", "Rex")}),
    ("My cat's name is Luna", {(ENT, "pet:cat", "Luna")}),
    ("Meu pai tem 70 anos", {(ENT, "person:father:age", "70")}),
    ("O nome da minha filha é Alice", {(ENT, "person:daughter", "Alice")}),
    # preferences
    ("I love jazz", {(PREF, "likes:jazz", "jazz")}),
    (
        "I really enjoy hiking and photography",
        {(PREF, "likes:hiking", "hiking"), (PREF, "likes:photography", "photography")},
    ),
    ("I prefer window seats", {(PREF, "prefers:window_seats", "window seats")}),
    ("My favorite color is blue", {(PREF, "favorite:color", "blue")}),
    ("I hate mushrooms", {(PREF, "dislikes:mushrooms", "mushrooms")}),
    ("Eu gosto de comida italiana", {(PREF, "likes:comida_italiana", "comida italiana")}),
    ("Adoro camarão", {(PREF, "likes:shrimp", "camarão")}),
    ("Prefiro hotéis com academia", {(PREF, "prefers:hoteis", "hotéis com academia")}),
    ("Minha cor favorita é verde", {(PREF, "favorite:color", "verde")}),
    ("Odeio acordar cedo", {(PREF, "dislikes:acordar_cedo", "acordar cedo")}),
    ("Não gosto de futebol", {(PREF, "likes:futebol", "futebol")}),
    # goals
    ("I want to learn Japanese", {(GOAL, "goal:learn_japanese", "learn Japanese")}),
    ("I'd like to run a marathon", {(GOAL, "goal:run_a_marathon", "run a marathon")}),
    ("I plan to retire at 60", {(GOAL, "goal:retire_at_60", "retire at 60")}),
    ("My goal is to lose 10 kg", {(GOAL, "goal:lose_10_kg", "lose 10 kg")}),
    ("I'm saving for a house", {(GOAL, "saving_for:house", "a house")}),
    ("Quero aprender a tocar violão", {(GOAL, "goal:aprender_a_tocar_violao", "aprender a tocar violão")}),
    ("Pretendo fazer um mestrado", {(GOAL, "goal:fazer_um_mestrado", "fazer um mestrado")}),
    ("Meu objetivo é correr uma maratona", {(GOAL, "goal:correr_uma_maratona", "correr uma maratona")}),
    ("Estou economizando para a viagem", {(GOAL, "saving_for:viagem", "a viagem")}),
    # constraints
    ("My budget is 5k", {(CON, "budget", "5000")}),
    ("My budget is €5,000", {(CON, "budget", "5000 EUR")}),
    ("Meu orçamento é R$ 5.000", {(CON, "budget", "5000 BRL")}),
    ("Tenho um orçamento de 5 mil reais", {(CON, "budget", "5000 BRL")}),
    ("I can spend up to $300 on the hotel", {(CON, "budget:hotel", "300 USD")}),
    ("I'm vegetarian", {(CON, "diet", "vegetarian")}),
    ("Sou vegana", {(CON, "diet", "vegano")}),
    ("I don't eat meat", {(CON, "avoids:meat", "meat")}),
    ("Não como carne de porco", {(CON, "avoids:pork", "carne de porco")}),
    ("I can't on Mondays", {(CON, "unavailable:monday", "on Mondays")}),
    ("Só posso à noite", {(CON, "available:night", "à noite")}),
    # critical information
    ("I'm allergic to peanuts", {(CRIT, "allergy:peanuts", "peanuts")}),
    ("I have a peanut allergy", {(CRIT, "allergy:peanuts", "peanut")}),
    ("Sou alérgico a camarão", {(CRIT, "allergy:shrimp", "camarão")}),
    ("Sou alérgica a amendoim e a glúten", {(CRIT, "allergy:peanuts", "amendoim"), (CRIT, "allergy:gluten", "glúten")}),
    ("Tenho alergia a penicilina", {(CRIT, "allergy:penicillin", "penicilina")}),
    ("I have diabetes", {(CRIT, "condition:diabetes", "diabetes")}),
    ("Tenho asma", {(CRIT, "condition:asthma", "asma")}),
    ("I'm pregnant", {(CRIT, "condition:pregnancy", "pregnant")}),
    ("Estou grávida", {(CRIT, "condition:pregnancy", "grávida")}),
    ("I take insulin twice a day", {(CRIT, "medication:insulin", "insulin")}),
    ("Tomo insulina", {(CRIT, "medication:insulin", "insulina")}),
    ("I'm lactose intolerant", {(CRIT, "intolerance:lactose", "lactose")}),
    # several facts in one turn
    (
        "I'm Ana, I live in Porto and I'm allergic to shrimp",
        {(UP, "name", "Ana"), (UP, "home_city", "Porto"), (CRIT, "allergy:shrimp", "shrimp")},
    ),
    (
        "Sou a Ana, moro no Porto e sou alérgica a camarão",
        {(UP, "name", "Ana"), (UP, "home_city", "Porto"), (CRIT, "allergy:shrimp", "camarão")},
    ),
    (
        "Oi! Meu nome é Beatriz, tenho 29 anos e trabalho como designer.",
        {(UP, "name", "Beatriz"), (UP, "age", "29"), (UP, "occupation", "designer")},
    ),
]


@pytest.mark.parametrize(("text", "expected"), POSITIVES, ids=[t for t, _ in POSITIVES])
def test_extracts_typed_facts(text: str, expected: set[Triple]) -> None:
    assert triples(text) == expected


NEGATIVES = [
    # questions
    "Do you like jazz?",
    "Você mora em Lisboa?",
    "Where do you live?",
    "Can you recommend a vegan restaurant in Lisbon?",
    "Do you think I should move to Berlin?",
    "Qual é o seu nome?",
    # hypotheticals
    "If I lived in Paris, I would eat croissants every day.",
    "If I had more money I'd like to buy a boat.",
    "Se eu morasse em Paris, comeria croissants todos os dias.",
    "Caso eu me mude para Lisboa, vou precisar de visto.",
    "I wish I lived by the sea.",
    "I'm not sure if I'm allergic to shellfish.",
    # other people, reported speech
    "He thinks I live in Paris.",
    "My sister said she loves jazz.",
    "Minha irmã disse que é alérgica a gatos.",
    "John told me: I love jazz.",
    'She said "I am allergic to peanuts".',
    "They live in Paris.",
    "Ele mora em Paris.",
    "Everyone likes pizza.",
    # requests and small talk that look like facts
    "I want to know what time it is.",
    "I'd like to ask you something.",
    "Quero saber o horário do voo.",
    "I love it!",
    "Thanks, I like your answer.",
    "Adoro isso!",
    "Obrigada pela ajuda!",
    "I'm tired.",
    "I'm Sorry about that.",
    "I'm in Lisbon this week.",
    "I'm going to the store.",
    "I take the bus to work.",
    "I have a question.",
    "Tenho uma dúvida.",
    "Tenho 2 anos de experiência com Python.",
    "I'm 30 minutes late.",
    "My budget is tight.",
    "I can't believe it's Monday.",
    "Moro sozinho.",
    "The weather in Lisbon is nice.",
    "",
    "   ",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_yields_nothing(text: str) -> None:
    assert extract_facts(text) == []


CORRECTIONS: list[tuple[str, str, str, bool, str | None]] = [
    ("I moved from São Paulo to Lisbon", "home_city", "Lisbon", False, "São Paulo"),
    ("Me mudei de São Paulo para Lisboa", "home_city", "Lisboa", False, "São Paulo"),
    ("Actually I live in Porto now, not Lisbon", "home_city", "Porto", False, "Lisbon"),
    ("Na verdade moro no Porto, não em Lisboa", "home_city", "Porto", False, "Lisboa"),
    ("I don't live in Lisbon anymore, I moved to Porto", "home_city", "Porto", False, "Lisbon"),
    ("Não moro mais em Lisboa.", "home_city", "Lisboa", True, None),
    ("I no longer work at Google", "employer", "Google", True, None),
    ("Não trabalho mais na Petrobras", "employer", "Petrobras", True, None),
    ("I quit my job at Amazon", "employer", "Amazon", True, None),
    ("I'm not vegetarian anymore", "diet", "vegetarian", True, None),
    ("Não sou mais vegetariana", "diet", "vegetariano", True, None),
    ("I don't like jazz anymore", "likes:jazz", "jazz", True, None),
    ("I used to live in Paris", "home_city", "Paris", True, None),
    ("Actually my name is Ana, not Anna", "name", "Ana", False, "Anna"),
]


@pytest.mark.parametrize(("text", "key", "value", "negated", "previous"), CORRECTIONS)
def test_corrections_and_retractions(text: str, key: str, value: str, negated: bool, previous: str | None) -> None:
    fact = only(text)
    assert (fact.key, fact.value, fact.negated, fact.previous_value) == (key, value, negated, previous)


CONTENTS = [
    ("I live in Lisbon", None, "The user lives in Lisbon."),
    ("I live in Lisbon", "Ana", "Ana lives in Lisbon."),
    ("Moro em Lisboa", None, "O usuário mora em Lisboa."),
    ("Moro em Lisboa", "Ana", "Ana mora em Lisboa."),
    ("Sou alérgica a amendoim", None, "A usuária tem alergia a amendoim."),
    ("Sou vegetariano", None, "O usuário é vegetariano."),
    ("Sou vegetariana", None, "A usuária é vegetariana."),
    ("I'm allergic to peanuts", None, "The user is allergic to peanuts."),
    ("My budget is 5k euros", None, "The user's budget is 5000 EUR."),
    ("Meu orçamento para a viagem é de 3 mil euros", None, "O orçamento do usuário para a viagem é de 3000 EUR."),
    ("I moved from São Paulo to Lisbon", None, "The user moved from São Paulo to Lisbon."),
    ("Não moro mais em Lisboa", None, "O usuário não mora mais em Lisboa."),
    ("I don't like jazz", None, "The user does not like jazz."),
    ("My sister lives in Rome", None, "The user's sister lives in Rome."),
    ("Minha irmã Maria mora em Roma", None, "A irmã do usuário, Maria, mora em Roma."),
    ("I'm a nurse", None, "The user works as a nurse."),
    ("I'm an engineer", None, "The user works as an engineer."),
    ("Tenho um gato chamado Miso", None, "O usuário tem um gato chamado Miso."),
    ("My favorite bands are Radiohead and Muse", None, "The user's favorite band is Radiohead."),
]


@pytest.mark.parametrize(("text", "speaker", "content"), CONTENTS)
def test_content_is_an_atomic_third_person_sentence_in_the_turn_language(
    text: str, speaker: str | None, content: str
) -> None:
    assert extract_facts(text, speaker=speaker)[0].content == content


class TestConfidence:
    def test_explicit_statements_are_high(self) -> None:
        assert only("I'm allergic to penicillin").confidence == pytest.approx(0.9)

    @pytest.mark.parametrize(
        "text",
        ["I think I'm allergic to penicillin", "Acho que sou alérgico a dipirona", "Maybe I'm allergic to dust"],
    )
    def test_hedged_statements_are_no_facts(self, text: str) -> None:
        # Precision first: a statement the user is unsure of stays a turn, searchable as said.
        assert extract_facts(text) == []

    @pytest.mark.parametrize(
        "text",
        [
            "Maybe I'll move to Berlin",
            "Perhaps we'll adopt a dog next year",
            "Talvez eu mude para o Porto",
            "Se calhar vou viver para Braga",
            "Quem sabe eu faça um mestrado",
        ],
    )
    def test_a_possibility_is_no_fact(self, text: str) -> None:
        assert extract_facts(text) == []

    def test_facts_about_other_people_are_below_the_users_own(self) -> None:
        assert only("My brother is allergic to peanuts").confidence < 0.9


class TestOtherPeople:
    def test_entity_facts_name_the_person(self) -> None:
        fact = only("My sister lives in Rome")
        assert (fact.memory_type, fact.people) == (ENT, ("sister",))

    def test_named_relative(self) -> None:
        facts = {f.key: f for f in extract_facts("My friend John lives in Porto")}
        assert facts["person:friend"].people == ("John",)
        assert facts["person:friend:john:home_city"].people == ("John",)
        assert facts["person:friend:john:home_city"].content == "The user's friend John lives in Porto."

    def test_a_named_speaker_in_the_third_person_is_the_user(self) -> None:
        assert triples("Ana mora em Lisboa", speaker="Ana") == {(UP, "home_city", "Lisboa")}
        assert triples("João mora em Lisboa") == {(ENT, "person:joao:home_city", "Lisboa")}

    def test_we_keeps_home_pets_and_family(self) -> None:
        assert triples("Moramos em Braga") == {(UP, "home_city", "Braga")}
        assert triples("Eu e minha namorada adotamos um cachorro chamado Bolt") == {(ENT, "pet:dog", "Bolt")}
        assert triples("We love sushi") == set()

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            (
                "My daughter Sophie is 7 and she loves dinosaurs.",
                {
                    (ENT, "person:daughter", "Sophie"),
                    (ENT, "person:daughter:sophie:age", "7"),
                    (ENT, "person:daughter:sophie:likes:dinosaurs", "dinosaurs"),
                },
            ),
            (
                "Meu irmão mora em Lisboa e trabalha num banco.",  # "um banco" names no employer
                {(ENT, "person:brother:home_city", "Lisboa")},
            ),
            ("She loves jazz.", set()),
        ],
    )
    def test_a_pronoun_or_a_bare_verb_continues_the_person(self, text: str, expected: set[Triple]) -> None:
        assert triples(text) == expected

    def test_retractions_about_others(self) -> None:
        fact = only("Minha irmã não mora mais em Roma")
        assert (fact.key, fact.negated, fact.content) == (
            "person:sister:home_city",
            True,
            "A irmã do usuário não mora mais em Roma.",
        )

    @pytest.mark.parametrize(
        ("text", "people"),
        [
            ("Minha irmã Maria e o João vêm jantar.", [("Maria", "sister"), ("João", None)]),
            ("My sister Maria lives in Rome and I work at Google with Peter.", [("Maria", "sister"), ("Peter", None)]),
            ("I have two kids, Leo and Mia.", [("Leo", "child"), ("Mia", "child")]),
            ("Tenho um gato chamado Miso.", [("Miso", "cat")]),
            ("Lisbon is lovely. Maria called me today.", [("Maria", None)]),
            ("I'm Ana and I live in Lisbon.", []),
        ],
    )
    def test_extract_people(self, text: str, people: list[tuple[str, str | None]]) -> None:
        assert extract_people(text) == people


class TestTurns:
    def test_spans_point_at_the_clause(self) -> None:
        text = "Hi! I'm Ana, I live in Porto and I'm allergic to shrimp."
        spans = {f.key: text[f.span[0] : f.span[1]] for f in extract_facts(text)}
        assert spans == {"name": "I'm Ana", "home_city": "I live in Porto", "allergy:shrimp": "I'm allergic to shrimp"}

    def test_statements_survive_a_question_in_the_same_turn(self) -> None:
        assert triples("I'm vegetarian, can you suggest a recipe?") == {(CON, "diet", "vegetarian")}

    def test_call_me_after_a_name_is_a_nickname(self) -> None:
        assert triples("Meu nome é Ana, mas pode me chamar de Aninha") == {
            (UP, "name", "Ana"),
            (UP, "nickname", "Aninha"),
        }

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("Can't do Thursdays, I have choir practice.", {(CON, "unavailable:thursday", "Thursdays")}),
            ("I might be lactose intolerant.", set()),  # a doubt: kept as a turn, no fact
            (
                "I take metformin for my type 2 diabetes.",
                {(CRIT, "medication:metformin", "metformin"), (CRIT, "condition:diabetes", "type 2 diabetes")},
            ),
            ("Tenho um cachorro e dois gatos.", {(ENT, "pet:dog", "cachorro"), (ENT, "pet:cat", "2 gatos")}),
            ("Tenho dois gatos, o Tom e a Nina.", {(ENT, "pet:cat", "Tom e Nina")}),
            ("Não como carne vermelha há cinco anos.", {(CON, "avoids:red_meat", "carne vermelha")}),
        ],
    )
    def test_looser_shapes(self, text: str, expected: set[Triple]) -> None:
        assert triples(text) == expected

    def test_sentences_about_the_user_say_their_not_my(self) -> None:
        fact = only("I'd love to open my own bakery one day")
        assert fact.value == "open my own bakery one day"
        assert fact.content == "The user would love to open their own bakery one day."

    def test_feminine_agreement_follows_the_turn(self) -> None:
        assert only("Não sou mais casada").content == "A usuária não é mais casada."
        assert only("Sou brasileira").value == "brasileiro"

    def test_language_can_be_given(self) -> None:
        assert triples("Moro em Lisboa", language="pt-BR") == {(UP, "home_city", "Lisboa")}
        assert triples("I live in Lisbon", language="pt") == set()

    def test_rejects_unknown_languages_and_non_text(self) -> None:
        with pytest.raises(InvalidInput):
            extract_facts("Je m'appelle Anne", language="fr")
        with pytest.raises(InvalidInput):
            extract_facts(None)  # type: ignore[arg-type]

    @pytest.mark.parametrize(
        ("text", "value"),
        [
            ("My budget is 1.5k dollars", "1500 USD"),
            ("My budget is US$ 2,500.50", "2500.50 USD"),
            ("Meu orçamento é de R$ 1.500,00", "1500 BRL"),
            ("Meu orçamento é de 2 mil euros", "2000 EUR"),
            ("My budget is £800", "800 GBP"),
            ("Posso gastar até 200 reais", "200 BRL"),
        ],
    )
    def test_money_is_normalised(self, text: str, value: str) -> None:
        assert only(text).value == value


# --- quality on a small labelled set -----------------------------------------------------------

# Turns written for this project (not from any dataset) and labelled by hand with what a careful
# annotator would store. The rules were revised after its first measurement (precision 0.975, recall
# 0.736), so it is a development set now, as is SECOND.
LABELLED: list[tuple[str, set[Triple]]] = [
    ("Hey there! I'm Marcus, I'm 41 and I live in Manchester with my wife Claire.",
     {(UP, "name", "Marcus"), (UP, "age", "41"), (UP, "home_city", "Manchester"), (ENT, "person:wife", "Claire")}),
    ("Quick note before we start: I'm severely allergic to tree nuts and sesame.",
     {(CRIT, "allergy:tree_nuts", "tree nuts"), (CRIT, "allergy:sesame", "sesame")}),
    ("My budget for the whole trip is about 4,000 dollars.", {(CON, "budget:whole_trip", "4000 USD")}),
    ("I work as a nurse at St. Mary's hospital and I have two teenage sons.",
     {(UP, "occupation", "nurse"), (UP, "employer", "St. Mary's hospital"), (ENT, "family:sons", "2")}),
    ("I'm vegan and I don't drink alcohol.", {(CON, "diet", "vegan"), (CON, "avoids:alcohol", "alcohol")}),
    ("Do you know any good vegan restaurants near Lisbon?", set()),
    ("Actually, I moved to Berlin last month, so I'm not in Paris anymore.", {(UP, "home_city", "Berlin")}),
    ("My daughter Sophie is 7 and she loves dinosaurs.",
     {(ENT, "person:daughter", "Sophie"), (ENT, "person:daughter:age", "7"),
      (ENT, "person:daughter:likes:dinosaurs", "dinosaurs")}),
    ("I'd really like to learn to play the piano this year.", {(GOAL, "goal:", "learn to play the piano")}),
    ("I hate cilantro, it tastes like soap to me.", {(PREF, "likes:cilantro", "cilantro")}),
    ("If I ever win the lottery I'll buy a house by the beach.", set()),
    ("My brother told me he's moving to Canada.", set()),
    ("I'm a software developer and I mostly work from home.",
     {(UP, "occupation", "software developer"), (UP, "work_mode", "remote")}),
    ("I take metformin for my type 2 diabetes.",
     {(CRIT, "medication:metformin", "metformin"), (CRIT, "condition:diabetes", "type 2 diabetes")}),
    ("Can't do Thursdays, I have choir practice.", {(CON, "unavailable:thursday", "Thursdays")}),
    ("My favorite food is pad thai and my favorite drink is a good espresso.",
     {(PREF, "favorite:food", "pad thai"), (PREF, "favorite:drink", "espresso")}),
    ("I think I might be lactose intolerant.", {(CRIT, "intolerance:lactose", "lactose")}),
    ("I'm saving up for a new car.", {(GOAL, "saving_for:", "new car")}),
    ("The new Apple phone looks great.", set()),
    ("I used to smoke but I quit two years ago.", set()),
    ("Oi! Meu nome é Beatriz, tenho 29 anos e moro em Curitiba.",
     {(UP, "name", "Beatriz"), (UP, "age", "29"), (UP, "home_city", "Curitiba")}),
    ("Sou alérgico a frutos do mar e a penicilina.",
     {(CRIT, "allergy:seafood", "frutos do mar"), (CRIT, "allergy:penicillin", "penicilina")}),
    ("Meu orçamento pro casamento é de uns 30 mil reais.", {(CON, "budget:casamento", "30000 BRL")}),
    ("Trabalho como designer gráfica numa agência em São Paulo.",
     {(UP, "occupation", "designer gráfica"), (UP, "work_city", "São Paulo")}),
    ("Não como carne vermelha há cinco anos.", {(CON, "avoids:red_meat", "carne vermelha")}),
    ("Você pode me indicar um livro de ficção científica?", set()),
    ("Na verdade não trabalho mais no Itaú, agora estou no Bradesco.",
     {(UP, "employer", "Itaú"), (UP, "employer", "Bradesco")}),
    ("Minha esposa Juliana é professora de história.",
     {(ENT, "person:wife", "Juliana"), (ENT, "person:wife:occupation", "professora de história")}),
    ("Quero muito fazer um intercâmbio no Canadá ano que vem.", {(GOAL, "goal:", "fazer um intercâmbio no Canadá")}),
    ("Detesto acordar cedo.", {(PREF, "likes:acordar_cedo", "acordar cedo")}),
    ("Se eu tivesse tempo, aprenderia alemão.", set()),
    ("Tenho dois gatos, o Tom e a Nina.", {(ENT, "pet:cat", "Tom e Nina")}),
    ("Sou diabética tipo 1 e uso insulina todos os dias.",
     {(CRIT, "condition:diabetes", "diabetes"), (CRIT, "medication:insulin", "insulina")}),
    ("Meu irmão mora em Lisboa e trabalha num banco.",
     {(ENT, "person:brother:home_city", "Lisboa"), (ENT, "person:brother:employer", "banco")}),
    ("Prefiro hotéis com academia.", {(PREF, "prefers:hoteis_com_academia", "hotéis com academia")}),
    ("Estou grávida de 5 meses!", {(CRIT, "condition:pregnancy", "grávida")}),
    ("Só consigo treinar de manhã cedo.", {(CON, "available:morning", "de manhã")}),
    ("Ele disse que eu sou muito teimoso.", set()),
    ("Obrigada pela ajuda!", set()),
    ("Não moro mais em Belo Horizonte, me mudei pra Floripa em março.", {(UP, "home_city", "Florianópolis")}),
    ("Meu sonho é conhecer a Islândia.", {(GOAL, "goal:", "conhecer a Islândia")}),
    ("Eu e minha namorada adotamos um cachorro chamado Bolt.", {(ENT, "pet:dog", "Bolt")}),
]  # fmt: skip


# Written after the rules were revised against LABELLED. Its first measurement (precision 0.963,
# recall 0.788) found six gaps, which were then fixed.
SECOND: list[tuple[str, set[Triple]]] = [
    ("By the way, my name's Priya and I'm a pharmacist.", {(UP, "name", "Priya"), (UP, "occupation", "pharmacist")}),
    ("I've got a golden retriever called Max.", {(ENT, "pet:dog", "Max")}),
    ("I'm gluten-free, so please keep that in mind.", {(CON, "diet", "gluten-free")}),
    ("My husband is allergic to cats.", {(ENT, "person:husband:allergy:cats", "cats")}),
    ("What's the weather like in Porto tomorrow?", set()),
    ("I recently started working at Deloitte.", {(UP, "employer", "Deloitte")}),
    ("I can only meet after 6pm on weekdays.", {(CON, "available:weekday", "after 6pm on weekdays")}),
    ("I'd love to open my own bakery one day.", {(GOAL, "goal:", "open my own bakery")}),
    ("Honestly I can't stand horror movies.", {(PREF, "likes:horror_movies", "horror movies")}),
    ("I'm not a morning person.", set()),
    ("We have three grandchildren.", {(ENT, "family:grandchildren", "3")}),
    ("I don't eat pork or shellfish.", {(CON, "avoids:pork", "pork"), (CON, "avoids:shellfish", "shellfish")}),
    ("Suppose I moved to Tokyo, would I need a visa?", set()),
    ("I'm originally from Cape Town but I've lived in London for ten years.",
     {(UP, "origin", "Cape Town"), (UP, "home_city", "London")}),
    ("My son is 12 and plays the violin.", {(ENT, "person:son:age", "12")}),
    ("Meu nome é Thiago e sou programador.", {(UP, "name", "Thiago"), (UP, "occupation", "programador")}),
    ("Minha mãe mora em Salvador.", {(ENT, "person:mother:home_city", "Salvador")}),
    ("Não gosto de filmes de terror.", {(PREF, "likes:filmes_de_terror", "filmes de terror")}),
    ("Tenho um cachorro e dois gatos.", {(ENT, "pet:dog", "cachorro"), (ENT, "pet:cat", "2 gatos")}),
    ("Estou planejando viajar para a Itália em dezembro.", {(GOAL, "goal:", "viajar para a Itália")}),
    ("Sou intolerante à lactose.", {(CRIT, "intolerance:lactose", "lactose")}),
    ("Você acha que eu devo mudar de emprego?", set()),
    ("Meu limite de gastos é de 800 reais por mês.", {(CON, "budget", "800 BRL")}),
    ("Faço academia todos os dias de manhã.", set()),
    ("Eu trabalhava no Santander, mas agora trabalho no Nubank.", {(UP, "employer", "Nubank")}),
    ("Tomo remédio para pressão alta.",
     {(CRIT, "medication:", "remédio para pressão alta"), (CRIT, "condition:hypertension", "pressão alta")}),
    ("Meu marido se chama Paulo e ele trabalha como médico.",
     {(ENT, "person:husband", "Paulo"), (ENT, "person:husband:occupation", "médico")}),
    ("Ontem fui ao cinema com a Carla.", set()),
    ("A gente mora em Coimbra há dois anos.", {(UP, "home_city", "Coimbra")}),
    ("Adoro cozinhar, ler e viajar.",
     {(PREF, "likes:cozinhar", "cozinhar"), (PREF, "likes:ler", "ler"), (PREF, "likes:viajar", "viajar")}),
]  # fmt: skip


# Written last, measured once and left as it was: the honest estimate of what the rules miss
# (phrasings like "a no-go for me", habits, languages spoken and accessibility needs are not covered).
FRESH: list[tuple[str, set[Triple]]] = [
    ("I'm Kenji, nice to meet you.", {(UP, "name", "Kenji")}),
    ("I'm a single mom of two girls.", {(UP, "marital_status", "single"), (ENT, "family:daughters", "2")}),
    ("Peanuts are a no-go for me, I'm allergic.", {(CRIT, "allergy:peanuts", "peanuts")}),
    ("I live just outside Dublin.", {(UP, "home_city", "Dublin")}),
    ("My favourite sport is basketball.", {(PREF, "favorite:sport", "basketball")}),
    ("I'm trying to cut down on sugar.", {(GOAL, "goal:", "cut down on sugar")}),
    ("Could you remind me what my budget was?", set()),
    ("My partner Alex works at the hospital.",
     {(ENT, "person:partner", "Alex"), (ENT, "person:partner:employer", "hospital")}),
    ("I've been vegetarian since 2015.", {(CON, "diet", "vegetarian")}),
    ("I need wheelchair access wherever we go.", {(CON, "needs:wheelchair_access", "wheelchair access")}),
    ("I speak Portuguese and a little French.",
     {(UP, "language:portuguese", "Portuguese"), (UP, "language:french", "French")}),
    ("I'm allergic to bee stings.", {(CRIT, "allergy:bee_stings", "bee stings")}),
    ("Lately I've been really into pottery.", {(PREF, "likes:pottery", "pottery")}),
    ("I don't like flying.", {(PREF, "likes:flying", "flying")}),
    ("Is it safe to eat sushi while pregnant?", set()),
    ("Sou a Fernanda, tenho 52 anos.", {(UP, "name", "Fernanda"), (UP, "age", "52")}),
    ("Trabalho em home office como tradutor.", {(UP, "work_mode", "remoto"), (UP, "occupation", "tradutor")}),
    ("Meu time do coração é o Grêmio.", {(PREF, "favorite:team", "Grêmio")}),
    ("Não posso comer nada com lactose.", {(CON, "avoids:lactose", "lactose")}),
    ("Moro em Niterói com meu marido e nossos dois filhos.",
     {(UP, "home_city", "Niterói"), (ENT, "family:children", "2")}),
    ("Quero trocar de carro até o fim do ano.", {(GOAL, "goal:", "trocar de carro")}),
    ("Prefiro voos de manhã.", {(PREF, "prefers:voos_de_manha", "voos de manhã")}),
    ("Meu avô faleceu ano passado.", set()),
    ("Você lembra do meu cachorro?", set()),
    ("Tenho hipertensão e tomo losartana.",
     {(CRIT, "condition:hypertension", "hipertensão"), (CRIT, "medication:losartan", "losartana")}),
    ("Estou sem carro no momento.", set()),
    ("Minha filha Laura estuda na UFMG.", {(ENT, "person:daughter", "Laura"), (ENT, "person:daughter:school", "UFMG")}),
]  # fmt: skip


def _matches(predicted: Triple, expected: Triple) -> bool:
    """Same type; same slot (free-text slots like "goal:" by prefix); values that contain each other."""
    (ptype, pkey, pvalue), (etype, ekey, evalue) = predicted, expected
    same_slot = pkey == ekey or (ekey.endswith(":") and pkey.startswith(ekey))
    pv, ev = fold(pvalue), fold(evalue)
    return ptype == etype and same_slot and (ev in pv or pv in ev)


def extraction_quality(turns: list[tuple[str, set[Triple]]]) -> tuple[float, float]:
    """Precision (predicted facts that match a label) and recall (labels some prediction matches)."""
    correct = found = predicted_total = expected_total = 0
    for text, expected in turns:
        predicted = triples(text)
        predicted_total += len(predicted)
        expected_total += len(expected)
        correct += sum(any(_matches(p, e) for e in expected) for p in predicted)
        found += sum(any(_matches(p, e) for p in predicted) for e in expected)
    return (correct / predicted_total if predicted_total else 1.0), found / expected_total


def test_extraction_quality() -> None:
    sets = {"labelled": LABELLED, "second set": SECOND, "fresh": FRESH, "all": LABELLED + SECOND + FRESH}
    for name, turns in sets.items():
        precision, recall = extraction_quality(turns)
        print(f"\nextraction quality, {name} ({len(turns)} turns): precision {precision:.3f}, recall {recall:.3f}")
    assert precision >= 0.9
    assert recall >= 0.75
