"""Everyday chat phrasing the rules read: becoming something is having that job ("virei
coordenador", "i became a tech lead last month"); how a thing is learnt is no part of it ("spanish
on the side"); "we finally moved" is a move like "we moved"; and a reason after a budget ("para ser
algo mais recente") is not what the money is for."""

from __future__ import annotations

import pytest

from hipocampo.domain.extraction import extract_facts


def facts(text: str) -> set[tuple[str, str]]:
    return {(f.key, f.value) for f in extract_facts(text)}


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("virei coordenador de dados!! assumo o time semana que vem", "coordenador de dados"),
        ("me tornei coordenadora", "coordenadora"),
        ("tornei-me enfermeira", "enfermeira"),
        ("i became a tech lead last month", "tech lead"),
        ("i've become a manager", "manager"),
    ],
)
def test_becoming_a_job_is_having_it(text: str, job: str) -> None:
    assert ("occupation", job) in facts(text)


@pytest.mark.parametrize("text", ["virei mãe", "i became a mom", "virei piada na firma"])
def test_becoming_anything_else_is_no_job(text: str) -> None:
    assert not any(k == "occupation" for k, _ in facts(text))


@pytest.mark.parametrize(
    ("text", "learning"),
    [
        ("i'm learning spanish on the side", ("learning:spanish", "spanish")),
        ("tô aprendendo guitarra nas horas vagas", ("learning:guitarra", "guitarra")),
    ],
)
def test_how_a_thing_is_learnt_is_no_part_of_it(text: str, learning: tuple[str, str]) -> None:
    assert facts(text) == {learning}


@pytest.mark.parametrize("text", ["we finally moved to lisboa", "we just moved to Porto!"])
def test_we_finally_moved_is_a_move(text: str) -> None:
    assert {k for k, _ in facts(text)} == {"home_city"}


def test_a_reason_after_a_budget_is_no_purpose() -> None:
    assert facts("subi o orçamento para 15 mil para ser algo mais recente") == {("budget", "15000")}
    assert facts("subi o orçamento para 15 mil para o carro") == {("budget:carro", "15000")}


@pytest.mark.parametrize(
    ("text", "home"),
    [
        ("we live in a tiny flat in dublin", "Dublin"),
        ("i live in a studio in Berlin", "Berlin"),
        ("moro num apê pequeno em curitiba", "Curitiba"),
        ("vivo numa casa em Sintra", "Sintra"),
        ("settled in bristol now, flat is in bedminster.", "Bristol"),
        ("ok so i'm maya, been there 3 yrs. based in stockholm", "Stockholm"),
    ],
)
def test_a_home_described_before_its_place_or_said_without_i(text: str, home: str) -> None:
    assert ("home_city", home) in facts(text)


@pytest.mark.parametrize("text", ["i live in a house", "moro num bairro tranquilo", "settled in fine, thanks"])
def test_a_dwelling_without_a_place_is_no_home(text: str) -> None:
    assert not any(k == "home_city" for k, _ in facts(text))


@pytest.mark.parametrize(
    ("text", "code"),
    [("my booking code: BRK2209", "BRK2209"), ("o meu código da reserva: XK7P2Q", "XK7P2Q")],
)
def test_a_colon_before_a_code_ends_no_sentence(text: str, code: str) -> None:
    assert code in {v for k, v in facts(text) if k.startswith("id:")}


def test_a_colon_before_news_still_does() -> None:
    assert ("home_city", "Porto") in facts("novidades: mudei-me para o Porto")


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("ah, e eu tomo losartana pra pressão, tem problema correr?", ("medication:losartan", "losartana")),
        ("i live in Leeds, any good gyms?", ("home_city", "Leeds")),
        ("só que sou intolerante a lactose então nada de molho branco kkk", ("intolerance:lactose", "lactose")),
    ],
)
def test_what_is_said_before_a_closing_question_is_read(text: str, fact: tuple[str, str]) -> None:
    assert facts(text) == {fact}


@pytest.mark.parametrize(
    "text",
    [
        "quero montar um setup melhor, o que recomenda?",  # a plan the question is for
        "tô pensando em me mudar pra lisboa, o que acha?",
        "se eu mudar pra lisboa, qual bairro é bom?",
        "should i move to berlin, or stay?",
        "do you think i'm allergic to peanuts, or is it something else?",
    ],
)
def test_a_question_or_a_plan_it_asks_about_is_no_fact(text: str) -> None:
    assert facts(text) == set()


@pytest.mark.parametrize(
    ("text", "allergy"),
    [
        ("dipirona não, sou alérgica", ("allergy:dipyrone", "dipirona")),
        ("nem posso tomar dipirona pq sou alérgico", ("allergy:dipyrone", "dipirona")),
        ("restaurantes sem camarão pfv, sou alérgico", ("allergy:shrimp", "camarão")),
        ("no tree nuts pls, i'm allergic", ("allergy:tree_nuts", "tree nuts")),
    ],
)
def test_allergic_to_what_the_sentence_just_named(text: str, allergy: tuple[str, str]) -> None:
    assert facts(text) == {allergy}


@pytest.mark.parametrize(
    "text",
    [
        "sou alérgica",  # to nothing named
        "no peanuts or shrimp pls, i'm allergic",  # two things: which one is a guess
        "sou alérgico a camarão?",
        "if i eat shrimp i'm allergic",
        "my sister can't eat shrimp, i'm allergic too lol",
    ],
)
def test_allergic_to_nothing_or_to_a_guess_is_no_allergy(text: str) -> None:
    assert not any(k.startswith("allergy:") for k, _ in facts(text))


def test_entretanto_opens_a_statement_like_so_or_meanwhile() -> None:
    assert ("home_city", "Braga") in facts("entretanto mudei-me para Braga")


@pytest.mark.parametrize(
    ("text", "known", "home"),
    [
        ("yeah. nothing fancy, i'm in leeds and the butcher near me is tiny", (), "Leeds"),
        ("pronto, mudei!! tô em curitiba desde sábado, o ap novo é bem maior", (("home_city", "Santos"),), "Curitiba"),
        ("pronto, já estou em dublin! moved last weekend, flat in rathmines", (("home_city", "Lisboa"),), "Dublin"),
    ],
)
def test_where_the_speaker_is_is_their_home(text: str, known: tuple[tuple[str, str], ...], home: str) -> None:
    """Where the speaker says they are is their home when the memory knows none, or with a move
    said in the same turn, whatever home it knew."""
    assert [(f.key, f.value) for f in extract_facts(text, known=known)] == [("home_city", home)]


@pytest.mark.parametrize(
    ("text", "known"),
    [
        ("i'm in rome for the weekend!", ()),  # a stay
        ("i'm in rome rn", (("home_city", "Lisboa"),)),  # a home is known, and no move is said
        ("já estou em lisboa há um mês", (("home_city", "Porto"),)),
        ("i'm in love", ()),
        ("estou em casa", ()),
    ],
)
def test_being_somewhere_else_replaces_no_home(text: str, known: tuple[tuple[str, str], ...]) -> None:
    assert not [f for f in extract_facts(text, known=known) if f.key == "home_city"]
