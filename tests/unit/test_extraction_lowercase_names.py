"""Names chat writes in lowercase or by a nickname: employers of several words ("cajá logística", "corvid
analytics"), pets named in an appositive (", a mel,"); English titles inside Portuguese, and the
frames chat says a job with: "comecei como X na Y", "tô na Y como X", "voltei a trabalhar meio
período na Y", "got a job at Y", "at Y where i work", "senior accountant now"."""

from __future__ import annotations

import pytest

from hipocampo.domain.extraction import extract_facts


def facts(text: str) -> dict[str, str]:
    return {f.key: f.value for f in extract_facts(text) if not f.negated}


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("trabalho na cajá logística, o refeitório lá é só carbo lol", "cajá logística"),
        ("sou enfermeira no hospital santa clarice, então preciso pedir férias", "hospital santa clarice"),
        ("vlw!! trabalho como analista no banco aurora e vivo no excel kkkk", "banco aurora"),
        ("im a graphic designer at brightline studio here in chicago", "brightline studio"),
        ("im a junior accountant at halvorsen & pike in toronto", "halvorsen & pike"),
        ("trabalho home office na grão fino consultoria, então", "grão fino consultoria"),
        ("voltei a trabalhar meio período na clínica ipê semana passada", "clínica ipê"),
        ("trabalho ao fim de semana no café andorinha para pagar as propinas", "café andorinha"),
        ("agora tô na capivara pay como dev, mto mais leve", "capivara pay"),
        ("pelo menos comecei como marketing manager na brava foods semana passada", "brava foods"),
        ("got a job at loop coffee as a barista", "loop coffee"),
        ("we do that in like 40 places at corvid analytics where i work lol", "corvid analytics"),
        ("starting monday at pollenworks, small climate startup", "pollenworks"),
        ("trabalho no mercado livre", "mercado livre"),
    ],
)
def test_a_lowercase_employer_of_several_words_is_read(text: str, employer: str) -> None:
    assert facts(text)["employer"] == employer


@pytest.mark.parametrize(
    "text",
    [
        "trabalho na padaria do bairro",  # a description, not a name
        "trabalho numa padaria perto de casa",
        "trabalho no banco agora",  # one common word, then when
        "trabalho no hospital central",  # a generic adjective
        "i work at the local hospital",
        "my sister got a job at Stripe",  # someone else
        "starting at noon tomorrow",
        "tô na praia como sempre",
    ],
)
def test_a_described_place_of_work_is_no_employer(text: str) -> None:
    assert "employer" not in facts(text)


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("perfect. sou ux researcher na lumo health, ele é super chill", "ux researcher"),
        ("comecei como marketing manager na brava foods", "marketing manager"),
        ("im a backend engineer there", "backend engineer"),
    ],
)
def test_a_title_borrowed_from_the_other_language_is_the_occupation(text: str, title: str) -> None:
    assert facts(text)["occupation"] == title


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("agora tô na capivara pay como dev júnior, mto mais leve", "dev júnior"),
        ("ok two things. 1: got promoted last week!! senior accountant now 🥳", "senior accountant"),
    ],
)
def test_a_seniority_and_a_title_said_with_now_are_the_occupation(text: str, title: str) -> None:
    assert facts(text)["occupation"] == title


@pytest.mark.parametrize(
    ("text", "key", "name"),
    [
        ("oi!! tenho uma cachorra, a mel, vira-lata de 4 anos", "pet:dog", "Mel"),
        ("e adotei um gato, o farrusco", "pet:cat", "Farrusco"),
        ("i have two cats named miso and tofu", "pet:cat", "Miso and Tofu"),
        ("we also have a dog named Waffles and a hamster named Nugget lol", "pet:dog", "Waffles"),
    ],
)
def test_a_pet_named_in_lowercase_is_its_name(text: str, key: str, name: str) -> None:
    assert facts(text)[key] == name


@pytest.mark.parametrize("text", ["tenho uma cachorra, a coisa mais fofa do mundo", "tenho um gato, o meu bebê"])
def test_a_description_after_the_pet_is_no_name(text: str) -> None:
    assert facts(text).get("pet:dog", facts(text).get("pet:cat")) in ("cachorra", "gato")


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("moro em bh", "Belo Horizonte"),
        ("moro em BH desde 2019", "Belo Horizonte"),
        ("moro no rio, laranjeiras", "Rio de Janeiro"),
        ("primeira semana em floripa, tudo caro lol", "Florianópolis"),
        ("i live in nyc now", "New York"),
        ("moved to philly last month", "Philadelphia"),
        ("moro no Rio de Janeiro", "Rio de Janeiro"),
    ],
)
def test_a_city_called_by_its_nickname_is_filed_under_its_name(text: str, city: str) -> None:
    """ "bh" and "Belo Horizonte" said months apart are one home, not a move."""
    assert facts(text).get("home_city") == city


def test_a_river_is_no_city() -> None:
    assert "home_city" not in facts("moro perto do rio")
