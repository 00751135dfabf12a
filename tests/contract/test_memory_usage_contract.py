"""TenantStore.memory_usage: the exact count behind the stored-memories quota.

Every backend must keep it exact in the writer's transaction, so a write checked against the
quota inside its own transaction holds the quota under any concurrency, across connections.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from hipocampo.domain.model import MemoryKind, NewMessage, Role, Scope

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
GLOBEX = Scope("globex", "alice")


def user(text: str, **kw) -> NewMessage:
    return NewMessage(role=Role.USER, content=text, **kw)


class _Over(Exception):
    pass


def test_usage_counts_messages_and_direct_facts_of_every_user(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        assert await s.tenants.memory_usage("acme") == 0
        await s.messages.append(ALICE, "t1", [user("a"), user("b", id="ext-1")], [])
        await s.messages.append(BOB, "t1", [user("c")], [])
        await s.messages.append(GLOBEX, "t1", [user("elsewhere")], [])
        assert await s.tenants.memory_usage("acme") == 3
        await s.messages.append(ALICE, "t1", [user("b again", id="ext-1")], [])  # a retry: not stored twice
        assert await s.tenants.memory_usage("acme") == 3

        direct = memory("f1", ALICE, "likes tea", kind=MemoryKind.FACT)
        derived = memory("f2", ALICE, "likes coffee", kind=MemoryKind.FACT, source_message_ids=["m1"])
        turn = memory("t1", ALICE, "a", seq=0)
        await s.memories.upsert([direct, derived, turn])
        assert await s.tenants.memory_usage("acme") == 4  # the derived fact and the turn entry are free
        await s.memories.upsert([direct])  # rewriting is not storing more
        assert await s.tenants.memory_usage("acme") == 4
        direct.source_message_ids = ["m9"]  # now derived from a turn: no longer charged
        await s.memories.upsert([direct])
        assert await s.tenants.memory_usage("acme") == 3
        direct.source_message_ids = []
        await s.memories.upsert([direct])
        assert await s.tenants.memory_usage("acme") == 4

        await s.memories.delete(ALICE, ["f1", "f2"])
        assert await s.tenants.memory_usage("acme") == 3
        assert await s.messages.delete_thread(ALICE, "t1") == 2
        assert await s.tenants.memory_usage("acme") == 1
        await s.messages.delete_user(BOB)
        assert await s.tenants.memory_usage("acme") == 0
        assert await s.tenants.memory_usage("globex") == 1

    run(scenario)


def test_usage_is_part_of_the_transaction(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.messages.append(ALICE, "t1", [user("kept")], [])
        try:
            async with s.uow.transaction():
                await s.messages.append(ALICE, "t1", [user("x"), user("y")], [])
                assert await s.tenants.memory_usage("acme") == 3  # the open write is included
                raise _Over
        except _Over:
            pass
        assert await s.tenants.memory_usage("acme") == 1  # rolled back with the write
        async with s.another_connection() as other:
            assert await other.tenants.memory_usage("acme") == 1

    run(scenario)


def test_writers_racing_on_many_connections_cannot_overshoot_a_limit(run: Callable) -> None:
    limit, writers = 5, 12

    async def scenario(s) -> None:
        async def write(i: int) -> bool:
            async with s.another_connection() as conn:
                try:
                    async with conn.uow.transaction():
                        await conn.messages.append(ALICE, f"t{i}", [user(f"m{i}")], [])
                        if await conn.tenants.memory_usage("acme") > limit:
                            raise _Over
                except _Over:
                    return False
                return True

        accepted = await asyncio.gather(*(write(i) for i in range(writers)))
        assert sum(accepted) == limit
        assert await s.tenants.memory_usage("acme") == limit
        assert await s.messages.count(ALICE) == limit

    run(scenario)
