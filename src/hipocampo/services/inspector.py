"""Read models of the web inspector (``/ui``): a tenant's users at a glance, one user's memory
laid out for people (facts by type with their history, people and pets, threads, consolidated
memories, memories over time) and a tenant's job queue.

Every function takes the caller's tenant or scope and reads through it only, like the other
services the entry points use; the inspector never reaches a port itself.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from ..domain.model import HistoryEntry, Job, MemoryItem, MemoryKind, MemoryType, Scope, Summary
from ..domain.truth.validity import Validity
from . import browse
from .deps import Deps
from .facts import custom_memory_types

PAGE = 1000
STATEMENT_KEY = "statement:"
"""The key family of a turn a later statement replaced or took back (``services/fact_upkeep.py``):
no typed fact, so the inspector groups them apart rather than as "untyped" facts."""
EARLIER_STATEMENTS = "earlier statements"
MAX_SCANNED = 20_000
"""Memories one user page reads at most: past it the page says it shows the newest ones only."""
MAX_HISTORIES = 400
"""Facts whose history a user page reads (one query each): the newest ones."""


@dataclass
class UserRow:
    user_id: str
    threads: int
    messages: int
    memories: int
    last_activity: datetime | None


async def user_rows(deps: Deps, tenant_id: str, *, offset: int = 0, limit: int = 50) -> tuple[list[UserRow], int]:
    """A page of the tenant's users with their counts and last activity, and how many there are.

    Last activity is when the newest memory was said (turns are memories once indexed, saved
    facts at once): one indexed read per user instead of a pass over their threads."""
    users = await browse.list_users(deps, tenant_id)
    rows = []
    for user_id in users[offset : offset + limit]:
        scope = Scope(tenant_id, user_id)
        newest = await deps.memories.list(scope, limit=1)
        rows.append(
            UserRow(
                user_id,
                threads=len(await deps.log.threads(scope)),
                messages=await deps.log.count(scope),
                memories=await deps.memories.count(scope),
                last_activity=newest[0].created_at if newest else None,
            )
        )
    return rows, len(users)


@dataclass
class Slot:
    """One fact's slot ("home_city") over time: what holds now (None if retracted) and what held
    before, with every change to any of them, oldest first."""

    current: MemoryItem | None
    earlier: list[MemoryItem]
    history: list[HistoryEntry] = field(default_factory=list)

    @property
    def latest(self) -> MemoryItem:
        return self.current or self.earlier[0]


@dataclass
class UserMemory:
    user_id: str
    facts: dict[str, list[Slot]]  # by type name, then slot; people and pets apart
    entities: list[Slot]
    threads: list[dict[str, Any]]  # id, summary, updates (what the summary states that changed since)
    consolidated: list[tuple[MemoryItem, str | None]]  # with the note of what replaced what it says
    by_period: list[tuple[str, dict[str, int]]]  # ("2024-05", {"turn": 12, "fact": 3})
    kinds: dict[str, int]
    scanned: int
    truncated: bool


async def user_memory(deps: Deps, scope: Scope) -> UserMemory:
    """Everything the user page shows, read once. Superseded, retracted and expired facts are
    never current here: :meth:`MemoryItem.is_current` decides, as recall does."""
    now = deps.clock.now()
    items: list[MemoryItem] = []
    while len(items) < MAX_SCANNED and (page := await deps.memories.list(scope, limit=PAGE, offset=len(items))):
        items += page
    truncated = len(items) >= MAX_SCANNED
    facts = [m for m in items if m.kind is MemoryKind.FACT]
    slots = _slots(facts, now)
    for slot in sorted(slots, key=lambda s: s.latest.updated_at or s.latest.created_at, reverse=True)[:MAX_HISTORIES]:
        entries = [e for m in _members(slot) for e in await deps.memories.history(scope, m.id)]
        slot.history = sorted(entries, key=lambda e: e.created_at)
    by_type: dict[str, list[Slot]] = defaultdict(list)
    entities = []
    for slot in slots:
        if slot.latest.memory_type is MemoryType.ENTITY:
            entities.append(slot)
        elif (slot.latest.key or "").startswith(STATEMENT_KEY):  # a turn a later one replaced: no typed fact
            by_type[EARLIER_STATEMENTS].append(slot)
        else:
            by_type[slot.latest.type_name or "untyped"].append(slot)
    validity = await browse.validity(deps, scope)
    threads = []
    for thread_id in await deps.log.threads(scope):
        summary = await browse.thread_summary(deps, scope, thread_id)
        threads.append({"id": thread_id, "summary": summary, "updates": _updates(validity, summary)})
    return UserMemory(
        user_id=scope.user_id,
        facts=dict(sorted(by_type.items(), key=lambda kv: _type_order(kv[0]))),
        entities=entities,
        threads=threads,
        consolidated=[(m, validity.note(m)) for m in items if m.kind is MemoryKind.CONSOLIDATED],
        by_period=_by_period(items),
        kinds=_kinds(items, now),
        scanned=len(items),
        truncated=truncated,
    )


def _slots(facts: list[MemoryItem], now: datetime) -> list[Slot]:
    """Facts grouped by slot key (a fact without one is its own slot); current ones first."""
    grouped: dict[str, list[MemoryItem]] = defaultdict(list)
    for m in facts:
        grouped[f"{m.type_name}|{m.key}" if m.key else f"id|{m.id}"].append(m)
    slots = []
    for members in grouped.values():
        current = [m for m in members if m.is_current(now)]
        closed = sorted(
            (m for m in members if not m.is_current(now)), key=lambda m: m.valid_to or m.created_at, reverse=True
        )
        if current:  # two current values of one slot (a second sister) are two slots
            slots += [Slot(c, closed if i == 0 else []) for i, c in enumerate(current)]
        else:
            slots.append(Slot(None, closed))
    return sorted(slots, key=lambda s: (s.current is None, -(s.latest.updated_at or s.latest.created_at).timestamp()))


def _members(slot: Slot) -> list[MemoryItem]:
    return ([slot.current] if slot.current else []) + slot.earlier


def _type_order(name: str) -> tuple[int, str]:
    builtin = [t.value for t in MemoryType]
    if name == EARLIER_STATEMENTS:  # after every fact: they say what no longer holds
        return (len(builtin) + 1, name)
    return (builtin.index(name), name) if name in builtin else (len(builtin), name)


def _by_period(items: list[MemoryItem]) -> list[tuple[str, dict[str, int]]]:
    """Counts by kind per month, or per day when everything fits in two months; every period
    between the first and the last is present, empty or not, so the chart's gaps are real."""
    if not items:
        return []
    days = [m.created_at.date() for m in items]
    first, last = min(days), max(days)
    daily = (last - first).days <= 62

    def label(d: date) -> str:
        return d.isoformat() if daily else f"{d:%Y-%m}"

    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for m, d in zip(items, days, strict=True):
        counts[label(d)][m.kind.value] += 1
    periods: list[str] = []
    d = first
    while d <= last:
        if not periods or periods[-1] != label(d):
            periods.append(label(d))
        d = date.fromordinal(d.toordinal() + 1)
    return [(p, dict(counts.get(p, {}))) for p in periods]


def _updates(validity: Validity, summary: Summary | None) -> list[str]:
    """What a summary states that a later fact replaced ("employer Acme → Globex (2024-06-02)")."""
    if summary is None:
        return []
    return [c.update_line() for c in validity.updates_in(summary.content, summary.updated_at)]


async def thread_view(deps: Deps, scope: Scope, thread_id: str, *, limit: int = 500) -> dict[str, Any]:
    """A thread's first ``limit`` messages and its summary, with what a later fact made outdated
    (the turns get the note recall gives them); :class:`NotFound` for a thread the user does not have."""
    messages, more = await browse.thread_page(deps, scope, thread_id, limit=limit)
    validity = await browse.validity(deps, scope)
    summary = await browse.thread_summary(deps, scope, thread_id)
    notes = {}
    for m in messages:
        change = validity.outdated_by([m.id], m.content, m.created_at, m.name)
        if change is not None:
            notes[m.id] = change.note()
    return {
        "id": thread_id,
        "messages": messages,
        "notes": notes,
        "more": more is not None,
        "summary": summary,
        "updates": _updates(validity, summary),
    }


async def dead_letters(deps: Deps, tenant_id: str, limit: int = 20) -> list[Job]:
    """The tenant's dead jobs, oldest first (another tenant's never show)."""
    return await deps.jobs.dead(limit=limit, tenant_id=tenant_id)


async def retry_dead(deps: Deps, tenant_id: str) -> int:
    """Queue the tenant's dead jobs again, from their first attempt; returns how many."""
    return await deps.jobs.requeue_dead(tenant_id=tenant_id)


def custom_types(deps: Deps) -> list[str]:
    """The deployment's own memory types (``HIPOCAMPO_MEMORY_TYPES``), for the edit form."""
    return sorted(custom_memory_types(deps))


def _kinds(items: list[MemoryItem], now: datetime) -> dict[str, int]:
    """Memories by kind for the page's header. Facts count only while they hold: a user whose job
    changed twice has one employer, not three; the closed ones are counted apart, as earlier facts."""
    counts = Counter(m.kind.value for m in items if m.kind is not MemoryKind.FACT or m.is_current(now))
    earlier = sum(1 for m in items if m.kind is MemoryKind.FACT and not m.is_current(now))
    if earlier:
        counts["earlier fact"] = earlier
    return dict(counts)
