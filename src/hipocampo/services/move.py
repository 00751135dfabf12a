"""Copy a whole store to another backend (``hipocampo move``): how SQLite users move to Postgres.

Written only over the ports of two :class:`~hipocampo.ports.Storage` bundles, so it works for
any pair of backends, those added later included. What is copied, in this order:

1. tenants and API keys (the hash of the secret: a key keeps working);
2. the conversation log, in write order, with its ids, seqs, times, caller ids and metadata
   (``MessageLog.restore``; threads come with their messages);
3. memories of every kind, every field kept (``MemoryStore.restore``), with their history, their
   keyword entries (rebuilt from the memory, as indexing builds them) and their vectors when the
   destination can take them (same model and dimension); otherwise the destination is told to
   run ``hipocampo reindex``;
4. thread summaries.

Jobs are not copied: the job queue has no port to list pending work, and its work (fact
extraction, summaries) cannot be rebuilt exactly from the stored rows. So a move refuses while
the source still has jobs pending or running (let a worker finish them first), unless told to
go on anyway, in which case the destination should be reindexed. Everything the move writes
is complete, so the destination starts with nothing to do. Idempotent-request answers are not
copied either: they live for a day and only guard retries against the old server.

Resumable: every page of rows is written in one destination transaction and a row whose id is
already there is compared, not written again. A move interrupted anywhere (Ctrl-C, a crash)
and run again skips what it copied and goes on; a row the destination holds with other content
stops the move (:class:`MoveRefused`) before anything of its page is written.

Every row is held to the text and metadata rule of :mod:`hipocampo.domain.values` (no NUL, no
lone surrogates, no NaN), the rule every write has followed since it was made: an older SQLite
store may hold rows that break it, which Postgres cannot store. A move refuses them by default,
naming each row (kind, id, user and thread; never its content), before anything of their page is
written; told to, it leaves them out (``skip``) or stores them repaired (``repair``: NaN and
Infinity as null, NUL and lone surrogates as U+FFFD), and lists them in its report.

The source should not change during a move (stop the servers and workers that write to it);
the check at the end (:mod:`.move_verify`) would report what changed.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..domain.errors import Conflict, DimensionMismatch
from ..domain.model import HistoryEntry, MemoryItem, MemoryKind, Message, Scope, Summary
from ..ports import Storage
from .move_verify import INVALID_CHOICES, PAGE, differing_ids, invalid_fields, repaired_row

Progress = Callable[[str, int, int], None]
"""``(phase, done, total)`` after every page; phases: tenants, messages, memories, summaries.
Raising from it stops the move between two pages (how the tests interrupt one)."""

PHASES = ("tenants", "messages", "memories", "summaries")


class MoveRefused(Conflict):
    """The move cannot go on: the destination holds other content for some ids, or the source
    has work still queued. ``ids`` names the rows that differ (at most one page of them)."""

    def __init__(self, message: str, ids: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.ids = list(ids)


@dataclass
class MoveReport:
    """What a move wrote (``copied``) and found already there (``present``), per kind of row."""

    copied: Counter[str] = field(default_factory=Counter)
    present: Counter[str] = field(default_factory=Counter)
    vector_model: tuple[str, int] | None = None  # the model whose vectors were copied, if any
    notes: list[str] = field(default_factory=list)
    invalid: str = "refuse"  # what was done with rows that break the text rule (INVALID_CHOICES)
    screened: list[str] = field(default_factory=list)  # those rows, skipped or repaired: labels, no content

    @property
    def vectors_copied(self) -> bool:
        return self.vector_model is not None


async def move(
    src: Storage,
    dst: Storage,
    *,
    progress: Progress | None = None,
    allow_pending: bool = False,
    page_size: int = PAGE,
    invalid: str = "refuse",
) -> MoveReport:
    """Copy everything of ``src`` into ``dst`` (see the module); safe to run again after a stop.

    ``allow_pending``: go on although the source has jobs queued (they are not copied).
    ``invalid``: what to do with rows that break the text rule: ``refuse``, ``skip`` or ``repair``.
    """
    if src is dst:
        raise MoveRefused("the source and the destination are the same store")
    if invalid not in INVALID_CHOICES:
        raise ValueError(f"invalid must be one of {INVALID_CHOICES}, got {invalid!r}")
    report = MoveReport(invalid=invalid)
    await _check_queue(src, report, allow_pending)
    report.vector_model = await _vector_model(src, dst, report)
    tick = progress or (lambda phase, done, total: None)
    await _copy_tenants(src, dst, report, tick)
    await _copy_messages(src, dst, report, tick, page_size)
    await _copy_memories(src, dst, report, tick, page_size)
    await _copy_summaries(src, dst, report, tick)
    return report


async def _check_queue(src: Storage, report: MoveReport, allow_pending: bool) -> None:
    stats = await src.jobs.stats()
    waiting = stats.get("pending", 0) + stats.get("running", 0)
    if waiting and not allow_pending:
        raise MoveRefused(
            f"the source still has {waiting} background job(s) queued (indexing, facts, summaries), which a move"
            " does not copy: let a worker finish them first (`hipocampo --db SRC worker`, stop it once"
            " `hipocampo --db SRC doctor` shows no backlog), or move anyway with --skip-pending and run"
            " `hipocampo reindex` on the destination"
        )
    if waiting:
        report.notes.append(
            f"{waiting} queued job(s) of the source were not moved: run `hipocampo reindex` on the destination"
        )
    if stats.get("dead", 0):
        report.notes.append(
            f"{stats['dead']} dead-letter job(s) of the source were not moved"
            " (`hipocampo --db SRC doctor --retry-dead` before moving retries them)"
        )


async def _vector_model(src: Storage, dst: Storage, report: MoveReport) -> tuple[str, int] | None:
    """The model whose vectors can be copied as they are, or ``None`` (with a note saying why)."""
    models: dict[str, int] = (await src.vectors.info()).get("models", {})
    if not models:
        return None
    if len(models) > 1:
        report.notes.append(f"the source's vectors mix models {models}: run `hipocampo reindex` on the destination")
        return None
    held: dict[str, int] = (await dst.vectors.info()).get("models", {})
    if held and held != models:
        report.notes.append(
            f"the destination holds vectors of {held}, the source of {models}: vectors were not copied;"
            " run `hipocampo reindex` on the destination"
        )
        return None
    ((name, dim),) = models.items()
    return name, int(dim)


async def _copy_tenants(src: Storage, dst: Storage, report: MoveReport, tick: Progress) -> None:
    tenants, keys = await src.tenants.list_tenants(), await src.tenants.list_keys()
    there = {t.id: await dst.tenants.get_tenant(t.id) for t in tenants}
    there_keys = {k.id: await dst.tenants.get_key(k.id) for k in keys}
    _refuse_differing("tenant", [(t.id, t, there[t.id]) for t in tenants])
    _refuse_differing("API key", [(k.id, k, there_keys[k.id]) for k in keys])
    for tenant in tenants:
        if there[tenant.id] is None:
            await dst.tenants.create_tenant(tenant)
        _count(report, "tenants", there[tenant.id] is None)
    for key in keys:
        if there_keys[key.id] is None:
            await dst.tenants.add_key(key)
        _count(report, "api_keys", there_keys[key.id] is None)
    tick("tenants", len(tenants) + len(keys), len(tenants) + len(keys))


async def _copy_messages(src: Storage, dst: Storage, report: MoveReport, tick: Progress, page: int) -> None:
    """In the source's write order, so the destination's own order (its row ids) is the same."""
    total, done, cursor = await src.log.count(), 0, 0
    while rows := await src.log.iter_all(after_rowid=cursor, limit=page):
        cursor = rows[-1][0]
        fresh: list[Message] = []
        kept = _screen([m for _, m in rows], report)
        for scope, group in _by_user(kept).items():
            there = {m.id: m for m in await dst.log.get_many(scope, [m.id for m in group])}
            _refuse_differing("message", [(m.id, m, there.get(m.id)) for m in group])
            fresh += [m for m in group if m.id not in there]
        async with dst.uow.transaction():
            written = await dst.log.restore(fresh)
            if written != len(fresh):
                raise MoveRefused(
                    f"{len(fresh) - written} message id(s) of this page are taken by other users' messages"
                    " in the destination",
                    [m.id for m in fresh],
                )
        report.copied["messages"] += written
        report.present["messages"] += len(kept) - written
        done += len(rows)
        tick("messages", done, max(done, total))


async def _copy_memories(src: Storage, dst: Storage, report: MoveReport, tick: Progress, page: int) -> None:
    """Oldest first (``list`` pages newest first, so from its last page back): memories with the
    same time then keep their order on the destination, which breaks such ties by row id."""
    total, done = await src.memories.count(), 0
    for tenant, user in await src.memories.scopes():
        scope = Scope(tenant, user)
        end = await src.memories.count(scope)
        while end > 0:
            start = max(0, end - page)
            batch = await src.memories.list(scope, limit=end - start, offset=start)
            batch.reverse()
            end = start
            await _copy_memory_page(src, dst, scope, batch, report)
            done += len(batch)
            tick("memories", done, max(done, total))


async def _copy_memory_page(
    src: Storage, dst: Storage, scope: Scope, batch: list[MemoryItem], report: MoveReport
) -> None:
    batch = _screen(batch, report)
    there = {m.id: m for m in await dst.memories.get_many(scope, [m.id for m in batch])}
    _refuse_differing("memory", [(m.id, m, there.get(m.id)) for m in batch])
    history: dict[str, list[HistoryEntry]] = {}
    for item in batch:
        if item.kind is not MemoryKind.TURN:  # turns mirror the log and have no history
            history[item.id] = _screen(await src.memories.history(scope, item.id), report, scope)
    for memory_id in [i for i in history if i in there]:  # copied before: its history must be too
        if differing_ids([(memory_id, history[memory_id], await dst.memories.history(scope, memory_id))]):
            raise MoveRefused(f"the destination holds another history for memory {memory_id!r}", [memory_id])
    fresh = [m for m in batch if m.id not in there]
    vectors = await src.vectors.get(scope, [m.id for m in fresh]) if fresh and report.vectors_copied else {}
    try:
        await _write_memories(dst, scope, fresh, history, vectors, report.vector_model)
    except DimensionMismatch as exc:  # the destination fixes its dimension (a typed column)
        report.notes.append(f"vectors were not copied ({exc}); run `hipocampo reindex` on the destination")
        report.vector_model, vectors = None, {}
        await _write_memories(dst, scope, fresh, history, vectors, None)
    _count_many(report, "memories", len(fresh), len(batch))
    report.copied["history"] += sum(len(history.get(m.id, ())) for m in fresh)
    report.copied["vectors"] += len(vectors)


async def _write_memories(
    dst: Storage,
    scope: Scope,
    fresh: list[MemoryItem],
    history: dict[str, list[HistoryEntry]],
    vectors: dict[str, np.ndarray],
    model: tuple[str, int] | None,
) -> None:
    """One page of new memories with their history and index entries, all or nothing."""
    if not fresh:
        return
    async with dst.uow.transaction():
        written = await dst.memories.restore(fresh)
        if written != len(fresh):
            raise MoveRefused(
                f"{len(fresh) - written} memory id(s) of {scope.tenant_id}/{scope.user_id} are taken by"
                " other users' memories in the destination",
                [m.id for m in fresh],
            )
        entries = [e for m in fresh for e in history.get(m.id, ())]
        if entries:
            await dst.memories.add_history(scope, entries)
        await dst.keywords.upsert(scope, [(m.id, m.index_text) for m in fresh])
        if vectors and model is not None:
            await dst.vectors.upsert(scope, list(vectors.items()), model[0])


async def _copy_summaries(src: Storage, dst: Storage, report: MoveReport, tick: Progress) -> None:
    users = await src.log.scopes()
    for n, (tenant, user) in enumerate(users, start=1):
        scope = Scope(tenant, user)
        for thread_id in await src.log.threads(scope):
            found = await src.summaries.get(scope, thread_id)
            kept: list[Summary] = _screen([found], report) if found is not None else []
            if not kept:
                continue
            summary = kept[0]
            there = await dst.summaries.get(scope, thread_id)
            _refuse_differing("summary of thread", [(f"{tenant}/{user}/{thread_id}", summary, there)])
            if there is None:
                await dst.summaries.put(summary)
            _count(report, "summaries", there is None)
        tick("summaries", n, len(users))


def _screen(rows: Sequence[Any], report: MoveReport, scope: Scope | None = None) -> list[Any]:
    """``rows`` as the move writes them: those that break the text rule refused (the move stops,
    naming them), left out or repaired, per ``report.invalid``; the others as they are."""
    bad = [(r, invalid_fields(r)) for r in rows]
    bad = [(r, names) for r, names in bad if names]
    if not bad:
        return list(rows)
    labels = [f"{_label(r, scope)}: {', '.join(names)}" for r, names in bad]
    if report.invalid == "refuse":
        shown = "; ".join(labels[:5]) + (f"; and {len(labels) - 5} more" if len(labels) > 5 else "")
        raise MoveRefused(
            f"{len(labels)} row(s) hold text or metadata no store may take (NUL, a lone surrogate, NaN or"
            f" Infinity): {shown}. Nothing of their page was written; run again with --skip-invalid to"
            " leave them out, or --repair to store them with NaN and Infinity as null and those"
            " characters as U+FFFD",
            [getattr(r, "id", getattr(r, "memory_id", "")) for r, _ in bad],
        )
    report.screened += labels
    if report.invalid == "skip":
        dropped = {id(r) for r, _ in bad}
        return [r for r in rows if id(r) not in dropped]
    return [repaired_row(r) if invalid_fields(r) else r for r in rows]


def _label(row: Any, scope: Scope | None) -> str:
    """Which row, by ids only: its content stays out of messages and logs."""
    if isinstance(row, Message):
        return f"message {row.id} (user {row.scope.tenant_id}/{row.scope.user_id}, thread {row.thread_id})"
    if isinstance(row, MemoryItem):
        thread = f", thread {row.thread_id}" if row.thread_id else ""
        return f"memory {row.id} (user {row.scope.tenant_id}/{row.scope.user_id}{thread})"
    if isinstance(row, Summary):
        return f"summary of thread {row.thread_id} (user {row.scope.tenant_id}/{row.scope.user_id})"
    if isinstance(row, HistoryEntry):
        user = f" (user {scope.tenant_id}/{scope.user_id})" if scope is not None else ""
        return f"a history entry of memory {row.memory_id}{user}"
    return type(row).__name__


def _by_user(messages: Any) -> dict[Scope, list[Message]]:
    groups: dict[Scope, list[Message]] = defaultdict(list)
    for m in messages:
        groups[Scope(m.scope.tenant_id, m.scope.user_id)].append(m)
    return groups


def _refuse_differing(what: str, pairs: list[tuple[str, Any, Any]]) -> None:
    ids = differing_ids(pairs)
    if ids:
        shown = ", ".join(repr(i) for i in ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
        raise MoveRefused(
            f"the destination already holds a different {what} with the same id: {shown}; nothing of this"
            " page was written (move into an empty database, or remove those rows)",
            ids,
        )


def _count(report: MoveReport, what: str, copied: bool) -> None:
    (report.copied if copied else report.present)[what] += 1


def _count_many(report: MoveReport, what: str, copied: int, seen: int) -> None:
    report.copied[what] += copied
    report.present[what] += seen - copied
