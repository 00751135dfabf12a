"""Nightly consolidation: related memories of a user become one consolidated memory.

For each user, the current facts, summaries and turns of the lookback window are embedded and
clustered (:mod:`hipocampo.domain.clustering`). Each cluster big enough becomes a
``MemoryKind.CONSOLIDATED`` memory: a title, the period, the facts it holds, recurring patterns
and how keyed facts evolved, with the members' sources. No LLM is involved, so the text is
deterministic and says the same in any language: labels are fixed, the rest is the members' own
words.

Re-running is safe. A consolidated memory's id is derived from its members, so the same cluster
upserts the same memory; when a cluster grows, the consolidated memory of its former members is
superseded (kept, with history). Near-duplicate facts are merged on the way: the older one stays
current and absorbs the newer one's mentions and sources.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np

from ..domain.clustering import centre, cluster, near_duplicates
from ..domain.model import (
    HistoryEntry,
    HistoryEvent,
    Job,
    MemoryItem,
    MemoryKind,
    Role,
    Scope,
    as_utc,
    content_hash,
)
from ..domain.reconcile import FACT_VALUE, normalise_value
from ..domain.text import content_words, fold, names_in
from .deps import Deps
from .indexing import embed_in_batches
from .ingest import INDEX_MEMORIES_JOB

log = logging.getLogger(__name__)

CONSOLIDATE_JOB = "consolidate_user"
ACTOR = "consolidation"
MAX_MEMORIES = 2_000  # the most recent memories of the window that one run considers
PAGE = 500
SOURCE_KINDS = (MemoryKind.FACT, MemoryKind.SUMMARY, MemoryKind.TURN)
KIND_ORDER = {MemoryKind.FACT: 0, MemoryKind.SUMMARY: 1, MemoryKind.TURN: 2}
IMPORTANCE = 0.8
MAX_FACTS = 5
MAX_FACT_CHARS = 200
MAX_PATTERNS = 8
TITLE_TERMS = 3
MAX_EVOLUTION_STEPS = 5
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


@dataclass
class ConsolidationPolicy:
    lookback_days: int = 30
    threshold: float = 0.75  # cosine to a cluster's centroid needed to join it (few memories)
    centred_threshold: float = 0.5  # the same, on centred vectors, once there are enough of them
    min_cluster: int = 3  # smaller clusters are left alone
    duplicate_threshold: float = 0.95  # cosine at which two facts of the same slot are one


@dataclass
class ConsolidationReport:
    clusters: int  # clusters big enough to consolidate, new or unchanged
    consolidated_ids: list[str]  # one per cluster, in cluster order
    merged_duplicates: list[tuple[str, str]]  # (kept, merged away)
    memories_seen: int
    superseded_ids: list[str] = field(default_factory=list)  # older consolidated memories replaced


async def consolidate(
    deps: Deps, scope: Scope, policy: ConsolidationPolicy, *, now: datetime | None = None
) -> ConsolidationReport:
    """Consolidate one user's recent memories. Every write commits in one transaction."""
    now = as_utc(now or deps.clock.now())
    items = await _candidates(deps, scope, now - timedelta(days=policy.lookback_days), now)
    report = ConsolidationReport(0, [], [], len(items))
    if not items:
        return report
    vectors = await asyncio.to_thread(embed_in_batches, deps, [m.index_text for m in items])
    merges = await _duplicates(deps, items, policy.duplicate_threshold)
    for older, newer in merges:  # so the drafts below rank by the merged mention counts
        _absorb(older, newer, now)
    keep = [i for i, m in enumerate(items) if m.valid_to is None]
    groups = [
        [items[keep[i]] for i in c]
        for c in _clusters(vectors[keep], policy)
    ]
    evolution = await _evolution(deps, scope, [m for g in groups for m in g])
    drafts = [_draft(scope, g, evolution, now) for g in groups]
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


async def run_job(deps: Deps, job: Job, policy: ConsolidationPolicy) -> ConsolidationReport:
    """The worker's handler for :data:`CONSOLIDATE_JOB`: consolidate the job's user, complete the job.

    Consolidating is idempotent, so a crash before the completion only repeats harmless work."""
    report = await consolidate(deps, Scope(job.tenant_id, job.user_id), policy)
    async with deps.uow.transaction():
        if job.id is not None:
            await deps.jobs.complete([job.id])
    return report


# --- reading -------------------------------------------------------------------------------


CENTRE_MIN = 50
"""Centring needs a varied set: on a handful of memories about one topic, their mean *is* the
topic, and subtracting it would scatter them."""


def _clusters(vectors: np.ndarray, policy: ConsolidationPolicy) -> list[list[int]]:
    min_size = max(policy.min_cluster, 1)
    if len(vectors) >= CENTRE_MIN:
        return cluster(centre(vectors), threshold=policy.centred_threshold, min_size=min_size)
    return cluster(vectors, threshold=policy.threshold, min_size=min_size)


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
    found.sort(key=lambda m: (m.created_at, m.thread_id or "", m.seq or 0, m.id))
    return found


def _eligible(m: MemoryItem, now: datetime) -> bool:
    if m.kind not in SOURCE_KINDS or m.valid_to is not None or m.created_at > now:
        return False
    if m.expires_at is not None and m.expires_at <= now:
        return False
    return not (m.kind is MemoryKind.TURN and m.role in (Role.SYSTEM, Role.TOOL))


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


async def _evolution(deps: Deps, scope: Scope, members: Sequence[MemoryItem]) -> dict[str, str]:
    """``"key: old → newer → current"`` per keyed fact member that superseded earlier values,
    following the UPDATE entries that the superseded facts' histories point from."""
    keyed = {m.id: m for m in members if m.kind is MemoryKind.FACT and m.key}
    if not keyed:
        return {}
    keys = {m.key for m in keyed.values()}
    previous: dict[str, MemoryItem] = {}  # successor id -> the fact it superseded
    for old in await _all_of_kind(deps, scope, MemoryKind.FACT):
        if old.valid_to is None or old.key not in keys:
            continue
        for entry in await deps.memories.history(scope, old.id):
            if entry.event is HistoryEvent.UPDATE and entry.related_id:
                previous.setdefault(entry.related_id, old)
    lines = {}
    for m in keyed.values():
        chain, cur = [m], m
        while cur.id in previous and len(chain) <= MAX_EVOLUTION_STEPS and previous[cur.id] not in chain:
            cur = previous[cur.id]
            chain.append(cur)
        if len(chain) > 1:
            lines[m.id] = f"{m.key}: " + " → ".join(_value(f) for f in reversed(chain))
    return lines


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


def consolidated_id(scope: Scope, member_ids: Sequence[str]) -> str:
    """Derived from the user and the sorted member ids: the same cluster gets the same id."""
    key = "\x1f".join([scope.tenant_id, scope.user_id, *sorted(member_ids)])
    return "consolidated_" + content_hash(key)[:32]


def _draft(scope: Scope, members: list[MemoryItem], evolution: dict[str, str], now: datetime) -> MemoryItem:
    start = min(m.created_at for m in members)
    newest = max(members, key=lambda m: m.created_at)
    period = f"from {start:%Y-%m-%d} to {newest.created_at:%Y-%m-%d}"
    terms = _terms(members)
    title = " · ".join(t for t, _ in terms[:TITLE_TERMS]) or "memories"
    half = (len(members) + 1) // 2
    patterns = [t for t, df in terms if df >= half][:MAX_PATTERNS]
    lines = [title, f"{period} ({len(members)} memories)", "Facts:"]
    lines += [f"- {text}" for text in _facts(members)]
    if patterns:
        lines.append("Recurring: " + ", ".join(patterns))
    changes = [evolution[m.id] for m in members if m.id in evolution]
    if changes:
        lines.append("Evolution: " + "; ".join(changes))
    ids = sorted(m.id for m in members)
    return MemoryItem(
        id=consolidated_id(scope, ids),
        scope=scope,
        kind=MemoryKind.CONSOLIDATED,
        content="\n".join(lines),
        created_at=newest.created_at,
        importance=IMPORTANCE,
        source_message_ids=list(dict.fromkeys(s for m in members for s in m.source_message_ids)),
        metadata={
            "title": title,
            "member_ids": ids,
            "period_start": start.isoformat(),
            "period_end": newest.created_at.isoformat(),
            "cluster_size": len(members),
        },
        updated_at=now,
    )


def _terms(members: list[MemoryItem]) -> list[tuple[str, int]]:
    """Content words and names by how many members use them (then how often, then first use).

    A word shows capitalised when it is only ever written so (a name), else in lower case."""
    df: Counter[str] = Counter()
    tf: Counter[str] = Counter()
    first: dict[str, int] = {}
    capitalised: dict[str, str] = {}
    lowered: set[str] = set()
    for m in members:
        words = [w for w in content_words(m.content) if not w.isdigit()]
        for w in words:
            first.setdefault(fold(w), len(first))
        tf.update(fold(w) for w in words)
        df.update({fold(w) for w in words})
        for name in names_in(m.content):
            capitalised.setdefault(fold(name), name)
        lowered |= {fold(t) for t in _TOKEN.findall(m.content) if t.islower()}
    order = sorted(df, key=lambda t: (-df[t], -tf[t], first[t]))
    return [(capitalised[t] if t in capitalised and t not in lowered else t, df[t]) for t in order]


def _facts(members: list[MemoryItem]) -> list[str]:
    """Up to ``MAX_FACTS`` member texts: facts first, then by importance and mentions."""
    ranked = sorted(
        members, key=lambda m: (KIND_ORDER.get(m.kind, 3), -m.importance, -m.mention_count, m.created_at, m.id)
    )
    seen: set[str] = set()
    out = []
    for m in ranked:
        text = " ".join(m.content.split())
        if len(text) > MAX_FACT_CHARS:
            text = text[: MAX_FACT_CHARS - 1].rstrip() + "…"
        if m.kind is MemoryKind.TURN and m.name:
            text = f"{m.name}: {text}"
        if fold(text) in seen:
            continue
        seen.add(fold(text))
        out.append(text)
        if len(out) == MAX_FACTS:
            break
    return out


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
        await deps.memories.add_history(scope, [
            HistoryEntry(newer.id, HistoryEvent.DELETE, now, newer.content, None, ACTOR,
                         f"merged into {older.id}", older.id),
            HistoryEntry(older.id, HistoryEvent.MENTION, now, None, None, ACTOR,
                         f"absorbed near-duplicate {newer.id}", newer.id),
        ])
        done.append((older.id, newer.id))
    return done


async def _write_consolidated(
    deps: Deps, scope: Scope, draft: MemoryItem, current: list[MemoryItem], now: datetime,
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
        await deps.memories.add_history(scope, [
            HistoryEntry(old.id, HistoryEvent.UPDATE, now, old.content, draft.content, ACTOR,
                         "its members grew into a larger cluster", draft.id),
        ])
        report.superseded_ids.append(old.id)
    found = await deps.memories.get_many(scope, [draft.id])
    existing = found[0] if found else None
    if existing is not None and existing.valid_to is None and _same(existing, draft):
        return False
    await deps.memories.upsert([draft])
    if existing is None or existing.valid_to is not None:
        await deps.memories.add_history(scope, [
            HistoryEntry(draft.id, HistoryEvent.ADD, now, None, draft.content, ACTOR,
                         f"consolidated {len(members)} memories"),
        ])
    return True


def _same(a: MemoryItem, b: MemoryItem) -> bool:
    return (a.content, a.source_message_ids, a.metadata) == (b.content, b.source_message_ids, b.metadata)
