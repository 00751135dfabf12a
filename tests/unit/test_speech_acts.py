"""Speech acts and the chat lexicon: what a turn does (disclosure, request, filler), whether a
question asks about the user, and the slang and cross-language words of the keyword path."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from hipocampo.domain.retrieval.lexicon import expansions
from hipocampo.domain.retrieval.speech_acts import (
    about_user,
    answer_kinds,
    classify,
    holds_kind,
    hypothetical,
    names_employer,
    names_medication,
    names_occupation,
    names_place,
    places,
    speaks_of_others,
)


@pytest.mark.parametrize(
    "turn",
    [
        "me passa uma receita rápida pro jantar?",
        "whats a good book for a long flight?",
        "explain a mutex like im tired",
        "can u write a haiku about mondays",
        "explica-me o que é a taxa Euribor",
        "ok so how do i make cold brew",
        # A question without its question mark: a wh-word, a noun or two, then the verb asks.
        "what shots does a 7 month old pup need",
        "what temp should a nursery be",
        "how do student loan repayments work in the uk",
        "quantas vezes por dia recém nascido mama",
        "qual é a melhor zona do porto para ter cão",
    ],
)
def test_asking_the_assistant_is_a_request(turn: str) -> None:
    assert classify(turn) == "request"


@pytest.mark.parametrize(
    "turn",
    [
        "comecei na Acme semana passada, entrei como analista de dados",
        "primeira semana em Curitiba, tudo caro lol",
        "lol nice. btw im allergic to peanuts so no satay pls",
        "mudei-me para um T2 em Braga com a minha irmã",
        "tô trampando como designer",
        "my brother Sam is visiting next week",
        # A subject after "what" states: "what I do" is the speaker's work, not a question.
        "what i do is design, mostly logos",
        "what my boss does is micromanage lol",
    ],
)
def test_saying_something_about_ones_life_is_a_disclosure(turn: str) -> None:
    assert classify(turn) == "disclosure"


@pytest.mark.parametrize(
    "turn",
    ["valeu!! bjs", "thanks!!", "lol nice", "kkkk obrigada", "ok cool ty", "fixe, obrigado", "ooh good", "aff, poxa"],
)
def test_social_turns_are_filler(turn: str) -> None:
    assert classify(turn) == "filler"


@pytest.mark.parametrize(
    ("query", "about"),
    [
        ("qual é meu cargo?", True),
        ("em que cidade eu moro?", True),
        ("where do i work?", True),
        ("que carro tenho?", True),
        ("em que cidade vivo", True),  # Portuguese drops the pronoun: the verb's person tells
        ("com quem ando", True),
        ("me explica o que é um mutex", False),
        ("how do I boil an egg?", False),
        ("como faço um bolo de chocolate?", False),
        ("what is the speed of light?", False),
        ("What did Caroline research?", False),
    ],
)
def test_a_question_about_the_user_is_told_from_a_how_to(query: str, about: bool) -> None:
    assert about_user(query) is about


@pytest.mark.parametrize(
    ("query", "about"),
    [
        # No list names every verb: the ending says "I" or "we" when the stem makes an infinitive.
        ("quanto é que poupo por mês", True),  # poupar
        ("que desporto pratico agora?", True),  # praticar
        ("quando é que voamos?", True),  # voar
        ("quanto ganhei no freela?", True),  # ganhar
        ("o que bebo de manhã?", True),  # beber
        ("qto paguei no carro", True),  # pagar: the stem is spelled "pagu" before -ei
        ("onde fiquei hospedada?", True),  # ficar: "fiqu"
        # A reminder of what the user said, with no first person at all
        ("qd é o casório msm", True),
        ("onde fica a loja mesmo?", True),
        ("when's the wedding again?", True),
        ("remind me the startup name", True),
        # ...but not after an article or a preposition, where the word is a noun
        ("qual o melhor livro de ficção?", False),
        ("quanto custa um carro novo", False),
        ("receita de bolo de cenoura", False),
        # ...nor a stopword ("como" is "how"), nor advice anyone could take
        ("como funciona o sistema solar", False),
        ("quantos litros de água devo beber", False),
        ("qual a capital da frança?", False),
    ],
)
def test_a_first_person_verb_no_list_names_makes_a_question_about_the_user(query: str, about: bool) -> None:
    assert about_user(query) is about


def test_slang_and_the_other_language_join_the_keyword_search() -> None:
    assert {"trampo", "job"} <= set(expansions("where do i work?"))
    assert {"live", "home"} <= set(expansions("onde eu moro?"))
    assert "girlfriend" in expansions("who is my gf")
    assert expansions("what is the speed of light?") == ()


@pytest.mark.parametrize(
    ("turn", "others"),
    [
        ("my sister is allergic to shellfish too, we're a fun family lol", True),
        ("a minha irmã vai viver para Londres", True),
        ("my brother Tom got a job at Stripe", True),
        ("lol im not quitting. my sister just left her bank job tho", False),
        ("im allergic to cashews, my sister too", False),
        ("moro em Braga com a minha irmã", False),
        # chat drops the subject: a clause opening with a past verb is the speaker's
        ("update: moved into a 2br in east austin with my friend tess", False),
        ("just started at Stripe, my boss seems nice", False),
        ("my friend tess moved to denver", True),
        ("need a gift idea for my mom", True),
    ],
)
def test_a_line_about_someone_else_is_told_from_the_speakers_own(turn: str, others: bool) -> None:
    assert speaks_of_others(turn) is others


@pytest.mark.parametrize(
    ("turn", "what_if"),
    [
        ("if i ever moved id go to canada tbh, electricians get paid loads there", True),
        ("se eu fosse para londres ganhava o triplo lol mas não vou", True),
        ("caso eu consiga a vaga na Ambev, eu me mudo pra São Paulo", True),
        ("i live in leeds. if i ever moved id go to canada", False),
        ("moro em Braga desde 2019", False),
        ("also i live in Leeds if that matters for finding a garage", False),
        ("if i ever get the chance i'd go travel nursing tbh, hawaii or smth. not rn tho", True),  # a tail says nothing
    ],
)
def test_a_turn_that_only_says_what_would_be_is_told_from_one_that_says_what_is(turn: str, what_if: bool) -> None:
    assert hypothetical(turn) is what_if


@pytest.mark.parametrize(
    "turn", ["ok vou falar pra ela", "ok i'll try that", "sure, will do", "fixe, vou experimentar"]
)
def test_advice_acknowledged_in_a_few_words_is_filler(turn: str) -> None:
    assert classify(turn) == "filler"


@pytest.mark.parametrize(
    "turn",
    [
        "ok i'll be in Lisbon next week",
        "blz, vou tomar dps do almoço entao",
        "ok i'll tell my boss tomorrow about the raise",
    ],
)
def test_a_plan_that_tells_more_stays_a_disclosure(turn: str) -> None:
    assert classify(turn) == "disclosure"


@pytest.mark.parametrize(
    ("turn", "place"),
    [
        ("my granddaughter set this up for me. im hank, 74, retired machinist up in duluth", True),
        ("👍 i'm a phd student here in austin so cheap pls lol", True),
        ("perfeito kkk trampo de designer em bh é isso", True),
        ("encontrei um quarto em alvalade!! 430 com despesas incluídas", True),
        ("mudamos pra são josé dos campos mês passado", True),
        ("moved to Tacoma lol", True),
        # A town whose name is a word too, or a common word the gazetteer lists, is no place here.
        ("socorro kkk os gêmeos não dormem", False),
        ("a horta tá linda esse ano", False),
        ("boa viagem! aproveita", False),
        ("feliz natal pra vc", False),
        ("let us know lol", False),
        ("ok keto is over", False),
    ],
)
def test_a_place_is_read_however_chat_writes_it(turn: str, place: bool) -> None:
    assert names_place(turn) is place


@pytest.mark.parametrize(
    ("query", "place"),
    [
        ("where do i live", True),
        ("which city do i live in now?", True),
        ("onde eu moro", True),
        ("em que cidade eu moro?", True),
        ("em que bairro fica a confeitaria", True),
        ("who's my partner", False),
        ("where do i work these days?", False),  # an employer, not a town
        ("onde é que eu trabalho?", False),
        ("em que cidade vou trabalhar", True),
        ("qual é meu trampo", False),
        ("pra que empresa trabalho", False),
    ],
)
def test_a_question_answered_by_a_place_is_told_from_one_answered_by_another_name(query: str, place: bool) -> None:
    assert ("place" in answer_kinds(query)) is place


@pytest.mark.parametrize(
    ("query", "occupation"),
    [
        ("what do i do for a living again", True),
        ("what's my job title", True),
        ("what do i teach", True),
        ("qual é o meu cargo agora?", True),
        ("o que eu faço da vida", True),
        ("trabalho com o que msm", True),
        ("what do i do if the pipes freeze", False),
        ("where do i work", False),
        ("o que eu faço pro jantar hoje?", False),
    ],
)
def test_a_question_answered_by_an_occupation_is_told_apart(query: str, occupation: bool) -> None:
    assert ("occupation" in answer_kinds(query)) is occupation


@pytest.mark.parametrize(
    ("turn", "occupation"),
    [
        ("sou enfermeira há 6 anos e nunca me habituei às noites", True),  # the feminine of a listed job
        ("boa. sou dev backend faz 4 anos e nunca decoro regex kkkk", True),
        ("cheers. im an electrician so i can at least do the nursery lights lol", True),
        ("já sou reformado, finalmente", True),
        ("ok keto is over. eu sonhava com arroz", False),
        ("gym is monday wednesday friday after work now", False),
    ],
)
def test_an_occupation_is_read_in_any_words_and_either_gender(turn: str, occupation: bool) -> None:
    assert names_occupation(turn) is occupation


@pytest.mark.parametrize(
    ("query", "employer"),
    [
        ("where do i work again", True),
        ("who do I work for?", True),
        ("onde é que eu trabalho mesmo", True),
        ("pra que empresa eu trampo?", True),
        ("where do i live", False),
        ("what do i do for a living", False),  # a job, not where
    ],
)
def test_a_question_asks_for_an_employer(query: str, employer: bool) -> None:
    assert ("employer" in answer_kinds(query)) is employer


@pytest.mark.parametrize(
    ("turn", "employer"),
    [
        ("im the night lead at copperfield logistics, the big warehouse", True),  # lowercase, no dictionary word
        ("faço estágio na tarambola sistemas, curto bastante", True),
        ("trabalho na vendaval desde março", True),
        ("I work at Globex", True),
        ("trabalho na EDP desde 2019", True),  # an acronym where one works
        ("At copperfield logistics since may", True),  # where one works, opening the sentence
        ("they promoted me to team lead 😎 finally", False),  # work, but no employer named
        ("PASSEI na prova de pesados!! 🚛", False),  # a shout is no name
        ("tô na praia kkk", False),  # a place one is at, a common word
        ("im at home rn", False),
        ("moro no porto", False),  # a place
    ],
)
def test_an_employer_is_named_in_lowercase_where_work_is_said_to_be(turn: str, employer: bool) -> None:
    assert names_employer(turn) is employer


@pytest.mark.parametrize(
    ("query", "turn", "kind"),
    [
        ("how much do i make an hour rn", "got bumped to 19.75/hr at the bakery", "hourly"),
        ("meu valor/hora tá em quanto?", "agora cobro 95/h nos freelas", "hourly"),
        ("quanto é que ganho à hora?", "pagam-me 9€ à hora no café", "hourly"),
        ("what do i pay a month for the room?", "found a room in leyton, 980 a month", "monthly"),
        ("quanto pago por mês de creche?", "a creche custa 420 por mês", "monthly"),
    ],
)
def test_a_rate_is_answered_by_an_amount_of_that_rate(query: str, turn: str, kind: str) -> None:
    assert kind in answer_kinds(query)
    assert holds_kind(turn, kind)  # type: ignore[arg-type]
    other = "monthly" if kind == "hourly" else "hourly"
    assert not holds_kind(turn, other)  # type: ignore[arg-type]
    assert not holds_kind("we cut groceries by 50 lol", kind)  # type: ignore[arg-type]  # no rate at all


@pytest.mark.parametrize(
    ("query", "medication"),
    [
        ("what bp med am i on now", True),
        ("whats the dose of my blood pressure pill", True),
        ("que antidepressivo eu tomo agora?", True),
        ("qual remedio de pressão eu tomo agora", True),
        ("qual a dose do meu remédio agora", True),
        ("what time do i take my pill", False),
        ("tenho alguma alergia?", False),
    ],
)
def test_a_question_answered_by_a_medication_is_told_apart(query: str, medication: bool) -> None:
    assert ("medication" in answer_kinds(query)) is medication


@pytest.mark.parametrize(
    ("turn", "medication"),
    [
        ("a psiquiatra tirou a sertralina, agora é escitalopram 10mg", True),
        ("doc switched me from metformin to jardiance last week", True),
        ("o médico trocou pra olmesartana", True),  # unlisted, read by its class's ending
        ("is it ok to take ibuprofen w lisinopril?", True),
        ("kids finally asleep, quick q about the weekend", False),
    ],
)
def test_a_medication_is_read_by_name_or_by_its_class(turn: str, medication: bool) -> None:
    assert names_medication(turn) is medication


def test_the_shipped_places_keep_up_with_the_extractors_gazetteer() -> None:
    """``places.txt.gz`` is written by ``scripts/build_places.py``, the extractor's gazetteer
    included: a city added to the gazetteer is read in lowercase only once the file is written again."""
    path = Path(__file__).resolve().parents[2] / "scripts" / "build_places.py"
    spec = importlib.util.spec_from_file_location("build_places", path)
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    missing = build.gazetteer_places() - places()
    assert not missing, f"run scripts/build_places.py: {sorted(missing)[:10]}"
