"""``hipocampo export``: a user's whole memory as JSON Lines, streamed, in constant memory."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated

import typer

from ...domain.model import Scope
from .support import UserArg, out, state

if TYPE_CHECKING:
    from ...client import AsyncMemory


async def write_export(mem: AsyncMemory, scope: Scope, target: IO[str]) -> dict[str, int]:
    """Write ``scope``'s export to ``target`` line by line; returns the counts of the end record,
    plus ``saved``: the memories saved directly (the others are rebuilt from the messages)."""
    from ...client import json_line

    counts: dict[str, int] = {}
    saved = 0
    async for record in mem.export_records(scope):
        if record["type"] == "end":
            counts = record["counts"]
        saved += record["type"] == "memory" and record["origin"] == "saved"
        target.write(json_line(record))
    return counts | {"saved": saved}


def export(
    ctx: typer.Context,
    user: UserArg,
    out_file: Annotated[
        Path | None,
        typer.Option("--out", "-o", dir_okay=False, help="Write to this file instead of stdout."),
    ] = None,
) -> None:
    """Write USER's whole memory as JSON Lines: every thread, message, memory and fact change.

    One JSON object per line with a "type": export (first), thread, message, memory, history,
    end (last, with the counts). `hipocampo import` reads it back. With --out the file appears
    only once the export is complete.
    """
    st = state(ctx)
    scope = Scope(st.tenant, user)
    if out_file is None:
        st.run(lambda mem: write_export(mem, scope, sys.stdout))
        return
    partial = out_file.with_name(out_file.name + ".partial")
    try:
        with partial.open("w", encoding="utf-8") as target:
            counts = st.run(lambda mem: write_export(mem, scope, target))
        os.replace(partial, out_file)
    finally:
        partial.unlink(missing_ok=True)
    out().print(
        f"exported {counts.get('thread', 0)} thread(s), {counts.get('message', 0)} message(s) and "
        f"{counts['saved']} saved memories of {user!r} to {out_file}"
    )
