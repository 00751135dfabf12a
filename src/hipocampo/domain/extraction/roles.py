"""Fact builders every language shares: tastes, goals, medications, jobs, family, pets, relatives.

The language modules find the words; these functions decide what counts and build the drafts,
so "I have a cat named Miso" and "tenho um gato chamado Miso" fill the same slot the same way.
"""

from __future__ import annotations

import re
from datetime import date
from types import ModuleType

from ..dates import resolve_dates
from ..lang import LANGUAGES, language
from ..model import MemoryType as T
from ..text import fold
from . import lexicon as lex
from .base import (
    Draft,
    Handler,
    canon,
    clean,
    draft,
    is_deictic,
    is_stopword,
    items,
    name_at,
    slug,
    times,
    without_article,
    word_count,
)
from .context import Found, pet_by_name
from .validate import trim_plan


def _words(lang: str) -> ModuleType:
    """The language's side of these builders (``domain/lang/<code>/roles.py``)."""
    return language(lang).roles


# --- people and animals -------------------------------------------------------------------------


def relation(rel: str, word: str, name: str, feminine: bool = False) -> Draft:
    """ "my sister Maria" -> person:sister = Maria."""
    d = draft(T.ENTITY, f"person:{rel}", name, "relation", rel=word, art="A" if feminine else "O")
    d.people = (name,)
    return d


_NAMES_LEAD = re.compile(
    r"^\s*(?:[,:(—-]\s*)?(?:(?:who\s+are\s+|who's\s+|named|called|chamad[oa]s?|que\s+se\s+chamam?|de\s+nome)\s+)?",
    re.IGNORECASE,
)


def names_after(rest: str) -> list[str]:
    """ "named Leo and Mia" / ", Leo and Mia" / "chamado Miso" -> the names."""
    lead = _NAMES_LEAD.match(rest)
    tail = rest[lead.end() :] if lead else rest
    if not lead or not lead.group(0).strip():
        return []
    names = []  # the names that open the tail; what follows them ("que vai adorar", "lol") is another clause
    named = bool(_NAMED.search(lead.group(0)))
    for i, part in enumerate(items(tail)):
        bare = re.sub(r"^(?:o|a|os|as|the|my)\s+", "", part, flags=re.IGNORECASE)
        # Chat writes names in lowercase: right after "named"/"chamada", or as an appositive with
        # its article and nothing after it (", a mel,", ", o tico 🐱"), a lowercase word is the name;
        # "named miso and tofu" names two, "named Waffles and a hamster" one.
        appositive = bare != part and _ALONE.match(bare) is not None
        name = name_at(bare, lower_ok=(named and (i == 0 or bare == part)) or (i == 0 and appositive))
        if not name:
            break
        names.append(name)
    return names


_NAMED = re.compile(r"named|called|chamad[oa]s?|chamam?|de\s+nome", re.IGNORECASE)
_ALONE = re.compile(r"[a-zà-ÿ][\w'’-]*\s*(?:$|[^\w\s])", re.IGNORECASE)


def count(word: str) -> int | None:
    word = fold(word)
    return int(word) if word.isdigit() else int(lex.NUMBERS[word]) if word in lex.NUMBERS else None


_ONE = {"children": "child", "sons": "son", "daughters": "daughter", "brothers": "brother", "sisters": "sister",
        "siblings": "sibling", "grandchildren": "grandchild"}  # fmt: skip
"""The slot of one member of a family group ("person:child")."""


def family(number: str, noun: str, rest: str, lang: str) -> list[Draft] | None:
    """ "I have two kids, Leo and Mia" -> family:children = 2, person:child = Leo, person:child = Mia."""
    n = count(number)
    group = lex.FAMILY.get(fold(noun))
    if not n or not group:
        return None
    names = names_after(rest)
    d = draft(T.ENTITY, f"family:{group}", str(n), "family", phrase=f"{number} {noun}".lower())
    d.people = tuple(names)
    out = [d]
    one, word = _ONE[group], _words(lang).FAMILY_MEMBER[group]
    out += [relation(one, word, name, _words(lang).is_feminine(word)) for name in names]
    return out


def _species(species: str) -> str | None:
    f = fold(species)
    return lex.PETS.get(f) or lex.PETS.get(f[:-1]) or lex.PETS.get(f.removesuffix("ies") + "y")


def _species_again(rest: str) -> str:
    """The rest after a breed without the kind it is of: "a golden retriever puppy named Biscuit"."""
    word = re.match(r"\s+([\w-]+)", rest)
    return rest[word.end() :] if word and _species(word.group(1)) else rest


def _past_when(rest: str) -> str:
    """The rest after the day a pet came, where chat puts its name: "adotei uma gata no sábado, a
    nina", "a kitten last week, named Tofu". Only a date said first, after at most a preposition,
    is passed over; anything else between the species and a name is another clause."""
    found = resolve_dates(rest, _ANY_DAY)
    if not found or len(rest[: found[0].span[0]].split()) > 1:
        return ""
    return rest[found[0].span[1] :]


_ANY_DAY = date(2000, 1, 3)
"""Only where a date is said matters here, not which day it is."""


def pet(number: str, species: str, rest: str, lang: str) -> list[Draft] | None:
    """ "I have a cat named Miso" -> pet:cat = Miso; "two dogs" -> pet:dog = 2 dogs."""
    n = count(number)
    f = fold(species)
    kind = _species(species)
    if not n or not kind:
        return None
    names = names_after(_species_again(rest)) or names_after(_past_when(rest))
    feminine = _words(lang).is_feminine(f)
    if names:
        joiner = _words(lang).AND
        called = ("chamada" if feminine else "chamado") + ("s" if len(names) > 1 else "")
        d = draft(
            T.ENTITY,
            f"pet:{slug(kind)}",
            joiner.join(names),
            "pet_named",
            art=number.lower(),
            sp=species,
            called=called,
        )
        d.people = tuple(names)
        return [d]
    value = species if n == 1 else f"{n} {species}"
    return [draft(T.ENTITY, f"pet:{slug(kind)}", value.lower(), "pet", phrase=f"{number} {species}".lower())]


def named_later(text: str, found: list[Found]) -> list[Found]:
    """An animal named in a later sentence of the turn: "we adopted a kitten 🥹 her name is Tofu"
    is a cat called Tofu, not a cat called "kitten". Only the one unnamed animal of the turn takes
    the name, and only a name given by a frame of naming, so "she's a tabby" names nothing."""
    unnamed = [i for i, (d, _, _) in enumerate(found) if d.template == "pet" and not d.negated]
    if len(unnamed) != 1:
        return found
    i = unnamed[0]
    d, lang, span = found[i]
    given = _NAME_GIVEN.search(text, span[1])
    name = name_at(text[given.end() :], lower_ok=True) if given else None
    number, _, species = str(d.args.get("phrase", "")).partition(" ")
    if not name or not species or count(number) != 1:
        return found
    named = pet(number, species, f" named {name}", lang.code)
    return found if not named else [*found[:i], (named[0], lang, span), *found[i + 1 :]]


_NAME_GIVEN = re.compile(
    r"\b(?:" + "|".join(f"(?:{language(code).roles.NAME_GIVEN})" for code in LANGUAGES) + r")\s+",
    re.IGNORECASE,
)


_GONE_TAIL = re.compile(r"\s*(?:$|[,;.!]|(?:anymore|any\s+more|any\s+longer|now|mais|agora|já)\b)", re.IGNORECASE)
_CAPITAL = re.compile(r"[A-ZÀ-Ý]")


def pet_gone(text: str, det: str, species_pattern: str, lang: str) -> list[Draft] | None:
    """What follows "I don't have" / "já não tenho": a species ("the cat", "o gato": that slot is
    retracted, whatever the pet's name) or a name ("Miso", "a Mimi": the stored pet with that
    name, found by :mod:`~hipocampo.domain.extraction.context`). Anything else ("time", "a car") is not a pet."""
    sp = re.match(rf"(?P<sp>{species_pattern})\b\s*(?:[A-ZÀ-Ý][\w'-]+)?", text, re.IGNORECASE)
    kind = _species(sp["sp"]) if sp else None
    if sp and kind and _GONE_TAIL.match(text[sp.end() :]):
        word = sp["sp"].lower()
        d = draft(T.ENTITY, f"pet:{slug(kind)}", word, "pet", phrase=_words(lang).pet_phrase(word))
        d.negated = True
        return [d]
    name = name_at(text) if _CAPITAL.match(text) else None
    if not name or not _GONE_TAIL.match(text[len(name) :]):
        return None
    return [pet_by_name(name, _words(lang).pet_named(det, name))]


_AFTER_PARTNER = re.compile(
    r"\s*(?:$|[,;.!(]|(?:for|since|now|again|anymore|already|há|ha|desde|faz|agora|já|mais|de\s+novo)\b)", re.I
)


_LEARNT_ENDS = re.compile(
    r"\s+(?:for|pra|para|pro|por|because|porque|since|with|com|at|in|no|na|em|on|so|bc|cuz|cause|"
    r"before|antes|after|depois|while|enquanto)\b.*$",
    re.IGNORECASE,
)


def learnt(value: str) -> str:
    """What is being learnt, without why, where or with whom, in either language ("french pra uma
    viagem a Paris" -> "french", "inglês no duolingo" -> "inglês"): a language, an instrument or a
    skill is named in a few words, and chat mixes languages inside one sentence, so a cut by one
    language's words alone left "french pra uma viagem" as the thing learnt."""
    return _LEARNT_ENDS.sub("", value).strip(" ,;")


def signed_name(word: str) -> str | None:
    """The name a chat signs with ("Ben here", "priya here 👋", "Fernanda aqui"): a capitalised
    name, or one lowercase word that is no common word of a language we read ("same here", "still
    here", "tô aqui" sign nothing; :func:`~hipocampo.domain.extraction.lexicon.common_word`)."""
    if name_at(word) == word:
        return word
    if not word.isalpha() or len(word) < 2 or lex.common_word(word) or fold(word) in lex.NOT_NAMES:
        return None
    return name_at(word, lower_ok=True)


def dating(text: str, lang: str) -> list[Draft] | None:
    """ "I'm dating Tom", "namoro com o Pedro": the partner, by name (no gender is guessed)."""
    name = name_at(text) if _CAPITAL.match(text.strip()) else None
    if not name or not _AFTER_PARTNER.match(text.strip()[len(name) :]):
        return None
    d = draft(T.ENTITY, "person:partner", name, "dating")
    d.people = (name,)
    return [d]


# --- tastes, plans, health, work ----------------------------------------------------------------


def likes(
    value: str, verb: str, lang: str, *, negated_verb: str | None = None, key: str = "likes", other: str = ""
) -> list[Draft]:
    """One preference per listed item; deictic objects ("I love it") are not tastes."""
    words = _words(lang)
    to, value = words.infinitive(value)
    out = []
    for item in items(value):
        item = words.object_of(item)
        if is_deictic(item) or word_count(item) > 6:
            continue
        if to and fold(item.split()[0]) in ("think", "say", "know", "see", "hear", "be"):
            continue
        if negated_verb is not None:  # "I hate", "odeio", "não suporto": a dislike of its own, not a negated like
            out.append(
                draft(T.PREFERENCE, f"dislikes:{canon(item, lex.FOODS)}", item, "dislikes", verb=negated_verb, to=to)
            )
            continue
        slot = canon(preference_head(item, lang) if key == "prefers" else item, lex.FOODS)
        nverb = words.NOT_LIKE
        out.append(draft(T.PREFERENCE, f"{key}:{slot}", item, key, verb=verb, nverb=nverb, to=to, other=other))
    return out


_NEW_STANCE = re.compile(
    r"\b(?:like|love|enjoy|adore|prefer|hate|dislike|want|gosto|adoro|amo|curto|prefiro|odeio|detesto|quero)\b",
    re.IGNORECASE,
)


def changed_mind(about: str, rest: str, lang: str) -> list[Draft] | None:
    """ "I changed my mind about sushi", "mudei de ideia sobre as reuniões", with no new stance in
    what follows (``rest``, the next sentence or so): whatever the user said about it (a like, a dislike, a preference) is
    retracted as a whole (no value), and nothing is stored when there was none. A new stance
    ("... I love it now") is left to its own rule: the retraction would contradict it."""
    item = without_article(clean(about))
    item = without_article(_words(lang).topic_of(item))
    if not item or is_deictic(item) or word_count(item) > 5 or _NEW_STANCE.search(rest):
        return None
    heads = {preference_head(item, lang)}
    if _words(lang).COMPOUND_HEAD_LAST and heads == {item}:
        heads.add(item.split()[-1])  # "morning meetings": an English compound is about its last noun
    slots = {
        f"likes:{canon(item, lex.FOODS)}",
        f"dislikes:{canon(item, lex.FOODS)}",
        *(f"prefers:{canon(head, lex.FOODS)}" for head in heads),
    }
    out = []
    for key in sorted(slots):
        d = draft(T.PREFERENCE, key, "", "changed_mind", about=item)
        d.negated = True
        out.append(d)
    return out


def preference_head(item: str, lang: str) -> str:
    """What a preference is about, without how: "meetings in the afternoon" -> "meetings",
    "reuniões de manhã cedo" -> "reuniões". Two preferences about the same thing share a slot,
    so saying the new one supersedes the old one."""
    head = _words(lang).QUALIFIER.split(item, maxsplit=1)[0]
    return head if head != item and 0 < word_count(head) <= 2 else item


_RESUMED = re.compile(  # folded
    r"(?:voltar|continuar|tornar)\s+a\s+\w+(?:ar|er|ir|or)\b|(?:go\s+back|get\s+back|continue)\s+(?:to\s+)?\w+ing\b"
)
"""An activity taken up again ("voltar a nadar", "go back to running", "continue learning"): a plan,
although "voltar" and "continue" alone ask the assistant to go back or go on ("quero voltar ao
assunto", "I want to continue")."""


def goal(value: str, verb: str, lang: str) -> list[Draft] | None:
    """A plan in the user's words, unless it is a request to the assistant ("I want to know...")."""
    v = trim_plan(clean(value), lang)
    if v and word_count(v) > 1:  # "a 2k open water swim": the plan, as bare as a job or a pet's species
        v = re.sub(r"^(?:an?|the|um|uma|o|a)\s+", "", v, flags=re.IGNORECASE)
    if not v or word_count(v) > 15:
        return None
    ws = fold(v).split()
    asks = ws[0] in lex.REQUEST_VERBS or " ".join(ws[:2]) in lex.REQUEST_VERBS
    if asks and not _RESUMED.match(fold(v)):
        return None
    if not _words(lang).plan_ok(ws[0]):
        return None
    return [draft(T.GOAL, f"goal:{slug(v)}", v, "goal", verb=verb)]


_DOSE = re.compile(r"^\d+(?:[.,]\d+)?\s*(?:mg|mcg|µg|ml|g|units?|unidades?)\s+(?:of\s+|de\s+)?", re.IGNORECASE)
_FOR = re.compile(
    r"(?:medication|medicine|meds|pills|tablets|rem[ée]dio|medicamento|medica[çc][ãa]o|comprimidos?)\s+"
    r"(?:for|para|pra|contra)\s+\S",
    re.IGNORECASE,
)


_FOR_CONDITION = re.compile(
    r"\s+(?:for|para|pra|contra)\s+(?:my\s+|a\s+minha\s+|minha\s+|o\s+meu\s+|meu\s+|a\s+|o\s+)?(?P<v>.+)", re.I
)


def _is_drug(words: str, *, single_word: bool) -> bool:
    f = fold(words)
    return (
        f in lex.MEDICATIONS
        or fold(without_article(words)) in lex.MEDICATIONS
        or (single_word and f.endswith(lex.DRUG_SUFFIXES))
    )


_OF = frozenset({"de", "do", "da", "of"})
"""What joins a drug's form to its name, in the languages we read."""


def _named_after_form(ws: list[str]) -> list[str]:
    """The words from a drug's name on, when its form is said first: "bombinha de salbutamol" is
    salbutamol, which a question about the user's medication asks for, not the inhaler."""
    bare = without_article(" ".join(ws)).split()
    if len(bare) > 2 and fold(bare[0]) in lex.DRUG_FORMS and fold(bare[1]) in _OF:
        rest = bare[2:]
        if any(_is_drug(" ".join(rest[:n]), single_word=n == 1) for n in (1, 2, 3) if len(rest) >= n):
            return rest
    return ws


def medication(text: str, verb: str) -> list[Draft] | None:
    """Known drug names, drug-like suffixes or "medication for X"; "I take the bus" is no drug.
    "metformin for my diabetes" and "remédio para pressão alta" also say the condition."""
    drugs = []
    for v in items(_DOSE.sub("", text.strip())):
        value = clean(v) if _FOR.match(v) and word_count(v) <= 6 else None
        ws = _named_after_form(v.split())
        for n in (3, 2, 1):
            cand = " ".join(ws[:n])
            if not value and len(ws) >= n and _is_drug(cand, single_word=n == 1):
                value = without_article(cand) if fold(without_article(cand)) in lex.MEDICATIONS else cand
        if value:
            key = f"medication:{canon(value, lex.MEDICATIONS)}"
            drugs.append(draft(T.CRITICAL_INFO, key, value, "medication", verb=verb))
    cause = _FOR_CONDITION.search(text)
    if drugs and cause and fold(clean(cause["v"])) in lex.CONDITIONS:
        condition = clean(cause["v"])
        drugs.append(draft(T.CRITICAL_INFO, f"condition:{canon(condition, lex.CONDITIONS)}", condition, "condition"))
    return drugs or None


def job_title(text: str, lang: str) -> str | None:
    """The job at the start of ``text`` ("software engineer at Google" -> "software engineer"). A
    title in another language we read counts too: mixed chat borrows English titles inside
    Portuguese ("sou ux researcher na lumo", "comecei como marketing manager na brava"). The words
    before the first stopword or punctuation are then read by the other languages' rules, as a whole."""
    found: str | None = _words(lang).job_title(text)
    if found:
        return found
    head = _BORROWED.match(text.strip())
    if not head:
        return None
    words = head.group(0).split()
    words = words[: next((i for i, w in enumerate(words) if is_stopword(w)), len(words))]
    for n in range(len(words), 0, -1):
        cand = " ".join(words[:n])
        if any(code != lang and language(code).roles.job_title(cand) == cand for code in LANGUAGES):
            return cand
    return None


_BORROWED = re.compile(r"[\w-]+(?:\s+[\w-]+){0,3}")


def schedule(prefix: str, template: str) -> Handler:
    """A rule handler for times the user is (un)available: "I can't on Mondays" -> unavailable:monday."""

    def handler(m: re.Match[str]) -> list[Draft] | None:
        v = clean(m["v"])
        if not v or word_count(v) > 8:
            return None
        return [draft(T.CONSTRAINT, f"{prefix}:{times(v, lex.TIMES)}", v, template)]

    return handler
