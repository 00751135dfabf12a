"""``hipocampo move``: copy a whole store to another backend (SQLite to Postgres, and back), then
check the copy. The work is :mod:`hipocampo.services.move`; this module opens the two stores,
shows progress and prints the check."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from rich.progress import Progress, TaskID
from rich.table import Table

from ...domain.errors import ConfigurationError, HipocampoError, InvalidInput
from .support import OPERATIONAL, err, fail, out, progress_bar

if TYPE_CHECKING:  # annotations only: the engine loads when a move runs, not with the CLI
    from ...ports import Storage
    from ...services.move import MoveReport
    from ...services.move_verify import Verification

T = TypeVar("T")

SHOWN_ROWS = 50
"""Skipped or repaired rows listed after a move; the rest are counted."""
StoreOpt = "A SQLite path or sqlite:///path, a postgresql://... URL, or memory://name."


def move_store(
    source: Annotated[str, typer.Option("--from", help=f"The store to copy. {StoreOpt}", show_default=False)],
    target: Annotated[str, typer.Option("--to", help=f"Where to copy it. {StoreOpt}", show_default=False)],
    verify_only: Annotated[
        bool, typer.Option("--verify-only", help="Only compare the two stores; copy nothing.")
    ] = False,
    skip_pending: Annotated[
        bool,
        typer.Option(
            "--skip-pending",
            help="Move even though the source has background jobs queued (they are not copied; "
            "run `hipocampo reindex` on the destination afterwards).",
        ),
    ] = False,
    skip_invalid: Annotated[
        bool,
        typer.Option(
            "--skip-invalid",
            help="Leave out rows whose text or metadata no store may take (NUL, lone surrogates, NaN; an "
            "older SQLite store may hold them); they are listed. Without this or --repair the move stops "
            "and names them.",
        ),
    ] = False,
    repair: Annotated[
        bool,
        typer.Option(
            "--repair",
            help="Copy those rows repaired instead: NaN and Infinity as null, NUL and lone surrogates as U+FFFD.",
        ),
    ] = False,
) -> None:
    """Copy the whole store at --from into --to: how an embedded SQLite store moves up to Postgres.

    Copies tenants and API keys (keys keep working), every thread and message with its ids, order
    and times, every memory with its history, thread summaries, and vectors when the destination
    uses the same embedding model (otherwise run `hipocampo reindex` there). Stop the servers and
    workers that write to --from first. Interrupted, it resumes where it stopped when run again.
    It ends by comparing both stores (counts, and checksums per user) and exits 1 on a mismatch.
    Rows that break the text rule (NUL, lone surrogates, NaN) stop it, named, unless --skip-invalid
    or --repair says what to do with them (give the same flag to --verify-only afterwards).
    """
    from ...backends import redact, scheme_of
    from ...client import AsyncMemory
    from ...services.move import move
    from ...services.move_verify import same_vector_model, verify

    if skip_invalid and repair:
        fail("--skip-invalid and --repair exclude each other: choose what to do with invalid rows")
    invalid = "skip" if skip_invalid else "repair" if repair else "refuse"
    if same_store(source, target):
        fail(f"--from and --to are the same store ({redact(source)}); give another destination")
    for given in (source, target):
        scheme_of(given)  # an unknown scheme is refused here, before anything is opened
    if not AsyncMemory.store_exists(source):  # the backend knows where its store lives
        fail(f"no database at {redact(source)}: --from must name an existing store")

    async def main() -> tuple[MoveReport | None, Verification]:
        async def work(src: Storage, dst: Storage) -> tuple[MoveReport | None, Verification]:
            report = None
            if not verify_only:
                with progress_bar() as bar:
                    report = await move(src, dst, progress=_progress(bar), allow_pending=skip_pending, invalid=invalid)
            expect_vectors = report.vectors_copied if report else await same_vector_model(src, dst)
            with err().status("comparing the source and the destination..."):
                return report, await verify(src, dst, expect_vectors=expect_vectors, invalid=invalid)

        return await _with_stores(source, target, work)

    report, verification = asyncio.run(main())
    if report is not None:
        show_report(report)
    out().print(verification_table(verification))
    out().print(f"not compared: {'; '.join(verification.not_checked)}", soft_wrap=True)
    if not verification.ok:
        fail(
            "the destination differs from the source (see MISMATCH above): if the source changed during "
            "the move, run the move again; otherwise the destination was changed after it",
            OPERATIONAL,
        )


def same_store(a: str, b: str) -> bool:
    """Whether two database settings name one store (a path and its sqlite:/// URL do; so do two
    Postgres URLs of one database with other users or passwords)."""
    try:
        first, second = _identity(a), _identity(b)
    except (ConfigurationError, InvalidInput):
        return False
    return first is not None and first == second


def _identity(target: str) -> tuple[str, ...] | None:
    """What names one store, or ``None`` for one that nothing else names (a plain memory://):
    the store's backend says (a path and its sqlite:/// URL are one file; a Postgres URL without a
    port names the default one)."""
    from ...client import AsyncMemory

    return AsyncMemory.store_identity(target)


async def _with_stores(source: str, target: str, work: Callable[[Storage, Storage], Awaitable[T]]) -> T:
    src = await _open(source, "source")
    try:
        dst = await _open(target, "destination")
        try:
            return await work(src, dst)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _open(target: str, role: str) -> Storage:
    """Open a store and read it once, so a missing or old schema is reported before any copy."""
    from ...adapters.clock import SystemClock
    from ...backends import open_storage, redact
    from ...settings import Settings

    try:
        storage = await open_storage(target, clock=SystemClock(), settings=Settings(db=target))
    except ConfigurationError as exc:
        hint = f" (`hipocampo migrate --db {redact(target)}`)" if "migrate" in str(exc) else ""
        raise ConfigurationError(f"cannot open the {role}: {exc}{hint}") from exc
    try:
        await storage.log.count()
        await storage.memories.count()
        await storage.tenants.list_tenants()
    except HipocampoError:
        await storage.close()
        raise
    except Exception as exc:  # a driver's error for a missing table or column: say what to do
        await storage.close()
        raise ConfigurationError(
            f"cannot read the {role} {redact(target)} ({type(exc).__name__}: {exc}); if its schema is missing"
            f" or older than this hipocampo, run `hipocampo migrate --db {redact(target)}` first"
        ) from exc
    return storage


def _progress(bar: Progress) -> Callable[[str, int, int], None]:
    """One bar per phase of the move, made when the phase reports its first page."""
    tasks: dict[str, TaskID] = {}

    def tick(phase: str, done: int, total: int) -> None:
        if phase not in tasks:
            tasks[phase] = bar.add_task(phase, total=total)
        bar.update(tasks[phase], completed=done, total=total)

    return tick


def show_report(report: MoveReport) -> None:
    kinds = ("tenants", "api_keys", "messages", "memories", "history", "vectors", "summaries")
    copied = ", ".join(f"{report.copied[k]} {k.replace('_', ' ')}" for k in kinds)
    present = sum(report.present.values())
    already = f"; {present} row(s) were already there" if present else ""
    out().print(f"copied {copied}{already}", soft_wrap=True)
    for note in report.notes:
        out().print(f"[yellow]note:[/yellow] {note}", soft_wrap=True)
    if report.screened:
        done = "left out" if report.invalid == "skip" else "repaired"
        out().print(f"[yellow]{len(report.screened)} invalid row(s) {done}:[/yellow]", soft_wrap=True)
        for label in report.screened[:SHOWN_ROWS]:
            out().print(f"  {label}", soft_wrap=True, markup=False)
        if len(report.screened) > SHOWN_ROWS:
            out().print(f"  and {len(report.screened) - SHOWN_ROWS} more", soft_wrap=True)


def verification_table(v: Verification) -> Table:
    """One line per table: rows in the source and the destination, and OK / MISMATCH / REINDEX."""
    extra = f"; the destination also holds {v.extra_users} other user(s), not compared" if v.extra_users else ""
    table = Table(title=f"verification: {v.users} user(s) compared{extra}", title_justify="left")
    for column, justify in (("table", "left"), ("source", "right"), ("destination", "right"), ("status", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    table.add_column("differs in", overflow="fold")
    colours = {"OK": "green", "MISMATCH": "red", "REINDEX": "yellow"}
    for c in v.checks:
        shown = ", ".join(c.differing[:3]) + (f" (+{len(c.differing) - 3} more)" if len(c.differing) > 3 else "")
        if c.status == "REINDEX":
            shown = f"{shown}: run `hipocampo reindex` on the destination"
        status = f"[{colours[c.status]}]{c.status}[/{colours[c.status]}]"
        table.add_row(c.name.replace("_", " "), str(c.source), str(c.destination), status, shown)
    return table


def register(app: typer.Typer) -> None:
    """Add this module's command to the root app."""
    app.command("move")(move_store)
