"""CLI commands over what hipocampo learned: a memory's history, and consolidation."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

import typer
from rich import box
from rich.table import Table

from .support import JsonOpt, UserArg, out, print_json, state


def history(
    ctx: typer.Context,
    user: UserArg,
    memory_id: Annotated[str, typer.Argument(help="The memory's id (see `hipocampo memories`).")],
    json_out: JsonOpt = False,
) -> None:
    """Show every change to one of USER's memories: added, said again, superseded, retracted."""
    st = state(ctx)
    entries = st.run(lambda mem: mem.history(user, memory_id, tenant_id=st.tenant))
    if json_out:
        print_json([asdict(e) | {"event": e.event.value, "created_at": e.created_at.isoformat()} for e in entries])
        return
    table = Table(title=f"history of {memory_id}", title_justify="left", box=box.SIMPLE_HEAD)
    for column in ("when", "event", "by", "from", "to", "why"):
        table.add_column(column, overflow="fold")
    for e in entries:
        table.add_row(
            f"{e.created_at:%Y-%m-%d %H:%M}",
            e.event.value,
            e.actor,
            e.old_content or "",
            e.new_content or "",
            (e.reason or "") + (f" → {e.related_id}" if e.related_id else ""),
        )
    out().print(table)


def consolidate(
    ctx: typer.Context,
    user: Annotated[str | None, typer.Option("--user", "-u", help="Only this user (default: everyone).")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Cluster recent memories into consolidated ones and merge near-duplicate facts, now.

    Workers also do this nightly (HIPOCAMPO_CONSOLIDATION, HIPOCAMPO_CONSOLIDATION_HOUR).
    """
    st = state(ctx)

    async def work(mem):  # noqa: ANN001, ANN202 - AsyncMemory -> dict
        reports = await mem.consolidate(user, tenant_id=st.tenant)
        await mem.flush()  # index the new consolidated memories before returning
        return reports

    reports = st.run(work)
    if json_out:
        print_json({key: asdict(r) for key, r in reports.items()})
        return
    for key, r in reports.items():
        out().print(
            f"{key}: {r.clusters} clusters, {len(r.consolidated_ids)} consolidated, "
            f"{len(r.merged_duplicates)} duplicates merged, {r.memories_seen} memories seen"
        )
    if not reports:
        out().print("nothing to consolidate")
