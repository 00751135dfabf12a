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
