"""The summary invariant, over a real SQLite store through the public API: once the worker is
idle, every non-system message of a thread is in its summary or in the recent window recall
shows, whatever the summary threshold, the messages kept out of it and the window size.

Property-style: every combination below, messages added one by one and in batches (a whole
import folds in one job), system messages mixed in; the invariant is checked after each add.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from hipocampo import AsyncMemory
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.domain.model import Role, Scope
from hipocampo.services.recall import recent_messages
from hipocampo.testing import deps_of

THRESHOLDS = (2, 7, 20)
KEEPS = (0, 4, 10, 15)
WINDOWS = (0, 1, 5, 10, 25)
MESSAGES = 27
TOPICS = ("the flat in Lisbon", "guitar lessons", "a trip to Porto", "the new job at Acme", "Ana's birthday")


def said(i: int) -> str:
    return f"Message {i}: we decided to talk about {TOPICS[i % len(TOPICS)]} on day {i}."


async def check(mem: AsyncMemory, user: str, label: str) -> None:
    scope = Scope("default", user)
    every = await deps_of(mem).log.list_thread(scope, "t1", limit=1000)
    summary = await deps_of(mem).summaries.get(scope, "t1")
    covered = summary.last_message_seq if summary is not None else -1
    window = {m.id for m in await recent_messages(deps_of(mem), scope, "t1")}
    lost = [m.content for m in every if m.role is not Role.SYSTEM and m.seq > covered and m.id not in window]
    assert not lost, f"{label}: in neither the summary nor the recent window: {lost}"
    if summary is not None:  # what the summary says it covers, it covers
        folded = [m for m in every if m.role is not Role.SYSTEM and m.seq <= covered]
        assert summary.messages_summarized == len(folded), label


def test_every_message_is_in_the_summary_or_the_recent_window(tmp_path: Path) -> None:
    async def main() -> None:
        db = str(tmp_path / "invariant.db")
        rng = random.Random(7)
        for threshold in THRESHOLDS:
            for keep in KEEPS:
                for window in WINDOWS:
                    label = f"threshold={threshold} keep={keep} window={window}"
                    user = f"u{threshold}_{keep}_{window}"
                    mem = await AsyncMemory.open(
                        db,
                        embedder=FakeEmbedder(),
                        extraction=False,
                        recent_messages=window,
                        summarization_threshold=threshold,
                        summary_keep_recent=keep,
                    )
                    try:
                        i = 0
                        while i < MESSAGES:
                            batch = []
                            for _ in range(rng.choice((1, 1, 1, 2, 5))):
                                role = "system" if rng.random() < 0.1 else ("user" if i % 2 == 0 else "assistant")
                                batch.append({"role": role, "content": said(i)})
                                i += 1
                            await mem.add(user, "t1", batch)
                            await mem.flush()
                            await check(mem, user, f"{label} after {i} messages")
                    finally:
                        await mem.close()

    asyncio.run(main())


def test_the_reported_case_has_no_gap(tmp_path: Path) -> None:
    """Threshold 20, keep 10, window 10: messages 11-17 used to be in neither."""

    async def main() -> None:
        mem = await AsyncMemory.open(
            str(tmp_path / "gap.db"),
            embedder=FakeEmbedder(),
            extraction=False,
            summarization_threshold=20,
            summary_keep_recent=10,
            recent_messages=10,
        )
        try:
            for i in range(28):
                await mem.add("ana", "t1", {"role": "user" if i % 2 == 0 else "assistant", "content": said(i)})
            await mem.flush()
            await check(mem, "ana", "threshold=20 keep=10 window=10")
            summary = await deps_of(mem).summaries.get(Scope("default", "ana"), "t1")
            # 19-28 are the window, so 1-18 at least are folded; folds come in batches that keep at
            # least half the window out (how many depends on when the worker ran)
            assert summary is not None and 18 <= summary.messages_summarized <= 23
        finally:
            await mem.close()

    asyncio.run(main())
