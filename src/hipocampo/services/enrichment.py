"""Query enrichment before retrieval: context from the thread for short queries, HyDE with an LLM.

"And her sister?" says little alone. When the query is short, refers back to something, and there
is a current thread, the keyword search also reads the previous user turn; names in the query already steer the person
boost (a fact about a person named in the query ranks as if that person said it). With an LLM
configured, a short query is also answered hypothetically (HyDE) and the dense search embeds
that passage, which reads like the memories it should find.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from ..domain.extraction.llm_schemas import HydeOut, hyde_prompt
from ..domain.model import Message, Role
from ..domain.retrieval.query import RecallQuery
from .deps import Deps

log = logging.getLogger(__name__)

SHORT_QUERY_WORDS = 2
"""Queries with at most this many content words that refer back ("and her sister?") borrow the
previous user turn's words; a short query naming its subject ("saffron") is left alone."""
HYDE_MAX_WORDS = 8
"""HyDE is asked for short queries only: long ones carry enough words of their own."""


_ANAPHORA = frozenset(
    """he she it they him her them his hers its their that this those these there then
    ele ela eles elas dele dela deles delas isso isto aquilo esse essa este esta lá então""".split()
)


def _refers_back(query: RecallQuery) -> bool:
    """A short query that points at something said before ("and her sister?", "e ela?")."""
    return any(w in _ANAPHORA for w in query.words)


@dataclass
class Enrichment:
    keyword_extra: str | None = None  # appended to the keyword query
    dense_text: str | None = None  # embedded as a document instead of the query (HyDE)
    notes: list[str] = field(default_factory=list)


async def enrich(deps: Deps, query: str | RecallQuery, recent: list[Message]) -> Enrichment:
    q = RecallQuery.parse(query)
    result = Enrichment()
    words = q.content_words
    if len(words) <= SHORT_QUERY_WORDS and _refers_back(q):
        previous = next(
            (m for m in reversed(recent) if m.role is Role.USER and m.content.strip() != q.text.strip()), None
        )
        if previous is not None:
            result.keyword_extra = previous.content
            result.notes.append(f"short query: keyword search also used the previous user turn ({previous.id})")
    if deps.chat is not None and len(words) <= HYDE_MAX_WORDS:
        try:
            with deps.chat.job():
                out: HydeOut = await deps.chat.complete(*hyde_prompt(q.text), schema=HydeOut)
            if out.passage.strip():
                result.dense_text = out.passage.strip()
                result.notes.append("HyDE: the dense search embedded a hypothetical answer")
        except Exception as exc:  # enrichment is optional: the plain query still works
            log.warning("HyDE failed: %s", exc)
            result.notes.append(f"HyDE failed ({type(exc).__name__}); the query itself was embedded")
    return result
