"""The conversation log in process memory, with the transactional outbox.

For tests and single-process experiments; the log is lost when the process exits.
"""

from __future__ import annotations

import itertools
import json
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import replace

from ...domain.errors import Conflict
from ...domain.model import Job, Message, NewMessage, Role, Scope, as_utc
from ...ports import Clock
from .jobs import insert_jobs, job_rows
from .rows import MessageRow, ThreadRow
from .state import InMemoryDatabase, State, page, scope_of, visible

_versions = itertools.count(1)
"""Thread versions, shared by every database of the process and never rolled back (as the vector
epochs), so a thread deleted and written again never gets back a version a cache may hold."""


def _message(row: MessageRow) -> Message:
    return Message(
        id=row.id,
        scope=scope_of(row.tenant_id, row.user_id, row.agent_id),
        thread_id=row.thread_id,
        role=Role(row.role),
        content=row.content,
        created_at=row.created_at,
        seq=row.seq,
        name=row.name,
        metadata=json.loads(row.metadata),
        external_id=row.external_id,
    )


class InMemoryMessageLog:
    """The :class:`~hipocampo.ports.MessageLog` port over an :class:`InMemoryDatabase`.

    For tests and single-process experiments; behaves as ``SqliteMessageLog`` does."""

    def __init__(self, db: InMemoryDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def append(
        self, scope: Scope, thread_id: str, messages: Sequence[NewMessage], jobs: Sequence[Job]
    ) -> list[Message]:
        now = as_utc(self._clock.now())
        tenant, user = scope.tenant_id, scope.user_id

        def write(st: State) -> list[Message]:
            thread = st.threads.get((tenant, user, thread_id))
            seq = -1 if thread is None else thread.last_seq
            rid = st.last_rid["messages"]
            stored: list[Message] = []
            new_rows: list[MessageRow] = []
            by_caller_id: dict[str, MessageRow] = {}  # duplicates inside the batch are written once
            for m in messages:
                if m.id is not None:
                    known = st.external.get((tenant, user, m.id))
                    existing = by_caller_id.get(m.id) or (st.messages[known] if known else None)
                    if existing is not None:  # a retry: return what is stored, write nothing
                        stored.append(_message(existing))
                        continue
                seq += 1
                rid += 1
                msg = m.stored(scope, thread_id, seq, now)
                row = MessageRow(
                    rid,
                    msg.id,
                    m.id,
                    tenant,
                    user,
                    scope.agent_id,
                    thread_id,
                    seq,
                    m.role.value,
                    m.name,
                    m.content,
                    as_utc(msg.created_at),
                    json.dumps(msg.metadata),
                )
                new_rows.append(row)
                if m.id is not None:
                    by_caller_id[m.id] = row
                stored.append(msg)
            if not new_rows:  # a retry of stored messages creates no thread, no job
                return stored
            new_ids = [r.id for r in new_rows]
            queued = job_rows(st, [j.with_message_ids(new_ids) for j in jobs], now)  # may raise
            for row in new_rows:  # nothing was written before this point
                st.messages[row.id] = row
                st.message_at[(tenant, user, thread_id, row.seq)] = row.id
                if row.external_id is not None:
                    st.external[(tenant, user, row.external_id)] = row.id
            st.last_rid["messages"] = rid
            first_seen = thread or ThreadRow(scope.agent_id, now, seq)
            st.threads[(tenant, user, thread_id)] = replace(first_seen, last_seq=seq, version=next(_versions))
            insert_jobs(st, queued)
            return stored

        return await self._db.write(write)

    def _thread_rows(self, st: State, scope: Scope, thread_id: str, seqs: range, limit: int) -> list[MessageRow]:
        """Visible rows at positions ``seqs``, in that order, at most ``limit`` (negative: all)."""
        rows: list[MessageRow] = []
        for seq in seqs:
            if len(rows) == limit:
                break
            message_id = st.message_at.get((scope.tenant_id, scope.user_id, thread_id, seq))
            if message_id is not None:
                row = st.messages[message_id]
                if visible(scope, row.tenant_id, row.user_id, row.agent_id):
                    rows.append(row)
        return rows

    def _last_seq(self, st: State, scope: Scope, thread_id: str) -> int:
        thread = st.threads.get((scope.tenant_id, scope.user_id, thread_id))
        return -1 if thread is None else thread.last_seq

    async def recent(self, scope: Scope, thread_id: str, limit: int) -> list[Message]:
        st = self._db.view()
        newest_first = range(self._last_seq(st, scope, thread_id), -1, -1)
        return [_message(r) for r in reversed(self._thread_rows(st, scope, thread_id, newest_first, limit))]

    async def get_many(self, scope: Scope, message_ids: Sequence[str]) -> list[Message]:
        st = self._db.view()
        rows = [st.messages[i] for i in set(message_ids) if i in st.messages]
        rows = [r for r in rows if visible(scope, r.tenant_id, r.user_id, r.agent_id)]
        return [_message(r) for r in sorted(rows, key=lambda r: (r.thread_id, r.seq))]

    async def list_thread(
        self, scope: Scope, thread_id: str, *, after_seq: int = -1, limit: int = 1000
    ) -> list[Message]:
        st = self._db.view()
        seqs = range(max(after_seq + 1, 0), self._last_seq(st, scope, thread_id) + 1)
        return [_message(r) for r in self._thread_rows(st, scope, thread_id, seqs, limit)]

    async def threads(self, scope: Scope) -> list[str]:
        mine = [
            (row.created_at, n, thread_id)
            for n, ((tenant, user, thread_id), row) in enumerate(self._db.view().threads.items())
            if (tenant, user) == (scope.tenant_id, scope.user_id)
        ]
        return [thread_id for _, _, thread_id in sorted(mine)]

    async def users(self, tenant_id: str) -> list[str]:
        return sorted({user for tenant, user, _ in self._db.view().threads if tenant == tenant_id})

    async def iter_all(self, *, after_rowid: int = 0, limit: int = 1000) -> list[tuple[int, Message]]:
        rows = list(self._db.view().messages.values())  # in rid order
        start = bisect_right(rows, after_rowid, key=lambda r: r.rid)
        return [(r.rid, _message(r)) for r in page(rows[start:], limit)]

    async def restore(self, messages: Sequence[Message]) -> int:
        def write(st: State) -> int:
            rows: list[MessageRow] = []
            taken: set[object] = set()  # ids, positions and caller ids claimed by this batch
            for m in messages:
                s = m.scope
                if m.id in st.messages or m.id in taken:
                    continue
                place = (s.tenant_id, s.user_id, m.thread_id, m.seq)
                caller = (s.tenant_id, s.user_id, m.external_id) if m.external_id is not None else None
                if place in st.message_at or place in taken or (caller and (caller in st.external or caller in taken)):
                    raise Conflict(
                        f"message {m.id!r} would take seq {m.seq} of thread {m.thread_id!r} or caller id"
                        f" {m.external_id!r} from another message of {s.tenant_id}/{s.user_id}"
                    )
                taken |= {m.id, place, caller} - {None}
                rows.append(
                    MessageRow(
                        0,
                        m.id,
                        m.external_id,
                        s.tenant_id,
                        s.user_id,
                        s.agent_id,
                        m.thread_id,
                        m.seq,
                        m.role.value,
                        m.name,
                        m.content,
                        as_utc(m.created_at),
                        json.dumps(m.metadata),
                    )
                )
            for row in rows:  # checked everything above: nothing was written before this point
                row = replace(row, rid=st.next_rid("messages"))
                key = (row.tenant_id, row.user_id, row.thread_id)
                st.messages[row.id] = row
                st.message_at[(*key, row.seq)] = row.id
                if row.external_id is not None:
                    st.external[(row.tenant_id, row.user_id, row.external_id)] = row.id
                thread = st.threads.get(key) or ThreadRow(row.agent_id, row.created_at, row.seq)
                st.threads[key] = replace(thread, last_seq=max(thread.last_seq, row.seq), version=next(_versions))
            return len(rows)

        return await self._db.write(write)

    async def scopes(self) -> list[tuple[str, str]]:
        return sorted({(tenant, user) for tenant, user, _ in self._db.view().threads})

    async def count(self, scope: Scope | None = None) -> int:
        rows = self._db.view().messages.values()
        if scope is None:
            return len(rows)
        return sum(1 for r in rows if visible(scope, r.tenant_id, r.user_id, r.agent_id))

    async def delete_messages(self, scope: Scope, message_ids: Sequence[str]) -> int:
        if not message_ids:
            return 0

        def write(st: State) -> int:
            rows = [st.messages[i] for i in set(message_ids) if i in st.messages]
            rows = [r for r in rows if visible(scope, r.tenant_id, r.user_id, r.agent_id)]
            for key in {(r.tenant_id, r.user_id, r.thread_id) for r in rows}:
                if key in st.threads:
                    st.threads[key] = replace(st.threads[key], version=next(_versions))
            return _delete(st, rows)

        return await self._db.write(write)

    async def delete_thread(self, scope: Scope, thread_id: str) -> int:
        key = (scope.tenant_id, scope.user_id, thread_id)

        def write(st: State) -> int:
            rows = [r for r in st.messages.values() if (r.tenant_id, r.user_id, r.thread_id) == key]
            st.threads.pop(key, None)
            return _delete(st, rows)

        return await self._db.write(write)

    async def delete_user(self, scope: Scope) -> int:
        who = (scope.tenant_id, scope.user_id)

        def write(st: State) -> int:
            for key in [k for k in st.threads if k[:2] == who]:
                del st.threads[key]
            return _delete(st, [r for r in st.messages.values() if (r.tenant_id, r.user_id) == who])

        return await self._db.write(write)

    async def thread_version(self, scope: Scope, thread_id: str) -> int:
        thread = self._db.view().threads.get((scope.tenant_id, scope.user_id, thread_id))
        return 0 if thread is None else thread.version


def _delete(st: State, rows: list[MessageRow]) -> int:
    for r in rows:
        del st.messages[r.id]
        st.message_at.pop((r.tenant_id, r.user_id, r.thread_id, r.seq), None)
        if r.external_id is not None:
            st.external.pop((r.tenant_id, r.user_id, r.external_id), None)
    return len(rows)
