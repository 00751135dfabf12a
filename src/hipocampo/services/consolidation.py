"""Nightly consolidation: related memories of a user become one consolidated memory.

For each user, the current facts, summaries and turns of the lookback window (filler turns
left out) are embedded and clustered (:mod:`hipocampo.domain.summaries.clustering`), then each cluster is
made topic-coherent: split where its members share no salient word or topic, and rid of members
far from the rest, so unrelated topics never share a memory. Each cluster big enough becomes a
``MemoryKind.CONSOLIDATED`` memory: a title, the period, the facts that hold now, recurring
patterns and how facts evolved (old → new, with dates), with the members' sources
(:mod:`.consolidation_text`). Offline, the text is assembled by fixed rules from the members'
own words; with a chat model configured, the model writes it in the same shape.

Re-running is safe. A consolidated memory's id is derived from its members, so the same cluster
upserts the same memory; when a cluster grows, the consolidated memory of its former members is
superseded (kept, with history). Near-duplicate facts are merged on the way: the older one stays
current and absorbs the newer one's mentions and sources.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np

from ..domain.model import (
    HistoryEntry,
    HistoryEvent,
    Job,
    MemoryItem,
    MemoryKind,
    Scope,
    as_utc,
)
from ..domain.summaries.clustering import centre, cluster, coherent, near_duplicates
from ..domain.text import fold
from ..domain.truth.reconcile import FACT_VALUE, normalise_value
from ..ports import ChatModel
from .consolidation_text import Context, consolidated_id, eligible_text, speakers_of, topic_terms
from .consolidation_text import draft as _draft
from .consolidation_text import write_with_llm as _write_with_llm
from .deps import Deps
from .indexing import embed_in_batches
from .ingest import INDEX_MEMORIES_JOB

__all__ = [
    "CONSOLIDATE_JOB",
    "ConsolidationPolicy",
    "ConsolidationReport",
    "consolidate",
    "consolidate_all",
    "consolidated_id",
    "latest_activity",
    "next_run",
    "run_job",
]

log = logging.getLogger(__name__)

CONSOLIDATE_JOB = "consolidate_user"
ACTOR = "consolidation"
MAX_MEMORIES = 2_000  # the most recent memories of the window that one run considers
PAGE = 500
SOURCE_KINDS = (MemoryKind.FACT, MemoryKind.SUMMARY, MemoryKind.TURN)
MAX_EVOLUTION_STEPS = 5
RETRACTED = "retracted"
"""The Evolution step of a fact taken back ("goal: half marathon (2024-01-05) → retracted
(2024-02-01)"), in the memory's labels' language, as "Facts:" and "Evolution:" are."""


@dataclass
class ConsolidationPolicy:
    lookback_days: int = 90  # settings.consolidation_lookback_days
    threshold: float = 0.75  # cosine to a cluster's centroid needed to join it (few memories)
    centred_threshold: float = 0.5  # the same, on centred vectors, once there are enough of them
    min_cluster: int = 3  # smaller clusters are left alone
    duplicate_threshold: float = 0.95  # cosine at which two facts of the same slot are one
    coherence: float = 0.45  # a member's least cosine to the centroid of the others (raw vectors)
    centred_coherence: float = 0.25  # the same, on centred vectors


@dataclass
class ConsolidationReport:
    clusters: int  # clusters big enough to consolidate, new or unchanged
    consolidated_ids: list[str]  # one per cluster, in cluster order
    merged_duplicates: list[tuple[str, str]]  # (kept, merged away)
    memories_seen: int
    superseded_ids: list[str] = field(default_factory=list)  # older consolidated memories replaced


async def consolidate(
    deps: Deps,
    scope: Scope,
    policy: ConsolidationPolicy,
    *,
    now: datetime | None = None,
    llm: ChatModel | None = None,
) -> ConsolidationReport:
    """Consolidate one user's recent memories. Every write commits in one transaction.

    With a chat model (``llm``, else ``deps.chat``: the configured one), the model writes each
    new or changed consolidated memory, outside the transaction; an unchanged cluster keeps its
    text without a call."""
    llm = llm if llm is not None else deps.chat
    now = as_utc(now or deps.clock.now())
    anchor = await latest_activity(deps, scope, now) or now
    items = await _candidates(deps, scope, anchor - timedelta(days=policy.lookback_days), now)
    report = ConsolidationReport(0, [], [], len(items))
    if not items:
        return report
    vectors = await asyncio.to_thread(embed_in_batches, deps, [m.index_text for m in items])
    merges = await _duplicates(deps, items, policy.duplicate_threshold)
    for older, newer in merges:  # so the drafts below rank by the merged mention counts
        _absorb(older, newer, now)
    keep = [i for i, m in enumerate(items) if m.valid_to is None]
    kept = [items[i] for i in keep]
    speakers = speakers_of(items)
    groups = [[kept[i] for i in c] for c in _clusters(vectors[keep], topic_terms(kept, speakers), policy)]
    ctx = await _context(deps, scope, [m for g in groups for m in g], speakers, now)
    drafts = [_draft(scope, g, ctx, now) for g in groups]
    if llm is not None and drafts:
        drafts = await _written(deps, scope, llm, drafts, groups, ctx)
    async with deps.uow.transaction():
        report.merged_duplicates = await _write_merges(deps, scope, merges, now)
        current = [m for m in await _all_of_kind(deps, scope, MemoryKind.CONSOLIDATED) if m.valid_to is None]
        to_index = []
        for draft in drafts:
            if await _write_consolidated(deps, scope, draft, current, now, report):
                to_index.append(draft.id)
        if to_index:
            job = Job(INDEX_MEMORIES_JOB, {"memory_ids": to_index}, scope.tenant_id, scope.user_id)
            await deps.jobs.enqueue([job])
    report.clusters = len(drafts)
    report.consolidated_ids = [d.id for d in drafts]
    return report


async def consolidate_all(
    deps: Deps, policy: ConsolidationPolicy, now: datetime | None = None
) -> dict[str, ConsolidationReport]:
    """Consolidate every user that has memories; reports keyed ``"tenant/user"``.

    A user whose run fails is logged and left out of the result; the others still run."""
    now = as_utc(now or deps.clock.now())
    reports = {}
    for tenant, user in await deps.memories.scopes():
        try:
            reports[f"{tenant}/{user}"] = await consolidate(deps, Scope(tenant, user), policy, now=now)
        except Exception:
            log.exception("consolidation failed for %s/%s", tenant, user)
    return reports


def next_run(now: datetime, hour: int = 3) -> datetime:
    """The next ``hour``:00 UTC strictly after ``now`` (when a nightly job runs next)."""
    if not 0 <= hour <= 23:
        raise ValueError("hour must be between 0 and 23")
    now = as_utc(now)
    at = now.replace(hour=hour, minute=0, second=0, microsecond=0)
    return at if at > now else at + timedelta(days=1)


async def run_job(
    deps: Deps, job: Job, policy: ConsolidationPolicy, *, llm: ChatModel | None = None
) -> ConsolidationReport:
    """The worker's handler for :data:`CONSOLIDATE_JOB`: consolidate the job's user, complete the job.

    Consolidating is idempotent, so a crash before the completion only repeats harmless work."""
    report = await consolidate(deps, Scope(job.tenant_id, job.user_id), policy, llm=llm)
    async with deps.uow.transaction():
        if job.id is not None:
            await deps.jobs.complete([job.id])
    return report


# --- reading -------------------------------------------------------------------------------


CENTRE_MIN = 50
"""Centring needs a varied set: on a handful of memories about one topic, their mean *is* the
topic, and subtracting it would scatter them."""


def _clusters(vectors: np.ndarray, terms: list[frozenset[str]], policy: ConsolidationPolicy) -> list[list[int]]:
    min_size = max(policy.min_cluster, 1)
    if len(vectors) >= CENTRE_MIN:
        vectors, threshold, coherence = centre(vectors), policy.centred_threshold, policy.centred_coherence
    else:
        threshold, coherence = policy.threshold, policy.coherence
    raw = cluster(vectors, threshold=threshold, min_size=min_size)
    return coherent(raw, vectors, terms, min_similarity=coherence, min_size=min_size)


async def latest_activity(deps: Deps, scope: Scope, now: datetime) -> datetime | None:
    """When the user last said something (their newest turn, else their newest memory), up to
    ``now``: where the lookback counts back from. A history imported today with turns from last
    year is consolidated around last year, not found empty because the wall clock moved on."""
    until = now + timedelta(microseconds=1)  # ``until`` is exclusive; a memory of ``now`` counts
    for kind in (MemoryKind.TURN, None):
        found = await deps.memories.list(scope, kind=kind, until=until, limit=1)
        if found:
            return as_utc(found[0].created_at)
    return None


async def _candidates(deps: Deps, scope: Scope, since: datetime, now: datetime) -> list[MemoryItem]:
    """The newest ``MAX_MEMORIES`` current facts, summaries and turns since ``since``, oldest first."""
    found: list[MemoryItem] = []
    offset = 0
    while len(found) < MAX_MEMORIES:
        page = await deps.memories.list(scope, since=since, limit=PAGE, offset=offset)
        found += [m for m in page if _eligible(m, now)]
        if len(page) < PAGE:
            break
        offset += PAGE
    found = found[:MAX_MEMORIES]
    found.sort(
        key=lambda m: (m.created_at, m.thread_id or "", m.seq or 0, m.content, m.id)
    )  # ids are random: content first
    return found


def _eligible(m: MemoryItem, now: datetime) -> bool:
    if m.kind not in SOURCE_KINDS or m.valid_to is not None or m.created_at > now:
        return False
    if m.expires_at is not None and m.expires_at <= now:
        return False
    return eligible_text(m)


async def _all_of_kind(deps: Deps, scope: Scope, kind: MemoryKind) -> list[MemoryItem]:
    found: list[MemoryItem] = []
    offset = 0
    while len(found) < MAX_MEMORIES:
        page = await deps.memories.list(scope, kind=kind, limit=PAGE, offset=offset)
        found += page
        if len(page) < PAGE:
            break
        offset += PAGE
    return found


async def _context(
    deps: Deps, scope: Scope, members: Sequence[MemoryItem], speakers: frozenset[str], now: datetime
) -> Context:
    """What the drafts need from the user's facts: which messages stated superseded or current
    facts (and which current facts each stated: a cluster's facts are those, read from the fact
    store), and per member the evolution of the keys it is about (a current keyed fact, or a turn
    that stated a value superseded or retracted since), as ``"key: old (day) → new (day)"`` or
    ``"key: old (day) → retracted (day)"``."""
    ctx = Context(speakers=speakers)
    if not members:
        return ctx
    facts = await _all_of_kind(deps, scope, MemoryKind.FACT)
    ctx.superseded_sources = frozenset(s for f in facts if f.valid_to is not None for s in f.source_message_ids)
    ctx.fact_sources = frozenset(s for f in facts if f.valid_to is None for s in f.source_message_ids)
    stated: dict[str, list[MemoryItem]] = {}
    for f in facts:
        if f.is_current(now):
            for s in f.source_message_ids:
                stated.setdefault(s, []).append(f)
    ctx.stated = stated
    holding = {w for f in facts if f.valid_to is None for w in fold(str(f.metadata.get(FACT_VALUE) or "")).split()}
    ctx.stale_words = (
        frozenset(
            w for f in facts if f.valid_to is not None for w in fold(str(f.metadata.get(FACT_VALUE) or "")).split()
        )
        - holding
    )
    stated_by = {s: f for f in facts if f.key for s in f.source_message_ids}
    keys_of: dict[str, set[str]] = {}
    for m in members:
        if m.kind is MemoryKind.FACT and m.key:
            keys_of.setdefault(m.id, set()).add(m.key)
        for s in m.source_message_ids:
            if s in stated_by and stated_by[s].valid_to is not None:
                keys_of.setdefault(m.id, set()).add(stated_by[s].key or "")
    keys = {k for ks in keys_of.values() for k in ks}
    if not keys:
        return ctx
    previous: dict[str, MemoryItem] = {}  # successor id -> the fact it superseded
    retracted: list[tuple[MemoryItem, datetime]] = []  # taken back, with no successor
    for old in facts:
        if old.valid_to is None or old.key not in keys:
            continue
        entries = await deps.memories.history(scope, old.id)
        for entry in entries:
            if entry.event is HistoryEvent.UPDATE and entry.related_id:
                previous.setdefault(entry.related_id, old)
        taken_back = [e for e in entries if e.event is HistoryEvent.DELETE and not e.related_id]  # not a merge
        if taken_back and not any(e.event is HistoryEvent.UPDATE for e in entries):
            retracted.append((old, taken_back[0].created_at))
    lines: dict[str, str] = {}
    for old, when in sorted(retracted, key=lambda r: r[1]):
        if not any(f.valid_to is None and f.key == old.key for f in facts):  # a goal taken back, not replaced
            step = f"{_value(old)} ({old.created_at:%Y-%m-%d}) → {RETRACTED} ({as_utc(when):%Y-%m-%d})"
            lines[old.key or ""] = f"{old.key}: {step}"
    for current in (f for f in facts if f.valid_to is None and f.key in keys):
        chain, cur = [current], current
        while cur.id in previous and len(chain) <= MAX_EVOLUTION_STEPS and previous[cur.id] not in chain:
            cur = previous[cur.id]
            chain.append(cur)
        if len(chain) > 1:
            steps = " → ".join(f"{_value(f)} ({f.created_at:%Y-%m-%d})" for f in reversed(chain))
            lines.setdefault(current.key or "", f"{current.key}: {steps}")
    ctx.evolution = {
        m: [lines[k] for k in sorted(ks) if k in lines] for m, ks in keys_of.items() if any(k in lines for k in ks)
    }
    return ctx


async def _written(
    deps: Deps, scope: Scope, llm: ChatModel, drafts: list[MemoryItem], groups: list[list[MemoryItem]], ctx: Context
) -> list[MemoryItem]:
    """The model's text for each draft, except where the stored memory already holds the model's
    text for the same members and the same material (no call, no churn)."""
    stored = {m.id: m for m in await deps.memories.get_many(scope, [d.id for d in drafts])}
    out = []
    with llm.job():
        for d, members in zip(drafts, groups, strict=True):
            old = stored.get(d.id)
            if (
                old is not None
                and old.valid_to is None
                and old.metadata.get("writer") == "llm"
                and old.metadata.get("basis") == d.metadata["basis"]
            ):
                out.append(old)
            else:
                out.append(await _write_with_llm(llm, d, members, ctx))
    return out


def _value(m: MemoryItem) -> str:
    return str(m.metadata.get(FACT_VALUE) or m.content)


# --- planning ------------------------------------------------------------------------------


async def _duplicates(deps: Deps, items: list[MemoryItem], threshold: float) -> list[tuple[MemoryItem, MemoryItem]]:
    """(older, newer) facts of the same slot and value whose contents nearly coincide.

    Contents, not index texts: the day that starts an index text would keep apart the same fact
    stated on two different days."""
    facts = [m for m in items if m.kind is MemoryKind.FACT]
    if len(facts) < 2:
        return []
    vectors = await asyncio.to_thread(embed_in_batches, deps, [m.content for m in facts])
    keys = [(m.key, normalise_value(m.metadata.get(FACT_VALUE))) for m in facts]
    return [(facts[a], facts[b]) for a, b in near_duplicates(vectors, keys, threshold=threshold)]


def _absorb(older: MemoryItem, newer: MemoryItem, now: datetime) -> None:
    older.mention_count += newer.mention_count
    older.source_message_ids = list(dict.fromkeys([*older.source_message_ids, *newer.source_message_ids]))
    older.updated_at = now
    newer.valid_to = now
    newer.updated_at = now


# --- writing (inside the transaction) --------------------------------------------------------


async def _write_merges(
    deps: Deps, scope: Scope, merges: list[tuple[MemoryItem, MemoryItem]], now: datetime
) -> list[tuple[str, str]]:
    """Apply the planned merges to fresh copies (a fact may have been mentioned meanwhile)."""
    done = []
    for planned_older, planned_newer in merges:
        fresh = {m.id: m for m in await deps.memories.get_many(scope, [planned_older.id, planned_newer.id])}
        older, newer = fresh.get(planned_older.id), fresh.get(planned_newer.id)
        if older is None or newer is None or older.valid_to is not None or newer.valid_to is not None:
            continue
        _absorb(older, newer, now)
        await deps.memories.upsert([older, newer])
        await deps.memories.add_history(
            scope,
            [
                HistoryEntry(
                    newer.id, HistoryEvent.DELETE, now, newer.content, None, ACTOR, f"merged into {older.id}", older.id
                ),
                HistoryEntry(
                    older.id,
                    HistoryEvent.MENTION,
                    now,
                    None,
                    None,
                    ACTOR,
                    f"absorbed near-duplicate {newer.id}",
                    newer.id,
                ),
            ],
        )
        done.append((older.id, newer.id))
    return done


async def _write_consolidated(
    deps: Deps,
    scope: Scope,
    draft: MemoryItem,
    current: list[MemoryItem],
    now: datetime,
    report: ConsolidationReport,
) -> bool:
    """Upsert ``draft`` and supersede the ``current`` consolidated memories whose members are a
    subset of its members. Returns whether the draft was written (so it needs indexing)."""
    members = set(draft.metadata["member_ids"])
    for old in current:
        old_members = set(old.metadata.get("member_ids") or ())
        if old.id == draft.id or old.valid_to is not None or not old_members or not old_members <= members:
            continue
        old.valid_to = now
        old.updated_at = now
        await deps.memories.upsert([old])
        await deps.memories.add_history(
            scope,
            [
                HistoryEntry(
                    old.id,
                    HistoryEvent.UPDATE,
                    now,
                    old.content,
                    draft.content,
                    ACTOR,
                    "its members grew into a larger cluster",
                    draft.id,
                ),
            ],
        )
        report.superseded_ids.append(old.id)
    found = await deps.memories.get_many(scope, [draft.id])
    existing = found[0] if found else None
    if existing is not None and existing.valid_to is None and _same(existing, draft):
        return False
    await deps.memories.upsert([draft])
    if existing is None or existing.valid_to is not None:
        await deps.memories.add_history(
            scope,
            [
                HistoryEntry(
                    draft.id, HistoryEvent.ADD, now, None, draft.content, ACTOR, f"consolidated {len(members)} memories"
                ),
            ],
        )
    return True


def _same(a: MemoryItem, b: MemoryItem) -> bool:
    return (a.content, a.source_message_ids, a.metadata) == (b.content, b.source_message_ids, b.metadata)
