"""What one turn means given what the user's memory already holds: pets retracted by name, and
"I moved to Globex" read as a new job or a new home.

Two shapes cannot be read from the turn alone:

- "Já não tenho a Mimi", "I don't have Miso anymore" name a pet, not its species, so the slot
  (``pet:cat``) is only known from the stored fact that named it; a name that no stored pet has
  makes no fact at all (a car, a show, a person: nothing to retract).
- "I moved to Globex", "mudei para a Globex", "I left Acme for Globex" say a move without saying
  whether the place is a city or an employer. A name in the bundled place lexicon is a home; for
  any other name the turn's evidence decides (words about work or about a home, a job title after
  the name, a company suffix, the Portuguese article: "para a Globex" like a company, "para
  Sorocaba" like a city, what was left: the known employer or the known home), then the memory's
  (a known employer and no known home reads as a job change, and the other way round; not when
  the turn names what was left and the memory does not know it). When nothing decides, or both
  sides do, no fact is made: precision over recall, and the turn stays searchable.

The rules build a ``destination`` draft or a ``pet`` draft (key without species); :func:`resolve`
turns each into a fact or drops it, so neither ever leaves the extractor unresolved.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lang import LANGUAGES, language
from ..model import MemoryType as T
from ..text import fold
from . import lexicon as lex
from .base import MEDIUM, Draft, Grammar, canon, draft, place_at

Found = tuple[Draft, Grammar, tuple[int, int]]
Known = Sequence[tuple[str, str]]  # the user's current facts, as (key, value)

DESTINATION = "destination"
NEAR = 200
"""Characters either side of a move where its evidence is looked for: the sentences around it,
not a whole pasted document."""
PET_BY_NAME = "pet"
SAME_SLOT = "same_slot"
"""A draft's argument: the slot kind whose one stored key a new value replaces ("the budget went up to
2000 euros" updates "budget:trip" when that is the only budget the memory holds)."""
FROM_MEMORY = "from_memory"
"""A draft's argument: the comma-separated keys whose stored value a loss that names none ends
("I quit my job": see :mod:`~hipocampo.domain.extraction.losses`)."""


def destination(place: str, lang: str, *, article: str = "", previous: str | None = None, tail: str = "") -> Draft:
    """A move to ``place`` that may be a new home or a new employer (see the module docstring).

    ``article``: the Portuguese article written before the name ("a" in "para a Globex"),
    ``previous``: what was left ("Acme" in "I left Acme for Globex"), ``tail``: what follows the
    name in the clause ("as a data analyst")."""
    return draft(
        T.USER_PROFILE,
        DESTINATION,
        place,
        DESTINATION,
        lang=lang,
        article=article.lower(),
        previous=previous or "",
        tail=tail,
    )


def pet_by_name(name: str, phrase: str) -> Draft:
    """A pet retracted by its name ("I don't have Miso anymore"): the species comes from memory."""
    d = draft(T.ENTITY, PET_BY_NAME, name, "pet", phrase=phrase)
    d.negated = True
    d.people = (name,)
    return d


def resolve(found: list[Found], text: str, known: Known) -> list[Found]:
    """Each ``destination`` draft as a home or an employer fact, each pet named as the stored pet
    it retracts; a draft neither can be is dropped. A change said in passing that names no value
    (:mod:`.said_in_passing`) becomes one draft per held fact it ends or replaces."""
    from . import said_in_passing  # it reads this module's cues; resolved here, where the memory is known

    out: list[Found] = []
    for first, lang, span in found:
        d: Draft | None = first
        if first.template == DESTINATION:  # someone else's move or pet: the user's memory cannot say
            near = text[max(0, span[0] - NEAR) : span[1] + NEAR]
            d = _destination(first, near, known) if first.person is None else None
        elif first.template == "pet" and first.key.rpartition(":")[2] == PET_BY_NAME:
            d = _pet(first, known) if first.person is None else None
        elif first.args.get(HERE):  # a home said in passing fills no slot the memory holds otherwise
            homes = _values(known, *_HOMES)
            # ... unless it is where the user said they were moving: "já estamos no porto!!" after
            # "a gente muda pro porto next month" is the move done, and replaces the old home.
            arrived = fold(first.value) in _values(known, "moving_to")
            d = first if not homes or fold(first.value) in homes or arrived else None
        elif any(first.args.get(k) for k in said_in_passing.FROM_HELD):
            out += [(t, lang, span) for t in said_in_passing.from_held(first, known, lang.code)]
            continue
        elif first.args.get(SAME_SLOT):
            d = _same_slot(first, known)
        elif first.args.get(FROM_MEMORY) and not first.value:
            d = _held(first, text, known) if first.person is None else None
        if d is not None:
            out.append((_currency_held(d, known), lang, span))
    return out


def _currency_held(d: Draft, known: Known) -> Draft:
    """A budget said as a bare number ("budget is 22k now", "o orçamento é 6 mil no total") in the
    currency of the budgets the memory holds, when they all name the same one: people name the
    currency once ("12k reais") and then only the amount. Without one held, the amount stays bare:
    a currency is never guessed from the language."""
    if d.key.split(":")[0] != "budget" or d.negated or not d.value.isdigit():
        return d
    currencies = {v.rpartition(" ")[2] for k, v in known if k.split(":")[0] == "budget" and " " in v}
    if len(currencies) == 1:
        d.value = f"{d.value} {currencies.pop()}"
    return d


def _same_slot(d: Draft, known: Known) -> Draft:
    """The one stored key of the draft's slot kind, when there is exactly one ("budget:trip"): a
    new value said without its purpose replaces it; otherwise the draft keeps its own key."""
    kind = d.args[SAME_SLOT]
    held = {k: v for k, v in known if k == kind or k.startswith(f"{kind}:")}
    if len(held) == 1:
        d.key = next(iter(held))
    return d


def _held(d: Draft, text: str, known: Known) -> Draft | None:
    """A loss that named no value ("I quit my job", "Tom and I broke up" read clause by clause):
    the one value stored under its keys (the draft then retracts exactly that); of several, the one
    the turn names; none when the memory holds none or the choice stays open."""
    keys = d.args[FROM_MEMORY].split(",")
    held = [(k, v) for k, v in known if k in keys and v]
    if len(held) > 1:
        said = fold(text)
        held = [(k, v) for k, v in held if re.search(rf"\b{re.escape(fold(v))}\b", said)]
    if len(held) != 1:
        return None
    d.key, d.value = held[0]
    d.people = (d.value,) if d.key.startswith("person:") else d.people
    return d


# --- pets named ---------------------------------------------------------------------------------

_NAMES = re.compile(r"\s*(?:,|\band\b|\be\b|&)\s*", re.IGNORECASE)


def _pet(d: Draft, known: Known) -> Draft | None:
    name = fold(d.value)
    for key, value in known:
        if key.startswith("pet:") and name in {fold(n) for n in _NAMES.split(value) if n}:
            d.key = key
            return d
    return None


# --- new home or new job ------------------------------------------------------------------------


def _joined(name: str) -> str:
    """Every language's ``roles.<name>`` fragment, as one alternation: a mixed turn meets both."""
    return "|".join(f"(?:{getattr(lang.roles, name)})" for lang in LANGUAGES.values())


_WORK = re.compile(rf"\b(?:{_joined('WORK_WORDS')})\b", re.IGNORECASE)
_RELOCATING_FOR_WORK = re.compile(_joined("RELOCATING_FOR_WORK"), re.IGNORECASE)  # why a move happened
_HOME = re.compile(rf"\b(?:{_joined('HOME_WORDS')})\b", re.IGNORECASE)
_JOB_AFTER = re.compile(
    rf"^\s*,?\s*(?:{_joined('JOB_AS')})\s+(?:(?:{_joined('INDEFINITE_ARTICLES')})\s+)?[a-zà-ÿ]", re.IGNORECASE
)
_COMPANY = re.compile(rf"\b(?:{_joined('COMPANY_SUFFIXES')})\.?$", re.IGNORECASE)
_WORK_NOUNS = frozenset().union(*(lang.roles.WORK_NOUNS for lang in LANGUAGES.values()))


HERE = "here"
"""A draft's argument: a home read from where the speaker said they are ("here in Glasgow"), which
fills an empty slot but never replaces a home the memory holds (see :func:`located_here`)."""
_HERE = re.compile(rf"\b(?:{_joined('HERE')})\s+", re.IGNORECASE)
_AWAY = re.compile(rf"\b(?:{_joined('AWAY')})\b", re.IGNORECASE)
_MOVED = re.compile(rf"(?:{_joined('MOVED')})", re.IGNORECASE)
_BEING_IN = re.compile(rf"\b(?:{_joined('BEING_IN')})\s+", re.IGNORECASE)
_STAY = re.compile(rf"\b(?:{_joined('STAY')})\b", re.IGNORECASE)
_HOMES = ("home_city", "home_country")


def located_here(text: str, spans: Sequence[tuple[int, int]], found: Sequence[Found]) -> list[Found]:
    """Homes said in passing: "my night shifts here in glasgow", "sou vet here in recife", "aqui em
    campinas o aluguel subiu". The speaker's "here" is where they are, and in chat that is mostly
    where they live: a known place after it (the bundled lexicon, never any capitalised word: "here
    in the office") is a home, read at medium confidence. Not when the turn says it already (a rule
    read a home or a move), not in a sentence of a while away ("here in Rome for the weekend") or
    an unsure one ("if I lived here in Porto"), and :func:`resolve` keeps it only while the memory
    knows no other home: a trip said this way must never replace the home the user gave. Being
    somewhere said of oneself ("i'm in leeds", "já estou em lisboa") reads the same, unless the
    sentence says for how long ("this week", "por uns dias"). With a move said in the turn
    ("pronto, mudei!! tô em curitiba"), the place is the new home, whatever the memory held."""
    from . import unsure  # the package reads clauses; this module is imported by it

    if any(d.key in _HOMES or d.template == DESTINATION for d, _, _ in found):
        return []
    for start, end in spans:
        sentence = text[start:end]
        if _AWAY.search(fold(sentence)) or unsure(sentence.rstrip(" ?")):
            continue
        cues = [*_HERE.finditer(sentence), *([] if _STAY.search(fold(sentence)) else _BEING_IN.finditer(sentence))]
        for cue in sorted(cues, key=lambda c: c.start()):
            place = place_at(sentence[cue.end() :])
            if place and fold(place) in lex.PLACES:
                home = _as_home(draft(T.USER_PROFILE, "home_city", place, "home"), place, None)
                home.confidence = MEDIUM
                if not _MOVED.search(text):  # with a move in the turn, the new home replaces the old
                    home.args[HERE] = "1"
                at = start + cue.end()
                reader = _reader_of(cue.group(0), "HERE" if cue.re is _HERE else "BEING_IN")
                return [(home, reader, (at, at + len(place)))]
    return _moved_to(text, spans)


_OURS = re.compile(
    r"(?:(?:^|[.!?…]\s*)(?:(?:ok|so|well|finally|update|news)\W+)*|\b(?:we|i)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?)$",
    re.IGNORECASE,
)
_NO_OBJECT = re.compile(  # "we moved!!", "moved to", "mudei de casa"; never "moved the sofa", "mudei de ideia"
    r"\s*(?:[^\w\s]|$|(?:to|in|into|out|over|here|there|house|home|away|last|this|yesterday|on|back|again|finally|"
    r"de\s+(?:casa|cidade|pa[íi]s|ap|apartamento)|para|pra|pro|em|no|na|agora|ontem|semana|h[áa]|finalmente)\b)",
    re.IGNORECASE,
)


_MOVERS = [(re.compile(lang.roles.MOVED, re.IGNORECASE), lang) for lang in LANGUAGES.values()]


def _mover(text: str, at: int) -> Grammar:
    """The grammar of the bundle whose move cue starts at ``at`` (a cue may end in a lookahead, so
    the cue's text alone cannot tell, as :func:`_reader_of` does for the others)."""
    return next((lang.reader for cue, lang in _MOVERS if cue.match(text, at)), next(iter(LANGUAGES.values())).reader)


def _ours(text: str, move: re.Match[str]) -> bool:
    """The speaker's own move, and a move of home: "we moved!!", "mudamos", never "my friend moved",
    "moved the sofa" or "mudei de ideia"."""
    first_person = bool(_OURS.search(text[: move.start()])) or move.group(0)[:3].lower() == "mud"
    return first_person and bool(_NO_OBJECT.match(text[move.end() :]))


_AT_PLACE = re.compile(r"\b(?:(?P<in>in|em|no|na)|to|into|pra|para|pro)\s+", re.IGNORECASE)


def _moved_to(text: str, spans: Sequence[tuple[int, int]]) -> list[Found]:
    """A move said with its place in the next breath: "mudamos! ap de 2 quartos em São Gonçalo",
    "we moved!! tiny flat in leeds but it's ours". The move must be the speaker's (a Portuguese
    verb in the first person, "we/I moved" or a bare "moved" opening a sentence; never "my friend
    moved to denver"), in a sentence of no trip; the place one the lexicon knows, or a capitalised
    name after "in"/"em" (after "to", a name may be a new employer: :func:`destination` decides)."""
    from . import unsure  # the package reads clauses; this module is imported by it

    move = next((m for m in _MOVED.finditer(text) if _ours(text, m)), None)
    if move is None:
        return []
    for start, end in spans:
        if end <= move.start():
            continue
        whole = text[start:end]
        sentence = text[max(start, move.end()) : end]
        if _AWAY.search(fold(sentence)) or unsure(whole) or whole.rstrip().endswith("?"):
            continue  # "Suppose I moved to Tokyo, would I need a visa?"
        for at in _AT_PLACE.finditer(sentence):
            place = place_at(sentence[at.end() :])
            # "in/em" a capitalised name is a place; "moved to Globex" may be a job (see destination)
            if place and (fold(place) in lex.PLACES or (at["in"] and place[0].isupper())):
                home = _as_home(draft(T.USER_PROFILE, "home_city", place, "home"), place, None)
                begin = max(start, move.end()) + at.end()
                return [(home, _mover(text, move.start()), (begin, begin + len(place)))]
    return []


def home_from_work_city(found: Sequence[Found]) -> list[Found]:
    """Where the user lives, from where they work: "i'm a pharmacist in Recife", "sou motorista de
    app em Campinas", "enfermeira no Hospital X, no Porto". Chat self-introductions name the city
    one lives in this way far more often than a commute. Read like "here in" (:data:`HERE`): at
    medium confidence, filling an empty home slot only, never replacing a home the memory holds or
    the turn states; the work city stays a fact of its own."""
    if any(d.key in _HOMES or d.template == DESTINATION for d, _, _ in found):
        return []
    for d, reader, span in found:
        if d.key == "work_city" and not d.negated and d.person is None and fold(d.value) in lex.PLACES:
            home = _as_home(draft(T.USER_PROFILE, "home_city", d.value, "home"), d.value, None)
            home.confidence = MEDIUM
            home.args[HERE] = "1"
            return [(home, reader, span)]
    return []


_ALLERGIC_ALONE = re.compile(
    rf"\b(?:{_joined('ALLERGIC_ALONE')})(?=\s*(?:$|[.!;,)]|\s(?:lol|kkk+|haha\w*|pfv|pls|btw|tbh|né|ne|ok)\b))",
    re.IGNORECASE,
)


def allergic_to_named(text: str, spans: Sequence[tuple[int, int]], found: Sequence[Found]) -> list[Found]:
    """An allergy said after its allergen, with nothing following "allergic": "dipirona não, sou
    alérgica", "nem posso tomar dipirona pq sou alérgico", "restaurantes sem camarão pfv, sou
    alérgico". The allergen is what the sentence named before, when exactly one thing of the
    lexicon's allergens (foods, drugs) is there: two would be a guess. Not in an unsure sentence,
    nor when the turn's rules read an allergy from it already; a question ends with "?" and is
    no statement ("sou alérgico?")."""
    from . import unsure  # the package reads clauses; this module is imported by it

    out: list[Found] = []
    for start, end in spans:
        sentence = text[start:end]
        cue = _ALLERGIC_ALONE.search(sentence)
        if cue is None or sentence.rstrip().endswith("?") or unsure(sentence):
            continue
        if any(d.key.startswith("allergy:") and start <= at[0] < end for d, _, at in found):
            continue
        before = fold(sentence[: cue.start()])
        named = {canon(w, lex.FOODS): w for w in _allergens(before)}
        if len(named) != 1:
            continue
        ((key, word),) = named.items()
        d = draft(T.CRITICAL_INFO, f"allergy:{key}", _as_written(sentence[: cue.start()], word), "allergy")
        at = start + cue.start()
        out.append((d, _reader_of(cue.group(0), "ALLERGIC_ALONE"), (at, at + len(cue.group(0)))))
    return out


def _allergens(folded: str) -> set[str]:
    """The lexicon's allergens (folded, one or two words) a folded text names as whole words."""
    words = re.findall(r"[\w-]+", folded)
    grams = {*words, *(" ".join(p) for p in zip(words, words[1:], strict=False))}
    named = {g for g in grams if g in lex.FOODS}
    return {g for g in named if not any(g != h and g in h.split() for h in named)}  # "tree nuts", not "nuts"


def _as_written(text: str, folded_word: str) -> str:
    """``folded_word`` as the user wrote it in ``text`` (accents kept: "camarão")."""
    words = re.findall(r"[\w-]+", text)
    n = len(folded_word.split())
    for i in range(len(words) - n + 1):
        if fold(" ".join(words[i : i + n])) == folded_word:
            return " ".join(words[i : i + n])
    return folded_word


def _reader_of(cue: str, name: str = "HERE") -> Grammar:
    """The grammar of the bundle whose cue (``roles.<name>``) this is."""
    for lang in LANGUAGES.values():
        if re.fullmatch(rf"(?:{getattr(lang.roles, name)})\s*", cue, re.IGNORECASE):
            return lang.reader
    return next(iter(LANGUAGES.values())).reader


def _values(known: Known, *keys: str) -> set[str]:
    return {fold(v) for k, v in known if k in keys}


def _destination(d: Draft, text: str, known: Known) -> Draft | None:
    place, previous = d.value, d.args.get("previous") or None
    if fold(place) in lex.PLACES or (previous and fold(previous) in lex.PLACES):
        return _as_home(d, place, previous)
    employers, homes = _values(known, "employer"), _values(known, "home_city", "home_country")
    for_job, for_home = _evidence(d, text, previous, employers, homes)
    if for_job == for_home and not previous:  # no evidence, or both ways: the memory may break the tie
        for_job, for_home = bool(employers) and not homes, bool(homes) and not employers
    if for_job and not for_home:
        return _as_employer(d, place, previous)
    if for_home and not for_job:
        return _as_home(d, place, previous)
    return None


def _evidence(d: Draft, text: str, previous: str | None, employers: set[str], homes: set[str]) -> tuple[bool, bool]:
    """(a new job, a new home) as the turn itself says, not counting the memory's tie-break; the
    cheap signs first, the word lists only when those did not decide."""
    article, words = d.args.get("article", ""), language(d.args.get("lang", "en")).roles
    prev = fold(previous or "")
    for_job = (
        article in words.COMPANY_ARTICLES  # "para a Globex": a feminine article before a name is a company's
        or prev in _WORK_NOUNS
        or prev in employers
        or bool(_JOB_AFTER.match(d.args.get("tail", "")))
        or bool(_COMPANY.search(d.value))
        or bool(_WORK.search(_RELOCATING_FOR_WORK.sub(" ", text)))
    )
    for_home = (
        (words.BARE_NAME_IS_PLACE and not article and not previous)  # "para Sorocaba": cities take no article
        or (bool(prev) and prev in homes)
        or bool(_HOME.search(text))
    )
    return for_job, for_home


def _as_home(d: Draft, place: str, previous: str | None) -> Draft:
    key = "home_country" if fold(place) in lex.COUNTRIES else "home_city"
    home = draft(T.USER_PROFILE, key, place, "home", prep="em")
    home.previous_value = previous if previous and fold(previous) not in _WORK_NOUNS else None
    home.confidence = d.confidence
    return home


def _as_employer(d: Draft, place: str, previous: str | None) -> Draft:
    prep = {"a": "na", "o": "no"}.get(d.args.get("article", ""), "em")
    job = draft(T.USER_PROFILE, "employer", place, prep=prep)
    job.previous_value = previous if previous and fold(previous) not in _WORK_NOUNS else None
    job.confidence = d.confidence
    return job
