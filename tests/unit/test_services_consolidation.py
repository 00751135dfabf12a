"""services.consolidation over the in-memory adapters, with the hashing FakeEmbedder (texts that
share words have similar vectors): clusters, idempotent re-runs, growth, merges, scoping, jobs."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.domain.model import HistoryEntry, HistoryEvent, MemoryItem, MemoryKind, Role, Scope
from hipocampo.domain.truth.reconcile import FACT_VALUE
from hipocampo.services.consolidation import (
    CONSOLIDATE_JOB,
    ConsolidationPolicy,
    consolidate,
    consolidate_all,
    next_run,
    run_job,
)
from hipocampo.services.deps import Deps
from hipocampo.services.ingest import INDEX_MEMORIES_JOB
from hipocampo.services.worker import Worker, run_once
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
NOW = datetime(2023, 5, 29, 12, tzinfo=timezone.utc)
BRASILIA = timezone(timedelta(hours=-3))
# The fake embedder is a bag of hashed words: related texts score about 0.7, unrelated ones 0.3.
POLICY = ConsolidationPolicy(lookback_days=30, threshold=0.6, min_cluster=3, duplicate_threshold=0.95)

FLAT = [  # (day of May, text)
    (3, "Ana and I painted the flat in Lisbon"),
    (10, "Ana and I bought plants for the flat in Lisbon"),
    (12, "Ana and I cleaned the flat in Lisbon"),
]
GUITAR = [
    (4, "I practise guitar with my teacher every Monday"),
    (15, "I practise guitar with my teacher, scales and chords"),
    (20, "I practise guitar with my teacher before work"),
]


def make_deps() -> Deps:
    return build_memory_deps(
        Settings(embedder="fake", tokenizer="chars"), embedder=FakeEmbedder(dim=1024), clock=FakeClock(NOW)
    )


def run(scenario: Callable[[Deps], Awaitable[None]]) -> None:
    asyncio.run(scenario(make_deps()))


def may(day: int) -> datetime:
    return datetime(2023, 5, day, 9, tzinfo=timezone.utc)


def turn(scope: Scope, day: int, text: str, n: int, **fields: Any) -> MemoryItem:
    return MemoryItem(
        id=f"turn_{scope.user_id}_{n}",
        scope=scope,
        kind=MemoryKind.TURN,
        content=text,
        created_at=may(day),
        thread_id="t1",
        source_message_ids=[f"msg_{scope.user_id}_{n}"],
        seq=n,
        **{"role": Role.USER, **fields},
    )


def fact(scope: Scope, day: int, text: str, n: int, **fields: Any) -> MemoryItem:
    return MemoryItem(
        id=f"fact_{scope.user_id}_{n}",
        scope=scope,
        kind=MemoryKind.FACT,
        content=text,
        created_at=may(day),
        source_message_ids=[f"msg_{scope.user_id}_f{n}"],
        importance=0.7,
        **fields,
    )


async def seed(deps: Deps, scope: Scope, *groups: list[tuple[int, str]], start: int = 0) -> list[MemoryItem]:
    items = [turn(scope, day, text, start + i) for i, (day, text) in enumerate(g for group in groups for g in group)]
    await deps.memories.upsert(items)
    return items


async def consolidated(deps: Deps, scope: Scope, *, current_only: bool = True) -> list[MemoryItem]:
    found = await deps.memories.list(scope, kind=MemoryKind.CONSOLIDATED, limit=100)
    return [m for m in found if m.valid_to is None or not current_only]


async def home_city_history(deps: Deps) -> MemoryItem:
    """São Paulo (January, outside the window) superseded by Lisbon (1 May), as facts.py writes it."""
    old = fact(ALICE, 1, "I live in São Paulo", 90, key="home_city", metadata={FACT_VALUE: "São Paulo"})
    old.created_at = datetime(2023, 1, 5, tzinfo=timezone.utc)
    old.valid_to = may(1)
    new = fact(ALICE, 1, "Ana and I live in a flat in Lisbon", 91, key="home_city", metadata={FACT_VALUE: "Lisbon"})
    await deps.memories.upsert([old, new])
    await deps.memories.add_history(
        ALICE,
        [HistoryEntry(old.id, HistoryEvent.UPDATE, may(1), old.content, new.content, "heuristic", "moved", new.id)],
    )
    return new


def test_related_memories_become_one_consolidated_memory_per_cluster() -> None:
    async def scenario(deps: Deps) -> None:
        lisbon = await home_city_history(deps)
        turns = await seed(deps, ALICE, FLAT, GUITAR, [(21, "The weather was awful today")])
        report = await consolidate(deps, ALICE, POLICY, now=NOW)

        assert report.clusters == 2 and report.memories_seen == 8 and report.merged_duplicates == []
        flat, guitar = sorted(await consolidated(deps, ALICE), key=lambda m: m.created_at)
        assert sorted(report.consolidated_ids) == sorted([flat.id, guitar.id])
        assert flat.metadata["member_ids"] == sorted([lisbon.id, *(t.id for t in turns[:3])])
        assert flat.metadata["cluster_size"] == 4
        assert flat.metadata["period_start"] == may(1).isoformat()
        assert flat.metadata["period_end"] == may(12).isoformat()
        assert flat.created_at == may(12) and flat.importance == 0.8
        assert flat.source_message_ids == [*lisbon.source_message_ids, *(t.source_message_ids[0] for t in turns[:3])]

        lines = flat.content.splitlines()
        assert lines[0].split(" · ")[:2] == ["Ana", "flat"] and "Lisbon" in lines[0]
        assert lines[1] == "from 2023-05-01 to 2023-05-12 (4 memories)"
        assert lines[2:4] == ["Facts:", "- Ana and I live in a flat in Lisbon"]  # the fact before the turns
        # A turn is never a fact: it is a dated moment, apart.
        assert lines[4:6] == ["Moments:", "- [2023-05-03] Ana and I painted the flat in Lisbon"]
        assert "Recurring: Ana, flat, Lisbon" in lines
        assert lines[-2:] == ["Evolution:", "- home_city: São Paulo (2023-01-05) → Lisbon (2023-05-01)"]
        assert guitar.metadata["cluster_size"] == 3 and "guitar" in guitar.content.splitlines()[0]
        assert "Evolution" not in guitar.content

        history = await deps.memories.history(ALICE, flat.id)
        assert [h.event for h in history] == [HistoryEvent.ADD]

    run(scenario)


def test_clusters_below_min_cluster_are_left_alone() -> None:
    async def scenario(deps: Deps) -> None:
        await seed(deps, ALICE, FLAT[:2], GUITAR[:2])
        report = await consolidate(deps, ALICE, POLICY, now=NOW)
        assert report.clusters == 0 and report.memories_seen == 4
        assert await consolidated(deps, ALICE) == []
        assert (await deps.jobs.stats()).get("pending", 0) == 0

    run(scenario)


def test_rerunning_is_idempotent() -> None:
    async def scenario(deps: Deps) -> None:
        await seed(deps, ALICE, FLAT, GUITAR)
        first = await consolidate(deps, ALICE, POLICY, now=NOW)
        before = await consolidated(deps, ALICE)
        second = await consolidate(deps, ALICE, POLICY, now=NOW + timedelta(days=1))

        assert second.consolidated_ids == first.consolidated_ids and second.superseded_ids == []
        after = await consolidated(deps, ALICE, current_only=False)
        assert [(m.id, m.content, m.updated_at) for m in after] == [(m.id, m.content, m.updated_at) for m in before]
        assert (await deps.jobs.stats())["pending"] == 1  # the first run's index job only

    run(scenario)


def test_a_grown_cluster_supersedes_the_consolidated_memory_of_its_former_members() -> None:
    async def scenario(deps: Deps) -> None:
        await seed(deps, ALICE, FLAT)
        first = await consolidate(deps, ALICE, POLICY, now=NOW)
        await seed(deps, ALICE, [(25, "Ana and I repaired the door of the flat in Lisbon")], start=10)
        later = NOW + timedelta(days=1)
        second = await consolidate(deps, ALICE, POLICY, now=later)

        (old_id,), (new_id,) = first.consolidated_ids, second.consolidated_ids
        assert new_id != old_id and second.superseded_ids == [old_id]
        (current,) = await consolidated(deps, ALICE)
        assert current.id == new_id and current.metadata["cluster_size"] == 4
        (old,) = await deps.memories.get_many(ALICE, [old_id])
        assert old.valid_to == later
        (update,) = [h for h in await deps.memories.history(ALICE, old_id) if h.event is HistoryEvent.UPDATE]
        assert update.related_id == new_id and update.new_content == current.content

    run(scenario)


def test_near_duplicate_facts_are_merged_into_the_older_one() -> None:
    async def scenario(deps: Deps) -> None:
        older = fact(ALICE, 2, "I am allergic to peanuts", 1, mention_count=2)
        newer = fact(ALICE, 9, "I am allergic to peanuts!", 2)
        same_words_other_slot = fact(ALICE, 11, "I am allergic to peanuts", 3, key="allergy:peanuts")
        await deps.memories.upsert([older, newer, same_words_other_slot])
        report = await consolidate(deps, ALICE, POLICY, now=NOW)

        assert report.merged_duplicates == [(older.id, newer.id)]
        kept, merged, other = await deps.memories.get_many(ALICE, [older.id, newer.id, same_words_other_slot.id])
        assert kept.valid_to is None and kept.mention_count == 3
        assert kept.source_message_ids == [*older.source_message_ids, *newer.source_message_ids]
        assert merged.valid_to == NOW and other.valid_to is None and other.mention_count == 1
        (deleted,) = await deps.memories.history(ALICE, newer.id)
        assert (deleted.event, deleted.reason, deleted.related_id) == (
            HistoryEvent.DELETE,
            f"merged into {older.id}",
            older.id,
        )
        (mention,) = await deps.memories.history(ALICE, older.id)
        assert mention.event is HistoryEvent.MENTION and mention.related_id == newer.id

        again = await consolidate(deps, ALICE, POLICY, now=NOW)
        assert again.merged_duplicates == []  # the merged fact is no longer current

    run(scenario)


def test_facts_of_the_same_slot_with_different_values_are_not_merged() -> None:
    async def scenario(deps: Deps) -> None:
        a = fact(ALICE, 2, "I like jazz", 1, key="likes", metadata={FACT_VALUE: "jazz"})
        b = fact(ALICE, 3, "I like jazz", 2, key="likes", metadata={FACT_VALUE: "jazz music"})
        await deps.memories.upsert([a, b])
        assert (await consolidate(deps, ALICE, POLICY, now=NOW)).merged_duplicates == []

    run(scenario)


def test_memories_outside_the_window_superseded_or_of_other_kinds_are_ignored() -> None:
    async def scenario(deps: Deps) -> None:
        old = [turn(ALICE, 1, text, i) for i, (_, text) in enumerate(FLAT)]
        for m in old:
            m.created_at -= timedelta(days=60)
        superseded = [turn(ALICE, day, text, 10 + i, valid_to=may(28)) for i, (day, text) in enumerate(GUITAR)]
        system = [turn(ALICE, day, text, 20 + i, role=Role.SYSTEM) for i, (day, text) in enumerate(GUITAR)]
        future = [turn(ALICE, 30, text, 30 + i) for i, (_, text) in enumerate(FLAT)]
        await deps.memories.upsert([*old, *superseded, *system, *future])
        report = await consolidate(deps, ALICE, POLICY, now=NOW)
        assert report.memories_seen == 0 and report.clusters == 0
        assert await consolidated(deps, ALICE) == []

    run(scenario)


def test_other_users_are_untouched_and_consolidate_all_covers_everyone() -> None:
    async def scenario(deps: Deps) -> None:
        await seed(deps, ALICE, FLAT)
        await seed(deps, BOB, FLAT)
        report = await consolidate(deps, ALICE, POLICY, now=NOW)
        assert await consolidated(deps, BOB) == []
        (bobs_would_be,) = (await consolidate_all(deps, POLICY, NOW))["acme/bob"].consolidated_ids
        assert bobs_would_be != report.consolidated_ids[0]  # ids are per user even for equal member ids
        assert len(await consolidated(deps, ALICE)) == len(await consolidated(deps, BOB)) == 1

    run(scenario)


def test_new_consolidated_memories_are_enqueued_for_indexing_and_become_searchable() -> None:
    async def scenario(deps: Deps) -> None:
        await seed(deps, ALICE, FLAT, GUITAR)
        report = await consolidate(deps, ALICE, POLICY, now=NOW)
        (job,) = await deps.jobs.claim(10, lease_seconds=1.0)
        assert job.kind == INDEX_MEMORIES_JOB and (job.tenant_id, job.user_id) == ("acme", "alice")
        assert job.payload == {"memory_ids": report.consolidated_ids}
        deps.clock.advance(2)  # type: ignore[attr-defined]  # the lease lapses: the worker may take it
        assert await run_once(deps) == 1
        hits = {h.memory_id for h in await deps.keywords.search(ALICE, "guitar teacher", 10)}
        assert set(report.consolidated_ids) & hits

    run(scenario)


def test_the_worker_queues_the_nightly_consolidation_at_its_hour() -> None:
    async def scenario(deps: Deps) -> None:
        await seed(deps, ALICE, FLAT)
        w = Worker(deps)
        await w._maybe_schedule()
        assert await deps.jobs.claim(10, 60.0, kinds=[CONSOLIDATE_JOB]) == []  # not 03:00 yet
        deps.clock.advance(16 * 3600)  # type: ignore[attr-defined]
        await w._maybe_schedule()
        (job,) = await deps.jobs.claim(10, 60.0, kinds=[CONSOLIDATE_JOB])
        assert (job.tenant_id, job.user_id) == (ALICE.tenant_id, ALICE.user_id)
        report = await run_job(deps, job, POLICY)
        assert report.clusters == 1
        await w._maybe_schedule()  # the next run is tomorrow
        assert await deps.jobs.claim(10, 60.0, kinds=[CONSOLIDATE_JOB]) == []

    run(scenario)


def test_of_several_workers_waking_at_the_hour_only_one_queues_the_night() -> None:
    async def scenario(deps: Deps) -> None:
        await seed(deps, ALICE, FLAT)
        await seed(deps, BOB, FLAT)
        workers = [Worker(deps) for _ in range(3)]
        deps.clock.advance(16 * 3600)  # type: ignore[attr-defined]
        for w in workers:
            await w._maybe_schedule()
        jobs = await deps.jobs.claim(10, 60.0, kinds=[CONSOLIDATE_JOB])
        assert sorted(j.user_id for j in jobs) == ["alice", "bob"]

    run(scenario)


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        (datetime(2024, 3, 1, 2, 59, tzinfo=timezone.utc), datetime(2024, 3, 1, 3, tzinfo=timezone.utc)),
        (datetime(2024, 3, 1, 3, 0, tzinfo=timezone.utc), datetime(2024, 3, 2, 3, tzinfo=timezone.utc)),
        (datetime(2024, 12, 31, 23, 0, tzinfo=timezone.utc), datetime(2025, 1, 1, 3, tzinfo=timezone.utc)),
        (datetime(2024, 3, 1, 1, 0, tzinfo=BRASILIA), datetime(2024, 3, 2, 3, tzinfo=timezone.utc)),  # 04:00 UTC
        (datetime(2024, 3, 1, 1, 0), datetime(2024, 3, 1, 3, tzinfo=timezone.utc)),  # naive is UTC
    ],
)
def test_next_run_is_the_next_nightly_hour_in_utc(now: datetime, expected: datetime) -> None:
    assert next_run(now) == expected


def test_next_run_refuses_an_impossible_hour() -> None:
    with pytest.raises(ValueError, match="hour"):
        next_run(NOW, hour=24)


def test_portuguese_memories_get_a_title_without_stopwords_and_turns_show_their_speaker() -> None:
    async def scenario(deps: Deps) -> None:
        pt = [
            (2, "Eu e a Ana pintamos o apartamento em Lisboa"),
            (6, "Eu e a Ana compramos plantas para o apartamento em Lisboa"),
            (9, "Eu e a Ana limpamos o apartamento em Lisboa"),
        ]
        items = [turn(ALICE, day, text, i, name="Bia") for i, (day, text) in enumerate(pt)]
        await deps.memories.upsert(items)
        await consolidate(deps, ALICE, POLICY, now=NOW)
        (memory,) = await consolidated(deps, ALICE)
        lines = memory.content.splitlines()
        assert lines[0] == "Ana · apartamento · Lisboa"
        assert "- [2023-05-02] Bia: Eu e a Ana pintamos o apartamento em Lisboa" in lines
        assert "Facts:" not in lines  # turns alone state no fact

    run(scenario)


class ConeEmbedder(FakeEmbedder):
    """The hashing fake plus one large shared direction: every text lands in a narrow cone, as
    with real sentence embedders (raw cosine about 0.9 between unrelated texts)."""

    def _cone(self, vectors: Any) -> Any:
        import numpy as np

        shifted = np.asarray(vectors, dtype=np.float32) + 1.5 / np.sqrt(self.dim)
        return shifted / np.linalg.norm(shifted, axis=1, keepdims=True)

    def embed_documents(self, texts: list[str]) -> Any:
        return self._cone(super().embed_documents(texts))

    def embed_query(self, text: str) -> Any:
        return self._cone(super().embed_documents([text]))[0]


MARCOS = [  # (day, speaker or None for the assistant, text)
    (2, "Marcos", "Trabalho na Acme como designer, o projeto novo está puxado."),
    (2, None, "Entendi."),
    (3, "Marcos", "Fui promovido no trabalho na Acme, agora lidero o projeto de design."),
    (4, "Marcos", "Treino na academia três vezes por semana, foco em corrida."),
    (4, None, "Entendi, Marcos."),
    (6, "Marcos", "Hoje o treino de corrida na academia foi de 8 km."),
    (8, "Marcos", "A reunião do projeto de design na Acme atrasou de novo."),
    (9, None, "Que bom!"),
    (10, "Marcos", "Meu treino de corrida de sábado foi de 12 km, a academia estava vazia."),
    (12, "Marcos", "Moro em São Paulo, perto da academia."),
]


async def seed_marcos(deps: Deps) -> list[MemoryItem]:
    items = [
        turn(ALICE, day, text, i, name=who, role=Role.USER if who else Role.ASSISTANT)
        for i, (day, who, text) in enumerate(MARCOS)
    ]
    await deps.memories.upsert(items)
    return items


def test_unrelated_topics_never_share_a_memory_and_filler_is_never_a_fact_or_title() -> None:
    async def scenario(deps: Deps) -> None:
        await seed_marcos(deps)
        cone = ConsolidationPolicy(lookback_days=30, threshold=0.6, min_cluster=3)
        await consolidate(deps, ALICE, cone, now=NOW)
        memories = await consolidated(deps, ALICE)
        assert len(memories) == 2
        for m in memories:
            text = m.content.lower()
            assert "entendi" not in text and "que bom" not in text
            assert "marcos" not in m.metadata["title"].lower()
            assert not ("acme" in text and "treino" in text)  # work and fitness apart
        titles = sorted(m.metadata["title"] for m in memories)
        assert any("academia" in t or "treino" in t or "corrida" in t for t in titles)
        assert any("acme" in t.lower() or "projeto" in t or "design" in t for t in titles)

    asyncio.run(
        scenario(
            build_memory_deps(
                Settings(embedder="fake", tokenizer="chars"), embedder=ConeEmbedder(dim=1024), clock=FakeClock(NOW)
            )
        )
    )


def test_superseded_statements_go_under_evolution_not_facts() -> None:
    async def scenario(deps: Deps) -> None:
        said = [
            turn(ALICE, 2, "I work at Acme on the billing team", 1),
            turn(ALICE, 5, "At Acme the billing team had a long meeting", 2),
            turn(ALICE, 20, "I started working at Globex on the billing team", 3),
            turn(ALICE, 22, "At Globex the billing team is nicer", 4),
        ]
        old = fact(
            ALICE,
            2,
            "Alice works at Acme on the billing team",
            5,
            key="employer",
            metadata={FACT_VALUE: "Acme"},
            valid_to=may(20),
        )
        new = fact(
            ALICE, 20, "Alice works at Globex on the billing team", 6, key="employer", metadata={FACT_VALUE: "Globex"}
        )
        old.source_message_ids, new.source_message_ids = said[0].source_message_ids, said[2].source_message_ids
        await deps.memories.upsert([*said, old, new])
        await deps.memories.add_history(
            ALICE,
            [HistoryEntry(old.id, HistoryEvent.UPDATE, may(20), old.content, new.content, "heuristic", "job", new.id)],
        )
        await consolidate(deps, ALICE, POLICY, now=NOW)
        (memory,) = await consolidated(deps, ALICE)
        facts_part = memory.content.split("Evolution:")[0]
        assert "- Alice works at Globex on the billing team" in facts_part
        assert "I work at Acme" not in facts_part and "Alice works at Acme" not in facts_part
        assert memory.content.splitlines()[-1] == "- employer: Acme (2023-05-02) → Globex (2023-05-20)"

    run(scenario)


def test_the_lookback_defaults_to_90_days_and_comes_from_settings() -> None:
    from hipocampo.services.worker import consolidation_policy

    assert Settings().consolidation_lookback_days == 90 and ConsolidationPolicy().lookback_days == 90
    deps = build_memory_deps(Settings(embedder="fake", consolidation_lookback_days=7), embedder=FakeEmbedder())
    assert consolidation_policy(deps).lookback_days == 7


def test_with_a_chat_model_the_model_writes_the_consolidated_text_once() -> None:
    from hipocampo.adapters.llm.scripted import ScriptedChatModel

    answer = {
        "title": "apartamento em Lisboa",
        "facts": ["Ana e Alice moram num apartamento em Lisboa."],
        "patterns": ["Cuidam juntas do apartamento aos fins de semana."],
        "evolution": ["Moravam em São Paulo; em maio de 2023 passaram a morar em Lisboa."],
    }

    async def scenario(deps: Deps) -> None:
        await home_city_history(deps)
        await seed(deps, ALICE, FLAT)
        chat = ScriptedChatModel([answer])
        await consolidate(deps, ALICE, POLICY, now=NOW, llm=chat)
        (memory,) = await consolidated(deps, ALICE)
        assert memory.content.splitlines() == [
            "apartamento em Lisboa",
            "from 2023-05-01 to 2023-05-12 (4 memories)",
            "Facts:",
            "- Ana e Alice moram num apartamento em Lisboa.",
            "Recurring:",
            "- Cuidam juntas do apartamento aos fins de semana.",
            "Evolution:",
            "- Moravam em São Paulo; em maio de 2023 passaram a morar em Lisboa.",
        ]
        assert memory.metadata["writer"] == "llm" and "home_city: São Paulo" in chat.calls[0][1]
        assert "Current facts (from the fact store):\n- Ana and I live in a flat in Lisbon\n" in chat.calls[0][1]
        again = ScriptedChatModel([])  # nothing changed: no call, same text
        report = await consolidate(deps, ALICE, POLICY, now=NOW + timedelta(days=1), llm=again)
        assert again.calls == [] and report.superseded_ids == []
        assert [m.content for m in await consolidated(deps, ALICE)] == [memory.content]
        failing = ScriptedChatModel([RuntimeError("down")])
        await seed(deps, ALICE, [(25, "Ana and I repaired the door of the flat in Lisbon")], start=10)
        await consolidate(deps, ALICE, POLICY, now=NOW + timedelta(days=2), llm=failing)
        assert failing.calls  # a changed cluster asks again; the model fails and the rules' text stands in
        assert any(m.metadata["writer"] == "rules" for m in await consolidated(deps, ALICE))

    run(scenario)
