"""Changes said in passing, read from a whole turn: a new job said as where one now is, a trip
called off, a code rebooked, a food eaten again, a drug switched.

Why apart from the clause rules. People tell of a change once, of the thing that changed, without
the verbs the rules were written with and without the old value: "handed in my notice, starting at
Brightwater Clinic on monday", "the japan trip is off", "rebooked on TP2150", "voltei a comer
carne". Each reader here needs a cue of change somewhere in the turn, and most need the memory to
know what ends: they write a marker draft that :func:`~.context.resolve` turns into one draft per
held fact it ends or replaces (:func:`from_held`), or into nothing when the memory holds none. The
cues live in each language's ``roles`` (``JOINING``, ``AT_WORK``, ``TRIP_OFF``, ``TRIP_WORDS``,
``REBOOKED``, ``EATING_AGAIN``, ``DRUG_SWITCHED``); what a diet leaves out is world knowledge
(:data:`~.lexicon.DIET_EXCLUDES`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lang import LANGUAGES
from ..model import MemoryType as T
from ..text import fold
from . import lexicon as lex
from .base import MEDIUM, Draft, draft, lower_org_at, org_at
from .context import _STAY, DESTINATION, Found, Known, _joined, _reader_of
from .roles import job_title

__all__ = ["FROM_HELD", "code_changed", "drug_switched", "eating_again", "from_held", "trip_called_off", "working_at"]

_TITLE_AFTER = re.compile(r"^\s*,?\s*(?:como|as)\s+(?:(?:um|uma|an?)\s+)?(?P<t>[^,.;!?]+)", re.IGNORECASE)
_DENIED = re.compile(r"\b(?:não|nao|not|no\s+longer|never|nunca)\s+(?:\w+\s+)?$|n't\s+$", re.IGNORECASE)
_JOINING = re.compile(rf"\b(?:{_joined('JOINING')})\b", re.IGNORECASE)
_AT_WORK = re.compile(rf"\b(?:{_joined('AT_WORK')})\s+", re.IGNORECASE)


def working_at(text: str, spans: Sequence[tuple[int, int]], found: Sequence[Found]) -> list[Found]:
    """An employer said as where the speaker now is, in a turn that says a job changed: "handed in
    my notice, starting at Brightwater Clinic on monday", "saí de lá kkkk. agora tô na Vetra Saúde,
    mesma função", "despedi-me! a partir de segunda estou na Clínica Sol Nascente". People rarely
    repeat a work verb when they tell of a new job; the change cue (:data:`roles.JOINING
    <hipocampo.domain.lang.en.roles.JOINING>`) is what makes the place they are at a workplace
    ("tô na praia" in a turn about a weekend is none). The name must be one (capitalised, or an
    uncommon word), no known place, in a sentence that is no question, no doubt and not of a while
    ("i'm at Starbucks rn"). Not when the turn's rules read a new employer or a move already. The new
    employer replaces the one the memory holds, so the change is noticed without a rule for its
    phrasing."""
    from . import unsure  # the package reads clauses; this module is imported by it

    if not _JOINING.search(text) or any(
        (d.key == "employer" and not d.negated) or d.template == DESTINATION for d, _, _ in found
    ):
        return []  # the rules read the new employer (an old one left, "saí do Itaú", is the change itself)
    for start, end in spans:
        sentence = text[start:end]
        if sentence.rstrip().endswith("?") or unsure(sentence) or _STAY.search(fold(sentence)):
            continue
        for cue in _AT_WORK.finditer(sentence):
            if _DENIED.search(sentence[: cue.start()]):
                continue  # "já não estou na farfetch": where one no longer is
            org = org_at(sentence[cue.end() :]) or lower_org_at(sentence[cue.end() :])
            if not org or fold(org) in lex.PLACES:
                continue
            last = cue.group(0).split()[-1].lower()
            d = draft(T.USER_PROFILE, "employer", org, prep=last if last in ("na", "no") else "em")
            d.confidence = MEDIUM
            at = start + cue.end()
            reader = _reader_of(cue.group(0), "AT_WORK")
            out: list[Found] = [(d, reader, (at, at + len(org)))]
            # The role said with it ("agora tô no Mercado Livre como analista de dados"): the new
            # job's title replaces the old one, which would otherwise stay current beside it.
            title = _TITLE_AFTER.match(sentence[cue.end() + len(org) :])
            if title and (job := job_title(title["t"], reader.code)) and len(job.split()) <= 5:
                role = draft(T.USER_PROFILE, "occupation", job, "occupation", verb="é", lemma=job)
                role.confidence = MEDIUM
                out.append((role, reader, (at, end)))
            return out
    return []


TRIP = "trip"
"""A draft's argument: a trip called off, which ends every fact the memory holds for a trip (see
:func:`trip_called_off`)."""
_TRIP_OFF = re.compile(rf"\b(?:{_joined('TRIP_OFF')})", re.IGNORECASE)
_TRIP_WORDS = frozenset().union(*(lang.roles.TRIP_WORDS for lang in LANGUAGES.values()))
_TRAVEL_CODES = frozenset({"reservation", "flight", "ticket"})


def trip_called_off(text: str, spans: Sequence[tuple[int, int]], found: Sequence[Found]) -> list[Found]:
    """A trip called off: "the japan trip is off. cancelled the flight and everything", "esquece a
    viagem a praga, foi cancelada", "afinal já não vou à madeira ... cancelei tudo". People say it
    once, of the trip, not of each thing it held; left unread, the booking code, the flight and the
    trip's budget stay current, shown as true. So the cue ends every fact the memory holds for a
    trip (:func:`_trip_facts`): travel codes (booking, flight, ticket), and budgets and plans whose
    slot names a trip or a place. Not in a question or an unsure sentence ("se a viagem for
    cancelada"); "cancelei tudo" only in a turn that names a trip. With no trip held, nothing."""
    from . import unsure  # the package reads clauses; this module is imported by it

    for start, end in spans:
        sentence = text[start:end]
        cue = _TRIP_OFF.search(sentence)
        if cue is None or sentence.rstrip().endswith("?") or unsure(sentence):
            continue
        if fold(cue.group(0)).endswith("tudo") and not _TRIP_WORDS & set(re.findall(r"\w+", fold(text))):
            continue
        d = draft(T.GOAL, "trip", "", "trip_off", what="")
        d.negated = True
        d.args[TRIP] = " ".join(_places_in(fold(sentence))) or "1"
        return [(d, _reader_of(cue.group(0), "TRIP_OFF"), (start + cue.start(), start + cue.end()))]
    return []


def _trip_facts(marker: Draft, known: Known) -> list[Draft]:
    """One retraction per fact the memory holds for a trip (see :func:`trip_called_off`)."""
    said = set() if marker.args[TRIP] == "1" else set(marker.args[TRIP].split())
    if not any(_places_in(k.partition(":")[2].replace("_", " ")) & said for k, _ in known):
        said = set()  # no held plan names the place as said ("japão" for "japan_trip"): the one trip held
    out = []
    for key, value in known:
        family, _, rest = key.partition(":")
        words = set(rest.split("_"))
        if family == "id" and (rest in _TRAVEL_CODES or words & _TRIP_WORDS):
            kind = T.CRITICAL_INFO
        elif family in ("budget", "goal") and rest and (words & _TRIP_WORDS or _places_in(rest.replace("_", " "))):
            named = _places_in(rest.replace("_", " "))
            if named and said and not named & said:
                continue  # another trip's: "esquece a viagem a praga" leaves the Japan trip's budget
            kind = T.CONSTRAINT if family == "budget" else T.GOAL
        else:
            continue
        d = draft(kind, key, value, "trip_off", what=rest.replace("_", " "))
        d.negated = True
        out.append(d)
    return out


def _places_in(text: str) -> set[str]:
    """The known places a folded text names ("viagem a praga", "japan trip"), one word each."""
    words = re.findall(r"\w+", text)
    return {
        "_".join(words[i : i + n])
        for n in (1, 2, 3)
        for i in range(len(words) - n + 1)
        if " ".join(words[i : i + n]) in lex.PLACES
    }


EATS = "eats"
"""A draft's argument: the foods a turn says the user eats again (see :func:`eating_again`)."""
_EATING_AGAIN = [
    (re.compile(rf"\b{pattern}", re.IGNORECASE), code)
    for code, lang in LANGUAGES.items()
    for pattern in lang.roles.EATING_AGAIN
]
"""Each language's cue, with its code: the grammar is looked up when a cue is found (the grammars
import this package, so they cannot be read while it loads)."""


def eating_again(text: str, spans: Sequence[tuple[int, int]], found: Sequence[Found]) -> list[Found]:
    """A food eaten again: "i eat fish again, so now i call myself pescatarian", "voltei a comer
    carne". It says, without naming them, that a diet leaving the food out
    (:data:`~hipocampo.domain.extraction.lexicon.DIET_EXCLUDES`) and an avoidance of it are over;
    left unread, "is vegetarian" and "does not eat meat" stay current next to the steak. The
    food must be one the lexicon knows; not in a question, a doubt or a wish ("should i eat meat
    again?", "queria voltar a comer pão")."""
    from . import unsure  # the package reads clauses; this module is imported by it

    foods: list[str] = []
    reader = None
    for start, end in spans:
        sentence = text[start:end]
        if sentence.rstrip().endswith("?") or unsure(sentence):
            continue
        for pattern, code in _EATING_AGAIN:
            for m in pattern.finditer(sentence):
                words = fold(m["food"]).split()
                key = next((lex.FOODS[w] for w in (" ".join(words), words[0]) if w in lex.FOODS), None)
                if key and key not in foods:
                    foods.append(key)
                    reader = reader or LANGUAGES[code].reader
    if not foods or reader is None:
        return []
    d = draft(T.CONSTRAINT, "diet", "", "diet")
    d.negated = True
    d.args[EATS] = " ".join(foods)
    return [(d, reader, (0, len(text)))]


def _no_longer_left_out(marker: Draft, known: Known) -> list[Draft]:
    """The held diet that leaves out a food eaten again, and the avoidances of it, retracted."""
    eaten = set(marker.args[EATS].split())
    out = []
    for key, value in known:
        family, _, item = key.partition(":")
        diet = lex.DIETS.get(fold(value), fold(value)) if key == "diet" else ""
        if (family == "avoids" and item in eaten) or (diet and eaten & lex.DIET_EXCLUDES.get(diet, frozenset())):
            d = draft(T.CONSTRAINT, key, value, "diet" if key == "diet" else "avoids", verb="", lemma=value)
            d.negated = True
            out.append(d)
    return out


NEW_CODE = "new_code"
"""A draft's argument: the codes a turn gives after a change cue, each replacing the held code of
its shape (see :func:`code_changed`)."""
_REBOOKED = re.compile(rf"\b(?:{_joined('REBOOKED')})", re.IGNORECASE)
_A_CODE = re.compile(r"(?<![\w-])(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]{3,14}(?![\w-])")


def code_changed(text: str, spans: Sequence[tuple[int, int]], found: Sequence[Found]) -> list[Found]:
    """A code changed, said without what it is: "a TAP cancelou o TP2144. rebooked on TP2150",
    "remarquei, agora é LA3301". A code of letters and digits given after a change cue replaces the
    code the memory holds in the same shape (the same letters, as long: a flight's "TP", a
    hotel's "HB-"), so the old one is no longer shown as current. A code the turn's rules read
    already (with what it is) is theirs; a code of no held shape makes nothing."""
    from . import unsure  # the package reads clauses; this module is imported by it

    read = {d.value for d, _, _ in found if d.key.startswith("id:")}
    for start, end in spans:
        sentence = text[start:end]
        cue = _REBOOKED.search(sentence)
        if cue is None or sentence.rstrip().endswith("?") or unsure(sentence):
            continue
        codes = [c for c in _A_CODE.findall(sentence[cue.start() :]) if c not in read]
        if codes:
            d = draft(T.CRITICAL_INFO, "id", "", "identifier", what="")
            d.args[NEW_CODE] = " ".join(codes)
            return [(d, _reader_of(cue.group(0), "REBOOKED"), (start + cue.start(), end))]
    return []


_FLIGHT = re.compile(r"[A-Z][A-Z0-9]\s?\d{1,4}")
_BOOKING = re.compile(r"(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6}")


def _shape(code: str) -> tuple[str, int]:
    """A code's shape: a flight number (a carrier's two characters and up to four digits: "LA8121"
    after "AC092"), a booking reference (six letters and digits in any order: "QM5R2T" after
    "HQ3ZP8"), or else its letters before the first digit and its length ("HB-90477")."""
    if _FLIGHT.fullmatch(code) and not code[:2].isdigit():
        return "flight", 0
    if _BOOKING.fullmatch(code):
        return "booking", 6
    return re.match(r"[^0-9]*", code).group(0), len(code)  # type: ignore[union-attr]


_CODE_NAMES = {
    "flight": ("flight", "voo", "O"),
    "reservation": ("booking", "reserva", "A"),
    "ticket": ("ticket", "bilhete", "O"),
}
"""How the rules' sentence names a code of a known kind, in English and in Portuguese (with its article)."""


def _codes_replaced(marker: Draft, known: Known, code_lang: str) -> list[Draft]:
    """Each new code as the held code of its shape, replaced (none when no held code, or more
    than one, has that shape)."""
    out = []
    for code in marker.args[NEW_CODE].split():
        held = [(k, v) for k, v in known if k.startswith("id:") and v != code and _shape(v) == _shape(code)]
        if len(held) == 1:
            key, _ = held[0]
            kind = key.partition(":")[2]
            en, pt, art = _CODE_NAMES.get(kind, (kind.replace("_", " "), kind.replace("_", " "), "O"))
            what = pt if code_lang.startswith("pt") else en
            out.append(draft(T.CRITICAL_INFO, key, code, "identifier", what=what, art=art))
    return out


SWITCHED = "switched"
"""A draft's argument: the drugs a turn says the user was switched to (see :func:`drug_switched`)."""
_NAMED = "named"
_DRUG_SWITCHED = re.compile(rf"\b(?:{_joined('DRUG_SWITCHED')})", re.IGNORECASE)


def drug_switched(text: str, spans: Sequence[tuple[int, int]], found: Sequence[Found]) -> list[Found]:
    """A drug replaced by another: "that dry cough was the lisinopril. doc switched me to
    amlodipine", "gp switched me to escitalopram, sertraline made me feel flat", "o médico trocou
    pra anlodipino". The turn names the new drug (a rule reads it) and rarely says the old one is
    stopped; left unread, both show as taken. The new drug ends the held drug the turn names, or,
    when it names none, the only held drug taken for the same thing (:data:`~.lexicon.DRUG_CLASSES`);
    a blood pressure drug never ends an antidepressant, and with two of a class held and none
    named, which one ended is not said, and nothing is ended."""
    cue = _DRUG_SWITCHED.search(text)
    if cue is None:
        return []
    read = [(d, r) for d, r, _ in found if d.key.startswith("medication:") and not d.negated]
    named = [] if read else _named_after(text, cue, found)
    new = read or [(d, r) for d, r, _ in named]
    if not new:
        return []
    marker = draft(T.CRITICAL_INFO, "medication", "", "medication", verb="")
    marker.negated = True
    marker.args[SWITCHED] = " ".join(d.key for d, _ in new)
    marker.args[_NAMED] = fold(text)
    return [*named, (marker, new[0][1], (0, len(text)))]


_JUST_AFTER = re.compile(r"\s*(?:(?:the|my|her|his|o|a|os|as|meu|minha|do|da)\s+)?", re.IGNORECASE)


def _named_after(text: str, cue: re.Match[str], found: Sequence[Found]) -> list[Found]:
    """The drug a switch names after its cue without a verb the rules read ("neuro took me off
    topiramato. agora é propranolol", "stopped the statin, now it's rosuvastatin"): a drug the
    lexicon knows, other than the one the turn ends."""
    ended = {d.key for d, _, _ in found if d.key.startswith("medication:")}
    reader = _reader_of(cue.group(0), "DRUG_SWITCHED")
    verb = "toma" if reader.code.startswith("pt") else "takes"
    out: list[Found] = []
    for word in re.finditer(r"[^\W\d_][\w-]+", text[cue.end() :]):
        key = lex.MEDICATIONS.get(fold(word.group(0)))
        if _JUST_AFTER.fullmatch(text[cue.end() : cue.end() + word.start()]):
            continue  # "stopped the lisinopril": the drug the cue ends
        if key is not None and f"medication:{key}" not in ended:
            ended.add(f"medication:{key}")
            start = cue.end() + word.start()
            d = draft(T.CRITICAL_INFO, f"medication:{key}", word.group(0), "medication", verb=verb)
            out.append((d, reader, (start, start + len(word.group(0)))))
    return out


def _drugs_replaced(marker: Draft, known: Known, code_lang: str) -> list[Draft]:
    """The held drug the switch ends (see :func:`drug_switched`), as no longer taken."""
    new = set(marker.args[SWITCHED].split())
    held = [(k, v) for k, v in known if k.startswith("medication:") and k not in new]
    turn = marker.args[_NAMED]
    named = [(k, v) for k, v in held if re.search(rf"(?<!\w){re.escape(fold(v))}(?!\w)", turn)]
    classes = {lex.DRUG_CLASSES.get(k.partition(":")[2]) for k in new} - {None}
    alike = [(k, v) for k, v in held if lex.DRUG_CLASSES.get(k.partition(":")[2]) in classes]
    verb = "toma" if code_lang.startswith("pt") else "takes"
    out = []
    for key, value in named or (alike if len(alike) == 1 else []):
        d = draft(T.CRITICAL_INFO, key, value, "medication", verb=verb)
        d.negated = True
        out.append(d)
    return out


def from_held(marker: Draft, known: Known, code_lang: str) -> list[Draft]:
    """The drafts a marker of this module stands for, given the memory's current facts."""
    if marker.args.get(EATS):
        return _no_longer_left_out(marker, known)
    if marker.args.get(SWITCHED):
        return _drugs_replaced(marker, known, code_lang)
    if marker.args.get(NEW_CODE):
        return _codes_replaced(marker, known, code_lang)
    return _trip_facts(marker, known)


FROM_HELD = (TRIP, NEW_CODE, EATS, SWITCHED)
"""The arguments of the marker drafts :func:`from_held` resolves."""
