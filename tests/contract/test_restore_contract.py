"""Restoring stored rows as they are (``MessageLog.restore``, ``MemoryStore.restore``) and listing
the log's users (``MessageLog.scopes``): what ``hipocampo move`` needs from every backend."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone

import pytest

from hipocampo.domain.errors import Conflict
from hipocampo.domain.model import MemoryKind, MemoryType, Message, NewMessage, Role, Scope

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
GLOBEX = Scope("globex", "carol")
SAID = datetime(2023, 6, 15, 9, 30, 12, 123457, tzinfo=timezone.utc)


def stored(message_id: str, scope: Scope, thread_id: str, seq: int, content: str, **kw) -> Message:
    return Message(
        id=message_id,
        scope=scope,
        thread_id=thread_id,
        role=kw.pop("role", Role.USER),
        content=content,
        created_at=kw.pop("created_at", SAID + timedelta(minutes=seq)),
        seq=seq,
        **kw,
    )


def test_restore_keeps_ids_seqs_times_and_fields(run: Callable) -> None:
    async def scenario(s) -> None:
        originals = [
            stored("msg_a", ALICE, "t1", 0, "hello", name="Alice", metadata={"k": [1, "x"]}, external_id="ext-1"),
            stored("msg_b", ALICE, "t1", 1, "hi Alice", role=Role.ASSISTANT),
            stored("msg_c", Scope("acme", "alice", "bot-7"), "t2", 4, "from an agent"),
            stored("msg_d", GLOBEX, "t9", 0, "elsewhere"),
        ]
        assert await s.messages.restore(originals) == 4
        assert await s.messages.list_thread(ALICE, "t1") == originals[:2]
        assert await s.messages.get_many(ALICE, ["msg_c"]) == [originals[2]]
        assert sorted(await s.messages.threads(ALICE)) == ["t1", "t2"]
        assert await s.messages.count() == 4
        assert [m.id for _, m in await s.messages.iter_all()] == ["msg_a", "msg_b", "msg_c", "msg_d"]
        # a thread goes on after its restored messages, and caller ids stay idempotent
        more = await s.messages.append(ALICE, "t2", [NewMessage(Role.USER, "next")], [])
        assert more[0].seq == 5
        again = await s.messages.append(ALICE, "t1", [NewMessage(Role.USER, "retry", id="ext-1")], [])
        assert again[0].id == "msg_a"

    run(scenario)


def test_restoring_again_writes_nothing_twice(run: Callable) -> None:
    async def scenario(s) -> None:
        first = [stored("msg_a", ALICE, "t1", 0, "a"), stored("msg_b", ALICE, "t1", 1, "b")]
        assert await s.messages.restore(first) == 2
        assert await s.messages.restore([*first, stored("msg_c", ALICE, "t1", 2, "c")]) == 1
        assert [m.id for m in await s.messages.list_thread(ALICE, "t1")] == ["msg_a", "msg_b", "msg_c"]
        assert await s.tenants.memory_usage("acme") == 3

    run(scenario)


@pytest.mark.parametrize("clash", ["position", "caller id"])
def test_restore_refuses_the_place_of_another_message_and_writes_nothing(run: Callable, clash: str) -> None:
    async def scenario(s) -> None:
        await s.messages.restore([stored("msg_a", ALICE, "t1", 0, "a", external_id="ext-1")])
        taker = (
            stored("msg_x", ALICE, "t1", 0, "another at seq 0")
            if clash == "position"
            else stored("msg_x", ALICE, "t1", 7, "another with ext-1", external_id="ext-1")
        )
        with pytest.raises(Conflict):
            await s.messages.restore([stored("msg_ok", BOB, "t1", 0, "fine"), taker])
        assert await s.messages.count() == 1
        assert await s.messages.scopes() == [("acme", "alice")]

    run(scenario)


def test_scopes_lists_every_user_of_the_log(run: Callable) -> None:
    async def scenario(s) -> None:
        assert await s.messages.scopes() == []
        await s.messages.append(GLOBEX, "t1", [NewMessage(Role.USER, "c")], [])
        await s.messages.append(BOB, "t1", [NewMessage(Role.USER, "b")], [])
        await s.messages.restore([stored("msg_a", ALICE, "t3", 0, "a")])
        await s.messages.append(BOB, "t2", [NewMessage(Role.USER, "b2")], [])
        assert await s.messages.scopes() == [("acme", "alice"), ("acme", "bob"), ("globex", "carol")]

    run(scenario)


def test_memory_restore_keeps_every_field_and_leaves_stored_ids_alone(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        fact = memory(
            "f1",
            ALICE,
            "lives in Porto",
            kind=MemoryKind.FACT,
            thread_id=None,
            memory_type=MemoryType.USER_PROFILE,
            importance=0.8,
            metadata={"fact_value": "Porto"},
            updated_at=SAID,
            valid_to=SAID + timedelta(days=1),
            key="home_city",
            confidence=0.9,
            mention_count=3,
            access_count=5,
            last_accessed=SAID,
            expires_at=SAID + timedelta(days=9),
            event_start=SAID,
            event_end=SAID,
        )
        derived = memory("f2", ALICE, "likes tea", kind=MemoryKind.FACT, source_message_ids=["msg_a"])
        turn = memory("turn_msg_a", ALICE, "a", seq=0, name="Alice")
        assert await s.memories.restore([fact, derived, turn]) == 3
        assert await s.memories.get_many(ALICE, ["f1", "f2", "turn_msg_a"]) == [fact, derived, turn]
        assert await s.tenants.memory_usage("acme") == 1  # the direct fact, as the quota counts it

        changed = memory("f1", ALICE, "something else", kind=MemoryKind.FACT)
        elsewhere = memory("f2", BOB, "bob's", kind=MemoryKind.FACT)
        assert await s.memories.restore([changed, elsewhere, memory("f3", BOB, "new", kind=MemoryKind.FACT)]) == 1
        assert (await s.memories.get_many(ALICE, ["f1"]))[0] == fact
        assert [m.id for m in await s.memories.list(BOB)] == ["f3"]
        assert await s.memories.restore([]) == 0

    run(scenario)


def test_restore_joins_an_enclosing_transaction(run: Callable, memory: Callable) -> None:
    class Stop(Exception):
        pass

    async def scenario(s) -> None:
        with pytest.raises(Stop):
            async with s.uow.transaction():
                await s.messages.restore([stored("msg_a", ALICE, "t1", 0, "a")])
                await s.memories.restore([memory("turn_msg_a", ALICE, "a", seq=0)])
                raise Stop
        assert await s.messages.count() == 0 and await s.memories.count() == 0
        assert await s.messages.scopes() == []

    run(scenario)
