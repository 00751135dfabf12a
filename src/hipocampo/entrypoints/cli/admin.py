"""Operations commands: reindex, worker, doctor and settings; :mod:`.cli` registers them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
import types
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args, get_origin

import typer
from rich.table import Table

from .render import doctor_view
from .support import OPERATIONAL, JsonOpt, YesOpt, confirm, env_var, out, print_json, progress_bar, state

if TYPE_CHECKING:
    from pydantic.fields import FieldInfo

    from ...client import AsyncMemory


def reindex(ctx: typer.Context, yes: YesOpt = False) -> None:
    """Rebuild the keyword and vector indexes from the stored messages and memories.

    Run it after changing HIPOCAMPO_EMBEDDER. Recall misses memories until it finishes.
    """
    st = state(ctx)
    confirm("rebuild every index (recall misses memories until it finishes)", yes)
    start = time.perf_counter()
    with progress_bar() as bar:
        task = bar.add_task("reindexing", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=max(done, total))

        report = st.run(lambda mem: mem.reindex(progress=advance))
    out().print(
        f"reindexed {report['indexed']} memories with {report['embedder']} ({report['dim']} dims) "
        f"in {time.perf_counter() - start:.1f} s"
    )


def worker(ctx: typer.Context) -> None:
    """Run the background indexing worker in the foreground until Ctrl-C or SIGTERM.

    Use it with HIPOCAMPO_WORKER=external, so the processes that write do not index themselves.
    Several workers can share one store. On SIGTERM it claims nothing more, lets its work run
    HIPOCAMPO_WORKER_SHUTDOWN_SECONDS, gives back what is unfinished and exits. On SIGUSR1 it
    logs where each of its tasks is waiting, and goes on.
    """
    st = state(ctx)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    async def work(mem: AsyncMemory) -> None:
        s = mem.settings
        _stop_on_signals(mem)
        _tasks_on_sigusr1()
        # After the handlers: once this line is out, a signal is handled, never fatal.
        from ...client import redact  # the password stays out of logs, as serve and migrate do

        out().print(f"hipocampo worker: {redact(s.db)} with {s.embedder}; Ctrl-C to stop", soft_wrap=True)
        await mem.run_worker()  # a signal stops it within HIPOCAMPO_WORKER_SHUTDOWN_SECONDS

    st.run(work, worker="external")
    out().print("hipocampo worker: stopped")


def _stop_on_signals(mem: AsyncMemory) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        # Windows, or not the main thread: no handlers, and Ctrl-C still ends the process.
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, mem.stop_worker)


def _tasks_on_sigusr1() -> None:
    """SIGUSR1 logs where every task is waiting: why a worker claims nothing. A thread dump
    (py-spy, faulthandler) shows only the event loop's idle select, and ``Task.print_stack``
    only a task's outermost frame; this follows each task's chain of awaits to the innermost."""
    loop = asyncio.get_running_loop()

    def dump() -> None:
        for task in asyncio.all_tasks(loop):
            lines: list[str] = []
            awaited: Any = task.get_coro()
            while awaited is not None:
                frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "ag_frame", None)
                frame = frame or getattr(awaited, "gi_frame", None)
                if frame is not None:
                    lines.append(f"  {frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}")
                nxt = getattr(awaited, "cr_await", None) or getattr(awaited, "ag_await", None)
                awaited = nxt or getattr(awaited, "gi_yieldfrom", None)
            logging.getLogger(__name__).warning("task %s awaits:\n%s", task.get_name(), "\n".join(lines))

    with contextlib.suppress(NotImplementedError, RuntimeError, AttributeError):  # Windows: no SIGUSR1
        loop.add_signal_handler(signal.SIGUSR1, dump)


def doctor(
    ctx: typer.Context,
    json_out: JsonOpt = False,
    retry_dead: Annotated[bool, typer.Option("--retry-dead", help="Requeue dead-letter jobs first.")] = False,
) -> None:
    """Check the store's health; exits 1 when it finds a problem.

    Looks at index coverage, the job backlog, dead letters and whether the index was built with the
    configured embedder.
    """
    st = state(ctx)

    async def work(mem: AsyncMemory) -> tuple[int | None, dict[str, Any]]:
        requeued = await mem.retry_dead() if retry_dead else None
        return requeued, await mem.doctor()

    # An external worker setting keeps doctor an observer: it does not drain the queue it reports.
    requeued, report = st.run(work, worker="external")
    if json_out:
        print_json(report if requeued is None else {**report, "requeued": requeued})
    else:
        if requeued is not None:
            out().print(f"requeued {requeued} dead job(s)")
        out().print(doctor_view(report))
    if not report["ok"]:
        raise typer.Exit(OPERATIONAL)


# -- settings --------------------------------------------------------------------------------
@dataclass(frozen=True)
class SettingRow:
    section: str
    env: str
    type: str
    default: str
    description: str


def settings_rows() -> list[SettingRow]:
    """Every :class:`Settings` field, read from the class itself so the docs cannot drift, grouped
    by the section that reads it (:data:`~hipocampo.settings.SECTION_FIELDS`)."""
    from ...settings import SECTION_FIELDS, Settings

    fields = Settings.model_fields
    return [
        SettingRow(
            section, env_var(name), _type_name(fields[name]), _default(fields[name]), fields[name].description or ""
        )
        for section, names in SECTION_FIELDS.items()
        for name in names
    ]


def _type_name(field: FieldInfo) -> str:
    from ...settings import Named

    annotation: Any = field.annotation
    args = get_args(annotation)
    optional = get_origin(annotation) in (Union, types.UnionType) and type(None) in args
    if optional:
        annotation = next(a for a in args if a is not type(None))
    named = next((m for m in field.metadata if isinstance(m, Named)), None)
    if named is not None:  # a provider's name: the built-ins, whatever else is installed here
        name = named.describe()
    elif get_origin(annotation) is Literal:
        name = ", ".join(str(a) for a in get_args(annotation))
    elif isinstance(annotation, type) and issubclass(annotation, Enum):
        name = ", ".join(str(m.value) for m in annotation)
    else:
        name = getattr(annotation, "__name__", str(annotation))
    bounds = [
        f"{symbol} {getattr(m, attr)}"
        for m in field.metadata
        for attr, symbol in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<"))
        if getattr(m, attr, None) is not None
    ]
    if bounds:
        name += f" ({', '.join(bounds)})"
    return f"{name}, optional" if optional else name


def _default(field: FieldInfo) -> str:
    value = field.get_default(call_default_factory=True)
    if value is None:
        return ""
    text = str(value.value if isinstance(value, Enum) else value)
    home = str(Path.home())
    return "~" + text[len(home) :] if text.startswith(home) else text


def settings_markdown(rows: list[SettingRow]) -> str:
    """A GitHub table; the README embeds it."""

    def cell(text: str, code: bool = False) -> str:
        text = text.replace("|", "\\|")
        return f"`{text}`" if code and text else text

    lines = ["| Section | Variable | Type | Default | Description |", "| --- | --- | --- | --- | --- |"]
    lines += [
        f"| {r.section} | {cell(r.env, True)} | {cell(r.type)} | {cell(r.default, True)} | {cell(r.description)} |"
        for r in rows
    ]
    return "\n".join(lines)


def settings(
    markdown: Annotated[bool, typer.Option("--markdown", help="Print a GitHub Markdown table.")] = False,
) -> None:
    """List every setting: its HIPOCAMPO_* environment variable, type, default and meaning."""
    rows = settings_rows()
    if markdown:
        typer.echo(settings_markdown(rows))
        return
    table = Table(title="settings (environment variables)", title_justify="left", show_lines=True)
    table.add_column("section", no_wrap=True)
    table.add_column("variable", no_wrap=True)
    table.add_column("type", max_width=22, overflow="fold")
    table.add_column("default", max_width=16, overflow="fold")
    table.add_column("description", ratio=1, overflow="fold")
    for r in rows:
        table.add_row(r.section, r.env, r.type, r.default, r.description)
    out().print(table)
