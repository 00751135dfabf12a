"""Consolidation reads time and truth from the data: the lookback counts back from the user's own
latest activity (imported history is consolidated with defaults), a consolidated memory's facts
are current facts from the fact store (never raw turns), a goal taken back is an Evolution line,
a filler word never titles it, and recall shows it in a section of its own."""

from __future__ import annotations

import asyncio
import math
from datetime import datetime, timezone
from typing import Any

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.domain.model import HistoryEntry, HistoryEvent, MemoryItem, MemoryKind, Role, Scope
from hipocampo.domain.retrieval.context import ContextPiece, render_context
from hipocampo.domain.truth.reconcile import FACT_VALUE
from hipocampo.services.consolidation import ConsolidationPolicy, consolidate, latest_activity
from hipocampo.services.deps import Deps
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

ALICE = Scope("acme", "alice")
NOW = datetime(2023, 5, 29, 12, tzinfo=timezone.utc)
# Default lookback (90 days); thresholds for the hashing fake embedder (related texts ~0.7).
POLICY = ConsolidationPolicy(threshold=0.6, min_cluster=3)
GUITAR = (
    "I practise guitar with my teacher every Monday",
    "I practise guitar with my teacher, scales and chords",
    "I practise guitar with my teacher before work",
)


def deps_at(now: datetime = NOW) -> Deps:
    return build_memory_deps(
        Settings(embedder="fake", tokenizer="chars"), embedder=FakeEmbedder(dim=1024), clock=FakeClock(now)
    )


def turn(when: datetime, text: str, n: int, **fields: Any) -> MemoryItem:
    return MemoryItem(
        id=f"turn_{n}",
        scope=ALICE,
        kind=MemoryKind.TURN,
        content=text,
        created_at=when,
        thread_id="t1",
        source_message_ids=[f"msg_{n}"],
        seq=n,
        **{"role": Role.USER, **fields},
    )


def day(month: int, d: int, year: int = 2023) -> datetime:
    return datetime(year, month, d, 9, tzinfo=timezone.utc)


async def consolidated(deps: Deps) -> list[MemoryItem]:
    found = await deps.memories.list(ALICE, kind=MemoryKind.CONSOLIDATED, limit=100)
    return [m for m in found if m.valid_to is None]


def test_imported_history_is_consolidated_with_the_default_lookback() -> None:
    async def scenario(deps: Deps) -> None:
        # Said a year before the import: 90 days back from the wall clock sees none of it.
        await deps.memories.upsert([turn(day(6, 3 + i, 2022), text, i) for i, text in enumerate(GUITAR)])
        assert await latest_activity(deps, ALICE, NOW) == day(6, 5, 2022)
        report = await consolidate(deps, ALICE, POLICY)
        assert report.memories_seen == 3 and report.clusters == 1
        (memory,) = await consolidated(deps)
        assert memory.metadata["period_start"][:10] == "2022-06-03"

    asyncio.run(scenario(deps_at()))


def test_the_lookback_still_counts_from_the_latest_activity_of_an_active_user() -> None:
    async def scenario(deps: Deps) -> None:
        old = [turn(day(6, 3 + i, 2022), text, i) for i, text in enumerate(GUITAR)]
        recent = turn(day(5, 28), "I practise guitar with my teacher on Sundays now", 9)
        await deps.memories.upsert([*old, recent])
        report = await consolidate(deps, ALICE, POLICY)
        assert report.memories_seen == 1 and report.clusters == 0  # last year is out of this window

    asyncio.run(scenario(deps_at()))


HALF_MARATHON = (
    (2, "I've been thinking about running a half marathon this year"),
    (6, "I've been thinking about shoes for running the half marathon"),
    (20, "Actually scratch what I said about the half marathon running, I hurt my knee"),
)


async def seed_retracted_goal(deps: Deps) -> list[MemoryItem]:
    said = [turn(day(5, d), text, i) for i, (d, text) in enumerate(HALF_MARATHON)]
    goal = MemoryItem(
        id="fact_goal",
        scope=ALICE,
        kind=MemoryKind.FACT,
        content="The user plans to run a half marathon.",
        created_at=day(5, 2),
        source_message_ids=said[0].source_message_ids,
        key="goal:half_marathon",
        metadata={FACT_VALUE: "half marathon"},
        valid_to=day(5, 20),
    )
    knee = MemoryItem(
        id="fact_knee",
        scope=ALICE,
        kind=MemoryKind.FACT,
        content="The user hurt their knee.",
        created_at=day(5, 20),
        source_message_ids=said[2].source_message_ids,
        key="health:knee",
        metadata={FACT_VALUE: "knee injury"},
        expires_at=day(9, 1),
    )
    await deps.memories.upsert([*said, goal, knee])
    await deps.memories.add_history(
        ALICE,
        [HistoryEntry(goal.id, HistoryEvent.DELETE, day(5, 20), goal.content, None, "heuristic", "retracted")],
    )
    return said


def test_a_goal_and_its_retraction_become_one_evolution_line_and_turns_are_never_facts() -> None:
    async def scenario(deps: Deps) -> None:
        await seed_retracted_goal(deps)
        await consolidate(deps, ALICE, ConsolidationPolicy(threshold=0.5, min_cluster=2), now=NOW)
        (memory,) = await consolidated(deps)
        text = memory.content
        facts = text.split("Facts:")[1].split("\n", 1)[1].split(":\n")[0] if "Facts:" in text else ""
        # The facts are the fact store's current ones: the knee, stated by the last turn.
        assert "- The user hurt their knee." in text.splitlines()
        assert "half marathon" not in facts and "I've been" not in facts and "scratch" not in facts
        assert text.splitlines()[-2:] == [
            "Evolution:",
            "- goal:half_marathon: half marathon (2023-05-02) → retracted (2023-05-20)",
        ]
        title = memory.metadata["title"]
        assert "thinking" not in title and "i've" not in title.lower()  # filler, not a topic
        # A statement whose fact was taken back is not even a moment; one whose fact is listed is
        # not repeated; the rest are dated moments.
        assert "running a half marathon this year" not in text and "scratch" not in text
        assert "Moments:\n- [2023-05-06] I've been thinking about shoes for running the half marathon" in text

    asyncio.run(scenario(deps_at()))


def test_an_expired_fact_is_not_a_current_fact() -> None:
    async def scenario(deps: Deps) -> None:
        await seed_retracted_goal(deps)
        later = day(9, 2)  # the knee fact expired on 1 September
        await consolidate(deps, ALICE, ConsolidationPolicy(threshold=0.5, min_cluster=2), now=later)
        (memory,) = await consolidated(deps)
        assert "hurt their knee" not in memory.content

    asyncio.run(scenario(deps_at(day(9, 2))))


def _item(mid: str, kind: MemoryKind, content: str) -> MemoryItem:
    return MemoryItem(id=mid, scope=ALICE, kind=kind, content=content, created_at=NOW)


def test_recall_renders_a_consolidated_memory_in_its_own_section() -> None:
    digest = "guitar · teacher\nfrom 2023-05-04 to 2023-05-20 (3 memories)\nRecurring: guitar, teacher"
    pieces = [
        ContextPiece(_item("c1", MemoryKind.CONSOLIDATED, digest), 0),
        ContextPiece(_item("f1", MemoryKind.FACT, "The user plays guitar."), 1),
        ContextPiece(MemoryItem("t1", ALICE, MemoryKind.TURN, "I practise guitar", NOW, thread_id="t1"), 2),
    ]
    text, chosen, _ = render_context(
        summary=None, recent=[], pieces=pieces, budget=2000, count=lambda t: math.ceil(len(t) / 4), truncate=str
    )
    assert len(chosen) == 3
    facts, consolidated_part, memories = text.split("\n\n")
    assert facts == "## Known facts\n- (fact) The user plays guitar."
    assert consolidated_part.startswith("## Consolidated memories\n- (consolidated) guitar · teacher")
    assert memories.startswith("## Relevant memories")
    assert "guitar · teacher" not in facts


def test_two_builds_of_the_same_history_consolidate_to_the_same_text() -> None:
    """Ids are random: facts of one batch (same time, importance and mentions) are listed by what
    they say, so rebuilding a store gives the same consolidated memory."""

    async def build(ids: tuple[str, str]) -> str:
        deps = deps_at()
        said = [turn(day(5, 2 + i), text, i) for i, text in enumerate(GUITAR)]
        facts = [
            MemoryItem(
                id=fid,
                scope=ALICE,
                kind=MemoryKind.FACT,
                content=content,
                created_at=day(5, 2),
                source_message_ids=said[0].source_message_ids,
                key=key,
                metadata={FACT_VALUE: value},
            )
            for fid, (content, key, value) in zip(
                ids,
                [
                    ("The user plays guitar.", "likes:guitar", "guitar"),
                    ("The user has a guitar teacher.", "person:teacher", "teacher"),
                ],
                strict=True,
            )
        ]
        await deps.memories.upsert([*said, *facts])
        await consolidate(deps, ALICE, POLICY, now=NOW)
        (memory,) = await consolidated(deps)
        return memory.content

    assert asyncio.run(build(("fact_a", "fact_z"))) == asyncio.run(build(("fact_z", "fact_a")))
