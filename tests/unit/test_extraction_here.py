"""Facts said in passing in lowercase chat. A home: "here in Glasgow", "aqui em Campinas" (the
speaker's "here" is where they are, and in chat mostly where they live; it fills an empty home and
never replaces one). A pet named in an aside: "biscuit (my beagle)", "a mimi (a minha gata)". An
allergy inside a chatty sentence, without the emoji after it: "bc i'm allergic to penicillin". A
stressed way of working: "i work fully remote", "agora é 100% remoto"."""

from __future__ import annotations

import pytest

from hipocampo.domain.extraction import extract_facts


def _homes(text: str, known: list[tuple[str, str]] | None = None) -> list[str]:
    return [f.value for f in extract_facts(text, known=known or []) if f.key == "home_city"]


@pytest.mark.parametrize(
    ("text", "home"),
    [
        ("yes pls, and it has to work with my night shifts here in glasgow", "Glasgow"),
        ("i'm a product designer at stripe here in dublin", "Dublin"),
        ("oi! sou vet here in recife, need a quick handout on tick prevention", "Recife"),
        ("dá-me ideias de jantares rápidos, aqui em guimarães os supermercados fecham cedo", "Guimarães"),
        ("entretanto inscrevi-me num curso de cerâmica aqui no porto às quintas", "Porto"),
    ],
)
def test_the_place_a_speaker_calls_here_is_their_home(text: str, home: str) -> None:
    assert _homes(text) == [home]


@pytest.mark.parametrize(
    "text",
    [
        "it's so hot here in Rome, we're on vacation lol",  # a while away
        "tô aqui em Salvador de férias, calor demais",
        "if i lived here in porto id be happy",  # a hypothetical
        "here in the office it's freezing",  # no place
    ],
)
def test_a_stay_a_hypothetical_or_no_place_is_no_home(text: str) -> None:
    assert _homes(text) == []


def test_it_never_replaces_the_home_the_memory_holds() -> None:
    assert _homes("my night shifts here in glasgow", known=[("home_city", "Leeds")]) == []
    assert _homes("my night shifts here in glasgow", known=[("home_city", "Glasgow")]) == ["Glasgow"]


def test_a_home_the_turn_states_is_read_by_its_rule_alone() -> None:
    facts = extract_facts("I live in Leeds, here in Leeds the rent is fine")
    assert [f.value for f in facts if f.key == "home_city"] == ["Leeds"]


@pytest.mark.parametrize(
    ("text", "key", "name"),
    [
        ("ooh yes. also biscuit (my beagle) steals everything off the counter lol", "pet:dog", "Biscuit"),
        ("and luna (my cat) is judging us both", "pet:cat", "Luna"),
        ("je vais, tu vas... nacho (meu gato) is sitting on my notebook again", "pet:cat", "Nacho"),
        ("mousse! a mimi (a minha gata) já está a tentar meter o focinho nas natas", "pet:cat", "Mimi"),
    ],
)
def test_a_pet_named_in_an_aside_is_read_lowercase_or_not(text: str, key: str, name: str) -> None:
    assert [(f.key, f.value) for f in extract_facts(text)] == [(key, name)]


@pytest.mark.parametrize("text", ["the (my dog) thing", "ela (minha gata) dorme no sofá"])
def test_an_aside_after_no_name_names_no_pet(text: str) -> None:
    assert extract_facts(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("on antibiotics rn, not the penicillin kind bc i'm allergic to penicillin lol", "penicillin"),
        ("vou a um jantar de equipa e sou alérgica a frutos secos, como peço isso sem ser chata?", "frutos secos"),
    ],
)
def test_an_allergy_inside_a_chatty_sentence_is_read(text: str, value: str) -> None:
    """ "bc" opens a clause like "because"; a question after the statement ("como peço isso?") is
    its own clause, and leaves the allergy before it a statement."""
    assert [f.value for f in extract_facts(text) if f.key.startswith("allergy")] == [value]


@pytest.mark.parametrize(
    ("text", "mode"),
    [
        ("i work fully remote btw, clients are all in germany", "remote"),
        ("I'm 100% remote now", "remote"),
        ("tô full remote agora", "remoto"),
        ("notícia boa: agora é 100% remoto! acabou o busão", "remoto"),
    ],
)
def test_a_stressed_way_of_working_is_read(text: str, mode: str) -> None:
    assert [(f.key, f.value) for f in extract_facts(text)] == [("work_mode", mode)]


def test_something_else_being_remote_is_not_the_users_way_of_working() -> None:
    assert extract_facts("o curso é remoto") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("i'm allergic to peanuts 😭", "peanuts"),
        ("sou intolerante a lactose 😩", "lactose"),
        ("moro em Braga 🙂", "Braga"),
    ],
)
def test_an_emoji_after_a_value_is_no_part_of_it(text: str, value: str) -> None:
    assert [f.value for f in extract_facts(text)] == [value]


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("trampo de casa, o verão aqui é insano", [("work_mode", "remoto")]),
        ("trampo na Stone como dev", [("employer", "Stone"), ("occupation", "dev")]),
        ("o trampo tá puxado essa semana", []),  # the noun, not the verb
    ],
)
def test_trampo_is_work_in_brazilian_slang(text: str, facts: list[tuple[str, str]]) -> None:
    assert [(f.key, f.value) for f in extract_facts(text)] == facts


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("oii sou vegetariana faz 5 anos kkk", [("diet", "vegetariano")]),
        ("hiii i live in Leeds", [("home_city", "Leeds")]),
        ("heyyy i'm vegan now", [("diet", "vegan")]),
    ],
)
def test_a_stretched_greeting_is_still_a_greeting(text: str, facts: list[tuple[str, str]]) -> None:
    """Chat stretches its greetings ("oii", "hiii", "heyyy"); what follows is read as after "oi"."""
    assert [(f.key, f.value) for f in extract_facts(text)] == facts
