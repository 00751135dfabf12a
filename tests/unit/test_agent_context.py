"""The agent's memory context when flags drop a section: it is rendered again from what recall
chose, and a hit keeps the neighbouring turns it brought in (the fake embedder, in-process stores)."""

from __future__ import annotations

import asyncio

from hipocampo.agent import SessionConfig
from hipocampo.agent.context import load_context
from hipocampo.agent.langgraph import MemoryFlags
from hipocampo.domain.model import Scope, turn_memory_id
from hipocampo.services.worker import run_once
from hipocampo.testing import deps_of, open_memory


def test_a_hit_keeps_its_neighbouring_turns_when_the_window_is_off() -> None:
    async def main() -> None:
        mem = await open_memory(extraction=False, summaries=False, recent_messages=3)
        try:
            stored = await mem.add(
                "ana",
                "dinner",
                [
                    {"role": "user", "content": "Guess what I made yesterday"},
                    {"role": "user", "content": "A risotto with saffron"},
                    {"role": "assistant", "content": "Impressive, well done"},
                    {"role": "user", "content": "Unrelated remark far away"},
                ],
            )
            deps = deps_of(mem)
            while await run_once(deps):
                pass
            # Only the hit stays findable; its neighbours can come back through expansion alone.
            scope = Scope("default", "ana")
            others = [turn_memory_id(m.id) for m in stored if m.content != "A risotto with saffron"]
            await deps.keywords.delete(scope, others)
            await deps.vectors.delete(scope, others)

            session = SessionConfig(user_id="ana", thread_id="elsewhere", memory_min_relevance=0.0)
            text = await load_context(mem, session, "saffron risotto", MemoryFlags(recent=False))
            for turn in ("Guess what I made yesterday", "A risotto with saffron", "Impressive, well done"):
                assert turn in text
            assert "Unrelated remark far away" not in text

            own = await load_context(mem, session, "saffron risotto", MemoryFlags(cross_thread=False))
            assert "risotto" not in own  # another thread's hit and its neighbours both stay out
        finally:
            await mem.close()

    asyncio.run(main())
