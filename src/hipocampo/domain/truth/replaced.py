"""Earlier statements a later one replaced, with no change cue and no slot rule. Pure.

Users rarely announce a change: after "moro em Santos" comes "primeiro mês em Belo Horizonte";
after "i work at Spotify" comes "first week at Canva done". No ending cue is said
(:mod:`.changes` needs one) and often no rule reads a fact from either turn, so the earlier turn
would be shown as current beside the later one, and match a question about it just as well.

This module pairs two generic signals instead of a rule per phrasing:

- **the same subject**: a few subjects a person holds one value of at a time (where they live,
  where they work and as what, their partner, their diet, their rent), each recognised by its
  language's own vocabulary (``SUBJECTS`` in ``domain/lang/<code>/changes.py``), which also says
  where the value stands in the sentence; and the dose of one named drug ("losartana 50mg");
- **another value**: the later sentence's value and the earlier one's share no stem either way
  round ("Santos" / "Belo Horizonte"); a value contained in the other ("Canva" / "Canva done") is
  the same one said again.

A false "earlier" hides a true memory, so a statement counts only when it is the user's own and
says a value as holding: no question, hypothetical, reported speech, negation ("não moro em"),
or clause about someone else ("o Rafa se mudou pra Curitiba", "my sister moved to Berlin"); and a
later statement that adds a value beside the first ("I also work at a bar on weekends", a second
cat) replaces nothing. Pets, children, hobbies and allergies are no such subjects: a new one adds.
A value of any other kind (a favourite, a flight, a code) changes only with a cue: :mod:`.restated`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from ..lang import LANGUAGES, Language, language
from ..text import fold, query_terms
from .changes import _CLAUSE_END, _about_other, _cue_clause, _own, _sentences
from .reconcile import RESTATED

__all__ = [
    "Replaced",
    "SUBJECT_KEYS",
    "Statement",
    "replaced_statements",
    "subject_statements",
]

SUBJECT_KEYS: dict[str, tuple[str, ...]] = {
    "home": ("home_city", "home_country", "home", "neighbourhood"),
    "work": ("employer",),  # not the role nor the city: a new workplace often keeps them
    "role": ("occupation",),
    "partner": (
        "person:partner",
        "person:boyfriend",
        "person:girlfriend",
        "person:fiance",
        "person:fiancee",
        "person:husband",
        "person:wife",
        "dating",
    ),  # fmt: skip
    "diet": ("diet",),
    "rent": ("rent",),
    "dose": (),  # a new dose of the same drug: the user still takes it
    RESTATED: (),  # the facts holding the earlier value: see ``Replaced.words``
}
"""The fact keys (or key families, before a ``:``) each subject's value is written under: facts
drawn from a replaced statement that hold its subject end with it."""

MAX_VALUE_WORDS = {"partner": 1, "rent": 1, "diet": 1}
"""How many words a value may run to (default 3): a name, an amount and a diet are one word."""
DEFAULT_VALUE_WORDS = 3
DESCRIBED = frozenset({"work"})
"""Subjects whose value may be a description ("numa fábrica de têxteis", "at a hospital"): a
workplace is often named by its kind. A home is not ("in a flat" says nothing of the city)."""


def _merged(name: str) -> frozenset[str]:
    """A word set of every language's ``changes`` bundle, united: a mixed turn meets both."""
    return frozenset().union(*(getattr(language(code).changes, name) for code in LANGUAGES))


_INDEFINITE = _merged("INDEFINITE")
_NAMING = _merged("NAMING")
_NUMBER = re.compile(r"\d[\d.,]*")
_WORD = re.compile(r"[\w'-]+")
_NEGATION = re.compile(rf"\b(?:{'|'.join(language(code).changes.NEGATIONS for code in LANGUAGES)})\b")
"""A negation before a frame. Not a bare "no": in Portuguese it is "in the" ("no fim de semana
mudei pra Curitiba"), and that sentence was skipped as a denial."""


@dataclass(frozen=True)
class Statement:
    """One own sentence stating a subject's value: the value as said and as stems."""

    subject: str
    words: str
    stems: frozenset[str]
    sentence: str
    adds: bool  # it adds a value beside the earlier ones ("also", "a second")


@dataclass(frozen=True)
class Replaced:
    """An earlier statement a later sentence replaced: which turn, what it said, and what now holds."""

    message_id: str
    subject: str
    words: str  # the earlier value: "Santos"
    said: str  # the earlier sentence
    new_words: str  # the later value: "Belo Horizonte"
    sentence: str  # the later sentence


@cache
def _frames(code: str) -> dict[str, re.Pattern[str]]:
    return {s: re.compile(p) for s, p in language(code).changes.SUBJECTS.items()}


@cache
def _cues(code: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], frozenset[str]]:
    c = language(code).changes
    return (
        re.compile(c.ADDING),
        re.compile(rf"^\W*(?:{c.ADDING_OPENERS})\b"),
        re.compile(rf"\b(?:{c.OTHERS})\b"),
        _not_values(code),
    )


@cache
def _not_home(code: str) -> re.Pattern[str]:
    return re.compile(language(code).changes.NOT_HOME)


NAMED = frozenset({"partner"})
"""Subjects whose value is a person's name: written capitalised, or it is no name ("minha namorada
adotamos": a verb after the frame)."""


_NEAR_NAME = re.compile(r"^\W*(?:\w+\W+){0,3}?([A-ZÀ-Ý][\w'-]+)")


_NAME_CUE = re.compile(r"(?:\b(?:o|a|the|called|named|chama|chamad[oa])|,)\s*$")
"""How a frame can end just before a name: an article ("namorando o joão"), a naming verb, an
apposition's comma ("my boyfriend, tom")."""
_BARE_WORD = re.compile(r"^\s*([^\W\d_][\w'-]{2,})\b")


def _name_after(sentence: str, folded: str, end: int, frame: str = "") -> str:
    """The capitalised name within a few words after a frame ("seeing someone new, Marcus"), folded;
    '' when there is none or the casing cannot be read.

    A turn written all in lowercase, as much chat is, says nothing by its casing: there the name is
    the word right after a frame that ends in a naming cue (:data:`_NAME_CUE`), when that word is
    no stop word. Without the cue a lowercase word is more often a verb ("my bf loves pizza")."""
    if len(sentence) != len(folded):
        return ""
    if not any(c.isupper() for c in sentence):
        bare = _BARE_WORD.match(folded[end:])
        if bare and _NAME_CUE.search(frame) and bare.group(1) not in _stop():
            return bare.group(1)
        return ""
    m = _NEAR_NAME.match(sentence[end:])
    return fold(m.group(1)) if m and fold(m.group(1)) not in _stop() else ""


def _not_values(code: str) -> frozenset[str]:
    """The NOT_VALUES alternation expanded: "sozinh[oa]" gives "sozinho" and "sozinha"."""
    out: set[str] = set()
    for alt in language(code).changes.NOT_VALUES.split("|"):
        alt = alt.replace("s?", "")
        if "[oa]" in alt:
            out |= {alt.replace("[oa]", "o"), alt.replace("[oa]", "a")}
        else:
            out.add(alt)
    return frozenset(out)


@cache
def _stop() -> frozenset[str]:
    return frozenset(fold(w) for lang in LANGUAGES.values() for w in lang.lexicon.STOP_WORDS)


def _value(subject: str, match: re.Match[str], folded: str, code: str) -> str:
    """The value a frame's match states: its group ``v``, or the words right after it up to the end
    of the clause, the first stopword after a value word, or the subject's word limit."""
    group = next((g for g in match.groupdict().values() if g), None)
    if group:
        return group
    rest = folded[match.end() :]
    end = re.search(r"[,;:()!?.]|\s[-–—]\s", rest)
    rest = rest[: end.start()] if end else rest
    if subject == "rent":
        number = _NUMBER.search(rest[:30])
        return number.group(0).rstrip(".,") if number else ""
    not_values = _cues(code)[3]
    words = _WORD.findall(rest)
    named = next((i for i, w in enumerate(words) if w in _NAMING), None)
    if words and words[0] in _INDEFINITE and named is not None:
        words = words[named + 1 :]  # "joined a startup called Ramp": the name is the value
    elif words and words[0] in _INDEFINITE and subject in DESCRIBED:
        words = words[1:]  # "trabalho numa fábrica de têxteis": the kind of place is the value
    out: list[str] = []
    for word in words:
        if word in not_values and not out:
            return ""  # "moved to a bigger place", "trabalho em casa": a description, no value
        if word in _stop() or word in not_values or word[:1].isdigit():
            break
        out.append(word)
        if len(out) >= MAX_VALUE_WORDS.get(subject, DEFAULT_VALUE_WORDS):
            break
    return " ".join(out)


def _stems(words: str) -> frozenset[str]:
    return frozenset(query_terms(words)) or frozenset(words.split())


_EMOJI_END = re.compile(r"(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF])\s+")
_QUESTION_TAIL = re.compile(r",[^,]*\?\s*$")


def _statement_part(sentence: str) -> str:
    """The part of a sentence said as a statement: a question tacked on after a comma is left off
    ("meu namorado Caio faz aniversário, ideia de presente?"); a whole question is nothing."""
    if sentence.rstrip().endswith("?"):
        # The question is the last piece: after an emoji ("faço 19h-7h três noites 😩 dicas pra
        # dormir de dia?"), else after the last comma.
        pieces = _EMOJI_END.split(sentence)
        sentence = " ".join(pieces[:-1]) if len(pieces) > 1 else _QUESTION_TAIL.sub("", sentence)
    if _own(sentence):
        return sentence
    # Chat ends sentences with an emoji: "they promoted me to ops supervisor 😎 maybe i shouldve
    # gotten the nicer car" is sure up to the emoji, and the doubt after it is another sentence.
    head = _EMOJI_END.split(sentence, maxsplit=1)[0]
    return head if head != sentence and _own(head) else ""


def _names_before(sentence: str, folded: str, begin: int, start: int) -> bool:
    """A name in the frame's clause before it, other than the sentence's first word: someone
    else's clause ("o Diogo vai trabalhar para", "Ana moved to Porto"). Read on the original casing
    when folding kept the positions."""
    if len(sentence) != len(folded):
        return False
    words = sentence[begin:start].split()
    # A name after a preposition is a place or a company, no subject: "vivo em Lisboa e trabalho no ..."
    lead = [
        w for i, w in enumerate(words) if w not in _FIRST_PERSON and not (i and fold(words[i - 1]) in _PREPOSITIONS)
    ]
    if len(lead) == 1 and lead[0][:1].isupper() and fold(lead[0]) not in _stop():
        return True  # "Ana moved to Porto": a capitalised word right before the frame is its subject ("Estou" is none)
    return any(w[:1].isupper() and fold(w) not in _stop() for w in (lead[1:] if begin == 0 else lead))


_PREPOSITIONS = frozenset(
    "em no na nos nas num numa de do da dos das para pra pro com in at on to from for with of near".split()
)


_FIRST_PERSON = frozenset({"I", "I'm", "Im", "I've", "We", "We're", "we", "i", "im", "i'm"})


def subject_statements(text: str, codes: Sequence[str] | None = None) -> list[Statement]:
    """The subjects ``text`` states a value of as the speaker's own, in every language's frames."""
    out: list[Statement] = []
    for whole in _sentences(text):
        sentence = _statement_part(whole)
        if not sentence:
            continue
        folded = fold(sentence)
        for code in codes or list(LANGUAGES):
            adding, opener, others, _ = _cues(code)
            not_home = _not_home(code)
            for subject, frame in _frames(code).items():
                for match in frame.finditer(folded):
                    clause = _cue_clause(folded, match.start(), match.end())
                    starts = [m.end() for m in _CLAUSE_END.finditer(folded, 0, match.start())]
                    begin = starts[-1] if starts else 0
                    lead = folded[begin : match.start()]  # the clause up to the frame
                    if (
                        _about_other(lead)
                        or others.search(lead)
                        or _NEGATION.search(lead)
                        or _names_before(sentence, folded, begin, match.start())
                    ):
                        continue
                    words = _value(subject, match, folded, code)
                    if subject in NAMED:
                        words = _name_after(sentence, folded, match.end(), folded[match.start() : match.end()])
                    if not words:
                        continue
                    if subject == "home" and not_home.search(folded):
                        continue  # "I moved to Globex, same role": a workplace, not a home
                    adds = bool(adding.search(opener.sub(" ", clause)))
                    if any(s.subject == subject and s.sentence == sentence for s in out):
                        continue
                    out.append(Statement(subject, words, _stems(words), sentence, adds))
        out += [d for d in _doses(sentence, folded) if not any(s.subject == d.subject for s in out)]
    return out


_DOSE = re.compile(r"\b(\d+(?:[.,]\d+)?)\s?(mg|mcg|ug|ml|ui|iu)\b")
_DRUG_LETTERS = 6
_GENERIC_DRUG = frozenset({"remedio", "remedios", "medicine", "medication", "medicacao", "comprimido", "comprimidos"})
"""Words near a dose that name no drug: "tomo o remédio de 50mg" says which dose, not of what."""


def _doses(sentence: str, folded: str) -> list[Statement]:
    """A dose of a named thing ("tomo losartana 50mg", "the doctor upped my sertraline to 100mg"):
    subject ``dose:<word>``, value the amount and its unit. The thing is the nearest word of at
    least six letters before the amount in its clause (else after it), so that two doses of one
    drug meet, and a dose of another is another subject."""
    out: list[Statement] = []
    for match in _DOSE.finditer(folded):
        clause = _cue_clause(folded, match.start(), match.end())
        at = clause.find(match.group(0))
        before = [w for w in _WORD.findall(clause[:at]) if w.isalpha()]
        after = [w for w in _WORD.findall(clause[at + len(match.group(0)) :]) if w.isalpha()]
        named = [w for w in [*reversed(before), *after] if len(w) >= _DRUG_LETTERS and w not in _stop()]
        named = [w for w in named if w not in _GENERIC_DRUG]
        if not named or _NEGATION.search(clause[:at]) or _about_other(clause[:at]):
            continue
        amount = f"{match.group(1).replace(',', '.')}{match.group(2)}"
        out.append(Statement(f"dose:{named[0]}", amount, frozenset({amount}), sentence, False))
    return out


def _same_value(a: frozenset[str], b: frozenset[str]) -> bool:
    return a <= b or b <= a


def replaced_statements(
    text: str, earlier: Sequence[tuple[str, str]], *, codes: Sequence[str] | None = None, limit: int = 2
) -> list[Replaced]:
    """The earlier statements (``earlier``: the user's turns as (message id, text), newest first)
    that ``text``, a later turn of the same user, replaces by stating another value of the same
    subject. Per subject, the scan stops at the newest earlier statement of the same value (what is
    older was judged when that one was said), and takes at most ``limit`` statements."""
    found: dict[tuple[str, str], Replaced] = {}
    for later in [*subject_statements(text, codes), *moved_home(text, codes)]:
        if later.adds:
            continue
        taken = 0
        for message_id, content in earlier:
            if taken >= limit:
                break
            said = [s for s in subject_statements(content, codes) if s.subject == later.subject]
            if not said:
                continue
            if any(_same_value(s.stems, later.stems) for s in said):
                break
            if (message_id, later.subject) not in found:
                first = said[0]
                found[message_id, later.subject] = Replaced(
                    message_id, later.subject, first.words, first.sentence, later.words, later.sentence
                )
            taken += 1
    stated = {later.subject for later in subject_statements(text, codes)}
    for subject, sentence in _subject_changes(text, codes):
        if subject in stated:
            continue  # the value said with it was judged above
        for message_id, content in earlier:
            said = [s for s in subject_statements(content, codes) if s.subject == subject]
            if said:
                if (message_id, subject) not in found:
                    found[message_id, subject] = Replaced(
                        message_id, subject, said[0].words, said[0].sentence, "", sentence
                    )
                break  # the newest statement only: what is older was judged when it was said
    return list(found.values())


def own_sentences(text: str) -> Iterator[tuple[str, str]]:
    """Each sentence of ``text`` said as the speaker's own statement (:func:`_statement_part`) and
    not about someone else, with its folded form."""
    for whole in _sentences(text):
        sentence = _statement_part(whole)
        folded = fold(sentence)
        if sentence and not _about_other(folded):
            yield sentence, folded


def _bundles(codes: Sequence[str] | None) -> list[Language]:
    return [language(code) for code in codes or list(LANGUAGES)]


def moved_home(text: str, codes: Sequence[str] | None = None) -> list[Statement]:
    """A home said without a home frame: an own sentence that speaks of a home (the subject
    thesaurus: "ap", "a room", "mudamos"), says a change (each language's ``NOW`` cues: "agora",
    "moving") and names one place ("mano achei um ap em friedrichshain!! we move next month",
    "mudamos semana passada!!! agora é santana"). Read only on the later side: it replaces the
    newest home stated by a frame, never serves as one."""
    from ..retrieval.speech_acts import places_named  # imported late: retrieval reads this package
    from ..retrieval.subjects import spoken_of

    if any(s.subject == "home" for s in subject_statements(text, codes)):
        return []  # a frame said it, and where it stands
    turn = fold(text)
    if "home" not in spoken_of(text) or not any(re.search(c.changes.NOW, turn) for c in _bundles(codes)):
        return []  # the turn as a whole: "mudamos semana passada!!! agora é santana" is two sentences
    out: list[Statement] = []
    for sentence, folded in own_sentences(text):
        named = places_named(folded)
        lead = folded[: folded.find(named[0])] if len(named) == 1 else ""
        if any(re.search(c.changes.OWNED_SUBJECT, lead) for c in _bundles(codes)):
            continue  # "a minha flatmate is moving to Dublin": her home, not the user's
        if len(named) == 1 and not _NEGATION.search(folded):
            out.append(Statement("home", named[0], _stems(named[0]), sentence, False))
    return out[:1]


@cache
def _subject_change_patterns(code: str) -> dict[str, re.Pattern[str]]:
    return {s: re.compile(p) for s, p in language(code).changes.SUBJECT_CHANGES.items()}


def _subject_changes(text: str, codes: Sequence[str] | None) -> list[tuple[str, str]]:
    """(subject, sentence) for each own, sure sentence of ``text`` that says a subject changed
    without its new value ("I changed jobs", "mudei de emprego"), not of someone else."""
    out: list[tuple[str, str]] = []
    for whole in _sentences(text):
        sentence = _statement_part(whole)
        if not sentence:
            continue
        folded = fold(sentence)
        for code in codes or list(LANGUAGES):
            for subject, pattern in _subject_change_patterns(code).items():
                m = pattern.search(folded)
                if m is None or any(s == subject for s, _ in out):
                    continue
                starts = [e.end() for e in _CLAUSE_END.finditer(folded, 0, m.start())]
                lead = folded[starts[-1] if starts else 0 : m.start()]
                if (
                    _about_other(lead)
                    or _about_other(_cue_clause(folded, m.start(), m.end()))
                    or _NEGATION.search(lead)
                ):
                    continue
                out.append((subject, sentence))
    return out
