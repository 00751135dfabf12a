"""The subject thesaurus's words live in the language bundles, and joining them gives the
thesaurus the ranking has always used: the same subjects, in the same order."""

from __future__ import annotations

from hipocampo.domain.lang import LANGUAGES
from hipocampo.domain.retrieval.subjects import SUBJECTS, asked, spoken_of

NAMES = (
    "food restrictions",
    "health",
    "work",
    "home",
    "family",
    "pets",
    "schedule",
    "money",
    "study",
    "travel",
    "vehicles",
)


def _bundles() -> dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...]]]]:
    return {code: lang.subjects.SUBJECTS for code, lang in LANGUAGES.items() if lang.subjects is not None}


def test_the_thesaurus_keeps_its_subjects_and_their_order() -> None:
    assert tuple(name for name, _, _ in SUBJECTS) == NAMES


def test_every_subject_is_named_by_a_bundle_and_every_bundle_names_known_subjects() -> None:
    bundles = _bundles()
    assert {"en", "pt"} <= set(bundles)
    named = set().union(*(set(words) for words in bundles.values()))
    assert named == set(NAMES)
    for code, words in bundles.items():
        for name, (question, memory) in words.items():
            assert question and memory, (code, name)  # a subject is asked about and spoken of


def test_a_question_in_one_language_finds_a_memory_in_the_other() -> None:
    assert "food restrictions" in asked("o que ele não pode comer?") & spoken_of("I'm lactose intolerant.")
    assert "work" in asked("Where do I work now?") & spoken_of("Trampo na Nubank desde março.")


def test_como_that_asks_how_is_no_question_about_food() -> None:
    # "como" is "I eat" and "how"; read as eating, every "como se chama...?" asked about food,
    # and a lactose intolerance outranked the pet's name.
    for how in ("como se chama a minha cadela", "como chama meu negócio", "como é que se chama a minha mulher"):
        assert "food restrictions" not in asked(how), how
    for eats in ("eu como carne?", "como carne?", "o que eu como de manhã"):
        assert "food restrictions" in asked(eats), eats
    assert "pets" in asked("como se chama a minha cadela") & spoken_of("a cadela fugiu")


def test_everyday_words_for_a_partner_a_diagnosis_a_shift() -> None:
    assert "family" in asked("am i dating anyone?") & spoken_of("ok so Ethan and i broke up")
    assert "family" in asked("tô casada?") & spoken_of("a gente decidiu se separar")
    assert "health" in asked("qual é o meu diagnóstico?") & spoken_of("fui diagnosticada com TDAH")
    assert "health" in asked("what bp med am i on") & spoken_of("doc put me on amlodipine 5mg")
    assert "work" in asked("what's my shift now") & spoken_of("3 weeks of day shifts")
    assert "study" in asked("what's my thesis about?") & spoken_of("my supervisor hates my draft")
    assert "pets" in asked("que animais tenho?")
    # A world question or a request names no subject of the user's life.
    for world in (
        "how do planes fly?",
        "can you teach me python?",
        "single file upload in django",
        "me ensina a fazer pão",
        "fumar faz mal?",
        "how does smoking affect lungs",
        "como aprender python rápido?",
    ):
        assert not asked(world), world
