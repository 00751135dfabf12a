"""A user's whole memory as a stream of records (JSON Lines), in constant memory.

One record per line, each a JSON object with a ``"type"``:

- ``export``: first, once: ``format`` (``hipocampo.export``), ``version``, ``tenant_id``,
  ``user_id``, ``exported_at``;
- ``thread``: a thread and its rolling ``summary`` (or null), before the thread's messages;
- ``message``: one turn of the log, oldest first per thread: ``user_id``, ``thread_id``, ``id``,
  ``external_id`` (the caller's id, if it gave one), ``seq``, ``role``, ``name``, ``content``,
  ``created_at``, ``metadata``; ``hipocampo import`` reads these lines as they are;
- ``memory``: a memory that is not a turn, with ``origin``: ``saved`` (saved directly: exists
  nowhere else) or ``derived`` (learned from the messages: facts, summaries, consolidations,
  rebuilt from them on import), plus the fields of the API's memory objects;
- ``history``: one change to a fact (``memory_id``, ``event``, ``created_at``, ``old_content``,
  ``new_content``, ``actor``, ``reason``, ``related_id``), oldest first;
- ``end``: last, once, with the ``counts`` of each type. A stream without it was cut short: the
  server writes ``{"type": "error", "error": ..., "detail": ...}`` instead when it fails midway.

The stores are read a page at a time, so a user with a million messages costs no more memory
than one with ten. Records are written as the stores answer, not from one snapshot: a write made
during the export may or may not be in it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import asdict
from typing import Any

from ..domain.model import MemoryKind, Message, Scope
from ..domain.retrieval.recall import memory_to_dict
from .deps import Deps

FORMAT = "hipocampo.export"
VERSION = 1
PAGE = 500
"""Rows per store call: large enough to be fast, small enough that memory stays flat."""

Record = dict[str, Any]


def json_line(record: Record) -> str:
    """One record as one line of JSON Lines, newline included (UTF-8 text, not ``\\u`` escapes)."""
    return json.dumps(record, ensure_ascii=False, default=str) + "\n"


def message_record(scope: Scope, m: Message) -> Record:
    return {
        "type": "message",
        "user_id": scope.user_id,
        "thread_id": m.thread_id,
        "id": m.id,
        "external_id": m.external_id,
        "seq": m.seq,
        "role": m.role.value,
        "name": m.name,
        "content": m.content,
        "created_at": m.created_at.isoformat(),
        "metadata": m.metadata,
    }


async def export_records(deps: Deps, scope: Scope) -> AsyncIterator[Record]:
    """The user's memory as records (see the module's docstring), one store page at a time."""
    counts: Counter[str] = Counter()
    yield {
        "type": "export",
        "format": FORMAT,
        "version": VERSION,
        "tenant_id": scope.tenant_id,
        "user_id": scope.user_id,
        "exported_at": deps.clock.now().isoformat(),
    }
    for thread_id in await deps.log.threads(scope):
        summary = await deps.summaries.get(scope, thread_id)
        counts["thread"] += 1
        yield {"type": "thread", "thread_id": thread_id, "summary": None if summary is None else summary.content}
        after = -1
        while batch := await deps.log.list_thread(scope, thread_id, after_seq=after, limit=PAGE):
            for m in batch:
                counts["message"] += 1
                yield message_record(scope, m)
            after = batch[-1].seq
    for kind in MemoryKind:
        if kind is MemoryKind.TURN:  # turns are the messages above, indexed
            continue
        offset = 0
        while items := await deps.memories.list(scope, kind=kind, limit=PAGE, offset=offset):
            offset += len(items)
            for item in items:
                counts["memory"] += 1
                origin = "derived" if item.source_message_ids else "saved"
                yield {"type": "memory", "origin": origin, **memory_to_dict(item)}
                if kind is MemoryKind.FACT:
                    for entry in await deps.memories.history(scope, item.id):
                        counts["history"] += 1
                        yield {"type": "history", **_history(entry)}
    yield {"type": "end", "counts": dict(counts)}


def _history(entry: Any) -> Record:
    data = asdict(entry)
    data["event"] = entry.event.value
    data["created_at"] = entry.created_at.isoformat()
    return data


async def export_document(deps: Deps, scope: Scope) -> dict[str, Any]:
    """The same records gathered into one JSON document (``AsyncMemory.export``): threads with
    their messages and summaries, saved ``memories``, ``derived`` ones and fact ``history``.
    Holds the whole user in memory: services and tools should stream :func:`export_records`."""
    threads: list[dict[str, Any]] = []
    doc: dict[str, Any] = {
        "tenant_id": scope.tenant_id,
        "user_id": scope.user_id,
        "threads": threads,
        "memories": [],
        "derived": [],
        "history": [],
    }
    async for record in export_records(deps, scope):
        kind = record.pop("type")
        if kind == "thread":
            threads.append({**record, "messages": []})
        elif kind == "message":
            del record["user_id"], record["thread_id"]
            threads[-1]["messages"].append(record)
        elif kind == "memory":
            doc["memories" if record.pop("origin") == "saved" else "derived"].append(record)
        elif kind == "history":
            doc["history"].append(record)
    return doc
