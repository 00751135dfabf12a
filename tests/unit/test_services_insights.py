"""services.insights over the in-memory adapters: coverage, memories, gaps, retrieval, tenants."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta, timezone

import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.domain.errors import InvalidInput
from hipocampo.domain.model import MemoryType, NewMessage, Role, Scope, turn_memory_id
from hipocampo.services.curation import remember
from hipocampo.services.deps import Deps
from hipocampo.services.ingest import add_messages
from hipocampo.services.insights import tenant_metrics, user_metrics
from hipocampo.services.worker import run_once
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
ENGINE_ONLY = {"embedder": "fake", "tokenizer": "chars", "extraction": False, "summaries": False}


def run(scenario: Callable[[Deps], Awaitable[None]]) -> None:
    deps = build_memory_deps(Settings(**ENGINE_ONLY), clock=FakeClock(T0))
    asyncio.run(scenario(deps))


async def indexed(deps: Deps) -> None:
    while await run_once(deps):
        pass


async def say(deps: Deps, scope: Scope, thread_id: str, text: str, at: datetime) -> str:
    (stored,) = await add_messages(deps, scope, thread_id, [NewMessage(Role.USER, text, created_at=at)])
    return stored.id


def test_an_empty_user_has_no_ratios_and_no_activity() -> None:
    async def scenario(deps: Deps) -> None:
        metrics = await user_metrics(deps, ALICE)
        assert metrics["messages"] == metrics["threads"] == 0
        assert metrics["first_activity"] is None and metrics["last_activity"] is None
        assert metrics["coverage"] == {"messages": 0, "indexed": 0, "ratio": None}
        assert metrics["memories"] == {"total": 0, "by_kind": {}, "by_type": {}}
        assert metrics["gaps"] == {"threshold_days": 7, "count": 0, "longest_days": None, "periods": []}
        assert metrics["retrieval"]["never_accessed_ratio"] is None
        json.dumps(metrics)  # JSON-ready

    run(scenario)


def test_coverage_is_the_share_of_messages_with_a_searchable_turn() -> None:
    async def scenario(deps: Deps) -> None:
        for i in range(3):
            await say(deps, ALICE, "t1", f"message {i}", T0 + timedelta(minutes=i))
        await indexed(deps)
        await say(deps, ALICE, "t2", "not indexed yet", T0 + timedelta(hours=1))
        metrics = await user_metrics(deps, ALICE)
        assert metrics["coverage"] == {"messages": 4, "indexed": 3, "ratio": 0.75}
        assert (metrics["threads"], metrics["messages"]) == (2, 4)
        assert metrics["first_activity"] == T0.isoformat()
        assert metrics["last_activity"] == (T0 + timedelta(hours=1)).isoformat()
        await indexed(deps)
        assert (await user_metrics(deps, ALICE))["coverage"]["ratio"] == 1.0

    run(scenario)


def test_memories_by_kind_and_type() -> None:
    async def scenario(deps: Deps) -> None:
        await say(deps, ALICE, "t1", "hello", T0)
        await remember(deps, ALICE, "Alice is vegetarian", memory_type=MemoryType.PREFERENCE)
        await remember(deps, ALICE, "Alice wants to run a marathon", memory_type="goal")
        await remember(deps, ALICE, "Alice lives in Porto", memory_type="user_profile")
        await remember(deps, BOB, "Bob is not counted", memory_type="goal")
        await indexed(deps)
        memories = (await user_metrics(deps, ALICE))["memories"]
        assert memories == {
            "total": 4,
            "by_kind": {"fact": 3, "turn": 1},
            "by_type": {"goal": 1, "preference": 1, "user_profile": 1},
        }

    run(scenario)


def test_gaps_are_silences_of_at_least_gap_days_across_threads() -> None:
    async def scenario(deps: Deps) -> None:
        await say(deps, ALICE, "t1", "day 0", T0)
        await say(deps, ALICE, "t2", "day 3", T0 + timedelta(days=3))
        await say(deps, ALICE, "t1", "day 13", T0 + timedelta(days=13))
        await say(deps, ALICE, "t2", "day 20", T0 + timedelta(days=20, hours=12))
        gaps = (await user_metrics(deps, ALICE))["gaps"]
        assert gaps["count"] == 2 and gaps["longest_days"] == 10.0
        assert gaps["periods"] == [
            {"start": (T0 + timedelta(days=3)).isoformat(), "end": (T0 + timedelta(days=13)).isoformat(), "days": 10.0},
            {
                "start": (T0 + timedelta(days=13)).isoformat(),
                "end": (T0 + timedelta(days=20, hours=12)).isoformat(),
                "days": 7.5,
            },
        ]
        assert (await user_metrics(deps, ALICE, gap_days=3))["gaps"]["count"] == 3
        assert (await user_metrics(deps, ALICE, gap_days=30))["gaps"]["count"] == 0
        for bad in (0, -1, True):
            with pytest.raises(InvalidInput, match="gap_days"):
                await user_metrics(deps, ALICE, gap_days=bad)

    run(scenario)


def test_retrieval_stats_come_from_access_counts() -> None:
    async def scenario(deps: Deps) -> None:
        ids = [await say(deps, ALICE, "t1", f"message {i}" + " x" * 200 * (i == 2), T0) for i in range(8)]
        await indexed(deps)
        turns = [turn_memory_id(i) for i in ids]
        for n, memory_id in enumerate(turns[:6]):  # 6 recalled: turn k, 6 - k times
            for _ in range(6 - n):
                deps.clock.advance(1)  # type: ignore[attr-defined]
                await deps.memories.touch(ALICE, [memory_id], deps.clock.now())
        retrieval = (await user_metrics(deps, ALICE))["retrieval"]
        assert retrieval["accessed"] == 6
        assert retrieval["total_accesses"] == 6 + 5 + 4 + 3 + 2 + 1
        assert retrieval["never_accessed_ratio"] == 0.25
        top = retrieval["top"]
        assert [t["id"] for t in top] == turns[:5]
        assert [t["access_count"] for t in top] == [6, 5, 4, 3, 2]
        assert top[0]["content"] == "message 0" and top[0]["kind"] == "turn"
        assert len(top[2]["content"]) == 280 and top[2]["content"].endswith("…")
        assert top[0]["last_accessed"] is not None

    run(scenario)


def test_tenant_metrics_sum_the_users_and_show_the_queue() -> None:
    async def scenario(deps: Deps) -> None:
        await say(deps, ALICE, "t1", "one", T0)
        await say(deps, ALICE, "t2", "two", T0)
        await indexed(deps)
        await say(deps, BOB, "t1", "pending", T0)
        await say(deps, Scope("globex", "carol"), "t1", "other tenant", T0)
        metrics = await tenant_metrics(deps, "acme")
        assert {k: metrics[k] for k in ("tenant_id", "users", "threads", "messages", "memories")} == {
            "tenant_id": "acme",
            "users": 2,
            "threads": 3,
            "messages": 3,
            "memories": 2,
        }
        assert metrics["coverage"] == {"average": 0.5, "messages": 3, "indexed": 2, "ratio": 0.6667}
        # The quota counts the pending message too: it is counted as written, not once indexed.
        assert metrics["memory_quota"] == {"used": 3, "max_memories": None, "left": None}
        assert metrics["jobs"]["pending"] == 1  # this tenant's jobs only: bob's indexing, not carol's
        assert metrics["dead_letters"] == 0
        json.dumps(metrics)
        empty = await tenant_metrics(deps, "initech")
        assert (empty["users"], empty["coverage"]["average"], empty["coverage"]["ratio"]) == (0, None, None)

    run(scenario)
