"""A value restated with a change cue: "Ethiopian is my favorite cuisine now" after "my favorite
cuisine is Thai", "a Gol mudou meu voo! agora é o G3 1460" after "o voo é o G3 1452". Pure.

The subjects of :mod:`.replaced` are a few a person holds one value of at a time, each with its
vocabulary. Any other value (a favourite, a flight, a booking code, an amount) changes with a cue
instead: a later own sentence with the language's change cue (``changes.NOW``, or "new" beside a
code) states a name, an amount or a code of the same shape that an earlier own sentence stated
otherwise, and the two share words. The earlier statement is then replaced, under the subject
:data:`~.reconcile.RESTATED`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ..extraction.lexicon import known_word
from ..lang import LANGUAGES, language
from ..retrieval.speech_acts import places_named
from ..retrieval.subjects import spoken_of
from ..text import fold, query_terms
from .changes import _about_other, _cue_clause, _sentences
from .reconcile import RESTATED
from .replaced import _WORD, Replaced, _merged, _statement_part, _stop, own_sentences

__all__ = ["restated_statements", "states_value"]


_CODE = re.compile(
    r"\b(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b|"  # EMB-5820, 61-2204-PT
    r"\b(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{2,}\b"
)
_UNIT_TAIL = re.compile(r"\d(?:am|pm|h|hs|min|mg|mcg|ml|kg|km|g|k|x|st|nd|rd|th|o|a|s)$")
_AMOUNT = re.compile(
    r"(?<![\w:-])(\d{1,3}(?:[.,]\d{3})+|\d+)(?:[.,]\d+)?"
    r"(?:(\s*(?:mil|k|thousand)\b)|(?=(?:/\s?)?[^\W\d_]{1,5}\b)|(?=[€$£])|(?![\w:-]))"
)
"""An amount, bare ("ganho 1400") or with its unit written on ("10mg", "86kg", "16/hr", "14€"):
chat glues units on, and a dose or an hourly rate restated is as much a change as a salary."""
_CLOCK = re.compile(r"\s?(?:am|pm|h)\b")
_TIME = r"\d{1,2}(?:[:h.]\d{2})?\s?(?:am|pm|a|p|h)\b"
_RANGE = re.compile(rf"(?<![\w:-])(?:das\s+)?({_TIME})\s*(?:-|–|to|till|until|as|ate|a)\s*({_TIME})")
"""A span of hours ("7p-7a", "8am-8pm", "das 14h às 20h"), folded: a shift or opening hours, one
value however long. Both ends carry their mark (am, pm, h), so "3-4 days" is no span."""
_NAME = re.compile(r"\b[A-ZÀ-Ý][\w'’-]+(?:\s+(?:(?:de|da|do|dos|das|of)\s+)?[A-ZÀ-Ý][\w'’-]+)*")
"""A name, of one or more capitalised words ("Mercado Livre", "Hospital de Santa Maria")."""
_NOT_NAMES = _merged("NOT_NAMES")
_SELF = re.compile(
    rf"\b(?:{'|'.join(language(code).changes.SELF_INTRO for code in LANGUAGES)})\s+"
    rf"([A-ZÀ-Ý][\w'-]+)|\b([A-ZÀ-Ý][\w'-]+)\s+(?:{'|'.join(language(code).changes.HERE for code in LANGUAGES)})\b"
)
MIN_CONTEXT = 2
"""Words (stems), shared values and code shapes a restated value's turn and the earlier sentence
must share: one common word ("voo", "budget") could be any of several things the user has."""


@dataclass(frozen=True)
class _Values:
    names: frozenset[str]
    numbers: frozenset[str]
    codes: frozenset[str]
    framed: frozenset[str] = frozenset()  # the word before and the unit after each amount
    frames: tuple[tuple[str, frozenset[str]], ...] = ()  # each amount's own frame

    def frame_of(self, amount: str) -> frozenset[str]:
        return next((f for a, f in self.frames if a == amount), frozenset())

    @property
    def all(self) -> frozenset[str]:
        return self.names | self.numbers | self.codes

    def shapes(self) -> frozenset[str]:
        """A code's shape ("aa####" for TP1357): two flight numbers share it, and so do two booking
        references a system issued ("K7PQ2L" and "K9XT4M", "88213-B" and "88570-C"). An amount's
        frame too: the unit after it or the word before it ("50 mcg" / "75 mcg", "ganho 1400" /
        "ganho 1650"), which says the two amounts measure one thing."""
        return frozenset(_shape(c) for c in self.codes if len(c) >= 4) | self.framed


_RANGE_SHAPE = "~"
"""A span of hours' mark: every span has one shape, "7p-7a" and "das 22h às 4h" alike."""


def _shape(code: str) -> str:
    """A folded code with its digits and letters replaced by their class: what two codes of one
    kind share whatever their values. Spans of hours share one shape."""
    if code.startswith(_RANGE_SHAPE):
        return _RANGE_SHAPE
    return re.sub(r"[a-z]", "a", re.sub(r"\d", "#", code))


def _values(sentence: str) -> _Values:
    """The names, amounts, spans of hours and codes a sentence states, folded: what a restatement
    changes."""
    folded = fold(sentence)
    found = list(_RANGE.finditer(folded))
    ranges = {_RANGE_SHAPE + "-".join(re.sub(r"\s", "", t) for t in m.groups()) for m in found}
    spans = [m.span() for m in found] if len(folded) == len(sentence) else []
    codes = {fold(c) for c in _CODE.findall(sentence) if not _UNIT_TAIL.search(fold(c))}
    codes = {c for c in codes if not any(c in r for r in ranges)} | ranges
    numbers = set()
    framed = set()
    frames: dict[str, frozenset[str]] = {}
    for m in _AMOUNT.finditer(sentence):
        if any(m.group(1) in c for c in codes) or any(a <= m.start() < b for a, b in spans):
            continue
        if _CLOCK.match(folded, m.end()) and len(folded) == len(sentence):
            continue  # "by 7pm", "às 22h": a time of day, no amount
        amount = _amount(m)
        numbers.add(amount)
        frame = _frame(sentence, m)
        frames[amount] = frames.get(amount, frozenset()) | frame
        framed |= frame
    own = {fold(next(g for g in m.groups() if g)) for m in _SELF.finditer(sentence)}  # the speaker's own name
    names = {_name(w) for w in _NAME.findall(sentence)} - _NOT_NAMES - _stop() - codes - own - {""}
    if not any(c.isupper() for c in sentence) and not _named_first(folded):
        names |= set(places_named(folded))  # chat's lowercase: a place is a name all the same
    return _Values(
        frozenset(names), frozenset(numbers), frozenset(codes), frozenset(framed), tuple(sorted(frames.items()))
    )


_BEFORE = re.compile(r"([^\W\d_]{3,})\s+(?:(?:de|of|about|around|uns|umas|cerca\s+de|like)\s+)?$")
_AFTER = re.compile(
    r"^\s*(?:[€$£]|(?:euros?|reais|dollars?|bucks|usd|eur|brl|gbp)\b)?\s*"  # a currency, then
    r"(?:(/|per\s+|por\s+|an?\s+|a\s+|ao\s+|each\s+)\s*)?([^\W\d_]{1,})"  # "per" and a unit
)
_PER = {
    "h": "hour", "hr": "hour", "hrs": "hour", "hour": "hour", "hora": "hour", "horas": "hour", "ora": "hour",
    "mo": "month", "month": "month", "mes": "month", "mensal": "month",
    "wk": "week", "week": "week", "semana": "week", "yr": "year", "year": "year", "ano": "year",
    "day": "day", "dia": "day", "night": "night", "noite": "night",
}  # fmt: skip
"""Units of time after an amount, in either language: "16/hr", "110/h", "14€ à hora" and "28 an hour"
are all a rate per hour; "1020 a month" and "pago 800 por mês" a monthly amount."""


def _frame(sentence: str, m: re.Match[str]) -> set[str]:
    """The content word right before an amount and the unit right after it, folded and marked
    ("<ganho", ">mcg"); a rate is marked as one ("16/hr", "1020 a month": ">/hour", ">/month").
    Function words, chat words and currencies frame nothing."""
    out = set()
    before = _BEFORE.search(fold(sentence[: m.start()]))
    after = _AFTER.match(fold(sentence[m.end() :])) if not m.group(2) else None
    if before and before.group(1) not in _stop() and before.group(1) not in _FUNCTION:
        if before.group(1) not in _CURRENCIES:
            out.add("<" + before.group(1))
    if after:
        per, word = after.group(1), after.group(2)
        if per and word in _PER:
            out.add(">/" + _PER[word])
        elif not per and len(word) >= 2 and word not in _stop() and word not in _FUNCTION and word not in _CURRENCIES:
            out.add(">" + word)
    return out


_CURRENCIES = frozenset(
    "euro euros eur reais real brl usd dollar dollars bucks gbp pound pounds libras quid k mil".split()
)
"""Units that frame no one thing: a rate, a rent and a budget are all euros."""


def _name(words: str) -> str:
    """A name folded, without the stopwords it starts with ("The Crown" -> "crown", "Sim" -> "")."""
    parts = fold(words).split()
    while parts and (parts[0] in _stop() or parts[0] in _NOT_NAMES):
        parts.pop(0)
    return " ".join(parts)


@cache
def _now_cues() -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(language(code).changes.NOW) for code in LANGUAGES)


@cache
def _new_code_cues() -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(language(code).changes.NEW_CODE) for code in LANGUAGES)


def _change_cue(folded: str, values: _Values) -> bool:
    """A change cue in a sentence: one of the language's, or "new" beside a code or an amount."""
    if any(c.search(folded) for c in _now_cues()):
        return True
    return bool(values.codes or values.numbers) and any(c.search(folded) for c in _new_code_cues())


_FUNCTION = _merged("CHAT_WORDS")
"""Chat's function words the stopword lists do not hold: they say nothing of a subject."""


def _context(text: str, values: _Values) -> dict[str, frozenset[str]]:
    """The words a text speaks of, each with its stems in every language; its values and change
    cues left out."""
    folded = fold(text)
    for cue in (*_now_cues(), *_new_code_cues()):
        folded = cue.sub(" ", folded)
    words = [w for w in _WORD.findall(folded) if w not in values.all and w not in _FUNCTION and not w[:1].isdigit()]
    return {w: frozenset(query_terms(w)) for w in words if query_terms(w)}


def _shared(later: dict[str, frozenset[str]], earlier: dict[str, frozenset[str]]) -> int:
    """How many of the later text's words the earlier one says too (in any form)."""
    stems = frozenset().union(*earlier.values()) if earlier else frozenset()
    return sum(bool(s & stems) for s in later.values())


def _pair(later: _Values, earlier: _Values, later_text: str, earlier_text: str) -> tuple[str, str] | None:
    """The earlier value a later one of the same kind replaces: neither said in the other's text,
    and each the only one of its kind so placed (two candidates: which one changed is a guess)."""
    for kind in ("codes", "numbers", "names"):
        news = [v for v in getattr(later, kind) if not _says(earlier_text, v)]
        olds = [v for v in getattr(earlier, kind) if not _says(later_text, v)]
        if kind == "codes":
            olds = [v for v in olds if any(_shape(v) == _shape(n) for n in news)]
        if kind == "numbers" and (len(news) > 1 or len(olds) > 1):
            # Several amounts: the pair is the one each side frames alike ("16/hr" and "18.50/hr"
            # beside "450 a month for groceries"), when exactly one is.
            news, olds = _framed_alike(news, olds, later, earlier)
        if len(news) == 1 and len(olds) == 1:
            return olds[0], news[0]
    return None


def _framed_alike(news: list[str], olds: list[str], later: _Values, earlier: _Values) -> tuple[list[str], list[str]]:
    pairs = [(o, n) for n in news for o in olds if later.frame_of(n) & earlier.frame_of(o)]
    if len(pairs) != 1:
        return [], []
    return [pairs[0][1]], [pairs[0][0]]


def rates(text: str) -> frozenset[str]:
    """The units of time the amounts of ``text`` are rates per ("16/hr" and "14€ à hora": "hour";
    "1020 a month": "month"): what a question on an hourly or monthly amount is answered by."""
    return frozenset(f[2:] for f in _values(text).framed if f.startswith(">/"))


def states_value(text: str, value: str) -> bool:
    """Whether ``text`` states ``value`` (a folded name or code as a whole word; an amount however
    its thousands are written: "3.500" states 3500)."""
    return _says(text, value)


def _says(text: str, value: str) -> bool:
    folded = fold(text)
    if value.isdigit():
        plain = re.sub(r"(?<=\d)[.,](?=\d{3}\b)", "", folded)
        return re.search(rf"(?<![\w.,]){value}(?![\d])(?![.,]\d)", plain) is not None
    return re.search(rf"\b{re.escape(value)}\b", folded) is not None


def restated_statements(text: str, earlier: Sequence[tuple[str, str]], *, limit: int = 2) -> list[Replaced]:
    """The earlier statements ``text`` restates with another value and a change cue ("Ethiopian is
    my favorite cuisine now" after "my favorite cuisine is Thai"; "a Gol mudou meu voo! agora é o
    G3 1460" after "o voo é o G3 1452"): a sentence of ``text`` with a change cue states a name, an
    amount or a code (of the same shape) that an earlier own sentence states otherwise, and the two
    share :data:`MIN_CONTEXT` words, values or code shapes. No sentence about someone else, asked or
    supposed, on either side; the scan stops at an earlier sentence that already states the value."""
    found: dict[str, Replaced] = {}
    for sentence, folded in own_sentences(text):
        later = _values(sentence)
        if not later.all or not _change_cue(folded, later):
            continue
        turn_values = _values(text)
        context = _context(text, turn_values)
        context.update({v: frozenset({v}) for v in turn_values.all})
        taken = 0
        for message_id, content in earlier:
            if taken >= limit or message_id in found:
                break
            hit = _restated(sentence, later, text, context, content)
            if isinstance(hit, str):  # the value already said there: what is older was judged then
                break
            if hit is not None:
                old, said, new = hit
                old, new = old.removeprefix(_RANGE_SHAPE), new.removeprefix(_RANGE_SHAPE)
                found[message_id] = Replaced(message_id, RESTATED, old, said, new, sentence)
                taken += 1
    return list(found.values())


_BROAD_SUBJECTS = frozenset({"money", "schedule"})
"""Subjects too broad to say two sentences speak of one thing: a rent and a grocery budget are both money."""


def _subjects(sentence: str) -> frozenset[str]:
    """What a sentence speaks of, by the subject thesaurus, in any language ("a room in walthamstow"
    and "vivo num quarto" both of a home): a shared subject counts as a shared word."""
    return spoken_of(sentence) - _BROAD_SUBJECTS


def _named_first(folded: str) -> bool:
    """A lowercase sentence that may open on a name ("noor got a job in milwaukee and moved out"):
    someone else's news, which casing would have shown, so its places are not taken for the user's.
    A name here is a word of no language we read and no place."""
    first = next(iter(_WORD.findall(folded)), "")
    return len(first) >= 3 and first.isalpha() and not known_word(first) and not places_named(first)


def _restated(
    sentence: str, later: _Values, text: str, context: dict[str, frozenset[str]], content: str
) -> tuple[str, str, str] | str | None:
    """(old value, earlier sentence, new value) when ``content`` holds a sentence ``sentence``
    restates; "same" when it already states the later value; else None."""
    for part in _sentences(content):
        said = _statement_part(part)
        if not said or _about_other(fold(said)):
            continue
        values = _values(said)
        if any(_says(said, v) for v in later.all) and not _pair(later, values, text, said):
            return "same"
        pair = _pair(later, values, text, said)
        if pair is None:
            continue
        theirs = _context(said, values)
        theirs.update({v: frozenset({v}) for v in values.all})
        shaped = bool(later.shapes() & values.shapes())
        # Amounts framed alike ("1350 por mês", "1020 a month") in sentences of one subject ("a room",
        # "num quarto") speak of one thing, across languages that share no word.
        shared = _shared(context, theirs) + (shaped and bool(_subjects(sentence) & _subjects(said)))
        # Two spans of hours, the later said as a change ("mudaram meu plantão, agora é 7h-19h"): one
        # person's working hours, said again, whatever words surround them.
        shared += _RANGE_SHAPE in (later.shapes() & values.shapes())
        if shared + shaped >= MIN_CONTEXT and (shaped or _clauses_meet(said, pair[0], sentence, pair[1])):
            return pair[0], said, pair[1]
    return None


def _clause_of(text: str, value: str) -> str:
    """The clause of ``text`` that states ``value`` (an amount however it is written)."""
    folded = fold(text)
    spans = [m.span() for m in _AMOUNT.finditer(folded) if _amount(m) == value] if value.isdigit() else []
    at = folded.find(value)
    start, end = spans[0] if spans else (at, at + len(value))
    return _cue_clause(folded, start, end) if start >= 0 else ""


def _amount(m: re.Match[str]) -> str:
    """An amount as digits: "3.500" -> "3500", "3 mil" -> "3000"."""
    digits = re.sub(r"[.,]", "", m.group(1)) if re.search(r"[.,]\d{3}$", m.group(1)) else m.group(1)
    return str(int(digits) * 1000) if m.group(2) else digits


def _clauses_meet(said: str, old: str, sentence: str, new: str) -> bool:
    """The old value's clause and the new one's share a word or a value: the two say the same
    thing of the same subject ("my favorite cuisine is Thai" / "Ethiopian is my favorite cuisine
    now"), not two things of one turn ("sou personal na Smart Fit, em Niterói" / "agora dou aula
    na Bodytech": Niterói is not what changed)."""
    a, b = _clause_of(said, old), _clause_of(sentence, new)
    va, vb = _values(a), _values(b)
    ours = _context(a, va) | {v: frozenset({v}) for v in va.all - {old}}
    theirs = _context(b, vb) | {v: frozenset({v}) for v in vb.all - {new}}
    return _shared(theirs, ours) >= 1
