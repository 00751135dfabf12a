"""``hipocampo bench``: recall quality (LoCoMo, realistic chats) and latency benchmarks.

The benchmarks are not part of the product: their code and data live in their own distribution,
``hipocampo-bench`` (``benchmarks/`` in the repository), imported here only when a benchmark runs.
Without it the commands still list and explain themselves, and running one says how to install it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Annotated

import typer

from ...domain.errors import InvalidInput
from .support import JsonOpt, fail, out, print_json

bench_app = typer.Typer(
    help="Benchmarks: recall quality on LoCoMo and on realistic chats, the fact-lifecycle scenarios, and latency "
    "at scale (needs the benchmarks: `pip install -e benchmarks` in a hipocampo checkout).",
    no_args_is_help=True,
    rich_markup_mode="markdown",
)

INSTALL_HINT = (
    "the benchmarks are not installed: in a hipocampo checkout, run `pip install -e benchmarks` "
    "(they ship apart from the product)"
)


def _require_benchmarks() -> None:
    """Exit 2 with how to install them when the ``hipocampo_bench`` package is missing."""
    if importlib.util.find_spec("hipocampo_bench") is None:
        fail(INSTALL_HINT)


EmbedderOpt = Annotated[
    str | None,
    typer.Option("--embedder", help="Embedder to measure (default: HIPOCAMPO_EMBEDDER)."),
]


@bench_app.command()
def locomo(
    data: Annotated[
        Path,
        typer.Option("--data", exists=True, file_okay=False, help="Folder holding the LoCoMo conversations."),
    ],
    json_out: JsonOpt = False,
    limit_conversations: Annotated[
        int | None,
        typer.Option("--limit-conversations", min=1, help="Only the first N conversations."),
    ] = None,
    embedder: EmbedderOpt = None,
    layers: Annotated[
        str,
        typer.Option(
            "--layers",
            metavar="LAYER,LAYER",
            help="Memory layers to compare, each in its own store: turns (turns only), "
            "full (facts, summaries and consolidation).",
        ),
    ] = "turns,full",
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="URL",
            help="Run the stores on this Postgres server (postgresql://...): a fresh database per "
            "conversation and layer, dropped after. Default: temporary SQLite files.",
        ),
    ] = None,
    budgets: Annotated[
        str,
        typer.Option(
            "--budgets",
            metavar="N,N...",
            help="Token budgets (ceilings) to render the lean context within: context recall and tokens used at each.",
        ),
    ] = "500,1000,2000",
    embed_cache: Annotated[
        str | None,
        typer.Option(
            "--embed-cache",
            metavar="FILE",
            help="A SQLite file of vectors kept across runs (or HIPOCAMPO_BENCH_EMBED_CACHE): for ranking "
            "experiments; timings with embedding then mean nothing.",
        ),
    ] = None,
) -> None:
    """Measure recall quality on the LoCoMo long-conversation benchmark."""
    _require_benchmarks()
    from hipocampo_bench.locomo import parse_budgets, render_locomo, run_locomo
    from hipocampo_bench.locomo_layers import parse_layers

    try:
        names = parse_layers(layers)
    except ValueError as exc:
        raise InvalidInput(f"--layers: {exc}") from None
    try:
        ceilings = parse_budgets(budgets)
    except ValueError as exc:
        raise InvalidInput(f"--budgets: {exc}") from None
    if db is not None:
        from hipocampo_bench.pgdb import is_postgres

        if not is_postgres(db):
            raise InvalidInput(f"--db expects a postgresql:// URL, got {db!r}")
    result = run_locomo(
        str(data),
        embedder=embedder,
        limit=limit_conversations,
        progress=not json_out,
        layers=names,
        db_url=db,
        embed_cache=embed_cache,
        budgets=ceilings,
    )
    if json_out:
        print_json(result)
    else:
        render_locomo(result, out())


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise InvalidInput(f"--sizes expects comma-separated whole numbers, got {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise InvalidInput(f"--sizes expects positive numbers, got {text!r}")
    return sizes


@bench_app.command()
def latency(
    json_out: JsonOpt = False,
    sizes: Annotated[
        str, typer.Option("--sizes", metavar="N,N...", help="Store sizes (memories) to measure at.")
    ] = "1000,10000",
    queries: Annotated[int, typer.Option("--queries", min=1, help="Recall queries timed at each size.")] = 200,
    embedder: EmbedderOpt = None,
) -> None:
    """Measure write acknowledgement, indexing throughput and recall latency as the store grows."""
    sizes_list = _sizes(sizes)
    _require_benchmarks()
    from hipocampo_bench.latency import render_latency, run_latency

    result = run_latency(sizes=sizes_list, queries=queries, embedder=embedder, progress=not json_out)
    if json_out:
        print_json(result)
    else:
        render_latency(result, out())


@bench_app.command()
def scenarios(
    split: Annotated[
        str | None,
        typer.Option("--split", help="Only this split: tuned, earlier-blind or never-tuned (default: all, apart)."),
    ] = None,
    only: Annotated[str | None, typer.Option("--only", help="Only the scenarios whose name contains this.")] = None,
    quick: Annotated[
        bool, typer.Option("--quick", help="One mode (real clock, no consolidation) instead of four.")
    ] = False,
    json_out: JsonOpt = False,
    embedder: Annotated[
        str, typer.Option("--embedder", help="Embedder (extraction does not use it; the probes do).")
    ] = "fake",
) -> None:
    """Play the fact-lifecycle scenarios: facts left, updates, retractions, mentions, dates, probes.

    Each scenario runs on a fresh store in four modes (with and without consolidation, on the real
    clock and on the day after its last turn); the splits are reported apart.
    """
    _require_benchmarks()
    from hipocampo_bench.scenario_model import SPLITS
    from hipocampo_bench.scenarios import MODES, SCENARIOS, render_scenarios, run_scenarios

    if split is not None and split not in SPLITS:
        raise InvalidInput(f"--split expects one of {', '.join(SPLITS)}, got {split!r}")
    chosen = [s for s in SCENARIOS if split in (None, s.split) and (only is None or only in s.name)]
    if not chosen:
        raise InvalidInput("no scenario matches --split and --only")
    result = run_scenarios(embedder=embedder, scenarios=chosen, modes=MODES[:1] if quick else MODES)
    if json_out:
        print_json(result)
    else:  # the tables are wide: in a narrow terminal they wrap rather than cut every column
        console = out()
        console.width = max(console.width, 170)
        render_scenarios(result, console)


@bench_app.command()
def realistic(
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            exists=True,
            file_okay=False,
            help="Folder of chat JSON files (default: the benchmarks' data/realistic).",
            show_default=False,
        ),
    ] = None,
    json_out: JsonOpt = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="List every failing question with what the context held.")
    ] = False,
    embedder: EmbedderOpt = None,
) -> None:
    """Measure recall on realistic chat: colloquial, mixed-language, full of requests and small talk.

    Each chat is played into a fresh store (default embedder, no LLM); each question is then asked
    in a new thread. Per language and overall: answer in the context, top search hit holds it,
    empty memory section, stale shown as current, another user's value leaked, memory tokens.
    """
    _require_benchmarks()
    from hipocampo_bench.realistic import render_realistic, run_realistic
    from hipocampo_bench.scenario_files import REALISTIC_DIR, load_dir

    folder = data or REALISTIC_DIR
    try:
        chats = load_dir(folder)
    except ValueError as exc:  # a malformed file, named with what is wrong in it
        raise InvalidInput(str(exc)) from None
    if not chats:
        raise InvalidInput(f"no chat files (*.json) in {folder}")
    result = run_realistic(chats, embedder=embedder, progress=not json_out)
    if json_out:
        print_json(result)
    else:
        render_realistic(result, out(), verbose=verbose)
