"""Offline, rule-based extraction of typed facts from one user turn, in Portuguese and English.

The service calls ``extract_facts`` on every new user message (assistant turns are not mined) and
gets atomic, third-person facts: a memory type, a stable slot (``key``), a normalised
value, a sentence to store and embed (``content``), a confidence, and, for corrections, whether the
turn retracts a fact (``negated``) or replaces one (``previous_value``).

Why rules. hipocampo must work offline with nothing but pip packages, and no small packaged model
was good enough for this: small NER models tag names and places but not "allergic to peanuts" or
"my budget is R$ 5.000", and models that can read such facts are large, slow on a CPU and weaker in
Portuguese. Rules are fast (under a tenth of a millisecond for a typical turn), deterministic,
explainable and easy to test. They aim for precision over recall, because a wrong memory hurts more
than a missed one, and a missed fact stays findable in the raw turn. When an LLM is configured, it
replaces this module through the same schema (``ExtractedFact``).

How it works. A turn is split into sentences and clauses ("I'm Ana, I live in Porto and I'm allergic
to shrimp" has three). Questions, hypotheticals ("if I lived in Paris") and reported speech are
skipped. Each clause loses its discourse openers ("actually", "na verdade") and hedges ("I think",
which lower the confidence), then meets the first-person rules of its language (patterns anchored at
the start of the clause, so "He thinks I live in Paris" yields nothing). A clause that matches only
once its negation is removed ("I don't live in Paris anymore") yields a retraction; a clause about
someone else ("my sister lives in Rome", then "she loves jazz") is rewritten in the first person,
read, and stored as an entity fact about that person.

Modules: each language's bundle, ``domain/lang/<code>/`` (``grammar``: rule order, rewrites,
wording; ``profile``, ``needs`` and ``ids``: the rules; ``lexicon``: its words), ``extraction.roles``
(fact builders every language shares),
``extraction.context`` and ``extraction.answers`` (what the memory and the question asked add),
``extraction.settling`` (merging and wording), ``extraction.base`` (types and value parsing) and
``extraction.lexicon`` (the place gazetteer and every language's tables merged).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from ..dates import resolve_dates
from ..errors import InvalidInput
from ..lang import LANGUAGES, language
from ..model import MemoryType
from ..text import detect_language, fold
from .answers import answer_length, answered
from .base import HEDGED, MEDIUM, Draft, Grammar, Person
from .context import allergic_to_named, home_from_work_city, located_here, resolve
from .people import extract_people
from .roles import named_later, relation
from .said_in_passing import code_changed, drug_switched, eating_again, trip_called_off, working_at
from .settling import render, settle
from .validate import keep_valid

__all__ = [
    "ExtractedFact", "answer_length", "extract_facts", "extract_people", "regender", "speaker_gender", "unsure",
]  # fmt: skip


def regender(content: str, value: str, feminine: bool) -> str:
    """A fact's sentence reworded for the user's grammatical gender, learnt after it was written
    ("O usuário é vegano." -> "A usuária é vegana."), so that one user has one gender in every fact."""
    for lang in LANGUAGES.values():
        content = lang.grammar.regender(content, value, feminine)
    return content


def speaker_gender(text: str) -> bool | None:
    """The grammatical gender the user gives themselves in ``text`` (True feminine, False
    masculine, None unsaid), asked of every language that marks it; the first to say decides."""
    for lang in LANGUAGES.values():
        said: bool | None = lang.grammar.speaker_gender(text)
        if said is not None:
            return said
    return None


@dataclass(frozen=True)
class ExtractedFact:
    """One atomic fact about the user (or, for ``entity`` facts, about someone they mention)."""

    memory_type: MemoryType
    key: str  # a stable slot: "name", "home_city", "allergy:peanuts", "person:sister:home_city"
    value: str  # normalised: "Lisbon", "peanuts", "5000 EUR"
    content: str  # a third-person sentence in the turn's language: "The user lives in Lisbon."
    confidence: float  # 0.9 explicit, 0.8 looser shapes and other people, 0.6 hedged
    negated: bool = False  # the turn retracts this fact ("I don't live in Paris anymore")
    previous_value: str | None = None  # the value it replaces ("moved from São Paulo to Lisbon")
    span: tuple[int, int] = (0, 0)  # the clause of the turn it comes from
    people: tuple[str, ...] = ()  # people (and named pets) the fact is about


def extract_facts(
    text: str,
    *,
    speaker: str | None = None,
    language: str | None = None,
    feminine: bool | None = None,
    known: Sequence[tuple[str, str]] = (),
    asked: str | None = None,
) -> list[ExtractedFact]:
    """Facts stated in one user turn, in the order they appear.

    ``speaker`` names the user in the sentences ("Ana lives in Lisbon."), otherwise "The user" /
    "O usuário". ``language`` ('en' or 'pt') skips detection and reads only that language.
    ``feminine`` is the user's grammatical gender as known from earlier turns (see
    :func:`speaker_gender`), so every Portuguese sentence about one user agrees the same way;
    when None, this turn's own self-references decide, and the masculine is the default.
    ``known``: the user's current facts as (key, value), for what the turn alone cannot tell (a
    pet retracted by name, "I moved to Globex": :mod:`~hipocampo.domain.extraction.context`). ``asked``: the
    assistant turn this one answers, for a bare "not anymore" (:mod:`~hipocampo.domain.extraction.answers`).
    """
    if not isinstance(text, str):
        raise InvalidInput("text must be a string")
    langs = _languages(text, language)
    masked = _blank_leading_dates(_mask(text))

    def read(statement: str, code: str) -> list[tuple[Draft, Grammar, tuple[int, int]]]:
        return _sentence_facts(statement, 0, len(statement), [LANGUAGES[code].reader], speaker)

    found = answered(asked, text, read) if asked else []
    spans = _segments(masked)
    for start, end in spans:
        found += _sentence_facts(masked, start, end, langs, speaker)
    found += located_here(masked, spans, found)
    found += home_from_work_city(found)
    found += allergic_to_named(masked, spans, found)
    found += working_at(masked, spans, found)
    found += trip_called_off(masked, spans, found)
    found += code_changed(masked, spans, found)
    found += eating_again(masked, spans, found)
    found += drug_switched(masked, spans, found)
    found = named_later(masked, found)
    if any(_asks(masked[start:end]) for start, end in spans):
        found = [f for f in found if not _wanted(f[0])]
    settled = settle(resolve(found, masked, known))
    keep = keep_valid([d for d, _, _ in settled], [span for _, _, span in settled], [g.code for _, g, _ in settled])
    fem = feminine if feminine is not None else bool(speaker_gender(text))
    return [_fact(d, lang, span, speaker, fem) for (d, lang, span), ok in zip(settled, keep, strict=True) if ok]


# --- reading a turn -----------------------------------------------------------------------------


def _joined(name: str) -> str:
    """One language-neutral alternation of the bundles' ``clauses.<name>`` fragments."""
    return "|".join(f"(?:{getattr(lang.clauses, name)})" for lang in LANGUAGES.values())


_SENTENCE = re.compile(r"(?<=[.!?…\U0001F300-\U0001FAFF\u2600-\u27BF])\s+|\n+|(?<=:)\s+(?![A-Za-z]{0,3}\s?\S*\d)")
"""Sentence ends, an emoji before a space (chat ends sentences with them: "my fiancé is Omar 💍 our
budget is 18k"), and a colon that opens news ("novidades: mudei-me"), not one before a code ("new
booking code: BRK2209", "voo: TP 86")."""
_ABBREVIATION = re.compile(rf"\b(?:{_joined('ABBREVIATIONS')})\.$", re.IGNORECASE)
_SPEECH = rf"\b(?:{_joined('SPEECH')})"
_SPEECH_END = re.compile(rf"{_SPEECH}\s*:$", re.IGNORECASE)
_QUOTE = re.compile(r"[\"“]([^\"”]{1,400})[\"”]")
_SPEECH_BEFORE = re.compile(rf"{_SPEECH}(?:\s+that)?\s*[:,]?\s*$", re.IGNORECASE)
_STARTER = rf"(?:{_joined('STARTERS')})\b"
_QUESTION = rf"(?:{_joined('QUESTIONS')})\b"
_BOUNDARY = re.compile(
    rf"\s*[,;]\s*(?:(?:{_joined('COMMA_LINKS')})\s+)?(?={_STARTER}|{_QUESTION})"
    rf"|\s+(?:{_joined('CONJUNCTIONS')})\s+(?={_STARTER})"
    rf"|\s+[-–—]\s+(?={_STARTER})"
    rf"|\s+(?:{_joined('AND')})\s+(?=(?:{_joined('THIRD_PERSON')})\b)",
    re.IGNORECASE,
)
_CONDITIONAL = re.compile(rf"^(?:{_joined('CONDITIONALS')})\b", re.IGNORECASE)
_CONDITION_INSIDE = re.compile(_joined("CONDITION_INSIDE"), re.IGNORECASE)
_DESIRE = re.compile(_joined("DESIRES"), re.IGNORECASE)
_DOUBT = re.compile(_joined("DOUBTS"), re.IGNORECASE)
_MOMENT = re.compile(_joined("MOMENT"), re.IGNORECASE)
_LASTING = frozenset({MemoryType.PREFERENCE, MemoryType.GOAL})
"""Kinds of fact that a clause about this moment ("tonight", "hoje") cannot state."""
_FIRST_PERSON = re.compile(_joined("FIRST_PERSON"), re.IGNORECASE)
_TAG_QUESTION = re.compile(  # "Sou vegana, tá?": a statement asking for a nod, not a question
    rf"[,\s]+(?:{_joined('TAG_QUESTIONS')})\s*\?+\s*$", re.IGNORECASE
)
_HEDGE_WORDS = re.compile(rf"\b(?:{_joined('HEDGE_WORDS')})\b", re.IGNORECASE)


def _sentence_facts(
    text: str, start: int, end: int, langs: list[Grammar], speaker: str | None
) -> list[tuple[Draft, Grammar, tuple[int, int]]]:
    """Read one sentence clause by clause. A closing question, a hypothetical ("if I ...") and the
    clause that answers it are skipped; "she ..." after a clause about someone stays about them."""
    found: list[tuple[Draft, Grammar, tuple[int, int]]] = []
    if _CONDITION_INSIDE.search(text, start, end):
        return found  # "I'm moving to Stockholm if the offer comes through": it all hangs on the condition
    clauses = _clauses(text, start, end)
    question = text[start:end].rstrip().endswith("?") and not _TAG_QUESTION.search(text[start:end])
    asking = None
    if question and (cut := text.rfind(",", *clauses[-1])) > clauses[-1][0]:
        # The question is what follows the last comma: "eu tomo losartana pra pressão, tem problema
        # correr?" states the drug, and asks only the rest. A plan so said is what the question is
        # for ("quero montar um setup melhor, o que recomenda?"), no goal of the user's life.
        clauses[-1:] = [(clauses[-1][0], cut), (cut + 1, clauses[-1][1])]
        asking = clauses[-2]
    skip_next, person = False, None
    for i, (cs, ce) in enumerate(clauses):
        if skip_next or (question and i == len(clauses) - 1):
            skip_next = False
            continue
        head = _head(text[cs:ce])
        if _possible(text[cs:ce], langs) or _DOUBT.search(head):
            continue  # "maybe I'll move", "I may be allergic", "será que sou intolerante": no fact
        wish = bool(_DESIRE.search(head))  # "I wish I lived in Lisbon": a goal at most
        body, offset, hedged = _strip(text[cs:ce], langs)
        if not body.strip(" .,;:!?…-"):
            continue
        if _CONDITIONAL.match(body):
            skip_next = bool(_FIRST_PERSON.search(body))
            continue
        if hedged or _HEDGE_WORDS.search(_head(body)):
            continue  # "I think I'm lactose intolerant", "acho que vou me mudar": not sure, so no fact
        span = (cs + offset, cs + offset + len(body))
        subject = None
        for lang in langs:
            drafts, who = _read(lang, body, speaker, person)
            drafts += _appositive(lang, body, drafts, speaker)
            if wish:
                drafts = [d for d in drafts if d.memory_type is MemoryType.GOAL and not d.negated]
            if _MOMENT.search(body):
                drafts = [d for d in drafts if d.memory_type not in _LASTING]
            if (cs, ce) == asking:
                drafts = [d for d in drafts if d.memory_type is not MemoryType.GOAL]
            subject = subject or who
            if drafts:
                for d in drafts:
                    d.confidence = min(d.confidence, HEDGED) if hedged else d.confidence
                    found.append((d, lang, span))
                break
        person = subject
        ended = {d.key for d, _, at in found if d.negated and at == span}  # "my cat Mochi died"
        # A phrase adds what the clause's rules did not read: a slot kind they filled here is theirs
        # ("grocery budget is 80 now"). People are apart: a phrase names the person a rule's fact is of.
        read = {d.key.split(":")[0] for d, _, at in found if at == span} - {"person"}
        for lang in [] if wish else langs:
            for rule in lang.phrases:
                for m in rule.pattern.finditer(text, cs, ce):
                    for d in rule.handler(m) or []:
                        if d.key in ended or d.key.split(":")[0] in read:
                            continue
                        at = text.find(d.value, m.start(), ce)
                        found.append((d, lang, (m.start(), at + len(d.value) if at >= 0 else ce)))
    return found


_COMMENT = re.compile(rf"\s*[,;]\s*|\s+(?:{_joined('CONJUNCTIONS')})\s+", re.IGNORECASE)


_WANTED = frozenset().union(*(getattr(language(code).module("needs"), "WANTED", ()) for code in LANGUAGES))


def _asks(sentence: str) -> bool:
    """Whether a sentence asks something ("me ajuda c uma query sql?"), not a nod ("sou vegana, tá?")."""
    return sentence.rstrip().endswith("?") and not _TAG_QUESTION.search(sentence)


def _wanted(d: Draft) -> bool:
    """A goal said as a bare want ("quero começar pilates"); a turn that asks the assistant
    something states the want as the request's purpose, so it is no plan for the user's life.
    A goal named as one ("my goal is...") and a plan ("I'm planning to") stand anywhere."""
    return d.memory_type is MemoryType.GOAL and d.template == "goal" and d.args.get("verb") in _WANTED


def _head(clause: str) -> str:
    """A clause up to a comma or a conjunction: where its own statement is, without the comment
    after it ("I'm vegetarian, so food might be tricky": the doubt is about the food)."""
    return _COMMENT.split(clause, maxsplit=1)[0]


def unsure(sentence: str) -> bool:
    """Whether a sentence of the user's states nothing for sure, as the rules read it: a condition
    ("if the offer comes through"), a doubt ("I may be", "será que"), a wish ("I'd love to",
    "queria"), a hedge ("I think") or a question. The rules make no fact of it; a detector outside
    them (endings, replaced values) should not close a fact on it either."""
    text = sentence.strip()
    if _CONDITION_INSIDE.search(text) or _CONDITIONAL.match(text):
        return True
    if _asks(text):
        return True
    head = _head(text)
    langs = [lang.reader for lang in LANGUAGES.values()]
    return bool(_possible(text, langs) or _DOUBT.search(head) or _DESIRE.search(head) or _HEDGE_WORDS.search(head))


def _appositive(lang: Grammar, clause: str, drafts: list[Draft], speaker: str | None) -> list[Draft]:
    """What a phrase right after the user's name says of them: "I'm Raj, an accountant at
    Deloitte", "Sou o João, engenheiro civil na Mota-Engil" (a job, an employer, a school)."""
    name = next((d.value for d in drafts if d.key == "name" and d.person is None and not d.negated), None)
    m = re.search(rf"{re.escape(name)}\s*,\s*(?P<rest>.+)$", clause) if name else None
    if m is None:
        return []
    return [d for d in _read(lang, lang.appositive + m["rest"], speaker, None)[0] if d.key in _APPOSITIVE]


def _possible(clause: str, langs: list[Grammar]) -> bool:
    """Whether the clause says something may happen ("maybe I'll", "talvez eu mude"), in any of
    the languages reading it (each bundle's ``forms.POSSIBILITY``)."""
    folded = fold(clause).strip()
    return any(re.match(LANGUAGES[g.code].forms.POSSIBILITY, folded) for g in langs)


def _languages(text: str, language: str | None) -> list[Grammar]:
    if language is not None:
        code = language if language in LANGUAGES else language.lower()[:2]  # "pt-PT", "english"
        if code not in LANGUAGES:
            raise InvalidInput(f"language must be one of {', '.join(LANGUAGES)}, got {language!r}")
        return [LANGUAGES[code].reader]
    first = detect_language(text)
    return [LANGUAGES[first].reader, *(lang.reader for code, lang in LANGUAGES.items() if code != first)]


def _mask(text: str) -> str:
    """Same length as ``text``: curly apostrophes made straight, quoted speech blanked out."""
    text = text.replace("’", "'")
    pieces, at = [], 0
    for m in _QUOTE.finditer(text):
        if _SPEECH_BEFORE.search(text[max(0, m.start() - 40) : m.start()]):
            pieces += [text[at : m.start()], " " * (m.end() - m.start())]
            at = m.end()
    return "".join(pieces) + text[at:]


_DATE_REFERENCE = date(2000, 1, 3)  # any day: only where the date words are matters here


def _blank_leading_dates(text: str) -> str:
    """Blank out a date that opens a sentence ("Yesterday I adopted a dog", "Ontem, adotei..."),
    keeping the length so spans still point into the turn: the rules read the statement after it,
    and the fact's date is resolved from the turn itself."""
    starts = {s + len(text[s:e]) - len(text[s:e].lstrip()) for s, e in _segments(text)}
    chars = list(text)
    for m in resolve_dates(text, _DATE_REFERENCE):
        if m.span[0] in starts:
            end = m.span[1]
            while end < len(text) and text[end] in " ,":
                end += 1
            chars[m.span[0] : end] = " " * (end - m.span[0])
    return "".join(chars)


def _segments(text: str) -> list[tuple[int, int]]:
    """Sentences, as spans; a sentence that follows "she said:" is left out."""
    pieces, start = [], 0
    for m in _SENTENCE.finditer(text):
        if not _ABBREVIATION.search(text[start : m.start()]):
            pieces.append((start, m.start()))
            start = m.end()
    pieces.append((start, len(text)))
    out, reported = [], False
    for s, e in pieces:
        if text[s:e].strip() and not reported:
            out.append((s, e))
        reported = bool(_SPEECH_END.search(text[s:e].rstrip()))
    return out


def _clauses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    out, at = [], start
    for m in _BOUNDARY.finditer(text, start, end):
        out.append((at, m.start()))
        at = m.end()
    out.append((at, end))
    return [(s, e) for s, e in out if text[s:e].strip()]


def _strip(clause: str, langs: list[Grammar]) -> tuple[str, int, bool]:
    """Drop openers and hedges: (what is left, how many characters went, whether it was hedged)."""
    offset, hedged = len(clause) - len(clause.lstrip()), False
    body = clause.strip()
    changed = True
    while changed:
        changed = False
        for lang in langs:
            for pattern, hedge in ((lang.fillers, False), (lang.hedges, True)):
                m = pattern.match(body)
                if m and 0 < m.end() < len(body):
                    offset, body, changed = offset + m.end(), body[m.end() :], True
                    hedged = hedged or hedge
    return body.rstrip(" .!?…;:,"), offset, hedged


def _match(lang: Grammar, clause: str) -> list[Draft]:
    for rule in lang.rules:
        m = rule.pattern.match(clause)
        if m:
            found = rule.handler(m)
            if found:
                return found
    return []


def _first_person(lang: Grammar, clause: str) -> list[Draft]:
    found = _match(lang, clause)
    if found:
        return found
    positive = lang.positive(clause)
    if positive is None:
        return []
    found = [d for d in _match(lang, positive) if not d.negated]  # "I don't hate jazz" says too little
    for d in found:
        d.negated = True
    return found


_APPOSITIVE = frozenset({"occupation", "employer", "school", "work_city"})
"""What a phrase right after the user's name says of them ("Sou o João, engenheiro civil na Mota-Engil")."""

_HOME_PETS_FAMILY = ("home_city", "home_country", "pet:", "family:")


def _read(
    lang: Grammar, clause: str, speaker: str | None, previous: Person | None
) -> tuple[list[Draft], Person | None]:
    """The facts of one clause, and the person it was about (for "she ..." in the next clause)."""
    clause = lang.normalize(clause)
    found = _first_person(lang, clause)
    if found:
        return found, None
    other = lang.about_other(clause, previous)
    if other:
        person, rewritten = other
        if speaker and not person.relation and person.name and fold(person.name) == fold(speaker):
            return _first_person(lang, rewritten), None
        return [d for d in (_about(person, d) for d in _first_person(lang, rewritten)) if d], person
    us = lang.about_us(clause)
    if us:
        found = [d for d in _first_person(lang, us) if d.key.startswith(_HOME_PETS_FAMILY)]
        for d in found:
            d.confidence = min(d.confidence, MEDIUM)
    return found, None


def _about(person: Person, d: Draft) -> Draft | None:
    """A fact read from "my sister lives in Rome", moved from the user to the sister."""
    if d.key == "name":
        if not person.relation or not person.word:
            return None
        named = relation(person.relation, person.word, d.value, person.feminine)
        named.negated, named.confidence = d.negated, MEDIUM
        return named
    if d.memory_type is MemoryType.ENTITY and d.key.startswith("person:"):
        return None
    d.memory_type = MemoryType.ENTITY
    d.key = f"person:{person.slot}:{d.key}"
    d.person = person
    d.people = (person.label, *d.people)
    d.confidence = min(d.confidence, MEDIUM)
    return d


def _fact(d: Draft, lang: Grammar, span: tuple[int, int], speaker: str | None, fem: bool) -> ExtractedFact:
    return ExtractedFact(
        memory_type=d.memory_type,
        key=d.key,
        value=d.value,
        content=render(d, lang, speaker, fem),
        confidence=d.confidence,
        negated=d.negated,
        previous_value=d.previous_value,
        span=span,
        people=d.people,
    )
