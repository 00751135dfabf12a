"""Speech acts and the chat lexicon: what a turn does (disclosure, request, filler), whether a
question asks about the user, and the slang and cross-language words of the keyword path."""

from __future__ import annotations

import pytest

from hipocampo.domain.retrieval.lexicon import expansions
from hipocampo.domain.retrieval.speech_acts import about_user, classify, hypothetical, speaks_of_others


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
