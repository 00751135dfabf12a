"""services.summaries over the in-memory adapters: the threshold, what is folded and recorded,
the summary memory with its sources and index job, incremental updates, system messages,
no-op re-runs, scoping, and the LLM path with its extractive fallback."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta, timezone

import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.adapters.llm.scripted import ScriptedChatModel
from hipocampo.domain.extraction.llm_schemas import LLMError
from hipocampo.domain.model import Job, MemoryKind, Message, NewMessage, Role, Scope
from hipocampo.services.deps import Deps
from hipocampo.services.indexing import process_jobs
from hipocampo.services.ingest import INDEX_MEMORIES_JOB
from hipocampo.services.summaries import (
    SummaryPolicy,
    maybe_summarize,
    summary_memory_id,
)
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
OTHER_TENANT_ALICE = Scope("globex", "alice")
# Threshold-driven folds (a window wider than the thread), and a budget of max_tokens alone.
POLICY = SummaryPolicy(threshold=20, keep_recent=10, max_tokens=500, window=200, ratio=1.0)
DAY0 = datetime(2023, 5, 8, 9, tzinfo=timezone.utc)


def make_deps() -> Deps:
    return build_memory_deps(Settings(embedder="fake", tokenizer="chars"), embedder=FakeEmbedder(), clock=FakeClock())


def run(scenario: Callable[[Deps], Awaitable[None]]) -> None:
    asyncio.run(scenario(make_deps()))


PLACES = ("Lisbon", "Porto", "Braga", "Faro", "Coimbra", "Évora", "Sintra", "Aveiro")
THINGS = ("hotel", "museum", "dinner", "train", "concert", "beach day", "wine tour", "market")


def said(i: int) -> str:
    """A turn worth keeping (a name, a number and a plan), and unlike the others."""
    return f"We will meet Sofia in {PLACES[i % 8]} on day {i} to book the {THINGS[i // 8 % 8]}."


async def add(
    deps: Deps, n: int, *, scope: Scope = ALICE, thread: str = "t1", start: int = 0, role: Role | None = None
) -> list[Message]:
    """Append ``n`` turns (alternating user and assistant, one day apart) straight to the log."""
    messages = [
        NewMessage(
            role=role or (Role.USER if i % 2 == 0 else Role.ASSISTANT),
            content=said(i),
            created_at=DAY0 + timedelta(days=i),
            name="Ana" if i % 2 == 0 else None,
        )
        for i in range(start, start + n)
    ]
    return await deps.log.append(scope, thread, messages, [])


async def index_jobs(deps: Deps) -> list[Job]:
    return await deps.jobs.claim(100, 60.0, kinds=[INDEX_MEMORIES_JOB])


def test_below_the_threshold_nothing_is_written() -> None:
    async def scenario(deps: Deps) -> None:
        await add(deps, 20)  # not more than the threshold
        assert await maybe_summarize(deps, ALICE, "t1", POLICY) is None
        assert await deps.summaries.get(ALICE, "t1") is None
        assert await deps.memories.count(ALICE) == 0
        assert await index_jobs(deps) == []

    run(scenario)


def test_above_the_threshold_folds_all_but_the_recent_and_records_it() -> None:
    async def scenario(deps: Deps) -> None:
        stored = await add(deps, 21)
        deps.clock.advance(3600)  # type: ignore[attr-defined]
        summary = await maybe_summarize(deps, ALICE, "t1", POLICY)
        assert summary is not None
        assert summary.messages_summarized == 11
        assert summary.last_message_seq == stored[10].seq
        assert summary.token_count == deps.tokenizer.count(summary.content)
        assert summary.token_count <= POLICY.max_tokens
        assert summary.updated_at == deps.clock.now()
        lines = summary.content.splitlines()
        assert lines[:2] == ["[2023-05-08]", f"- Ana: {said(0)}"]  # each day's lines under the day
        assert lines[lines.index("[2023-05-10]") + 1] == f"- Ana: {said(2)}"
        # What the user said comes before the assistant's lines: every one of hers is kept.
        assert all(f"- Ana: {said(i)}" in lines for i in range(0, 11, 2))
        assert all(said(i) not in summary.content for i in range(11, 21))  # the recent window stays out
        assert await deps.summaries.get(ALICE, "t1") == summary

    run(scenario)


def test_the_summary_is_a_memory_with_its_sources_and_gets_indexed() -> None:
    async def scenario(deps: Deps) -> None:
        stored = await add(deps, 21)
        summary = await maybe_summarize(deps, ALICE, "t1", POLICY)
        assert summary is not None
        memory_id = summary_memory_id(ALICE, "t1")
        [item] = await deps.memories.get_many(ALICE, [memory_id])
        assert item.kind is MemoryKind.SUMMARY
        assert item.content == summary.content
        assert item.thread_id == "t1"
        assert item.created_at == stored[10].created_at  # when the last folded turn was said
        assert item.source_message_ids == [m.id for m in stored[:11]]
        assert item.importance == 0.6
        assert item.metadata["summarizer"] == "extractive"
        [job] = await index_jobs(deps)
        assert (job.payload, job.tenant_id, job.user_id) == ({"memory_ids": [memory_id]}, "acme", "alice")
        await process_jobs(deps, [job])  # the worker embeds and indexes it like any memory
        hits = await deps.keywords.search(ALICE, "Sofia Lisbon hotel", 5)
        assert memory_id in [h.memory_id for h in hits]

    run(scenario)


def test_a_second_run_folds_only_the_new_turns() -> None:
    async def scenario(deps: Deps) -> None:
        stored = await add(deps, 21)
        first = await maybe_summarize(deps, ALICE, "t1", POLICY)
        assert first is not None
        stored += await add(deps, 20, start=21)  # 10 kept back + 20 new = 30 unsummarized
        second = await maybe_summarize(deps, ALICE, "t1", POLICY)
        assert second is not None
        assert second.messages_summarized == 11 + 20
        assert second.last_message_seq == stored[30].seq
        [item] = await deps.memories.get_many(ALICE, [summary_memory_id(ALICE, "t1")])
        assert item.source_message_ids == [m.id for m in stored[:31]]
        assert item.content == second.content
        assert await deps.memories.count(ALICE) == 1  # updated in place, not duplicated
        assert len(await index_jobs(deps)) == 2  # one per update

    run(scenario)


def test_rerunning_with_nothing_new_is_a_no_op() -> None:
    async def scenario(deps: Deps) -> None:
        await add(deps, 25)
        first = await maybe_summarize(deps, ALICE, "t1", POLICY)
        assert first is not None
        deps.clock.advance(60)  # type: ignore[attr-defined]
        assert await maybe_summarize(deps, ALICE, "t1", POLICY) is None
        assert await deps.summaries.get(ALICE, "t1") == first
        assert len(await index_jobs(deps)) == 1

    run(scenario)


def test_a_deleted_summary_memory_gets_its_sources_back_from_the_log() -> None:
    async def scenario(deps: Deps) -> None:
        stored = await add(deps, 21)
        await maybe_summarize(deps, ALICE, "t1", POLICY)
        await deps.memories.delete(ALICE, [summary_memory_id(ALICE, "t1")])
        stored += await add(deps, 11, start=21)
        assert await maybe_summarize(deps, ALICE, "t1", POLICY) is not None
        [item] = await deps.memories.get_many(ALICE, [summary_memory_id(ALICE, "t1")])
        assert item.source_message_ids == [m.id for m in stored[:22]]

    run(scenario)


def test_turns_folded_by_another_worker_meanwhile_are_not_folded_twice() -> None:
    async def scenario(deps: Deps) -> None:
        await add(deps, 21)

        async def slow_model(system: str, prompt: str, schema: type | None) -> str:
            # While this worker waits for its model, another one folds the same turns.
            assert await maybe_summarize(deps, ALICE, "t1", POLICY) is not None
            return "- too late"

        assert await maybe_summarize(deps, ALICE, "t1", POLICY, llm=ScriptedChatModel(slow_model)) is None
        summary = await deps.summaries.get(ALICE, "t1")
        assert summary is not None and summary.messages_summarized == 11
        assert "too late" not in summary.content
        assert len(await index_jobs(deps)) == 1

    run(scenario)


def test_system_messages_are_not_counted_nor_folded() -> None:
    async def scenario(deps: Deps) -> None:
        [system] = await deps.log.append(ALICE, "t1", [NewMessage(Role.SYSTEM, "You are a travel agent.", DAY0)], [])
        await add(deps, 20, start=1)
        await deps.log.append(ALICE, "t1", [NewMessage(Role.SYSTEM, "Be brief.", DAY0)], [])
        assert await maybe_summarize(deps, ALICE, "t1", POLICY) is None  # 20 non-system: not yet
        await add(deps, 1, start=21)
        summary = await maybe_summarize(deps, ALICE, "t1", POLICY)
        assert summary is not None
        assert summary.messages_summarized == 11
        assert summary.last_message_seq == 11  # seq 0 is the system prompt
        assert "travel agent" not in summary.content
        [item] = await deps.memories.get_many(ALICE, [summary_memory_id(ALICE, "t1")])
        assert len(item.source_message_ids) == 11 and system.id not in item.source_message_ids

    run(scenario)


def test_summaries_are_scoped_per_tenant_user_and_thread() -> None:
    async def scenario(deps: Deps) -> None:
        await add(deps, 21)
        await add(deps, 21, thread="t2", start=100)
        await add(deps, 5, scope=BOB)
        await add(deps, 21, scope=OTHER_TENANT_ALICE)
        assert await maybe_summarize(deps, ALICE, "t1", POLICY) is not None
        assert await deps.summaries.get(ALICE, "t2") is None
        assert await deps.summaries.get(OTHER_TENANT_ALICE, "t1") is None
        assert await maybe_summarize(deps, BOB, "t1", POLICY) is None
        t2 = await maybe_summarize(deps, ALICE, "t2", POLICY)
        assert t2 is not None and "day 10" in t2.content and said(0) not in t2.content
        assert await deps.memories.count(BOB) == 0
        assert await deps.memories.count(OTHER_TENANT_ALICE) == 0
        ids = {
            summary_memory_id(ALICE, "t1"),
            summary_memory_id(ALICE, "t2"),
            summary_memory_id(BOB, "t1"),
            summary_memory_id(OTHER_TENANT_ALICE, "t1"),
        }
        assert len(ids) == 4 and all(i.startswith("summary_") for i in ids)
        assert summary_memory_id(ALICE, "t1") == summary_memory_id(Scope("acme", "alice", "agent-7"), "t1")

    run(scenario)


def test_the_policy_comes_from_settings_and_is_checked() -> None:
    settings = Settings(summarization_threshold=30, summary_keep_recent=5, summary_max_tokens=200)
    assert SummaryPolicy.from_settings(settings) == SummaryPolicy(30, 5, 200)
    with pytest.raises(ValueError, match="threshold"):
        SummaryPolicy(threshold=0)
    with pytest.raises(ValueError, match="keep_recent"):
        SummaryPolicy(keep_recent=-1)


def test_an_llm_writes_the_summary_within_the_budget() -> None:
    async def scenario(deps: Deps) -> None:
        await add(deps, 21)
        chat = ScriptedChatModel(["- [2023-05-08] Ana plans to meet Sofia in Lisbon.\n" + "- more\n" * 400])
        summary = await maybe_summarize(deps, ALICE, "t1", POLICY, llm=chat)
        assert summary is not None
        assert summary.content.startswith("- [2023-05-08] Ana plans to meet Sofia in Lisbon.\n- more")
        assert summary.token_count <= POLICY.max_tokens and summary.content.splitlines()[-2] == "- more"
        # The model dropped the turns' places and days: the summary says how many details it left out.
        assert re.fullmatch(r"\(\+\d+ details omitted\)", summary.content.splitlines()[-1])
        [(system, prompt, schema)] = chat.calls
        assert schema is None and "summary" in system
        assert "Previous summary:\n(none)" in prompt and f"[2023-05-18] Ana: {said(10)}" in prompt
        assert said(11) not in prompt  # the recent window is not sent
        [item] = await deps.memories.get_many(ALICE, [summary_memory_id(ALICE, "t1")])
        assert item.metadata["summarizer"] == "llm"
        # The next update sends the previous summary along with the new turns only.
        await add(deps, 11, start=21)
        chat2 = ScriptedChatModel(["- updated"])
        again = await maybe_summarize(deps, ALICE, "t1", POLICY, llm=chat2)
        assert again is not None and again.content.splitlines()[0] == "- updated"
        prompt2 = chat2.calls[0][1]
        assert summary.content in prompt2 and said(10) not in prompt2 and said(21) in prompt2

    run(scenario)


@pytest.mark.parametrize("failure", [LLMError("model is down"), ""], ids=["raises", "empty"])
def test_a_failing_llm_falls_back_to_the_extractive_summary(failure: object, caplog: pytest.LogCaptureFixture) -> None:
    async def scenario(deps: Deps) -> None:
        await add(deps, 21)
        summary = await maybe_summarize(deps, ALICE, "t1", POLICY, llm=ScriptedChatModel([failure]))
        assert summary is not None
        assert summary.content.startswith(f"[2023-05-08]\n- Ana: {said(0)}")
        [item] = await deps.memories.get_many(ALICE, [summary_memory_id(ALICE, "t1")])
        assert item.metadata["summarizer"] == "extractive"

    run(scenario)
    assert "LLM summary failed" in caplog.text
