"""The recent window without Redis: each server process caches windows in its own memory, and a
write by another process (a second server, the CLI) must show at once, not after the cache TTL.

Two AsyncMemory instances on one SQLite file stand for two processes: each has its own
connections and its own in-process cache. Windows are checked against the log's thread version
on every read (``MessageLog.thread_version``), so the other process's writes and deletions show
on the next read.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from hipocampo import AsyncMemory, MemoryKind
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.adapters.memory_cache import InMemoryCache
from hipocampo.domain.model import Scope
from hipocampo.services.ingest import recent_cache_key
from hipocampo.testing import deps_of


async def open_server(db: Path, **overrides: object) -> AsyncMemory:
    return await AsyncMemory.open(str(db), embedder=FakeEmbedder(), **overrides)


async def window(mem: AsyncMemory, thread: str = "t1", user: str = "alice") -> list[str]:
    return [m.content for m in (await mem.recall(user, thread, "anything")).recent]


def test_a_window_cached_by_one_process_shows_the_other_processes_writes(tmp_path: Path) -> None:
    async def main() -> None:
        writer = await open_server(tmp_path / "shared.db")  # its worker indexes the turns
        reader = await open_server(tmp_path / "shared.db", worker="external")
        try:
            assert isinstance(deps_of(reader).cache, InMemoryCache)
            await writer.add("alice", "t1", ["one", "two"])
            assert await window(reader) == ["one", "two"]
            assert await deps_of(reader).cache.get(recent_cache_key(Scope("default", "alice"), "t1")) is not None

            await writer.add("alice", "t1", "three")  # the reader's cached window is now behind
            assert await window(reader) == ["one", "two", "three"]

            await writer.flush()
            (turn,) = [m for m in await writer.list("alice", kind=MemoryKind.TURN) if m.content == "two"]
            await writer.delete("alice", turn.id)  # deleting a turn removes its message from the log
            assert await window(reader) == ["one", "three"]

            await writer.forget("alice", thread_id="t1")  # forgotten means gone everywhere at once
            assert await window(reader) == []
            await writer.add("alice", "t1", "a new thread under the old id")
            assert await window(reader) == ["a new thread under the old id"]

            await window(reader, "t2")
            await writer.add("alice", "t2", "elsewhere")
            await writer.forget("alice")  # the whole user
            assert await window(reader) == [] and await window(reader, "t2") == []
        finally:
            await reader.close()
            await writer.close()

    asyncio.run(main())


def test_a_cached_window_is_served_while_the_thread_is_unchanged(tmp_path: Path) -> None:
    """The check costs one indexed read; the messages themselves come from the cache."""

    async def main() -> None:
        mem = await open_server(tmp_path / "one.db", worker="external")
        try:
            await mem.add("alice", "t1", ["one", "two"])
            assert await window(mem) == ["one", "two"]
            key = recent_cache_key(Scope("default", "alice"), "t1")
            cached = await deps_of(mem).cache.get(key)
            assert cached is not None and cached["version"] == await deps_of(mem).log.thread_version(
                Scope("default", "alice"), "t1"
            )
            cached["messages"][0]["content"] = "served from the cache"  # what only the cache holds
            assert await window(mem) == ["served from the cache", "two"]
        finally:
            await mem.close()

    asyncio.run(main())


def test_agent_only_windows_are_read_from_the_log(tmp_path: Path) -> None:
    """An agent-only scope sees a filtered view of the thread: never the cached whole window."""

    async def main() -> None:
        mem = await open_server(tmp_path / "agents.db", worker="external")
        try:
            await mem.add("alice", "t1", "shared")
            await mem.add("alice", "t1", "for sales", agent_id="sales")
            await mem.add("alice", "t1", "for support", agent_id="support")
            assert await window(mem) == ["shared", "for sales", "for support"]  # cached: the whole thread
            sales = await mem.recall("alice", "t1", "anything", agent_id="sales", agent_only=True)
            assert [m.content for m in sales.recent] == ["shared", "for sales"]
        finally:
            await mem.close()

    asyncio.run(main())
