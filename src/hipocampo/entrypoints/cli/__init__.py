"""The ``hipocampo`` command line. Every command goes through :class:`~hipocampo.AsyncMemory`.

This module builds the app and holds the everyday commands; operations (reindex, worker, doctor,
settings), import and the benchmarks live in the modules of this package. None of them imports
the engine at the top, only inside the commands that need it: building the app for
``hipocampo --version`` or ``--help`` loads typer, rich and the domain's plain types, nothing else
(a test keeps it so; ``benchmarks/cli_startup.py`` measures it).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from ... import __version__
from ...domain.errors import InvalidInput
from ...domain.model import MemoryKind, Role
from . import admin as cli_admin
from . import chat as cli_chat
from . import export as cli_export
from . import facts as cli_facts
from . import importing as cli_import
from . import mcp as cli_mcp
from . import migrate as cli_migrate
from . import move as cli_move
from . import plugins as cli_plugins
from . import serve as cli_serve
from . import tenants as cli_tenants
from .bench import bench_app
from .render import memories_table, message_dict, show_recall, show_search
from .support import (
    CliGroup,
    CliState,
    ExcludeThreadOpt,
    JsonOpt,
    KOpt,
    NoWaitOpt,
    QueryArg,
    ThreadOpt,
    UserArg,
    YesOpt,
    confirm,
    out,
    print_json,
    state,
    wait_for_indexing,
)

if TYPE_CHECKING:
    from ...client import AsyncMemory
    from ...domain.model import Message

RecencyName = Literal["recent_focused", "balanced", "archeological"]
"""The values of :class:`~hipocampo.RecencyMode`, spelled out so that building the command line does
not load the ranking code that defines it; a test keeps the two the same."""

app = typer.Typer(
    cls=CliGroup,
    rich_markup_mode="markdown",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hipocampo {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option(
            "--db", help="SQLite file or postgresql:// URL to use (overrides HIPOCAMPO_DB).", show_default=False
        ),
    ] = None,
    tenant: Annotated[str, typer.Option("--tenant", help="Tenant: memories never cross tenants.")] = "default",
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """hipocampo: long-term memory for LLM chat agents, offline by default, with explainable recall.

    Settings come from HIPOCAMPO_* environment variables (see `hipocampo settings`).
    """
    ctx.obj = CliState(db=db, tenant=tenant)


def _parse_meta(pairs: list[str]) -> dict[str, str]:
    meta: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidInput(f"--meta expects KEY=VALUE, got {pair!r}")
        meta[key.strip()] = value
    return meta


def _check_exclude(thread: str | None, exclude_thread: bool) -> None:
    if exclude_thread and thread is None:
        raise InvalidInput("--exclude-thread needs --thread (the thread to leave out)")


def add(
    ctx: typer.Context,
    user: UserArg,
    thread: Annotated[str, typer.Argument(help="Thread (conversation) id.", show_default=False)],
    texts: Annotated[
        list[str],
        typer.Argument(metavar="TEXT...", help="The messages, one per argument (quote each)."),
    ],
    role: Annotated[Role, typer.Option(help="Who wrote the messages.")] = Role.USER,
    name: Annotated[str | None, typer.Option(help="Speaker's name, e.g. the user's first name.")] = None,
    at: Annotated[
        str | None,
        typer.Option(help="When they were said, ISO-8601 (default: now).", show_default=False),
    ] = None,
    meta: Annotated[
        list[str] | None,
        typer.Option(metavar="KEY=VALUE", help="Metadata for every message; repeatable."),
    ] = None,
    no_wait: NoWaitOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Write messages to USER's THREAD. Waits until they are indexed unless --no-wait."""
    st = state(ctx)
    messages = [{"role": role.value, "content": text, "name": name} for text in texts]
    metadata = _parse_meta(meta or [])

    async def work(mem: AsyncMemory) -> tuple[list[Message], float, float | None]:
        start = time.perf_counter()
        stored = await mem.add(user, thread, messages, tenant_id=st.tenant, at=at, metadata=metadata)
        ack_ms = (time.perf_counter() - start) * 1000
        return stored, ack_ms, await wait_for_indexing(mem, no_wait)

    stored, ack_ms, indexing_s = st.run(work)
    if json_out:
        print_json(
            {
                "messages": [message_dict(m) for m in stored],
                "ack_ms": ack_ms,
                "indexing_s": indexing_s,
            }
        )
        return
    indexed = "indexing left for later" if indexing_s is None else f"indexed in {indexing_s:.2f} s"
    out().print(f"stored {len(stored)} message(s) in {user}/{thread} (ack {ack_ms:.1f} ms); {indexed}")


def recall(
    ctx: typer.Context,
    user: UserArg,
    query: QueryArg,
    thread: ThreadOpt = None,
    k: KOpt = None,
    budget: Annotated[
        int | None,
        typer.Option(
            metavar="TOKENS",
            help="Token budget of the context (default: HIPOCAMPO_CONTEXT_TOKEN_BUDGET).",
        ),
    ] = None,
    recency: Annotated[
        RecencyName | None,
        typer.Option(help="How much the age of a memory matters (default: HIPOCAMPO_RECENCY_MODE)."),
    ] = None,
    exclude_thread: ExcludeThreadOpt = False,
    json_out: JsonOpt = False,
    explain: Annotated[bool, typer.Option("--explain", help="Show why each memory ranked where it did.")] = False,
) -> None:
    """Build the context an agent gets before answering QUERY, with what it recalled.

    The context holds the recent turns and summary of --thread and USER's relevant memories from
    every thread, within a token budget.
    """
    st = state(ctx)
    _check_exclude(thread, exclude_thread)
    result = st.run(
        lambda mem: mem.recall(
            user,
            thread,
            query,
            tenant_id=st.tenant,
            k=k,
            token_budget=budget,
            recency=recency,
            exclude_current_thread=exclude_thread,
        )
    )
    if json_out:
        print_json(result.to_dict())
    else:
        show_recall(out(), result, explain=explain)


def search(
    ctx: typer.Context,
    user: UserArg,
    query: QueryArg,
    k: KOpt = None,
    thread: ThreadOpt = None,
    exclude_thread: ExcludeThreadOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Rank USER's memories for QUERY and explain every score (dense and keyword ranks, boosts)."""
    st = state(ctx)
    _check_exclude(thread, exclude_thread)
    result = st.run(
        lambda mem: mem.search(user, query, tenant_id=st.tenant, k=k, thread_id=thread, exclude_thread=exclude_thread)
    )
    if json_out:
        print_json(result.to_dict())
    else:
        show_search(out(), result)


def memories(
    ctx: typer.Context,
    user: UserArg,
    kind: Annotated[MemoryKind | None, typer.Option(help="Only memories of this kind.")] = None,
    thread: ThreadOpt = None,
    limit: Annotated[int, typer.Option(help="At most this many (1 to 1000).")] = 50,
    json_out: JsonOpt = False,
) -> None:
    """List USER's stored memories: turns, saved facts, summaries."""
    from ...domain.retrieval.recall import memory_to_dict

    st = state(ctx)
    items = st.run(lambda mem: mem.list(user, tenant_id=st.tenant, kind=kind, thread_id=thread, limit=limit))
    if json_out:
        print_json([memory_to_dict(m) for m in items])
    else:
        out().print(memories_table(items))


def forget(
    ctx: typer.Context,
    user: UserArg,
    thread: Annotated[str | None, typer.Option("--thread", "-t", help="Forget only this thread.")] = None,
    yes: YesOpt = False,
) -> None:
    """Delete USER's memory for good: one thread with --thread, otherwise everything.

    Asks first; without a terminal (scripts, CI) it refuses unless --yes.
    """
    st = state(ctx)
    confirm(
        f"delete thread {thread!r} of user {user!r}" if thread else f"delete all memory of user {user!r}",
        yes,
    )
    counts = st.run(lambda mem: mem.forget(user, thread_id=thread, tenant_id=st.tenant))
    out().print(f"forgot {counts['threads']} thread(s), {counts['messages']} message(s), {counts['memories']} memories")


def demo(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option("--db", help="Keep the demo in this SQLite file (default: a temporary one)."),
    ] = None,
) -> None:
    """Show hipocampo at work, offline, on a bilingual (PT/EN) user.

    Writes two conversations, then recalls in Portuguese, in English and across languages, with
    their explanations and timings.
    """
    from ..demo import run_demo

    st = state(ctx)
    with tempfile.TemporaryDirectory(prefix="hipocampo-demo-") as tmp:
        chosen = CliState(db=db or st.db or str(Path(tmp) / "demo.db"), tenant=st.tenant)
        start = time.perf_counter()
        chosen.run(lambda mem: run_demo(mem, out(), tenant=chosen.tenant, open_s=time.perf_counter() - start))


# Registered here, in the order `hipocampo --help` lists them.
COMMANDS: dict[str, Callable[..., None]] = {
    "add": add,
    "recall": recall,
    "search": search,
    "memories": memories,
    "history": cli_facts.history,
    "consolidate": cli_facts.consolidate,
    "import": cli_import.import_file,
    "export": cli_export.export,
    "forget": forget,
    "reindex": cli_admin.reindex,
    "worker": cli_admin.worker,
    "doctor": cli_admin.doctor,
    "settings": cli_admin.settings,
    "demo": demo,
}
for _name, _command in COMMANDS.items():
    app.command(_name)(_command)
app.add_typer(bench_app, name="bench")
for _module in (cli_serve, cli_tenants, cli_mcp, cli_chat, cli_move, cli_migrate, cli_plugins):
    _module.register(app)


def main() -> None:
    app(prog_name="hipocampo")


if __name__ == "__main__":
    main()
