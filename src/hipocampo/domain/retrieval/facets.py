"""How many separate things a query asks about: its facets, for adaptive k.

"Como está a Ana?" has one subject; "What do Ana, Pedro and Rui do for work?" has three, and each
person's answer is a different memory that matches only part of the query, so it ranks below the
first one. A query that joins two facts ("Did she move and change jobs?", "compare X and Y") is
the same. Recall keeps more memories for such queries instead of cutting after the first subject's
best hits. The rules are small and language-level (English and Portuguese connectives, names,
comma lists), never about any one data set.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ..text import names_in

MAX_FACETS = 4
"""More subjects than this are rare in a question, and each adds slots: keep k bounded."""

_JOIN = re.compile(r"(?<![\w-])(?:and|as well as|versus|vs|e|tanto)(?![\w-])|&", re.IGNORECASE)
"""Connectives that join two things asked about (English and Portuguese). Hyphens are word
characters here: the "e" of "e-mail" joins nothing."""
_PAIR = re.compile(
    r"(?<![\w-])(?:both|between|compare[sd]?|comparing|ambos|ambas|entre|comparar|compara|comparando)(?![\w-])",
    re.IGNORECASE,
)
"""Words that name a pair themselves ("both", "compare", "entre"): at least two facets, even when
the pair is joined by a connective already counted."""
_LIST_COMMA = re.compile(r",\s*(?!(?:and|or|e|ou)\b)(?=\w)", re.IGNORECASE)
"""A comma inside a list ("Ana, Pedro and Rui"); the Oxford comma before "and" is not a second join."""


def query_facets(query: str, names: Collection[str] | None = None) -> int:
    """The number of things ``query`` asks about, from 1 to :data:`MAX_FACETS`.

    The larger of: the names it mentions, and 1 + its joins (connectives and list commas). A pair
    word ("both", "compare", "entre") makes it at least 2. ``names``: the query's names, where the
    caller has read them already (:class:`~.query.RecallQuery`).
    """
    named = len(names_in(query) if names is None else names)
    joins = len(_JOIN.findall(query)) + len(_LIST_COMMA.findall(query))
    facets = max(named, 1 + joins, 2 if _PAIR.search(query) else 1)
    return min(facets, MAX_FACETS)
