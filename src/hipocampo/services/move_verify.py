"""Checking a moved store: counts per table and a checksum per user, source against destination.

``hipocampo move`` ends with this check and ``hipocampo move --verify-only`` runs it alone. It
reads both stores through their ports only, a page at a time, so it works for any pair of
backends in constant memory.

Why a sum of hashes and not a hash of sorted rows: sorting needs every row in memory, and the
order the ports return rows in is not the same on every backend (ties in time are broken by
each store's own row ids). Each row's canonical form is hashed with SHA-256 and the hashes are
added modulo 2**256: the total depends on the set of rows, not their order, and a changed,
missing or extra row changes it. It detects accidents, not an adversary, which is all a move needs.

What is compared per user (tenant and user id): messages (every field), threads that hold
messages, summaries, memories (every field but the access count and last access, which reading
the destination changes), each memory's history in order, each memory's vector (its values, to
four decimals) and its keyword entry (present, with as many terms as the move indexes for the
memory's text: the move rebuilds entries from memories rather than copying the source's). Across
the store: tenants and API keys (the hash of the secret included, its last use not), and each
tenant's memory usage (the quota count). :data:`NOT_CHECKED` lists what is not compared; the
command prints it under the table.

Rows that break the text and metadata rule (:mod:`hipocampo.domain.values`: NUL, lone surrogates,
NaN; an older SQLite store may hold them) are refused by a move unless it is told to skip or
repair them; the check then applies the same choice to the source's rows (:func:`screened`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, is_dataclass, replace
from datetime import datetime
from enum import Enum
from typing import Any, TypeVar

from ..domain.model import HistoryEntry, MemoryItem, MemoryKind, Message, Scope, Summary, as_utc
from ..domain.text import analyze
from ..domain.values import metadata_problem, repaired, repaired_text, text_problem
from ..ports import Storage

T = TypeVar("T")

PAGE = 500
"""Rows per store call: large enough to be fast, small enough that memory stays flat."""

_MOD = 2**256

BOOKKEEPING = {"access_count", "last_accessed", "last_used_at"}
"""Fields that reading a store changes (recall marks memories accessed, a request marks its key
used): copied, but neither compared nor checksummed, so a destination in use still verifies."""

PER_USER = ("messages", "threads", "summaries", "memories", "history", "vectors", "keywords")
GLOBAL = ("tenants", "api_keys", "memory_usage")
NOT_CHECKED = (
    "background jobs and idempotent-request answers (not copied)",
    "access counts, last accesses and keys' last use (reading a store changes them)",
)
INVALID_CHOICES = ("refuse", "skip", "repair")
"""What a move does with a row that breaks the text and metadata rule: refuse to go on (naming
the rows), leave the row out, or store it repaired (NaN and Infinity as null, NUL and lone
surrogates as U+FFFD)."""

_TEXT_FIELDS: dict[type, tuple[str, ...]] = {
    Message: ("content", "name"),
    MemoryItem: ("content", "name", "key"),
    HistoryEntry: ("old_content", "new_content", "reason"),
    Summary: ("content",),
}


def invalid_fields(row: Any) -> list[str]:
    """The fields of a stored row that break the rule of :mod:`hipocampo.domain.values` (their
    names only: what is in them stays out of messages and logs)."""
    bad = [name for name in _TEXT_FIELDS.get(type(row), ()) if _bad_text(getattr(row, name))]
    if isinstance(getattr(row, "metadata", None), dict) and metadata_problem(row.metadata) is not None:
        bad.append("metadata")
    return bad


def _bad_text(value: Any) -> bool:
    return isinstance(value, str) and text_problem(value) is not None


def repaired_row(row: T) -> T:
    """``row`` with its invalid fields repaired (see :data:`INVALID_CHOICES`)."""
    changes: dict[str, Any] = {}
    for name in invalid_fields(row):
        value = getattr(row, name)
        changes[name] = repaired(value)[0] if name == "metadata" else repaired_text(value)
    return replace(row, **changes) if changes else row  # type: ignore[type-var]


def screened(rows: Iterable[T], invalid: str) -> list[T]:
    """``rows`` as a move with that choice for invalid rows writes them (``refuse``: unchanged)."""
    if invalid == "skip":
        return [r for r in rows if not invalid_fields(r)]
    if invalid == "repair":
        return [repaired_row(r) for r in rows]
    return list(rows)


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data that two backends agree on: times in UTC ISO-8601, floats to
    six decimals (a backend may keep them as float4), enums by value, bookkeeping left out."""
    if value is None or isinstance(value, (str, int)):  # the common cases first: this runs per field
        return value.value if isinstance(value, Enum) else value
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, datetime):
        return as_utc(value).isoformat()
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    names = _FIELDS.get(type(value))
    if names is None:
        if not is_dataclass(value):
            return value
        names = _FIELDS[type(value)] = tuple(f.name for f in fields(value) if f.name not in BOOKKEEPING)
    return {name: plain(getattr(value, name)) for name in names}


_FIELDS: dict[type, tuple[str, ...]] = {}


def fingerprint(value: Any) -> str:
    """The canonical text of a stored row (see :func:`plain`): equal on two backends iff the row is."""
    return json.dumps(plain(value), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@dataclass
class Tally:
    """How many rows, and the sum of their hashes (order does not matter, see the module)."""

    count: int = 0
    total: int = 0

    def add(self, row: Any) -> None:
        text = row if isinstance(row, str) else fingerprint(row)
        self.count += 1
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()  # an old row may hold one
        self.total = (self.total + int.from_bytes(digest, "big")) % _MOD


@dataclass
class Check:
    """One line of the verification table."""

    name: str
    source: int = 0
    destination: int = 0
    differing: list[str] = field(default_factory=list)  # "tenant/user" (or tenant, key id) that differ
    advisory: bool = False  # a difference is reported but does not fail (vectors needing a reindex)

    @property
    def status(self) -> str:
        if not self.differing:
            return "OK"
        return "REINDEX" if self.advisory else "MISMATCH"


@dataclass
class Verification:
    checks: list[Check]
    users: int  # users (tenant, user) of the source that were compared
    extra_users: int  # users only the destination has: left alone by a move, not compared
    not_checked: list[str] = field(default_factory=lambda: list(NOT_CHECKED))  # said under the table

    @property
    def ok(self) -> bool:
        return all(c.status != "MISMATCH" for c in self.checks)


async def all_users(storage: Storage) -> list[tuple[str, str]]:
    """Every (tenant, user) with a thread or a memory: users with only saved facts have no thread."""
    return sorted(set(await storage.log.scopes()) | set(await storage.memories.scopes()))


async def same_vector_model(src: Storage, dst: Storage) -> bool:
    """Whether the destination's vectors can be compared with the source's: same model and
    dimension, or no vectors in the source at all."""
    models = (await src.vectors.info()).get("models", {})
    return not models or (await dst.vectors.info()).get("models", {}) == models


async def verify(src: Storage, dst: Storage, *, expect_vectors: bool, invalid: str = "refuse") -> Verification:
    """Compare the destination with the source (see the module).

    ``expect_vectors``: vectors were copied, so a difference in them fails the check; otherwise
    it is shown as ``REINDEX`` (the destination's vectors come from ``hipocampo reindex``).
    ``invalid``: what the move did with rows that break the text rule (:data:`INVALID_CHOICES`).
    """
    checks = {name: Check(name) for name in (*PER_USER, *GLOBAL)}
    checks["vectors"].advisory = not expect_vectors
    users = await all_users(src)
    for tenant, user in users:
        scope = Scope(tenant, user)
        mine = await user_tallies(src, scope, invalid, source=True)
        theirs = await user_tallies(dst, scope, invalid)
        for name in PER_USER:
            _compare(checks[name], f"{tenant}/{user}", mine[name], theirs[name])
    extra = set(await all_users(dst)) - set(users)
    tenants = {t for t, _ in users}
    # Rows left out lower the destination's usage by a count no port can tell apart: not compared.
    shared = tenants if invalid == "skip" else {t for t, _ in extra}
    await _compare_tenants(src, dst, checks, tenants, shared=shared)
    verification = Verification(list(checks.values()), len(users), len(extra))
    if invalid == "skip":
        verification.not_checked.append("memory usage per tenant (invalid rows were left out)")
    return verification


async def user_tallies(
    storage: Storage, scope: Scope, invalid: str = "refuse", *, source: bool = False
) -> dict[str, Tally]:
    """The per-user tallies of one store (see the module), its rows :func:`screened` as a move
    with that choice for invalid rows writes them. ``source``: keyword entries are counted as a
    move writes them from the memories, not read."""
    t = {name: Tally() for name in PER_USER}
    for thread_id in await storage.log.threads(scope):
        after, seen = -1, 0
        while batch := await storage.log.list_thread(scope, thread_id, after_seq=after, limit=PAGE):
            after = batch[-1].seq
            kept = screened(batch, invalid)
            for m in kept:
                t["messages"].add(m)
            seen += len(kept)
        if seen:  # a thread whose every message was deleted is an empty row, not moved
            t["threads"].add(thread_id)
        for summary in screened([s for s in [await storage.summaries.get(scope, thread_id)] if s is not None], invalid):
            t["summaries"].add(summary)
    offset = 0
    while page := await storage.memories.list(scope, limit=PAGE, offset=offset):
        offset += len(page)
        items = screened(page, invalid)
        for item in items:
            t["memories"].add(item)
            if item.kind is not MemoryKind.TURN:  # turns mirror the log and have no history
                history = screened(await storage.memories.history(scope, item.id), invalid)
                for n, entry in enumerate(history):
                    t["history"].add(fingerprint([item.id, n, entry]))
        ids = [i.id for i in items]
        for memory_id, vector in (await storage.vectors.get(scope, ids)).items():
            t["vectors"].add(fingerprint([memory_id, [round(float(x), 4) for x in vector]]))
        # The source counts what a move indexes for each memory (its own entries may come from
        # another version's analyser); the destination, the entries it holds.
        indexed = {} if source else await storage.keywords.lengths(scope, ids)
        for item in items:
            terms = len(analyze(item.index_text)) if source else indexed.get(item.id)
            t["keywords"].add(fingerprint([item.id, terms]))
    return t


def _compare(check: Check, label: str, mine: Tally, theirs: Tally) -> None:
    check.source += mine.count
    check.destination += theirs.count
    if (mine.count, mine.total) != (theirs.count, theirs.total):
        check.differing.append(label)


async def _compare_tenants(
    src: Storage, dst: Storage, checks: dict[str, Check], tenant_ids: set[str], *, shared: set[str]
) -> None:
    """Tenants and keys of the source, each looked up by id in the destination (which may hold
    other tenants too: several stores can move into one), and the memory usage per tenant,
    except of ``shared`` tenants, whose other users on the destination count there too."""
    for tenant in await src.tenants.list_tenants():
        tenant_ids.add(tenant.id)
        _compare_rows(checks["tenants"], tenant.id, tenant, await dst.tenants.get_tenant(tenant.id))
    for key in await src.tenants.list_keys():
        _compare_rows(checks["api_keys"], f"{key.tenant_id}, key {key.id}", key, await dst.tenants.get_key(key.id))
    usage = checks["memory_usage"]
    for tenant_id in sorted(tenant_ids - shared):
        mine, theirs = await src.tenants.memory_usage(tenant_id), await dst.tenants.memory_usage(tenant_id)
        usage.source += mine
        usage.destination += theirs
        if mine != theirs:
            usage.differing.append(tenant_id)


def _compare_rows(check: Check, label: str, mine: Any, theirs: Any | None) -> None:
    check.source += 1
    check.destination += theirs is not None
    if theirs is None or fingerprint(mine) != fingerprint(theirs):
        check.differing.append(label)


def differing_ids(pairs: Iterable[tuple[str, Any, Any]]) -> list[str]:
    """Ids whose stored rows differ: ``(id, source row, destination row)``, absent rows skipped."""
    return [
        i
        for i, mine, theirs in pairs
        if theirs is not None and mine != theirs and fingerprint(mine) != fingerprint(theirs)
    ]
