"""Changes noticed without a rule per phrasing: a later statement that ends an earlier fact. Pure.

The extraction rules recognise an update or a retraction only in phrasing they were written for;
"scratch what I said about the half marathon, I hurt my knee" or "adeus Lisboa, agora é a aldeia"
fit no slot rule, and the stale fact would stay current. Most such statements carry two generic
signals, and this module pairs them:

- an ending cue of the turn's language (``domain/lang/<code>/changes.py``): a negation that
  ends something ("já não", "não ... mais", "no longer"), a cancellation ("forget", "is off",
  "cancelei"), an end ("sold", "broke up", "morreu", "deixei de"); or, for a fact that says the
  user avoids something, a cue of taking it up again ("voltei a", "again");
- in the same sentence, the subject of one of the user's current facts: the words of its value
  (stems, so "maratona" and "maratonas" meet), or for a few slots that are ended without naming
  the value ("I quit my job", "terminamos") the slot's own ending cue.

The facts so named are returned as ended by the turn; the caller closes them through the usual
history (they stay stored, no longer current, and recall marks what said them as earlier). A false
"earlier" hides a true memory, so the pairing is strict: no questions, hypotheticals or other
people's sentences; the fact must be older than the turn and untouched by its own rules; the
sentence must name the fact's specific words, not a generic one; and the sentence must not state
the same value as holding ("I still love Lisbon, I don't live there anymore" ends nothing it names
positively... it is read by the rules instead).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from ..lang import LANGUAGES, language, merged_map
from ..model import MemoryItem, MemoryType
from ..text import content_words, fold, names_in, query_terms
from .reconcile import FACT_VALUE, is_negative

__all__ = ["Ended", "EndedStatement", "ended_facts", "ended_statements", "may_end"]

_SENTENCE = re.compile(r"(?<=[.!?…;])\s+|\n+")
_QUESTION = re.compile(r"\?\s*$")


def _joined(name: str) -> str:
    """Every language's ``changes.<name>`` fragment, as one alternation."""
    return "|".join(f"(?:{getattr(lang.changes, name)})" for lang in LANGUAGES.values())


_CONDITIONAL = re.compile(rf"^\W*(?:{_joined('UNSURE')})\b")
_SPEECH = re.compile(rf"\b(?:{_joined('REPORTED')})\b")
_OWN_WORDS = re.compile(rf"\b(?:{_joined('OWN_WORDS')})\b")
_NEGATED = re.compile(rf"\b(?:{_joined('NEGATIONS')})\s+(?:\w+\s+)?$")
_ARGUMENT_END = re.compile(_joined("ARGUMENT_ENDS"))
_COMPLETION = re.compile(_joined("COMPLETION"))
_RECURRING = re.compile(_joined("RECURRING"))
_CLAUSE_END = re.compile(rf"[,;:()]|\s[-–—]\s|\s(?:{_joined('CLAUSE_BREAKS')})\s")
_MIN_STEM = 4
"""Shorter stems ("rio", "sol") match too much text to name a fact."""


@dataclass(frozen=True)
class Ended:
    """A current fact the turn ends, and the sentence (with its cue) that ends it."""

    fact: MemoryItem
    sentence: str
    cue: str


@cache
def _patterns(code: str) -> tuple[re.Pattern[str], re.Pattern[str], dict[str, re.Pattern[str]]]:
    cues = language(code).changes
    return (
        re.compile(cues.RETRACT),
        re.compile(cues.RESUME),
        {slot: re.compile(p) for slot, p in cues.SLOT_ENDINGS.items()},
    )


@cache
def _diet_excludes(code: str) -> tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]:
    return tuple(
        (re.compile(rf"\b(?:{diet})\b"), re.compile(rf"\b(?:{foods})\b"))
        for diet, foods in language(code).changes.DIET_EXCLUDES.items()
    )


def _resumes_excluded(code: str, fact: MemoryItem, clause: str) -> bool:
    """Whether a clause that takes something up again ("voltei a comer peixe") names a food the
    user's diet fact leaves out: the diet ends, though the sentence never names it."""
    if fact.key != "diet" or is_negative(fact):
        return False
    diet = fold(str(fact.metadata.get(FACT_VALUE) or ""))
    return any(d.search(diet) and foods.search(clause) for d, foods in _diet_excludes(code))


@cache
def _value_endings(code: str) -> dict[str, re.Pattern[str]]:
    return {slot: re.compile(p) for slot, p in language(code).changes.VALUE_ENDINGS.items()}


@cache
def _slot_words(code: str) -> dict[str, re.Pattern[str]]:
    return {slot: re.compile(p) for slot, p in language(code).changes.SLOT_WORDS.items()}


def may_end(text: str) -> bool:
    """Whether ``text`` holds any ending or resuming cue, or a slot's ending (with or without its
    value), of any language: the cheap test before the user's facts and turns are read."""
    folded = fold(text)
    return any(
        retract.search(folded) or resume.search(folded) or any(p.search(folded) for p in slots.values())
        for retract, resume, slots in map(_patterns, LANGUAGES)
    ) or any(p.search(folded) for code in LANGUAGES for p in _value_endings(code).values())


@cache
def _relation_words() -> frozenset[str]:
    return frozenset(w for w in merged_map("RELATIONS") if " " not in w)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def _own(sentence: str) -> bool:
    """A sentence the user says as their own, and for sure: no question, hypothetical, reported
    speech, wish, doubt or hedge. What the extraction rules would make no fact of
    (:func:`~hipocampo.domain.extraction.unsure`: "I'd love to work at Google one day", "acho que
    vou me mudar") must not end or replace one either: it once closed the user's employer."""
    from ..extraction import unsure  # the rules' own reading of it; imported late: extraction is heavy

    folded = fold(sentence)
    speech = _SPEECH.search(_OWN_WORDS.sub(" ", folded))
    return not (
        _QUESTION.search(sentence) or _CONDITIONAL.match(folded) or speech or '"' in sentence or unsure(sentence)
    )


def _about_other(clause: str) -> bool:
    """A clause about a relative ("my sister is no longer vegan"): not the user's own change."""
    return any(w in _relation_words() for w in re.findall(r"[\w-]+", clause))


def _cue_clause(folded: str, start: int, end: int) -> str:
    """The clause of ``folded`` around the cue at ``start:end``: an ending applies to what its own
    clause names ("já não quero tirar a carta, a bicicleta chegou" ends the licence, not the bike)."""
    before = [m.end() for m in _CLAUSE_END.finditer(folded, 0, start)]
    after = _CLAUSE_END.search(folded, end)
    return folded[before[-1] if before else 0 : after.start() if after else len(folded)]


def _stems(text: str) -> set[str]:
    """Stems in every language (a one-word value is too short to tell its language)."""
    return {s for s in query_terms(text) if len(s) >= _MIN_STEM and not s.isdigit()}


def _short_names(text: str) -> set[str]:
    """Names too short for a stem ("Zoe", "Ana", "Rui"), folded: a name of three letters names one
    person as well as a long word names one thing."""
    return {fold(n) for n in names_in(text) if len(n) == 3 and not text.startswith(n)}


def _purpose(fact: MemoryItem) -> str:
    """What a budget or a saving is for, as its key names it ("budget:peru_trip" -> "peru trip")."""
    key = fact.key or ""
    return key.split(":", 1)[1].replace("_", " ") if key.startswith(("budget:", "saving:")) else ""


def _names_fact(sentence: str, sentence_stems: set[str], fact: MemoryItem) -> bool:
    """The sentence names the fact: every stem of a short value, at least two of a longer one;
    or, for a budget, a word of its purpose ("forget the trip") when the sentence names no other
    place or person ("the Chile trip is off" is not about the Peru budget)."""
    value = str(fact.metadata.get(FACT_VALUE) or "")
    subject = _stems(value) or ({fold(value)} if len(value) == 3 and value[:1].isupper() else set())
    if subject and len(subject & sentence_stems) >= min(2, len(subject)):
        return True
    purpose = _purpose(fact)
    if not purpose or not _stems(purpose) & sentence_stems:
        return False
    known = set(fold(f"{value} {purpose}").split())
    others = [n for n in names_in(sentence) if fold(n) not in known and not sentence.startswith(n)]
    return not others


def _slot_of(key: str, slots: Iterable[str]) -> str | None:
    return next((s for s in slots if key == s or key.startswith(s + ":")), None)


def ended_facts(
    text: str, facts: Sequence[MemoryItem], *, codes: Sequence[str] | None = None, touched: Iterable[str] = ()
) -> list[Ended]:
    """The user's current ``facts`` that ``text`` (a later turn of the same user) ends, read with
    the ending cues of ``codes`` (every registered language by default). ``touched``: the keys the
    turn's own rules already wrote or closed, left to them."""
    skip = set(touched)
    candidates = [f for f in facts if f.key and f.key not in skip and f.valid_to is None]
    if not candidates:
        return []
    found: dict[str, Ended] = {}
    for sentence in _sentences(text):
        if not _own(sentence):
            continue
        folded = fold(sentence)
        for code in codes or list(LANGUAGES):
            retract, resume, slot_endings = _patterns(code)
            ending = retract.search(folded)
            again = resume.search(folded)
            cue = ending or again
            clause = _cue_clause(folded, cue.start(), cue.end()) if cue else ""
            if _about_other(clause):
                continue
            stems = _stems(clause) | _short_names(sentence)
            for fact in candidates:
                if fact.id in found:
                    continue
                slot = _slot_of(fact.key or "", slot_endings)
                by_slot = slot_endings[slot].search(folded) if slot is not None else None
                if by_slot and not _about_other(_cue_clause(folded, by_slot.start(), by_slot.end())):
                    found[fact.id] = Ended(fact, sentence, by_slot.group(0))
                    continue
                by_value = _value_ending(code, folded, sentence, fact)
                if by_value is not None:
                    found[fact.id] = Ended(fact, sentence, by_value)
                    continue
                if again and _resumes_excluded(code, fact, _cue_clause(folded, again.start(), again.end())):
                    found[fact.id] = Ended(fact, sentence, again.group(0))
                    continue
                named_slot = ending and fact.key in _slot_words(code) and _slot_words(code)[fact.key].search(clause)
                if not named_slot and (not stems or not _names_fact(sentence, stems, fact)):
                    continue
                avoids = is_negative(fact) or (fact.key or "").startswith(("avoids:", "dislikes:"))
                if avoids and again:
                    found[fact.id] = Ended(fact, sentence, again.group(0))
                elif ending and not avoids and fact.memory_type is not MemoryType.CRITICAL_INFO:
                    found[fact.id] = Ended(fact, sentence, ending.group(0))
    for ended in [e for e in found.values() if (e.fact.key or "").startswith("person:")]:
        for fact in candidates:  # what was said of that person in that role ("my girlfriend Zoe is a vet")
            if fact.id not in found and (fact.key or "").startswith(f"{ended.fact.key}:"):
                found[fact.id] = Ended(fact, ended.sentence, ended.cue)
    for ended in [e for e in found.values() if e.fact.key == "employer"]:
        sources = set(ended.fact.source_message_ids)
        for fact in candidates:  # the role said with that employer ("I work at Deloitte as an auditor")
            if fact.id not in found and fact.key == "occupation" and sources & set(fact.source_message_ids):
                found[fact.id] = Ended(fact, ended.sentence, ended.cue)
    return list(found.values())


def _value_ending(code: str, folded: str, sentence: str, fact: MemoryItem) -> str | None:
    """The cue of a slot's value ending (``VALUE_ENDINGS`` of the language) that ends ``fact``:
    the fact's value follows the cue ("saí da Natura", "I left Deloitte"; not "I left the keys at
    Deloitte"), in a clause that speaks of no one else."""
    endings = _value_endings(code)
    slot = _slot_of(fact.key or "", endings)
    if slot is None:
        return None
    value = str(fact.metadata.get(FACT_VALUE) or "")
    for cue in endings[slot].finditer(folded):
        if _about_other(_cue_clause(folded, cue.start(), cue.end())):
            continue
        after = " ".join(re.findall(r"[\w'-]+", folded[cue.end() :])[: len(value.split()) + 1])
        shorts = {n for n in _short_names(sentence) if n in after.split()}
        if after and _names_fact(after, _stems(after) | shorts, fact):
            return cue.group(0).strip()
    return None


@dataclass(frozen=True)
class EndedStatement:
    """An earlier statement of the user (a turn no fact was read from, or not that part of it)
    that a later sentence takes back: which turn, the words both share, the sentence and its cue."""

    message_id: str
    words: str  # the earlier turn's own words for what was taken back: "half marathon"
    said: str  # the earlier turn's sentence that said it
    sentence: str
    cue: str


MIN_SHARED = 2
"""Words an ending sentence and an earlier statement must share: one common word ("the trip", "a
viagem") names too little to say which statement it takes back; one specific word will do
(:func:`_specific`: "losartana", "hidroginástica", "Valorant")."""
SPECIFIC_LETTERS = 8


def _specific(word: str, sentence: str) -> bool:
    """A word that names one thing: long ("hidroginástica"), or a capitalised name inside the
    sentence ("Valorant"), not its first word."""
    return len(word) >= SPECIFIC_LETTERS or (word[:1].isupper() and not sentence.startswith(word))


def ended_statements(
    text: str, earlier: Sequence[tuple[str, str]], *, codes: Sequence[str] | None = None, limit: int = 2
) -> list[EndedStatement]:
    """The earlier statements (``earlier``: the user's turns as (message id, text), newest first)
    that ``text`` takes back with an ending cue, when no fact carried them: "scratch what I said
    about the half marathon" after "I'm training for a half marathon in October". A statement is
    named by at least :data:`MIN_SHARED` specific words of the ending sentence (not the cue's), or
    by the one rare word the cue ends ("welp japan is off": :func:`_argument`); at most ``limit``
    statements per sentence, the most recent."""
    found: dict[str, EndedStatement] = {}
    common: set[str] | None = None
    for sentence in _sentences(text):
        if not _own(sentence):
            continue
        folded = fold(sentence)
        for code in codes or list(LANGUAGES):
            ending = _patterns(code)[0].search(folded)
            if not ending:
                continue
            clause = _cue_clause(folded, ending.start(), ending.end())
            if _about_other(clause):
                continue
            named = _stems(clause.replace(ending.group(0), f" {_cue_gap(ending.group(0))} ")) | _short_names(sentence)
            if common is None:
                common = _common_stems(earlier)  # once per call, and only when a cue is found
            argument = _argument(clause, ending.group(0), common)
            completion = bool(_COMPLETION.search(ending.group(0)))
            taken = 0
            for message_id, content in earlier:
                if taken >= limit or message_id in found:
                    break
                said = _naming(content, named) or _naming_argument(content, argument, completion)
                if said is None:
                    continue
                words, where = said
                found[message_id] = EndedStatement(message_id, words, where, sentence, ending.group(0))
                taken += 1
    return list(found.values())


ARGUMENT_REACH = 3
"""Words on either side of an ending cue that may be what it ends: "japan is off", "dropped the
mba", "we had to put miso down", "jess and i are done"."""
RARE_TURNS = 2
"""Most earlier turns a cue's one word may appear in and still name a statement: "japan" said in
one earlier turn names it; "work", said in twenty, names none."""
_MIN_ARGUMENT = 3
"""A cue's argument may be shorter than a named stem: "dropped the mba"."""


def _argument(clause: str, cue: str, common: set[str]) -> set[str]:
    """The words next to the cue in its clause, folded: what a cue with one word ends. Written by
    hand because the cue's argument is all a lowercase chat line gives: "welp japan is off" names
    the trip by one word, with no capital to say it is a name. Left out: stopwords, laughter and
    other filler ("acabou a mamata kkk"), numbers, and words whose stems the user says often
    (``common``)."""
    at = clause.find(cue)
    if at < 0 or _NEGATED.search(clause[:at]):
        return set()  # "I won't quit", "I'll never forget the day": the cue is denied
    before = re.findall(r"[\w'-]+", clause[:at])[-ARGUMENT_REACH:]
    after = re.findall(r"[\w'-]+", clause[at + len(cue) :])[:ARGUMENT_REACH]
    end = next((i for i, w in enumerate(after) if w.isdigit() or _ARGUMENT_END.fullmatch(w)), None)
    after = after[:end]  # "vendi 20 na loja": a quantity is what was sold; "time stopped and I felt": another clause
    words = content_words(" ".join(before + _cue_gap(cue).split() + after))
    return {
        fold(w) for w in words
        if len(w) >= _MIN_ARGUMENT and not w.isdigit() and fold(w) not in _filler() and not _terms(w) & common
    }  # fmt: skip


def _terms(text: str) -> set[str]:
    """Stems (every language) of at least :data:`_MIN_ARGUMENT` letters: what the user's turns are
    counted in."""
    return {s for s in query_terms(text) if len(s) >= _MIN_ARGUMENT and not s.isdigit()}


@cache
def _filler() -> frozenset[str]:
    return frozenset().union(*(getattr(lang.speech_acts, "FILLER_WORDS", ()) for lang in LANGUAGES.values()))


def _same_word(word: str, argument: set[str]) -> bool:
    """The same word, not only the same stem: a thing is named alike ("keto" / "keto", "cats" /
    "cat"), while an action is conjugated apart ("voltei" / "volto" share a stem and are two
    statements)."""
    return word in argument or word.rstrip("s") in {a.rstrip("s") for a in argument}


@cache
def _third_person(code: str) -> re.Pattern[str]:
    return re.compile(rf"^\W*(?:{language(code).changes.OTHERS})\b")


def _common_stems(earlier: Sequence[tuple[str, str]]) -> set[str]:
    """Stems said in more than :data:`RARE_TURNS` of the user's earlier turns: too common in this
    user's own words to name one statement, whatever their frequency elsewhere."""
    counts: dict[str, int] = {}
    for _, content in earlier:
        for s in _terms(content):
            counts[s] = counts.get(s, 0) + 1
    return {s for s, n in counts.items() if n > RARE_TURNS}


def _naming_argument(content: str, argument: set[str], completion: bool = False) -> tuple[str, str] | None:
    """The sentence of ``content`` that says the one rare word a cue ends (:func:`_argument`),
    unless it asks, wonders or already takes something back. Someone else's sentence counts when
    the word is their name there ("minha gf Aoife..." is ended by "me and aoife are done")."""
    if not argument:
        return None
    for sentence in _sentences(content):
        folded = fold(sentence)
        if not _own(sentence) or any(p[0].search(folded) for p in map(_patterns, LANGUAGES)):
            continue
        words = [w for w in re.findall(r"[\w'-]+", sentence) if _same_word(fold(w), argument)]
        if not words:
            continue
        if _about_other(folded) and not any(w[:1].isupper() for w in words):
            continue
        if completion and _RECURRING.search(folded):
            continue  # "class is over" after "pottery class on thursdays": one session ended, not the class
        if any(_third_person(code).search(_cue_clause(folded, at, at)) for code in LANGUAGES
               for at in [folded.find(fold(words[0]))]):  # fmt: skip
            continue  # "toda a gente fuma na pausa": someone else's habit, not what "já não fumo" ends
        return " ".join(dict.fromkeys(words)), sentence
    return None


def _cue_gap(cue: str) -> str:
    """What a cue with a gap encloses ("don't have Nugget anymore", "não quero mais"): the words
    between its first and last, which may name what is taken back; a fixed cue leaves nothing."""
    words = cue.split()
    return " ".join(words[1:-1]) if len(words) > 2 else ""


def _naming(content: str, named: set[str]) -> tuple[str, str] | None:
    """The sentence of ``content`` sharing :data:`MIN_SHARED` stems with ``named``, and its words
    that do (in order), unless it asks, wonders or already takes something back."""
    for sentence in _sentences(content):
        folded = fold(sentence)
        if not _own(sentence) or any(p[0].search(folded) for p in map(_patterns, LANGUAGES)):
            continue
        if _about_other(folded) and not _short_names(sentence) & named:
            continue  # someone else's statement, unless it is theirs by name ("my girlfriend Zoe is a vet")
        short = _short_names(sentence)
        words = list(
            dict.fromkeys(w for w in re.findall(r"[\w'-]+", sentence) if (_stems(w) | (short & {fold(w)})) & named)
        )
        distinct = {fold(w) for w in words}
        if len(distinct) >= MIN_SHARED or (len(distinct) == 1 and _specific(words[0], sentence)):
            return " ".join(words), sentence
    return None
