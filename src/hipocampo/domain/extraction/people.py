"""Who a turn mentions: people (and named pets), with how they relate to the user when it says so."""

from __future__ import annotations

import re

from ..lang import LANGUAGES
from ..model import MemoryType
from ..text import fold
from . import lexicon as lex
from .base import name_word_ok


def extract_people(text: str) -> list[tuple[str, str | None]]:
    """People (and named pets) a turn mentions, with how they relate to the user when it says so:
    "minha irmã Maria e o João" -> [("Maria", "sister"), ("João", None)]."""
    from . import extract_facts  # the package's reader, which this module's caller imports first

    facts = extract_facts(text)
    found: dict[str, tuple[int, str, str | None]] = {}

    def add(name: str, rel: str | None, at: int) -> None:
        known = found.get(fold(name))
        if known is None or (known[2] is None and rel is not None):
            found[fold(name)] = (known[0] if known else at, name, rel)

    for f in facts:
        kind, _, rest = f.key.partition(":")
        if f.memory_type is MemoryType.ENTITY and kind in ("person", "pet"):
            rel = rest.split(":")[0]
            names = f.people if kind == "pet" or ":" in rest else (f.value,)
            for name in names:
                if name[:1].isupper():
                    add(name, rel if rel in lex.RELATIONS.values() or kind == "pet" else None, f.span[0])
    own = [f for f in facts if f.memory_type is not MemoryType.ENTITY]
    blocked = {fold(v) for f in own for v in (f.value, f.previous_value or "")}
    for m in _NAME_TOKEN.finditer(text):
        name = re.sub(r"['’]s$", "", m.group(0))
        if fold(name) not in blocked and _looks_like_a_person(text, m.start(), m.end(), name):
            add(name, None, m.start())
    return [(name, rel) for _, name, rel in sorted(found.values(), key=lambda t: t[0])]


def _looks_like_a_person(text: str, start: int, end: int, name: str) -> bool:
    """A capitalised name that is no place, no sentence opener and not after "in", "em", "at"."""
    before = re.search(r"(\S*)\s*$", text[max(0, start - 30) : start])
    after_ = re.match(r"\s*(\S*)", text[end : end + 30])
    previous_word = fold(before.group(1)) if before else ""
    next_word = fold(after_.group(1)) if after_ else ""
    at_start = not previous_word or previous_word[-1] in ".!?:"
    return (
        all(name_word_ok(w) for w in name.split() if w[0].isupper())
        and previous_word not in _PLACE_PREPOSITIONS
        and (not at_start or next_word in _PERSON_VERBS)
    )


_NAME_TOKEN = re.compile(r"[A-ZÀ-Ý][a-zà-ÿ'’-]+(?:\s+(?:(?:de|da|do|dos|das)\s+)?[A-ZÀ-Ý][a-zà-ÿ'’-]+)*")
_PLACE_PREPOSITIONS = frozenset().union(*(lang.roles.PLACE_PREPOSITIONS for lang in LANGUAGES.values()))
_PERSON_VERBS = frozenset().union(*(lang.roles.PERSON_VERBS for lang in LANGUAGES.values()))
