"""Which ranked hits earn a place in recall's context: pure rules over the hits and the query.

Memories enter the context by relevance, not by leftover budget: a hit must clear the calibrated
relevance floor and fall within the adaptive k (from the query's facets, its words and the score
distribution); a question about the user also keeps the user's own lines, and the current facts
drawn from what is kept come along. Everything here reads the ranked hits and the parsed query
(:class:`~.query.RecallQuery`) alone: no store, no clock, so the service
(:mod:`hipocampo.services.recall`) does the reading and the rendering around it, and the rules can
be tested over hand-made hits.
"""

from __future__ import annotations

from ..model import MemoryKind, turn_memory_id
from ..text import fold
from . import subjects
from .query import RecallQuery
from .ranking import adaptive_k, relevance_floor
from .recall import ScoredMemory

SUBJECT_EXTRA = 3
"""Hits beyond k that speak of the subject a question asks about, kept per facet: ranking weighs
a question's words, and the memory that answers "when am I free?" may share none of them."""
OWN_EXTRA = 5
"""For a question about the user ("what's my job?", "onde eu moro?"), the user's own best-ranked
disclosures kept per facet beyond k, whatever their calibrated relevance; for a question that
names a subject of a life without saying whose ("qnd é a viagem?", "when's the wedding?"), those
that speak of that subject. A small embedder's
cosines between a colloquial question and its answer sit where unrelated pairs do ("qual é meu
cargo?" and "entrei como analista de Y" at 0.09), and an empty context about the user's own job
is the worst answer recall can give."""
SMALL_STORE = 30
"""A user with at most this many memories (fewer than a search's candidates, so every one of them
was seen) has everything they said shown for a question about themselves, when it fits in
:data:`SMALL_CHARS`: every new user is one, and a few short lines cost little."""
SMALL_CHARS = 1600
"""About 400 tokens: what showing all of a small user's own lines may cost at most."""
K_LOW, K_HIGH, K_RATIO = 5, 20, 0.3
"""Recall's adaptive k (:func:`~hipocampo.domain.retrieval.ranking.adaptive_k`; per facet): looser than
search's 3-12 at half the best score, because the relevance floor already keeps unrelated memories
out and a question's evidence often ranks below its best hit (LoCoMo dev: context recall against
median tokens, budgets 500 to 2,000, is in docs/benchmarks.md)."""
K_WORDS, K_LOW_MAX = 1, 8
"""A question with more than :data:`K_WORDS` content words besides names gets one more hit in its k
floor per extra word, up to :data:`K_LOW_MAX`: a detailed question ("what did Caroline research
about adoption agencies?") has evidence ranked further down than its best hit, while a short one
("How is Ana doing?", "where do I work?") is answered by its first few hits and must stay lean."""


def k_low(query: str | RecallQuery) -> int:
    """The adaptive k's floor for ``query`` (:data:`K_LOW` to :data:`K_LOW_MAX`, by its words)."""
    q = RecallQuery.parse(query)
    words = [w for w in q.content_words if fold(w) not in q.folded_names]
    return min(K_LOW + max(len(words) - K_WORDS, 0), K_LOW_MAX)


def chosen(
    hits: list[ScoredMemory], query: str | RecallQuery, floor: float, k: int | None = None, *, raise_floor: bool = True
) -> tuple[list[ScoredMemory], bool, float]:
    """The hits that earned a place, whether the query anchors them, and the relevance floor used.

    A hit needs calibrated relevance at or above ``floor`` (unless ``raise_floor`` is False,
    raised near the best hit's: :func:`~hipocampo.domain.retrieval.ranking.relevance_floor`), except the
    top-ranked hit when the store answers the question: it shares a word or a name with the query
    (coverage counts every query word alike, so one rare word that matched weighs little), another
    cleared hit does, or the question is about the user; then the first ``k`` of those are kept
    (adaptive when ``k`` is None: from the query's facets, the score distribution and whether any
    hit shares a word, a name or an asked subject with the query,
    :func:`~hipocampo.domain.retrieval.ranking.adaptive_k`), and, with an adaptive k, up to
    :data:`SUBJECT_EXTRA` per facet of the next ones that speak of the subject the question asks
    about ("when am I free?" and a memory about availability). An explicit ``k`` is a cap, not a
    quota: a hit under the floor is never shown to make up the number.
    """
    q = RecallQuery.parse(query)
    if raise_floor:
        floor = relevance_floor([h.explanation.relevance for h in hits], floor)
    cleared = _unrestated([h for h in hits if h.explanation.relevance >= floor])
    asked = q.subjects

    def on_subject(h: ScoredMemory) -> bool:
        return bool(subjects.subject_relevance(asked, h.memory.content))

    anchored = any(h.explanation.matched_terms or h.explanation.matched_names or on_subject(h) for h in cleared)
    top = hits[0].explanation if hits else None
    if top is not None and top.relevance < floor:
        # The ranker's first choice comes under the floor on a question the store answers. It
        # shares the query's own words ("peanut" is one word of five in "Can I order the chicken
        # satay with peanut sauce?", so the allergy's calibrated relevance is low); or another hit
        # does, or the question is about the user, and its relevance is the small embedder's
        # cosine, which says little across languages ("quem passeia o tejo agora?" and "new walker
        # is a guy called joost"). Search leads with it either way.
        own_words = bool(top.matched_terms or top.matched_names)
        if own_words or anchored or q.about_user:
            cleared.insert(0, hits[0])
            anchored = anchored or own_words
    if k is not None:
        return _with_their_facts(cleared[:k], hits), anchored, floor
    facets = q.facets
    k = adaptive_k([h.score for h in cleared], k_low(q), K_HIGH, K_RATIO, facets=facets, anchored=anchored)
    extra = [h for h in cleared[k:] if on_subject(h)][: SUBJECT_EXTRA * facets] if asked and anchored else []
    picked = cleared[:k] + extra
    if q.about_user:  # the user's own disclosures, even where cosines say nothing
        seen = {h.memory.id for h in picked}
        unique = _unrestated(hits)
        own = [h for h in unique if h.memory.id not in seen and _own(h)]
        said = [h for h in unique if h.memory.id not in seen and _said(h)]
        if len(hits) <= SMALL_STORE and sum(len(h.memory.content) for h in said) <= SMALL_CHARS:
            own = said
        picked += own[: OWN_EXTRA * facets] if own is not said else own
        anchored = anchored or bool(own)
    elif asked:  # "qnd é a viagem?": a subject of the user's life, asked without "my"
        seen = {h.memory.id for h in picked}
        own = [h for h in _unrestated(hits) if h.memory.id not in seen and _own(h) and on_subject(h)]
        picked += own[: OWN_EXTRA * facets]
        anchored = anchored or bool(own)
    if not q.about_user and not anchored:
        # A question about the world that shares no word, name or subject with any memory: its best
        # hit stands on a small embedder's cosine alone ("how do I boil an egg?" and a sister's
        # pregnancy sit close), so one line at most, without the facts that restate it.
        return picked[:1], anchored, floor
    return _with_their_facts(picked, hits), anchored, floor


MATCHED_FACTS = 3
"""Most current facts let in beside the chosen hits for sharing a word or a name with the query."""


def _with_their_facts(picked: list[ScoredMemory], hits: list[ScoredMemory]) -> list[ScoredMemory]:
    """``picked`` plus the current facts drawn from its turns, and up to :data:`MATCHED_FACTS`
    current facts that share a word or a name with the query. Such a fact takes no slot of the
    adaptive k but still goes in: the Known facts section is where the agent reads what is true now,
    with its history ("Updated since" lines), and a fact is one short line. "Can I order the satay
    with peanut sauce?" must show "Ana is allergic to peanuts" even when the turn that said it ranks
    first and the learned scores leave room for one hit."""
    chosen_ids = {h.memory.id for h in picked}
    facts = [h for h in hits if h.memory.kind is MemoryKind.FACT and h.current and h.memory.id not in chosen_ids]
    restating = [h for h in facts if any(turn_memory_id(s) in chosen_ids for s in h.memory.source_message_ids)]
    seen = chosen_ids | {h.memory.id for h in restating}
    matched = [
        h for h in facts if h.memory.id not in seen and (h.explanation.matched_terms or h.explanation.matched_names)
    ]
    return picked + restating + matched[:MATCHED_FACTS]


def _unrestated(hits: list[ScoredMemory]) -> list[ScoredMemory]:
    """``hits`` without the facts whose source turn ranks above them: such a fact restates that
    turn (ranking keeps it below it), and a slot or a line spent on it shows nothing new."""
    above: set[str] = set()
    out = []
    for h in hits:
        m = h.memory
        if (
            m.kind is MemoryKind.FACT
            and m.source_message_ids
            and all(turn_memory_id(s) in above for s in m.source_message_ids)
        ):
            continue
        if m.kind is MemoryKind.TURN and h.current:  # an outdated turn may source a current fact
            above.add(m.id)
        out.append(h)
    return out


def _said(hit: ScoredMemory) -> bool:
    """Anything the user said that is not filler (a request may hold a fact: "suggest a trip from
    Chicago"), or a memory derived from it. A turn marked earlier counts too: it is rendered with
    its note ("earlier; since ..."), so it reads as history, not as current, and a turn often says
    more than what a later line took back ("sou motorista tvde em braga": the job ended, not the
    city). A derived memory counts when current only."""
    m = hit.memory
    if m.kind is MemoryKind.SUMMARY:
        return False
    if m.kind is not MemoryKind.TURN:
        return hit.current
    return m.role is not None and m.role.value == "user" and hit.explanation.speech_act != "filler"


def _own(hit: ScoredMemory) -> bool:
    """What the user said about themselves: a disclosure turn of theirs, or a fact or consolidated
    memory (extraction keeps only what users say of themselves and their world); current only."""
    m = hit.memory
    if not hit.current:
        return False
    if m.kind in (MemoryKind.FACT, MemoryKind.CONSOLIDATED):
        return True
    return (
        m.kind is MemoryKind.TURN
        and m.role is not None
        and m.role.value == "user"
        and (hit.explanation.speech_act == "disclosure")
    )
