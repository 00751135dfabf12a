"""How the CLI shows results: rich panels and tables built from the result objects."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:  # annotations only: `hipocampo --help` loads no engine module
    from ...domain.model import MemoryItem, Message
    from ...domain.retrieval.recall import RecallResult, ScoredMemory, SearchResult

CONTENT_CHARS = 90


def _thread_when(m: MemoryItem) -> str:
    return f"{m.thread_id or '-'}\n{m.created_at:%Y-%m-%d %H:%M}"


def _speaker(m: MemoryItem) -> str:
    return m.name or (m.role.value if m.role else "")


def short(text: str, limit: int = CONTENT_CHARS) -> str:
    """One line of at most ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def message_dict(m: Message) -> dict[str, Any]:
    return {
        "id": m.id,
        "external_id": m.external_id,
        "thread_id": m.thread_id,
        "seq": m.seq,
        "role": m.role.value,
        "name": m.name,
        "content": m.content,
        "created_at": m.created_at.isoformat(),
        "metadata": m.metadata,
    }


def context_panel(result: RecallResult) -> Panel:
    body = Text(result.context) if result.context else Text("(nothing to recall yet)", style="dim")
    return Panel(
        body,
        title=f"context for {result.query!r}",
        subtitle=f"{result.context_tokens}/{result.token_budget} tokens",
        title_align="left",
        subtitle_align="right",
    )


def _rank(rank: int | None, score: float | None) -> str:
    return "-" if rank is None else f"#{rank} ({score:.3f})" if score is not None else f"#{rank}"


def hits_table(hits: Sequence[ScoredMemory], title: str) -> Table:
    """What was found: rank, score, kind, where and when it was said, by whom, and what."""
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    table.add_column("thread / when", max_width=18, overflow="ellipsis")
    table.add_column("speaker", max_width=12, overflow="ellipsis")
    table.add_column("content", ratio=1, overflow="fold")
    for i, hit in enumerate(hits, 1):
        m = hit.memory
        content = Text(short(m.content))
        if hit.outdated_note:  # a later fact replaced it: say so where the content is read
            content.append(f"\n({hit.outdated_note})", style="yellow")
        table.add_row(str(i), f"{hit.score:.3f}", m.kind.value, _thread_when(m), _speaker(m), content)
    return table


def explain_table(hits: Sequence[ScoredMemory]) -> Table:
    """Why each hit ranked where it did: its rank (and score) in the dense and keyword retrievers,
    the base score fused from them, the boosts that multiply it into the final score, and its
    calibrated relevance (what relevance filters use)."""
    table = Table(
        title="why: score = base x boosts; relevance is calibrated (0.6 = related 3 times in 5)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
    )
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("dense", no_wrap=True)
    table.add_column("keyword", no_wrap=True)
    table.add_column("base", justify="right", no_wrap=True)
    table.add_column("relevance", justify="right", no_wrap=True)
    table.add_column("boosts", no_wrap=True)
    table.add_column("matched", ratio=1, overflow="fold")
    for i, hit in enumerate(hits, 1):
        x = hit.explanation
        table.add_row(
            str(i),
            _rank(x.dense_rank, x.dense_score),
            _rank(x.keyword_rank, x.keyword_score),
            f"{x.base_score:.3f}",
            f"{x.relevance:.2f}",
            "\n".join(f"{k} x{v:.2f}" for k, v in x.boosts.items() if abs(v - 1.0) > 1e-9) or "-",
            ", ".join(dict.fromkeys(t.lower() for t in x.matched_terms + x.matched_names)) or "-",
        )
    return table


def degraded_notes(degraded: Sequence[str]) -> list[Text]:
    return [Text(f"degraded: {note}", style="yellow") for note in degraded]


def timings(timings_ms: dict[str, float]) -> Text:
    parts = ", ".join(f"{k.removesuffix('_ms').replace('_', ' ')} {v:.1f}" for k, v in timings_ms.items())
    return Text(f"timings (ms): {parts}", style="dim")


def show_recall(console: Console, result: RecallResult, *, explain: bool) -> None:
    console.print(context_panel(result))
    for note in degraded_notes(result.degraded):
        console.print(note)
    if result.memories:
        console.print(hits_table(result.memories, "recalled memories"))
        if explain:
            console.print(explain_table(result.memories))
    console.print(timings(result.timings_ms))


def show_search(console: Console, result: SearchResult) -> None:
    for note in degraded_notes(result.degraded):
        console.print(note)
    if not result.hits:
        console.print(Text(f"no memory matches {result.query!r}", style="dim"))
    else:
        console.print(hits_table(result.hits, f"search: {result.query!r}"))
        console.print(explain_table(result.hits))
    console.print(timings(result.timings_ms))


def memories_table(items: Sequence[MemoryItem]) -> Table:
    """Stored memories, each with its id (dim, under the content) for get/update/delete."""
    table = Table(title=f"{len(items)} memories", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("kind", no_wrap=True)
    table.add_column("thread / when", max_width=18, overflow="ellipsis")
    table.add_column("speaker", max_width=12, overflow="ellipsis")
    table.add_column("content", ratio=1, overflow="fold")
    for m in items:
        kind = m.kind.value + (f"\n{m.type_name}" if m.type_name else "")
        content = Text(short(m.content), style="strike dim" if m.valid_to else "")
        notes = [m.id]
        if m.mention_count > 1:
            notes.append(f"said {m.mention_count}x")
        if m.event_start:
            notes.append(f"event {m.event_start:%Y-%m-%d}")
        if m.valid_to:
            notes.append(f"until {m.valid_to:%Y-%m-%d}")
        content.append("\n" + " · ".join(notes), style="dim")
        table.add_row(kind, _thread_when(m), _speaker(m), content)
    return table


def _size(n: int) -> str:
    size, units = float(n), ["B", "KiB", "MiB", "GiB"]
    while size >= 1024 and len(units) > 1:
        size /= 1024
        units.pop(0)
    return f"{n} B" if units[0] == "B" else f"{size:.1f} {units[0]}"


def doctor_view(report: dict[str, Any]) -> RenderableType:
    """The doctor's report: one table of facts, then problems in red (or a green ok)."""
    table = Table(title="hipocampo doctor", title_justify="left", show_header=False)
    table.add_column("check", style="bold")
    table.add_column("value", overflow="fold")
    embedder = report["embedder"]
    models = ", ".join(f"{name} ({dim} dims)" for name, dim in report["index_models"].items()) or "none yet"
    for check, value in (
        ("database", report["database"] + ("" if (n := report["database_bytes"]) is None else f" ({_size(n)})")),
        ("messages", str(report["messages"])),
        ("memories", str(report["memories"])),
        (
            "vectors",
            f"{report['vectors']} ({report['vector_coverage']:.0%} of memories)"
            + ("" if report.get("vector_index", "database") == "database" else f" in {report['vector_index']}"),
        ),
        ("embedder", f"{embedder['name']} ({embedder['dim']} dims)"),
        ("index models", models),
        ("jobs", ", ".join(f"{k} {v}" for k, v in report["jobs"].items()) or "none"),
    ):
        table.add_row(check, value)
    parts: list[RenderableType] = [table]
    if report["dead_letters"]:
        dead = Table(title="dead letters", title_justify="left")
        for column in ("id", "kind", "attempts", "error"):
            dead.add_column(column, overflow="fold")
        for job in report["dead_letters"]:
            dead.add_row(str(job["id"]), job["kind"], str(job["attempts"]), job["error"] or "")
        parts.append(dead)
    parts += [Text(f"problem: {p}", style="red") for p in report["problems"]]
    if report["ok"]:
        parts.append(Text("ok: no problems found", style="green"))
    return Group(*parts)
