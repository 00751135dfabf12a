"""Render a sectioned, token-budgeted context for the LLM prompt.

Sections, in order: the thread summary, the recent messages of the thread, then known facts,
consolidated memories and relevant memories from every thread, grouped by conversation and shown
in the order they were said. Each section has a share of the budget; memories may take whatever
the others leave, but only the pieces recall chose by relevance (:mod:`.choice`, and the turns
around them) are offered: the budget is a ceiling, never a reason to show more.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache

from ..dates import describe, resolve_dates
from ..model import MemoryItem, MemoryKind, Message, Summary
from ..truth.validity import Validity, summary_updates

SUMMARY_SHARE = 0.25
RECENT_SHARE = 0.30
FACTS_HEAD = "## Known facts"
CONSOLIDATED_HEAD = "## Consolidated memories"
MEMORIES_HEAD = "## Relevant memories"
FACT_KINDS = (MemoryKind.FACT, MemoryKind.CONSOLIDATED)
FACTS_GROUP = "\0facts"  # group key of facts: never a thread id (ids cannot hold control characters)
CONSOLIDATED_GROUP = "\0consolidated"  # a digest of many memories (title, period, sections): not a known fact
SECTION_HEADS = {FACTS_GROUP: FACTS_HEAD, CONSOLIDATED_GROUP: CONSOLIDATED_HEAD}
MIN_LINE_TOKENS = 6  # below this no memory line fits: stop looking


@dataclass
class ContextPiece:
    memory: MemoryItem
    rank: int  # rank of the hit that brought it in; neighbours share their hit's rank
    date_notes: bool = True  # resolve its relative dates in the text (costly: the top hits only)


def _when(item: MemoryItem | Message) -> str:
    return f"{item.created_at:%Y-%m-%d %H:%M}"


@lru_cache(maxsize=50_000)
def date_notes(content: str, said: datetime) -> str:
    """Relative dates in a memory, resolved against when it was said: an LLM reading "yesterday"
    months later cannot know which day it was."""
    notes = [f"{m.text}: {describe(m, said)}" for m in resolve_dates(content, said)]
    return f" [{'; '.join(notes)}]" if notes else ""


def memory_line(item: MemoryItem, notes: bool = True, outdated: str | None = None) -> str:
    """One memory, without its date: the group header above it carries the day. ``outdated``:
    what replaced it (:mod:`~hipocampo.domain.truth.validity`), so a stale statement never reads as current."""
    who = f"{item.name}: " if item.name else (f"{item.role.value}: " if item.role else "")
    label = ""
    if item.kind.value != "turn":
        kind = item.kind.value + (f"/{item.type_name}" if item.type_name else "")  # custom types too
        label = f"({kind}) "
    # Only memories whose indexing found a date mention are re-read for their notes (cached).
    dates = date_notes(item.content, item.created_at) if notes and item.event_start is not None else ""
    return f"- {label}{who}{item.content}{dates}{_mark(outdated)}"


def _mark(outdated: str | None) -> str:
    return f" ({outdated})" if outdated else ""


def marked_line(item: MemoryItem, notes: bool, outdated: str | None, validity: Validity | None) -> str:
    """:func:`memory_line`, with the outdated note where it belongs: a memory of several lines (a
    summary, a consolidated memory) gets it on each line stating a replaced value, not at its end,
    where it would seem to judge whatever the last line says."""
    if not outdated or validity is None or "\n" not in item.content:
        return memory_line(item, notes, outdated)
    lines = item.content.split("\n")
    marks = [validity.updates_in(line, item.created_at) for line in lines]
    if not any(marks):
        return memory_line(item, notes, outdated)
    content = "\n".join(line + _mark(m[0].note() if m else None) for line, m in zip(lines, marks, strict=True))
    return memory_line(replace(item, content=content), notes, None)


def group_key(item: MemoryItem) -> tuple[str, str]:
    if item.kind is MemoryKind.CONSOLIDATED:
        return (CONSOLIDATED_GROUP, "")
    if item.kind in FACT_KINDS:
        return (FACTS_GROUP, "")
    return (item.thread_id or "", f"{item.created_at:%Y-%m-%d}")


def group_header(item: MemoryItem) -> str:
    """Memories are shown per conversation and day; a date stamp on every line would cost ~8
    tokens each, a sixth of a 2,000-token budget spent on repeated dates."""
    where = f"conversation {item.thread_id}" if item.thread_id else "saved memories"
    return f"### {where}, {item.created_at:%A %d %B %Y}"


def message_line(message: Message, outdated: str | None = None) -> str:
    who = message.name or message.role.value
    return f"- [{_when(message)}] {who}: {message.content}{_mark(outdated)}"


def render_context(
    *,
    summary: Summary | None,
    recent: Sequence[Message],
    pieces: Sequence[ContextPiece],
    budget: int,
    count: Callable[[str], int],
    truncate: Callable[[str, int], str],
    validity: Validity | None = None,
) -> tuple[str, list[ContextPiece], int]:
    """Return the context text, the memory pieces that made it in, and its token count.

    ``truth.validity``: the user's closed facts. Every memory and recent message a later fact made
    outdated carries a note of what replaced it, and a summary stating a replaced value gets an
    "Updated since" line: no section presents a superseded value as current.
    """
    sections: list[str] = []
    used = 0
    notes: dict[str, str | None] = {}

    def outdated(item: MemoryItem) -> str | None:
        if item.id not in notes:
            notes[item.id] = validity.note(item) if validity else None
        return notes[item.id]

    rendered: dict[str, str] = {}

    def line_of(piece: ContextPiece) -> str:
        if piece.memory.id not in rendered:
            rendered[piece.memory.id] = marked_line(piece.memory, piece.date_notes, outdated(piece.memory), validity)
        return rendered[piece.memory.id]

    if summary is not None and summary.content.strip():
        head = "## Summary of this conversation\n"
        body = _summary_body(summary, validity, int(budget * SUMMARY_SHARE) - count(head), count, truncate)
        if body:
            sections.append(head + body)
            used += count(sections[-1]) + 1

    if recent:
        head = "## Recent messages\n"
        cap = int(budget * RECENT_SHARE)
        lines: list[str] = []
        cost = count(head)
        for m in reversed(recent):  # keep the newest when the window does not fit
            change = validity.outdated_by([m.id], m.content, m.created_at, m.name) if validity else None
            line = message_line(m, change.note() if change else None)
            c = count(line) + 1
            if cost + c > cap:
                break
            lines.insert(0, line)
            cost += c
        if lines:
            sections.append(head + "\n".join(lines))
            used += cost + 1

    left = budget - used
    chosen: list[ContextPiece] = []
    seen: set[str] = set()
    groups: set[tuple[str, str]] = set()
    for piece in pieces:
        if left < MIN_LINE_TOKENS:
            break
        if piece.memory.id in seen:
            continue
        key = group_key(piece.memory)
        section = SECTION_HEADS.get(key[0])
        c = count(line_of(piece)) + 1
        if key not in groups:  # the first line of its section or of its conversation group
            c += count(section) + 2 if section else count(group_header(piece.memory)) + 1
            if not section and not any(g[0] not in SECTION_HEADS for g in groups):
                c += count(MEMORIES_HEAD) + 2
        if c > left:
            continue
        chosen.append(piece)
        seen.add(piece.memory.id)
        groups.add(key)
        left -= c

    def render() -> str:
        return "\n\n".join([*sections, *_memory_sections(chosen, line_of)])

    text = render()
    tokens = count(text)
    while chosen and tokens > budget:  # headers can tip it over: drop the weakest
        chosen.remove(max(chosen, key=lambda p: p.rank))
        text = render()
        tokens = count(text)
    return text, chosen, tokens


def _summary_body(
    summary: Summary,
    validity: Validity | None,
    room: int,
    count: Callable[[str], int],
    truncate: Callable[[str, int], str],
) -> str:
    """The summary within ``room`` tokens. A summary written before a change still tells the old
    value: each line that states one is marked, and an "Updated since" line tells what changed."""
    text = summary.content.strip()
    update = summary_updates(validity, text, summary.updated_at)
    if not update:
        return truncate(text, max(room, 0))

    def marked(line: str) -> str:
        changes = validity.updates_in(line, summary.updated_at) if validity else []
        return line + _mark(changes[0].note() if changes else None)

    marks = sum(count(marked(line)) - count(line) for line in text.splitlines())
    body = truncate(text, max(room - count(update) - 1 - marks, 0))
    return "\n".join([*(marked(line) for line in body.splitlines()), update]) if body else ""


def _memory_sections(pieces: Sequence[ContextPiece], line_of: Callable[[ContextPiece], str]) -> list[str]:
    """Known facts first (distilled before episodic), then consolidated memories (a digest of many,
    in a section of their own: never read as one known fact), then conversation memories."""
    episodes = [p for p in pieces if group_key(p.memory)[0] not in SECTION_HEADS]
    out = []
    for group, head in SECTION_HEADS.items():
        section = [p for p in pieces if group_key(p.memory)[0] == group]
        if section:
            lines = [line_of(p) for p in sorted(section, key=lambda p: p.rank)]
            out.append(head + "\n" + "\n".join(lines))
    if episodes:
        out.append(MEMORIES_HEAD + "\n" + _grouped(episodes, line_of))
    return out


def _grouped(pieces: Sequence[ContextPiece], line_of: Callable[[ContextPiece], str]) -> str:
    """Group by conversation and day (best-ranked group first); within a group, in the order said."""
    groups: dict[tuple[str, str], list[ContextPiece]] = {}
    for p in sorted(pieces, key=lambda p: p.rank):
        groups.setdefault(group_key(p.memory), []).append(p)
    out: list[str] = []
    for group in groups.values():
        group.sort(key=lambda p: (p.memory.created_at, p.memory.seq or 0))
        out.append(group_header(group[0].memory))
        out.extend(line_of(p) for p in group)
    return "\n".join(out)
