"""What every CLI command shares: the global options, opening the memory, errors, common options.

Every module of the command line imports the engine (the client, settings, services) inside the
commands that use it, never at the top: ``hipocampo --version`` and ``--help`` then answer in a
fraction of a second instead of loading everything first (``benchmarks/cli_startup.py``).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from typer.core import TyperGroup

from ...domain.errors import ConfigurationError, HipocampoError, InvalidInput, NotFound

if TYPE_CHECKING:
    from pydantic import ValidationError

    from ...client import AsyncMemory

T = TypeVar("T")

BAD_INPUT = 2
"""Exit code when what the user gave us is wrong (arguments, files, settings)."""
OPERATIONAL = 1
"""Exit code when the input was fine but the work failed (or ``doctor`` found problems)."""


@dataclass(frozen=True)
class CliState:
    """The global options, put on the typer context by the root callback."""

    db: str | None = None
    tenant: str = "default"

    def run(self, work: Callable[[AsyncMemory], Awaitable[T]], **overrides: Any) -> T:
        """Open the memory, run ``work`` on it and close it, all in one ``asyncio.run``.

        Settings are read from the environment here (so a bad ``HIPOCAMPO_*`` value is reported
        like any other bad input); ``--db`` and ``overrides`` win over them.
        """

        from ...client import AsyncMemory
        from ...settings import Settings

        async def main() -> T:
            async with await AsyncMemory.open(self.db, settings=Settings(), **overrides) as mem:
                return await work(mem)

        return asyncio.run(main())


def state(ctx: typer.Context) -> CliState:
    return ctx.find_object(CliState) or CliState()


def out() -> Console:
    """A console on stdout. Made per use so it writes to whatever ``sys.stdout`` is now."""
    return Console(highlight=False)


def err() -> Console:
    return Console(stderr=True, highlight=False)


def to_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, default=str)


def print_json(data: Any) -> None:
    """The only thing a ``--json`` command writes on stdout."""
    typer.echo(to_json(data))


def progress_bar() -> Progress:
    """A progress bar on stderr, so stdout keeps only the command's result."""
    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err(),
    )


def fail(message: str, code: int = BAD_INPUT) -> NoReturn:
    """Print ``error: message`` as one red line on stderr and exit with ``code``."""
    err().print(f"[red]error:[/red] {escape(' '.join(message.split()))}", soft_wrap=True)
    raise typer.Exit(code)


def describe_error(exc: BaseException) -> tuple[int, str] | None:
    """The exit code and one-line message for a failure we expect; ``None`` for a bug."""
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        return BAD_INPUT, _validation_message(exc)
    if isinstance(exc, json.JSONDecodeError):
        return BAD_INPUT, f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
    if isinstance(exc, FileNotFoundError):
        return BAD_INPUT, f"no such file or folder: {exc.filename or exc}"
    if isinstance(exc, (InvalidInput, NotFound, ConfigurationError)):
        return BAD_INPUT, str(exc)
    if isinstance(exc, HipocampoError):
        return OPERATIONAL, str(exc)
    if isinstance(exc, TimeoutError):
        return OPERATIONAL, str(exc) or "timed out"
    if isinstance(exc, OSError):
        where = f": {exc.filename}" if exc.filename else ""
        return OPERATIONAL, f"{exc.strerror or exc}{where}"
    return None


def env_var(field: str) -> str:
    """The environment variable of a :class:`Settings` field (``db`` -> ``HIPOCAMPO_DB``)."""
    from ...settings import Settings

    return f"{Settings.model_config.get('env_prefix', '')}{field}".upper()


def _validation_message(exc: ValidationError) -> str:
    from ...settings import Settings

    from_settings = exc.title == Settings.__name__
    parts = []
    for e in exc.errors():
        name = ".".join(str(p) for p in e["loc"])
        got = repr(e.get("input"))[:60]
        parts.append(f"{env_var(name) if from_settings else name}={got}: {e['msg']}")
    return f"invalid {'settings' if from_settings else exc.title}: " + "; ".join(parts)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn expected failures into :func:`fail`; let bugs surface with their traceback.

    Ctrl-C needs nothing here: typer already turns ``KeyboardInterrupt`` into a quiet exit 130.
    """
    try:
        yield
    except Exception as exc:
        described = describe_error(exc)
        if described is None:
            raise
        code, message = described
        fail(message, code)


class CliGroup(TyperGroup):
    """The root command group: every command, sub-apps included, runs inside :func:`user_errors`."""

    def invoke(self, ctx: typer.Context) -> Any:  # type: ignore[override]
        with user_errors():
            return super().invoke(ctx)


def confirm(action: str, yes: bool) -> None:
    """Go on with ``--yes`` or when the user agrees; refuse when there is no terminal to ask."""
    if yes:
        return
    if not sys.stdin.isatty():
        fail(f"refusing to {action} without --yes (stdin is not a terminal, so I cannot ask)")
    if not typer.confirm(f"{action[0].upper()}{action[1:]}?", default=False):
        fail("cancelled; nothing changed", OPERATIONAL)


# -- options shared by several commands ------------------------------------------------------
UserArg = Annotated[str, typer.Argument(help="The user whose memory to use.", show_default=False)]
QueryArg = Annotated[str, typer.Argument(help="What to look for, in any language.", show_default=False)]
ThreadOpt = Annotated[str | None, typer.Option("--thread", "-t", help="Thread (conversation) id.")]
ExcludeThreadOpt = Annotated[
    bool,
    typer.Option("--exclude-thread", help="Leave out memories from --thread (other threads only)."),
]
KOpt = Annotated[int | None, typer.Option("--k", "-k", help="How many memories to return (default: adaptive).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON only, for scripts.")]
YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]
NoWaitOpt = Annotated[
    bool,
    typer.Option(
        "--no-wait",
        help="Return once stored; indexing is left to `hipocampo worker` or to the next command that opens the store.",
    ),
]


async def wait_for_indexing(mem: AsyncMemory, no_wait: bool) -> float | None:
    """Unless ``--no-wait``, wait until everything written is indexed; the seconds it took."""
    if no_wait:
        return None
    start = time.perf_counter()
    await mem.flush()
    return time.perf_counter() - start
