"""What a wrong fact looks like, counted for the scenario harness: malformed values and precision by type.

A fact right by value is one the scenario expects or allows (any key). Of the rest, a value is
**malformed** when it is no phrase of a type at all: it holds a first-person or other pronoun
("I", "my", "eu", "minha"), a word that opens a clause ("that", "because", "que", "porque",
"quando") or more than six words. Such a value is a clause cut at an arbitrary word, whatever the
rule meant to read; a well-shaped wrong value ("Berlin" from a hypothetical) is wrong, not malformed.

Precision by type groups the current facts by the rule family of their key (the precision gate's
:func:`hipocampo.domain.extraction.confidence.family`: ``home_city``, ``employer``, ``person:…``),
so a split's false facts can be counted by type from its totals alone (the blind splits are read
only in aggregate).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from hipocampo.domain.extraction.confidence import family

__all__ = ["MAX_WORDS", "by_type", "is_malformed", "merge_types"]

MAX_WORDS = 6
_PRONOUNS = frozenset(
    "i me my mine myself we us our you your he him his she her they them their it "
    "eu me mim meu minha meus minhas nós nos nosso nossa você vocês ele ela eles elas lhe comigo".split()
)
_CLAUSE = frozenset(
    "that which who because since although though if when while whether so "
    "que porque pois embora se quando enquanto caso onde".split()
)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)


def is_malformed(value: str) -> bool:
    """Whether ``value`` is no phrase of a type: a pronoun, a clause opener or too many words."""
    words = [w.casefold() for w in _WORD.findall(value)]
    if len(value.split()) > MAX_WORDS:
        return True
    return any(w in _PRONOUNS or w in _CLAUSE for w in words)


def by_type(facts: Iterable[tuple[str, str, bool]]) -> dict[str, dict[str, int]]:
    """{family: {"extracted", "value_correct", "malformed"}} over (key, value, right by value)."""
    out: dict[str, dict[str, int]] = {}
    for key, value, right in facts:
        row = out.setdefault(family(key), {"extracted": 0, "value_correct": 0, "malformed": 0})
        row["extracted"] += 1
        row["value_correct"] += right
        row["malformed"] += (not right) and is_malformed(value)
    return out


def merge_types(rows: Iterable[dict[str, dict[str, int]]]) -> dict[str, Any]:
    """Sum per-scenario :func:`by_type` tables, with each family's precision by value."""
    total: dict[str, dict[str, Any]] = {}
    for row in rows:
        for fam, counts in row.items():
            t = total.setdefault(fam, {"extracted": 0, "value_correct": 0, "malformed": 0})
            for k, v in counts.items():
                t[k] += v
    for t in total.values():
        t["value_precision"] = round(t["value_correct"] / t["extracted"], 4) if t["extracted"] else None
    return dict(sorted(total.items(), key=lambda kv: (-(kv[1]["extracted"] - kv[1]["value_correct"]), kv[0])))
