"""Settling and wording extracted facts: one turn's drafts merged, then rendered as sentences."""

from __future__ import annotations

import re

from ..text import fold
from .base import Draft, Grammar

Found = tuple[Draft, Grammar, tuple[int, int]]  # a draft, the language that read it, its span

_ONE_VALUE = {"name", "home", "employer", "occupation", "age", "diet", "budget", "marital_status", "school"}


def _slot(key: str) -> str:
    """The single-valued slot a key fills, or '' ("person:sister:home_city" -> "person:sister:home")."""
    prefix, _, base = key.rpartition(":") if key.startswith("person:") else ("", "", key)
    base = "home" if base in ("home_city", "home_country") else base
    return f"{prefix}:{base}" if base in _ONE_VALUE else ""


def settle(found: list[Found]) -> list[Found]:
    """Merge what one turn says twice: a retraction and its replacement become one fact with a
    previous value; "call me X" after a name is a nickname; duplicates go."""
    names = {fold(d.value) for d, _, _ in found if d.key == "name" and not d.args.get("call")}
    for d, _, _ in found:
        if d.key == "name" and d.args.get("call") and names - {fold(d.value)}:
            d.key, d.template = "nickname", "nickname"
    out: list[Found] = []
    seen: set[tuple[str, str, bool]] = set()
    stated = {x.key for x, _, _ in found if not x.negated}
    for item in found:
        d = item[0]
        slot = _slot(d.key)
        if d.negated and slot:
            replacement = next((x for x, _, _ in found if not x.negated and _slot(x.key) == slot), None)
            if replacement is not None:
                replacement.previous_value = replacement.previous_value or d.value
                continue
        if d.negated and not d.value and d.key in stated:
            continue  # "changed my mind about meetings: I prefer afternoons": the new one replaces it
        ident = (d.key, fold(d.value), d.negated)
        if ident not in seen:
            seen.add(ident)
            out.append(item)
    return out


class _Args(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""


_MINE_WORD = re.compile(r"\b[\w']+\b", re.IGNORECASE)


def _their(value: str, table: dict[str, str]) -> str:
    """Values keep the user's words; sentences about the user do not say "my": "open my own bakery"
    -> "open their own bakery" (``table``: the language's first-person words, ``Grammar.mine``)."""
    return _MINE_WORD.sub(lambda m: table.get(m.group(0).lower(), m.group(0)), value)


def render(d: Draft, lang: Grammar, speaker: str | None, feminine: bool) -> str:
    """The draft as a third-person sentence in ``lang``, about the speaker, the user or a person."""
    s, p = lang.subject(d.person, speaker, feminine)
    positive, negative, replacing = lang.templates[d.template]
    template = negative if d.negated else (replacing if d.previous_value and replacing else positive)
    args = _Args(d.args)
    if "lemma" in d.args:
        args["adj"] = lang.agree(d.args["lemma"], d.person.feminine if d.person else feminine)
    args.setdefault("a", "an" if d.value[:1].lower() in "aeiou" else "a")
    value = d.value if d.person else _their(d.value, lang.mine)  # "my" in a relative's fact is the user's
    args.update(S=s, P=p, v=value, p=d.previous_value or "")
    sentence = " ".join(template.format_map(args).split()).replace(" .", ".").replace(",.", ".")
    return sentence[:1].upper() + sentence[1:]
