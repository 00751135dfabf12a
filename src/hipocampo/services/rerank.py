"""The second stage of a search: every candidate scored on its explained signals by the learned
ranker (:mod:`~hipocampo.domain.retrieval.learned`), times the multipliers the model does not
learn (recency, importance, validity). Pure over what the first stage read: no I/O.

Kept apart from :mod:`.retrieval`, which reads the candidates and runs both passes, because what
a candidate's score is made of is one question, and how candidates are gathered another.
"""

from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

from ..domain.extraction.confidence import family
from ..domain.lang import LANGUAGES
from ..domain.model import MemoryItem, MemoryKind, turn_memory_id
from ..domain.retrieval import learned, ranking, speech_acts, subjects
from ..domain.retrieval import relevance as calibrated
from ..domain.retrieval.query import RecallQuery
from ..domain.retrieval.recall import Explanation, RecencyMode, ScoredMemory
from ..domain.text import fold, query_terms
from ..domain.truth.validity import LATER_STATEMENT, TAKEN_BACK, Change, Validity, validity_boost
from ..ports import KeywordHit, VectorHit
from .deps import Deps


def _people(item: MemoryItem) -> list[str]:
    """People a fact is about (set by extraction; ignore anything else callers put there)."""
    people = item.metadata.get("people") if item.kind is MemoryKind.FACT else None
    return [p for p in people if isinstance(p, str)] if isinstance(people, list) else []


def rerank(
    deps: Deps,
    query: RecallQuery,
    items: dict[str, MemoryItem],
    fused: dict[str, float],
    dense_hits: list[VectorHit],
    keyword_hits: list[KeywordHit],
    recency: RecencyMode | None,
    background: calibrated.Background | None = None,
    validity: Validity | None = None,
    *,
    ranking_dense: list[VectorHit] | None = None,
    matches: dict[str, float] | None = None,
    memo: dict[str, Signals] | None = None,
) -> list[ScoredMemory]:
    """Score every candidate with the learned ranker (:mod:`~hipocampo.domain.retrieval.learned`)
    on its signals, times the multipliers the model does not learn (recency, importance,
    validity); best first. ``ranking_dense``: the dense list that ranks (the second hop's, from
    the moved query), when it is not ``dense_hits`` (the query's own cosines, which calibrated
    relevance and the explanation report). ``matches``: each candidate's ``learned_match``.
    ``memo``: each candidate's :class:`Signals`, kept across the two passes of one search (they
    depend on the query and the memory only)."""
    dense = {h.memory_id: (rank, h.score) for rank, h in enumerate(dense_hits)}
    keyword = {h.memory_id: (rank, h) for rank, h in enumerate(keyword_hits)}
    dense_norm = ranking.min_max(
        {h.memory_id: h.score for h in (dense_hits if ranking_dense is None else ranking_dense)}
    )
    keyword_norm = ranking.min_max({h.memory_id: h.score for h in keyword_hits})
    positions = {
        i: (m.thread_id or "", m.seq) for i, m in items.items() if m.kind is MemoryKind.TURN and m.seq is not None
    }
    support = ranking.neighbour_support(fused, positions)
    ceiling = 1 + ranking.NEIGHBOUR_WEIGHT  # score fusion is in [0, 1]; neighbours add up to this
    now = deps.clock.now()
    mode = recency or deps.settings.recency_mode
    # Ranking stays relative to this query (fusion, boosts); the relevance reported and filtered on
    # is absolute: calibrated on the embedder, the same scale for every query and user.
    calibration = getattr(deps.embedder, "relevance_calibration", None) or calibrated.DEFAULT_CALIBRATION
    about = query.about_user
    model = learned.default_ranker()
    rows = []
    for memory_id, item in items.items():
        d = dense.get(memory_id)
        kw = keyword.get(memory_id)
        if memo is None or (sig := memo.get(memory_id)) is None:
            sig = _signals(query, item, d, kw, validity, calibration, background)
            if memo is not None:
                memo[memory_id] = sig
        features = {
            "dense": dense_norm.get(memory_id, 0.0),
            "keyword": keyword_norm.get(memory_id, 0.0),
            "neighbour": support.get(memory_id, 0.0),
            "fusion": math.log(max((fused.get(memory_id, 0.0) + support.get(memory_id, 0.0)) / ceiling, FUSION_FLOOR)),
            **sig.features,
            "learned_match": (matches or {}).get(memory_id, 0.0),
            "slot": 0.0,
            **dict.fromkeys(learned.RELATIVE, 0.0),
        }
        own_line = (sig.own or (item.kind is MemoryKind.FACT and item.role is None)) and not sig.of_others
        rows.append(
            _Row(
                memory_id,
                item,
                d,
                kw,
                sig.matched,
                sig.matched_names,
                sig.relevance,
                sig.act,
                sig.outdated,
                features,
                own_line,
            )
        )
    _read_from_facts(query, rows)
    if about:
        _newest_own(model, rows)
    out = []
    for memory_id, item, d, kw, matched, matched_names, relevance, act, outdated, features, _ in rows:
        # Odds, not probability: ranking multiplies them like the boosts, and a ratio to the best hit
        # (adaptive k) reads the same at any level.
        contributions = model.contributions(features)
        base = math.exp(min(model.bias + sum(contributions.values()), MAX_LOGIT))
        boosts = {
            "recency": ranking.recency_boost(item.created_at, now, mode),
            "importance": ranking.importance_boost(item.importance),
            "validity": validity_boost(outdated if features["outdated"] else None) ** VALIDITY_POWER,
        }
        score = base * boosts["recency"] * boosts["importance"] * boosts["validity"]
        out.append(
            ScoredMemory(
                item,
                score,
                Explanation(
                    dense_score=d[1] if d else None,
                    dense_rank=d[0] + 1 if d else None,
                    keyword_score=kw[1].score if kw else None,
                    keyword_rank=kw[0] + 1 if kw else None,
                    fused_score=fused.get(memory_id, 0.0),
                    neighbour_score=support.get(memory_id, 0.0),
                    relevance=relevance,
                    base_score=base,
                    boosts=boosts,
                    matched_terms=matched,
                    matched_names=matched_names,
                    speech_act=act,
                    contributions=contributions,
                    features=features,
                ),
                current=outdated is None,
                outdated_note=outdated.note() if outdated is not None else None,
            )
        )
    _below_sources(out)
    out.sort(key=lambda h: h.score, reverse=True)
    return out


OWN_GROUP = 3
"""How many of the user's best-ranked own lines (disclosure turns and facts) a question about the user
compares by time (:func:`_newest_own`)."""


class Signals(NamedTuple):
    """What a candidate's ranking reads from the query and the memory alone: the same in both
    passes of a search (the second hop changes only the fusion), so computed once."""

    matched: list[str]
    matched_names: list[str]
    relevance: float
    act: str | None
    outdated: Any
    own: bool  # a disclosure turn of the user
    of_others: bool  # on a question about the user alone: it speaks of someone else, or is a fact about them
    features: dict[str, float]


def _signals(
    query: RecallQuery,
    item: MemoryItem,
    d: tuple[int, float] | None,
    kw: tuple[int, KeywordHit] | None,
    validity: Validity | None,
    calibration: Any,
    background: calibrated.Background | None,
) -> Signals:
    about = query.about_user
    about_others = about and not query.of_others  # "where do I work?", not "where does my mom live?"
    wants_name, wants_number = query.asks_for
    matched = list(kw[1].matched_terms) if kw else []
    person, matched_names = ranking.person_boost(query.names, item.name, item.content, _people(item))
    outdated = validity.of_memory(item) if validity else None
    coverage = calibrated.keyword_coverage(query.word_stems, matched)
    on_subject = subjects.subject_relevance(query.subjects, item.content)
    relevance = max(calibrated.relevance(calibration, background, d[1] if d else None, coverage), on_subject)
    act = _act(item)
    filler = act == "filler" or ranking.salience_boost(item.kind.value, item.content, item.event_start is not None) < 1
    if filler:  # "Anotado!" sits close to everything: it answers no question itself
        relevance = min(relevance, ranking.FILLER_RELEVANCE)
    assistant = item.role is not None and item.role.value == "assistant"
    has_name, has_number = speech_acts.holds(item.content)
    # A place, a job or a drug answers its question however it is written: chat writes them in
    # lowercase ("trampo de designer em bh"), where no capital marks a name.
    name_answer = (wants_name and has_name) or any(speech_acts.holds_kind(item.content, k) for k in query.answer_kinds)
    # A line about someone else ("my cousin spent 40k on her wedding") is not the user's own word
    # on a question about the user; on one about that person ("what does my bf do?") it is. Nor is
    # a hypothetical ("if i ever moved id go to canada"): it says what would be, not what is.
    # Both are read only for a question about the user, the one that reads ``own``.
    others_line = about_others and item.kind is MemoryKind.TURN and speech_acts.speaks_of_others(item.content)
    own = (
        act == "disclosure"
        and item.role is not None
        and item.role.value == "user"
        and not others_line
        and not (about and speech_acts.hypothetical(item.content))
    )
    closeness = background.closeness(d[1]) if d is not None and background is not None else -1.0
    features = {
        "closeness": min(max(closeness, -2.0), 6.0) / 4,
        "coverage": coverage,
        "speaker": float(person >= ranking.SPEAKER_BOOST),
        "mention": float(1 < person < ranking.SPEAKER_BOOST),
        "subject": float(on_subject > 0),
        "temporal": float(query.asks_when and item.event_start is not None),
        "fact": float(item.kind is MemoryKind.FACT),
        "consolidated": float(item.kind is MemoryKind.CONSOLIDATED),
        "summary": float(item.kind is MemoryKind.SUMMARY),
        "request": float(act == "request"),
        "filler": float(filler),
        "disclosure": float(act == "disclosure"),
        "assistant": float(assistant),
        "about_user": float(about),
        "about_own": float(about and own),
        "about_request": float(about and act == "request"),
        "about_filler": float(about and filler),
        "about_assistant": float(about and assistant),
        "about_fact": float(about and item.kind is MemoryKind.FACT),
        "about_subject": float(about and on_subject > 0 and (own or item.kind is MemoryKind.FACT)),
        "about_self": float(about and own and speech_acts.self_subject(item.content)),
        "about_others": float(about_others and item.kind is MemoryKind.TURN and speech_acts.of_others(item.content)),
        "others_line": float(others_line),
        "outdated": float(outdated is not None and concerns(query, outdated)),
        "name_answer": float(name_answer),
        "number_answer": float(wants_number and has_number),
        "length": min(math.log1p(len(item.content.split())) / 5, 1.0),
    }
    of_others = others_line or (
        about_others and item.kind is MemoryKind.FACT and (item.key or "").startswith("person:")
    )
    return Signals(matched, matched_names, relevance, act, outdated, own, of_others, features)


STATEMENT_SUBJECTS = {
    "home": frozenset({"home"}),
    "rent": frozenset({"home", "money"}),
    "work": frozenset({"work"}),
    "role": frozenset({"work"}),
    "partner": frozenset({"family"}),
    "diet": frozenset({"food restrictions"}),
    "dose": frozenset({"health"}),
}
"""The thesaurus subjects (:mod:`~hipocampo.domain.retrieval.subjects`) of each subject a later
statement replaces (:data:`~hipocampo.domain.truth.replaced.SUBJECT_KEYS`), named in its key."""


def concerns(query: RecallQuery, change: Change) -> bool:
    """Whether a question asks about what a later statement changed in a turn. A turn is marked
    earlier whole, though it often said more than what changed: "i work nights at st ansgar
    regional, 7p-7a three nights a week" still says where the user works once "they switched me to
    days, 7a-7p" is said. So a statement a later one replaced by value ranks as not outdated for a
    question about another part of it (a shared word or subject with a clause that does not hold
    the old value), unless the question also bears on the change (the later statement, the old
    value's clause, or a number where the later statement gives one). Everything else ranks as
    outdated: a rule's fact, a statement taken back whole, a question that bears on neither part.
    Its line is rendered with its "earlier" note either way."""
    closed = change.closed
    key = (closed.key or "").split(":")
    old = fold(change.value)
    if key[0] != "statement" or len(key) < 3 or closed.metadata.get(TAKEN_BACK) or not old:
        return True
    clauses = [c for c in _CLAUSE.split(closed.content) if c.strip()]
    held = [c for c in clauses if old in fold(c)]
    others = [c for c in clauses if c not in held]
    if not held or not others:
        return True
    later = str(closed.metadata.get(LATER_STATEMENT) or "")
    changed = " ".join([later, change.value, *held])
    if _bears_on(query, changed, STATEMENT_SUBJECTS.get(key[1], frozenset())):
        return True
    if query.asks_for[1] and any(c.isdigit() for c in later):
        return True
    return not _bears_on(query, " ".join(others), frozenset())


_CLAUSE = re.compile(
    r"[,;.!?]+\s*|\s+(?:"
    + "|".join(f"{lang.clauses.AND}|{lang.changes.CLAUSE_BREAKS}" for lang in LANGUAGES.values())
    + r")\s+",
    re.IGNORECASE,
)
"""Where a turn's clauses part: punctuation, and each language's "and" and clause breaks ("but", "mas")."""


def _bears_on(query: RecallQuery, text: str, subjects_of: frozenset[str]) -> bool:
    """A shared subject (the thesaurus's, or the statement's own) or a shared word, in any form."""
    if query.subjects & (subjects.spoken_of(text) | subjects_of):
        return True
    said = frozenset(query_terms(text))
    return any(stems & said for stems in query.word_stems)


class _Row(NamedTuple):
    """One candidate between the two passes of :func:`rerank`."""

    memory_id: str
    item: MemoryItem
    dense: tuple[int, float] | None
    keyword: tuple[int, KeywordHit] | None
    matched: list[str]
    matched_names: list[str]
    relevance: float
    act: str | None
    outdated: Any
    features: dict[str, float]
    own: bool  # the user's own disclosure turn, or a fact, not about someone else


def _read_from_facts(query: RecallQuery, rows: list[_Row]) -> None:
    """What the current facts among the candidates say of the turns they were drawn from, in one
    pass over them:

    - A request a fact of the user was read from also says something of the user ("also whats a
      good question to open a user interview, im a ux researcher"): it is weighed as a disclosure,
      not a request. The speech act reads the turn's shape (it asks); the extractor found the
      first-person statement inside it. A fact about someone else ("person:...") does not count:
      the request then speaks of them.
    - ``slot``: the facts of the kind the question asks about
      (:data:`~hipocampo.domain.retrieval.subjects.FAMILIES`: "qual é meu cargo?" asks for an
      occupation or an employer), and the turns they were drawn from. The extractor typed what the
      turn said when it was written; a small embedder sees the request above as a question about
      interviews, and a filler line ("ooh good") sits as close to "what's my job title" as
      anything. A question about someone else ("where does my sister live?") asks for that
      person's facts of the kind (``person:home_city``), never the user's own.

    Read from the candidates alone: no read of its own."""
    wanted = subjects.families(query.subjects)
    if query.of_others:  # "where does my sister live?": her facts answer, not the user's own
        wanted = frozenset(f if f == "person" else f"person:{f}" for f in wanted)
    users: set[str] = set()  # turns a current fact of the user was drawn from
    slotted: set[str] = set()  # turns a current fact of the kind asked was drawn from
    for r in rows:
        item = r.item
        if item.kind is not MemoryKind.FACT or not item.key or r.outdated is not None:
            continue
        sources = {turn_memory_id(s) for s in item.source_message_ids}
        if not item.key.startswith("person:"):
            users |= sources
        if family(item.key) in wanted:
            r.features["slot"] = 1.0
            slotted |= sources
    about = float(query.about_user)
    for i, r in enumerate(rows):
        if r.outdated is not None or (r.memory_id not in users and r.memory_id not in slotted):
            continue
        f = r.features
        if r.memory_id in slotted:
            f["slot"] = 1.0
        if r.memory_id in users and f["request"]:
            f["request"] = f["about_request"] = 0.0
            f["disclosure"] = 1.0
            f["about_own"] = about
            f["about_subject"] = about * f["subject"]
            f["about_self"] = about * float(speech_acts.self_subject(r.item.content))
            rows[i] = r._replace(act="disclosure", own=True)


def _newest_own(model: learned.Ranker, rows: list[_Row]) -> None:
    """Mark, among the user's :data:`OWN_GROUP` best own lines on the subject the question asks
    about (by the first-pass logit: the model without its relative features), the newest
    (``own_newest``) and the others (``own_older``). People update what they said ("i quit
    deloitte and joined Ramp", "mudei-me para o Porto"), often without words that let a rule link
    the two, and both lines then match the question alike; the model weighs whether the later one
    is more likely what is true now. Current lines only (an outdated one is already marked); a line
    repeating the newest one's words is as new as it. A line about someone else ("my sister is
    allergic to shellfish", the fact drawn from it) is not the user's own: it updates nothing the
    user said of themselves, and taking the newest place it would outrank the user's own line."""
    own = [r for r in rows if r.own and r.outdated is None and r.features["about_subject"]]
    best = sorted(own, key=lambda r: model.logit(r.features), reverse=True)[:OWN_GROUP]
    if not best:
        return
    newest = max(r.item.created_at for r in best)
    # The same words said again are one statement, not an older one (nor are copies of a text).
    latest = {fold(r.item.content) for r in best if r.item.created_at >= newest}
    for r in best:
        r.features["own_newest" if fold(r.item.content) in latest else "own_older"] = 1.0


VALIDITY_POWER = 3
"""The outdated multiplier (``validity_boost``, 0.3) is cubed here (about 1/37): the learned
ranker's odds spread wider than the old boosts did (a memory sharing a name and two words with
the question stands 10x above one sharing none), and the statement a later fact replaced often
shares the most with the question ("Where do I work?" and "I work at Acme"). Still not 0: it
stays findable, marked, when it is the only evidence ("where did I work before?")."""

FUSION_FLOOR = 0.01
"""The least fused score whose log the ranker sees: a candidate found by neither list is not
infinitely bad."""

MAX_LOGIT = 30.0
"""Keeps ``exp`` of a (fitted, bounded) logit finite whatever a custom model holds."""

SOURCE_MARGIN = 0.99
"""A derived memory's score at most this share of its source turn's (see :func:`_below_sources`)."""


def _below_sources(hits: list[ScoredMemory]) -> None:
    """A fact never outranks the turn it came from: it restates that turn, so it cannot answer
    better, and a malformed one ("A usuária prefere manhã eu treino.") must not lead. When a
    source turn is among the candidates, the fact's score is capped just below it; the cap shows
    as its ``source`` boost."""
    # A turn a later fact made outdated in part ("I take metformin" after "no more metformin")
    # may still source a current fact ("has diabetes"): only current turns cap.
    turns = {h.memory.id: h.score for h in hits if h.memory.kind is MemoryKind.TURN and h.current}
    for h in hits:
        if h.memory.kind is not MemoryKind.FACT or not h.memory.source_message_ids:
            continue
        sources = [turns[t] for t in map(turn_memory_id, h.memory.source_message_ids) if t in turns]
        if sources and h.score > (cap := max(sources) * SOURCE_MARGIN):
            h.explanation.boosts["source"] = cap / h.score
            h.score = cap


def _act(item: MemoryItem) -> str | None:
    """A turn's speech act, read from its words (cached per text): never from its metadata, which is
    the caller's and must not steer the ranking."""
    if item.kind is not MemoryKind.TURN:
        return None
    return speech_acts.classify(item.content)
