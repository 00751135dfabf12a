"""Render a sectioned, token-budgeted context for the LLM prompt (seed 003's hierarchy).

Sections, in order: the thread summary, the recent messages of the thread, then relevant memories
from every thread grouped by conversation and shown in the order they were said. Each section has
a share of the budget; memories take whatever the others leave.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .model import MemoryItem, Message, Summary

SUMMARY_SHARE = 0.25
RECENT_SHARE = 0.30
MIN_LINE_TOKENS = 12  # no memory line is shorter than its date stamp: stop looking below this


@dataclass
class ContextPiece:
    memory: MemoryItem
    rank: int  # rank of the hit that brought it in; neighbours share their hit's rank


def _when(item: MemoryItem | Message) -> str:
    return f"{item.created_at:%Y-%m-%d %H:%M}"


def memory_line(item: MemoryItem) -> str:
    who = f"{item.name}: " if item.name else (f"{item.role.value}: " if item.role else "")
    label = "" if item.kind.value == "turn" else f"({item.kind.value}{'/' + item.memory_type.value if item.memory_type else ''}) "
    return f"- [{_when(item)}] {label}{who}{item.content}"


def message_line(message: Message) -> str:
    who = message.name or message.role.value
    return f"- [{_when(message)}] {who}: {message.content}"


def render_context(
    *,
    summary: Summary | None,
    recent: Sequence[Message],
    pieces: Sequence[ContextPiece],
    budget: int,
    count: Callable[[str], int],
    truncate: Callable[[str, int], str],
) -> tuple[str, list[ContextPiece], int]:
    """Return the context text, the memory pieces that made it in, and its token count."""
    sections: list[str] = []
    used = 0

    if summary is not None and summary.content.strip():
        head = "## Summary of this conversation\n"
        body = truncate(summary.content.strip(), max(int(budget * SUMMARY_SHARE) - count(head), 0))
        if body:
            sections.append(head + body)
            used += count(sections[-1]) + 1

    if recent:
        head = "## Recent messages\n"
        cap = int(budget * RECENT_SHARE)
        lines: list[str] = []
        cost = count(head)
        for m in reversed(recent):  # keep the newest when the window does not fit
            line = message_line(m)
            c = count(line) + 1
            if cost + c > cap:
                break
            lines.insert(0, line)
            cost += c
        if lines:
            sections.append(head + "\n".join(lines))
            used += cost + 1

    head = "## Relevant memories\n"
    left = budget - used - count(head) - 1
    chosen: list[ContextPiece] = []
    seen: set[str] = set()
    for piece in pieces:
        if left < MIN_LINE_TOKENS:
            break
        if piece.memory.id in seen:
            continue
        c = count(memory_line(piece.memory)) + 2  # the newline, and a possible thread header
        if c > left:
            continue
        chosen.append(piece)
        seen.add(piece.memory.id)
        left -= c
    if chosen:
        sections.append(head + _grouped(chosen))

    text = "\n\n".join(sections)
    tokens = count(text)
    while chosen and tokens > budget:  # group headers can tip it over: drop the weakest
        chosen.remove(max(chosen, key=lambda p: p.rank))
        sections[-1] = head + _grouped(chosen) if chosen else ""
        text = "\n\n".join(s for s in sections if s)
        tokens = count(text)
    return text, chosen, tokens


def _grouped(pieces: Sequence[ContextPiece]) -> str:
    """Group by thread (best-ranked thread first); within a thread, in the order said."""
    threads: dict[str, list[ContextPiece]] = {}
    for p in sorted(pieces, key=lambda p: p.rank):
        threads.setdefault(p.memory.thread_id or "", []).append(p)
    out: list[str] = []
    for thread, group in threads.items():
        group.sort(key=lambda p: (p.memory.created_at, p.memory.seq or 0))
        day = f"{group[0].memory.created_at:%d %B %Y}"
        out.append(f"### {'conversation ' + thread if thread else 'memories'} ({day})")
        out.extend(memory_line(p.memory) for p in group)
    return "\n".join(out)
