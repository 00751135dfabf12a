"""``hipocampo import``: read conversations from JSON or JSONL, check all of it, then write it."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ...domain.errors import InvalidInput
from ...domain.ids import check_path_id
from ...domain.model import CUSTOM_TYPE_KEY, MemoryKind, MemoryType, NewMessage
from .support import NoWaitOpt, out, progress_bar, state, wait_for_indexing

if TYPE_CHECKING:
    from ...client import AsyncMemory

CHUNK = 500
"""Messages per ``add`` call: large enough to be fast, well under the per-call limit."""
JSONL_SUFFIXES = (".jsonl", ".ndjson")
EXPORT_HEADER = re.compile(r'\s*\{\s*"type"\s*:\s*"export"')
"""How a `hipocampo export` stream begins, whatever the file is called."""
SKIPPED_RECORDS = ("thread", "history")
"""Export records rebuilt from the messages on import (summaries, fact history)."""


class ImportFormat(str, Enum):
    JSON = "json"
    JSONL = "jsonl"


@dataclass
class Fact:
    """A saved memory from an export, restored with :meth:`AsyncMemory.remember`."""

    user_id: str
    content: str
    memory_type: str | None
    importance: float
    thread_id: str | None
    metadata: dict[str, Any]


@dataclass
class ImportPlan:
    """Everything a file holds, checked and ready to write: messages grouped by user and thread."""

    threads: dict[tuple[str, str], list[NewMessage]] = field(default_factory=dict)
    facts: list[Fact] = field(default_factory=list)
    skipped: int = 0  # derived memories (summaries, episodes): they come from the messages

    @property
    def messages(self) -> int:
        return sum(len(m) for m in self.threads.values())


@contextmanager
def _at(where: str) -> Iterator[None]:
    """Prefix any input error raised inside with where it happened (``file:line``)."""
    try:
        yield
    except InvalidInput as exc:
        raise InvalidInput(f"{where}: {exc}") from None


def _loads(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{where}: invalid JSON ({exc.msg}, line {exc.lineno} column {exc.colno})") from None


def _user(user_id: Any) -> str:
    if user_id is None:
        raise InvalidInput("user_id is missing (put it in the file or pass --user)")
    check_path_id("user_id", user_id)
    return str(user_id)


def _add_message(plan: ImportPlan, raw: Any, user: str | None, thread: str | None) -> None:
    if not isinstance(raw, dict):
        raise InvalidInput(f"a message must be a JSON object, got {type(raw).__name__}")
    fields = dict(raw)
    line_user, line_thread = fields.pop("user_id", None), fields.pop("thread_id", None)
    user_id, thread_id = _user(user or line_user), thread or line_thread
    check_path_id("thread_id", thread_id)
    fields.pop("seq", None)  # export's position in the thread; the log assigns its own
    # An exported message keeps its caller's id, so importing it again stores it once.
    external_id = fields.pop("external_id", None)
    if external_id is not None:
        fields["id"] = external_id
    plan.threads.setdefault((user_id, thread_id), []).append(NewMessage.parse(fields))


def _add_memory(plan: ImportPlan, raw: Any, user_id: str) -> None:
    if not isinstance(raw, dict):
        raise InvalidInput("a memory must be a JSON object")
    if raw.get("kind") != MemoryKind.FACT.value:
        plan.skipped += 1
        return
    content = raw.get("content")
    importance = raw.get("importance", 0.5)
    memory_type = raw.get("memory_type")
    provenance = raw.get("provenance") or {}
    if not isinstance(content, str) or not content.strip():
        raise InvalidInput("memory content must be a non-empty string")
    if not isinstance(importance, (int, float)) or not 0 <= importance <= 1:
        raise InvalidInput("memory importance must be a number between 0 and 1")
    if not isinstance(provenance, dict) or not isinstance(provenance.get("metadata") or {}, dict):
        raise InvalidInput("memory provenance must be an object, its metadata too")
    if memory_type is not None and memory_type not in {t.value for t in MemoryType}:
        if (provenance.get("metadata") or {}).get(CUSTOM_TYPE_KEY) != memory_type:
            raise InvalidInput(f"unknown memory_type {memory_type!r}")
        memory_type = None  # an exported custom type (campaign...): its metadata carries it back
    fact = Fact(
        user_id=user_id,
        content=content,
        memory_type=memory_type,
        importance=float(importance),
        thread_id=provenance.get("thread_id"),
        metadata=provenance.get("metadata") or {},
    )
    plan.facts.append(fact)


def _read_export(plan: ImportPlan, data: dict[str, Any], name: str, user: str | None) -> None:
    user_id = user or data.get("user_id")
    if not isinstance(data.get("threads"), list):
        raise InvalidInput(f'{name}: "threads" must be a list')
    for i, thread in enumerate(data["threads"]):
        where = f"{name}: threads[{i}]"
        with _at(where):
            if not isinstance(thread, dict) or not isinstance(thread.get("messages"), list):
                raise InvalidInput('a thread must be an object with "thread_id" and a "messages" list')
            check_path_id("thread_id", thread.get("thread_id"))
        for j, raw in enumerate(thread["messages"]):
            with _at(f"{where}.messages[{j}]"):
                _add_message(plan, raw, user_id, thread["thread_id"])
    for i, raw in enumerate(data.get("memories") or []):
        with _at(f"{name}: memories[{i}]"):
            _add_memory(plan, raw, _user(user_id))


class _ExportStream:
    """What the records of a `hipocampo export` stream say about the lines after them."""

    def __init__(self) -> None:
        self.user_id: str | None = None
        self.started = self.ended = False

    def add(self, plan: ImportPlan, record: dict[str, Any], user: str | None) -> None:
        kind = record.get("type")
        if kind == "export":
            self.started, self.user_id = True, record.get("user_id")
        elif kind == "end":
            self.ended = True
        elif kind == "memory":
            if record.get("origin") == "saved":
                _add_memory(plan, record, _user(user or self.user_id))
            else:
                plan.skipped += 1
        elif kind == "error":
            raise InvalidInput(f"the export failed while it was written: {record.get('detail')}")
        elif kind not in SKIPPED_RECORDS:
            raise InvalidInput(f"unknown record type {kind!r}")


def read_plan(path: Path, fmt: ImportFormat | None, user: str | None) -> ImportPlan:
    """Read and check the whole file; raise :class:`InvalidInput` naming the first bad place.

    JSONL lines are messages, or the records of a `hipocampo export` stream (see
    :mod:`hipocampo.services.export`), which is read as JSONL whatever the file's name."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(f"{path}: not UTF-8 text") from None
    if fmt is None:
        jsonl = path.suffix.lower() in JSONL_SUFFIXES or EXPORT_HEADER.match(text) is not None
        fmt = ImportFormat.JSONL if jsonl else ImportFormat.JSON
    plan = ImportPlan()
    if fmt is ImportFormat.JSONL:
        export = _ExportStream()
        for lineno, line in enumerate(text.splitlines(), 1):
            if line.strip():
                where = f"{path}:{lineno}"
                with _at(where):
                    raw = _loads(line, where)
                    if isinstance(raw, dict) and raw.get("type", "message") != "message":
                        export.add(plan, raw, user)
                    else:
                        if isinstance(raw, dict):
                            raw = {k: v for k, v in raw.items() if k != "type"}
                        _add_message(plan, raw, user, None)
        if export.started and not export.ended:
            raise InvalidInput(f"{path}: the export is incomplete (no end record): it was cut short")
    else:
        data = _loads(text, str(path))
        if isinstance(data, list):
            for i, raw in enumerate(data):
                with _at(f"{path}: [{i}]"):
                    _add_message(plan, raw, user, None)
        elif isinstance(data, dict) and "threads" in data:
            _read_export(plan, data, str(path), user)
        else:
            raise InvalidInput(f'{path}: expected a list of messages or an object with "threads"')
    if not plan.threads and not plan.facts:
        raise InvalidInput(f"{path}: no messages to import")
    return plan


async def write_plan(mem: AsyncMemory, plan: ImportPlan, tenant: str, advance: Callable[[int], None]) -> int:
    """Write the plan, thread by thread in chunks; returns how many facts were new."""
    for (user_id, thread_id), messages in plan.threads.items():
        for start in range(0, len(messages), CHUNK):
            chunk = messages[start : start + CHUNK]
            await mem.add(user_id, thread_id, chunk, tenant_id=tenant)
            advance(len(chunk))
    known: dict[str, set[str]] = {}
    new_facts = 0
    for fact in plan.facts:
        if fact.user_id not in known:  # a re-import must not save the same fact twice
            known[fact.user_id] = await _fact_contents(mem, fact.user_id, tenant)
        if fact.content.strip() not in known[fact.user_id]:
            await mem.remember(
                fact.user_id,
                fact.content,
                memory_type=fact.memory_type,
                importance=fact.importance,
                tenant_id=tenant,
                thread_id=fact.thread_id,
                metadata=fact.metadata,
                actor="import",
            )
            known[fact.user_id].add(fact.content.strip())
            new_facts += 1
        advance(1)
    return new_facts


async def _fact_contents(mem: AsyncMemory, user_id: str, tenant: str) -> set[str]:
    contents: set[str] = set()
    offset = 0
    while page := await mem.list(user_id, tenant_id=tenant, kind=MemoryKind.FACT, limit=1000, offset=offset):
        contents |= {m.content for m in page}
        offset += len(page)
    return contents


def import_file(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(dir_okay=False, help="The file to read.", show_default=False)],
    user: Annotated[
        str | None,
        typer.Option("--user", "-u", help="Import everything as this user (overrides the file's user_id)."),
    ] = None,
    fmt: Annotated[
        ImportFormat | None,
        typer.Option("--format", help="File format (default: jsonl for .jsonl and .ndjson files, else json)."),
    ] = None,
    no_wait: NoWaitOpt = False,
) -> None:
    """Import conversations from FILE. The whole file is checked before anything is written.

    JSONL: one message per line, {"user_id", "thread_id", "role", "content"} plus optional
    "timestamp" (ISO-8601), "name", "metadata" (an object) and "id" (your own id: importing the
    same id twice stores it once). user_id may come from --user instead. What `hipocampo export`
    writes is JSONL too: its messages and saved facts are restored, whatever the file's name.

    JSON: a list of such messages, or the document `Memory.export()` returns:
    {"user_id": ..., "threads": [{"thread_id": ..., "messages": [...]}], "memories": [...]},
    whose saved facts are restored too.
    """
    st = state(ctx)
    plan = read_plan(file, fmt, user)
    with progress_bar() as bar:
        task = bar.add_task("importing", total=plan.messages + len(plan.facts))

        async def work(mem: AsyncMemory) -> tuple[int, float | None]:
            new_facts = await write_plan(mem, plan, st.tenant, lambda n: bar.advance(task, n))
            bar.update(task, description="indexing")
            return new_facts, await wait_for_indexing(mem, no_wait)

        new_facts, indexing_s = st.run(work)
    users = {u for u, _ in plan.threads}
    facts = f" and {new_facts} new fact(s)" if plan.facts else ""
    indexed = "indexing left for later" if indexing_s is None else f"indexed in {indexing_s:.1f} s"
    out().print(
        f"imported {plan.messages} message(s) in {len(plan.threads)} thread(s) "
        f"of {len(users)} user(s){facts}; {indexed}",
        soft_wrap=True,
    )
    if plan.skipped:
        out().print(f"skipped {plan.skipped} derived memories (summaries, episodes): they come from the messages")
