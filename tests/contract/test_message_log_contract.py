"""The MessageLog port contract: ordering, idempotency, the outbox, scoping, deletion."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone

import pytest

from hipocampo.domain.model import Job, NewMessage, Role, Scope

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
ALICE_GLOBEX = Scope("globex", "alice")  # the same user id under another tenant


def user(content: str, **kw) -> NewMessage:
    return NewMessage(role=Role.USER, content=content, **kw)


def index_job(scope: Scope, **payload) -> Job:
    return Job(
        kind="index",
        payload={"message_ids": "$ids", **payload},
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
    )


def test_append_assigns_increasing_seq_per_thread_across_calls(run: Callable) -> None:
    async def scenario(s) -> None:
        first = await s.messages.append(ALICE, "t1", [user("a"), user("b")], [])
        second = await s.messages.append(ALICE, "t1", [user("c")], [])
        other = await s.messages.append(ALICE, "t2", [user("x")], [])
        assert [m.seq for m in first + second] == [0, 1, 2]
        assert [m.seq for m in other] == [0]
        assert len({m.id for m in first + second + other}) == 4
        assert all(m.scope == ALICE and m.thread_id == "t1" for m in first + second)
        stored = await s.messages.list_thread(ALICE, "t1")
        assert [(m.seq, m.content) for m in stored] == [(0, "a"), (1, "b"), (2, "c")]

    run(scenario)


def test_created_at_defaults_to_the_clock_and_explicit_times_are_kept(run: Callable) -> None:
    async def scenario(s) -> None:
        said = datetime(2023, 6, 15, 9, 30, 12, 123457, tzinfo=timezone.utc)
        s.clock.advance(3600)
        appended = await s.messages.append(ALICE, "t1", [user("now"), user("then", created_at=said)], [])
        assert appended[0].created_at == s.clock.now()
        assert appended[1].created_at == said
        stored = await s.messages.list_thread(ALICE, "t1")
        assert stored[0].created_at == s.clock.now()
        assert stored[1].created_at == said
        assert stored[1].created_at.utcoffset() == timedelta(0)

    run(scenario)


def test_fields_and_metadata_round_trip(run: Callable) -> None:
    async def scenario(s) -> None:
        meta = {"source": "whatsapp", "n": 3, "tags": ["a", "ç"], "nested": {"ok": True}}
        (appended,) = await s.messages.append(
            ALICE,
            "t1",
            [NewMessage(role=Role.ASSISTANT, content="Olá, ação!", name="Bot", metadata=meta, id="ext-1")],
            [],
        )
        (stored,) = await s.messages.get_many(ALICE, [appended.id])
        assert stored == appended
        assert stored.metadata == meta
        assert (stored.role, stored.name, stored.content, stored.external_id) == (
            Role.ASSISTANT,
            "Bot",
            "Olá, ação!",
            "ext-1",
        )

    run(scenario)


def test_reappending_a_caller_id_returns_the_stored_message(run: Callable) -> None:
    async def scenario(s) -> None:
        (first,) = await s.messages.append(ALICE, "t1", [user("hello", id="m-1")], [index_job(ALICE)])
        s.clock.advance(60)
        again = await s.messages.append(ALICE, "t1", [user("hello (retry)", id="m-1")], [index_job(ALICE)])
        assert again == [first]
        assert await s.messages.count(ALICE) == 1
        jobs = await s.jobs.claim(10, 30)
        assert len(jobs) == 1 and jobs[0].payload["message_ids"] == [first.id]

    run(scenario)


def test_a_retried_batch_writes_only_the_new_messages(run: Callable) -> None:
    async def scenario(s) -> None:
        (a,) = await s.messages.append(ALICE, "t1", [user("a", id="a")], [])
        stored = await s.messages.append(ALICE, "t1", [user("a", id="a"), user("b", id="b")], [index_job(ALICE)])
        assert stored[0] == a
        assert stored[1].seq == 1 and stored[1].external_id == "b"
        (job,) = await s.jobs.claim(10, 30)
        assert job.payload["message_ids"] == [stored[1].id]
        assert [m.content for m in await s.messages.list_thread(ALICE, "t1")] == ["a", "b"]

    run(scenario)


def test_duplicate_ids_inside_one_batch_are_written_once(run: Callable) -> None:
    async def scenario(s) -> None:
        stored = await s.messages.append(ALICE, "t1", [user("x", id="dup"), user("x", id="dup")], [])
        assert stored[0] == stored[1]
        assert await s.messages.count(ALICE) == 1

    run(scenario)


def test_the_same_caller_id_in_other_scopes_does_not_collide(run: Callable) -> None:
    async def scenario(s) -> None:
        stored = {}
        for scope in (ALICE, BOB, ALICE_GLOBEX):
            (m,) = await s.messages.append(scope, "t1", [user(f"from {scope.tenant_id}/{scope.user_id}", id="m-1")], [])
            stored[scope] = m
        assert len({m.id for m in stored.values()}) == 3
        for scope, m in stored.items():
            assert m.scope == scope
            assert [x.content for x in await s.messages.list_thread(scope, "t1")] == [m.content]
        assert await s.messages.count() == 3

    run(scenario)


def test_jobs_are_enqueued_with_the_stored_ids(run: Callable) -> None:
    async def scenario(s) -> None:
        job = Job(
            kind="index",
            payload={"message_ids": "$ids", "thread_id": "t1", "keep": "as is"},
            tenant_id="acme",
            user_id="alice",
        )
        stored = await s.messages.append(ALICE, "t1", [user("a"), user("b")], [job])
        (claimed,) = await s.jobs.claim(10, 30)
        assert claimed.kind == "index"
        assert (claimed.tenant_id, claimed.user_id) == ("acme", "alice")
        assert claimed.payload == {
            "message_ids": [m.id for m in stored],
            "thread_id": "t1",
            "keep": "as is",
        }

    run(scenario)


def test_messages_and_jobs_are_written_atomically(run: Callable) -> None:
    async def scenario(s) -> None:
        unstorable = Job(kind="index", payload={"bad": object()}, tenant_id="acme", user_id="alice")
        with pytest.raises((TypeError, ValueError)):  # the payload is not JSON
            await s.messages.append(ALICE, "t1", [user("lost")], [unstorable])
        assert await s.messages.count() == 0
        assert await s.messages.list_thread(ALICE, "t1") == []
        assert await s.jobs.claim(10, 30) == []
        # The failed write left no trace: the thread starts at seq 0.
        (m,) = await s.messages.append(ALICE, "t1", [user("kept")], [])
        assert m.seq == 0

    run(scenario)


def test_append_joins_an_enclosing_transaction(run: Callable) -> None:
    async def scenario(s) -> None:
        with pytest.raises(RuntimeError):
            async with s.uow.transaction():
                await s.messages.append(ALICE, "t1", [user("rolled back")], [index_job(ALICE)])
                raise RuntimeError("crash before commit")
        assert await s.messages.count() == 0
        assert await s.jobs.claim(10, 30) == []
        async with s.uow.transaction():
            await s.messages.append(ALICE, "t1", [user("committed")], [index_job(ALICE)])
        assert await s.messages.count() == 1
        assert len(await s.jobs.claim(10, 30)) == 1

    run(scenario)


def test_recent_returns_the_last_messages_oldest_first(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.messages.append(ALICE, "t1", [user(str(i)) for i in range(5)], [])
        await s.messages.append(ALICE, "t2", [user("other thread")], [])
        assert [m.content for m in await s.messages.recent(ALICE, "t1", 3)] == ["2", "3", "4"]
        assert [m.content for m in await s.messages.recent(ALICE, "t1", 10)] == [
            "0",
            "1",
            "2",
            "3",
            "4",
        ]
        assert await s.messages.recent(ALICE, "t1", 0) == []
        assert await s.messages.recent(ALICE, "missing", 5) == []

    run(scenario)


def test_list_thread_pages_with_after_seq(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.messages.append(ALICE, "t1", [user(str(i)) for i in range(7)], [])
        pages, after = [], -1
        while page := await s.messages.list_thread(ALICE, "t1", after_seq=after, limit=3):
            pages.append([m.seq for m in page])
            after = page[-1].seq
        assert pages == [[0, 1, 2], [3, 4, 5], [6]]
        assert [m.seq for m in await s.messages.list_thread(ALICE, "t1", after_seq=4)] == [5, 6]

    run(scenario)


def test_get_many_ignores_unknown_ids_and_other_scopes(run: Callable) -> None:
    async def scenario(s) -> None:
        mine = await s.messages.append(ALICE, "t1", [user("a"), user("b")], [])
        (bobs,) = await s.messages.append(BOB, "t1", [user("bob's")], [])
        (elsewhere,) = await s.messages.append(ALICE_GLOBEX, "t1", [user("other tenant")], [])
        got = await s.messages.get_many(ALICE, [mine[1].id, "msg_nope", bobs.id, elsewhere.id, mine[0].id])
        assert sorted(m.id for m in got) == sorted(m.id for m in mine)
        assert await s.messages.get_many(ALICE, []) == []

    run(scenario)


def test_tenants_and_users_never_see_each_others_messages(run: Callable) -> None:
    async def scenario(s) -> None:
        scopes = (ALICE, BOB, ALICE_GLOBEX)
        for scope in scopes:
            await s.messages.append(scope, "shared-thread", [user(f"secret of {scope}")], [])
        for scope in scopes:
            mine = f"secret of {scope}"
            assert [m.content for m in await s.messages.recent(scope, "shared-thread", 10)] == [mine]
            listed = await s.messages.list_thread(scope, "shared-thread")
            assert [m.content for m in listed] == [mine]
            assert [m.seq for m in listed] == [0]  # seq counters are per scope too
            assert await s.messages.threads(scope) == ["shared-thread"]
            assert await s.messages.count(scope) == 1
        assert await s.messages.users("acme") == ["alice", "bob"]
        assert await s.messages.users("globex") == ["alice"]
        assert await s.messages.users("nobody") == []

    run(scenario)


def test_threads_lists_a_users_threads(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.messages.append(ALICE, "first", [user("a")], [])
        s.clock.advance(1)
        await s.messages.append(ALICE, "second", [user("b")], [])
        s.clock.advance(1)
        await s.messages.append(ALICE, "first", [user("c")], [])
        assert await s.messages.threads(ALICE) == ["first", "second"]
        assert await s.messages.threads(BOB) == []

    run(scenario)


def test_delete_messages_only_touches_the_callers_scope(run: Callable) -> None:
    async def scenario(s) -> None:
        mine = await s.messages.append(ALICE, "t1", [user("a"), user("b"), user("c")], [])
        (bobs,) = await s.messages.append(BOB, "t1", [user("bob's")], [])
        assert await s.messages.delete_messages(BOB, [mine[0].id]) == 0
        assert await s.messages.delete_messages(ALICE, [mine[0].id, mine[2].id, bobs.id, "msg_nope"]) == 2
        assert [m.content for m in await s.messages.list_thread(ALICE, "t1")] == ["b"]
        assert await s.messages.get_many(BOB, [bobs.id]) == [bobs]
        assert await s.messages.delete_messages(ALICE, []) == 0

    run(scenario)


def test_delete_thread_only_touches_that_thread(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.messages.append(ALICE, "t1", [user("a"), user("b")], [])
        await s.messages.append(ALICE, "t2", [user("c")], [])
        await s.messages.append(BOB, "t1", [user("bob's")], [])
        await s.messages.append(ALICE_GLOBEX, "t1", [user("other tenant")], [])
        assert await s.messages.delete_thread(ALICE, "t1") == 2
        assert await s.messages.list_thread(ALICE, "t1") == []
        assert await s.messages.threads(ALICE) == ["t2"]
        assert await s.messages.count(ALICE) == 1
        assert await s.messages.count(BOB) == 1
        assert await s.messages.count(ALICE_GLOBEX) == 1
        assert await s.messages.delete_thread(ALICE, "t1") == 0

    run(scenario)


def test_delete_user_only_touches_that_user(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.messages.append(ALICE, "t1", [user("a")], [])
        await s.messages.append(ALICE, "t2", [user("b")], [])
        await s.messages.append(BOB, "t1", [user("bob's")], [])
        await s.messages.append(ALICE_GLOBEX, "t1", [user("other tenant")], [])
        assert await s.messages.delete_user(ALICE) == 2
        assert await s.messages.count(ALICE) == 0
        assert await s.messages.threads(ALICE) == []
        assert await s.messages.users("acme") == ["bob"]
        assert await s.messages.count(BOB) == 1
        assert await s.messages.count(ALICE_GLOBEX) == 1
        assert await s.messages.count() == 2

    run(scenario)


def test_iter_all_walks_every_message_with_a_cursor(run: Callable) -> None:
    async def scenario(s) -> None:
        written = []
        written += await s.messages.append(ALICE, "t1", [user("a1"), user("a2")], [])
        written += await s.messages.append(BOB, "t1", [user("b1")], [])
        written += await s.messages.append(ALICE_GLOBEX, "t9", [user("g1"), user("g2")], [])
        seen, cursor = [], 0
        while batch := await s.messages.iter_all(after_rowid=cursor, limit=2):
            assert len(batch) <= 2
            cursors = [c for c, _ in batch]
            assert cursors == sorted(cursors) and cursors[0] > cursor
            seen += [m for _, m in batch]
            cursor = batch[-1][0]
        assert [m.id for m in seen] == [m.id for m in written]  # write order
        assert seen[2].scope == BOB and seen[3].scope.tenant_id == "globex"
        assert await s.messages.iter_all(after_rowid=cursor) == []

    run(scenario)


def test_count_with_and_without_scope(run: Callable) -> None:
    async def scenario(s) -> None:
        assert await s.messages.count() == 0
        assert await s.messages.count(ALICE) == 0
        await s.messages.append(ALICE, "t1", [user("a"), user("b")], [])
        await s.messages.append(BOB, "t1", [user("c")], [])
        assert await s.messages.count(ALICE) == 2
        assert await s.messages.count(BOB) == 1
        assert await s.messages.count() == 3

    run(scenario)


def test_agent_only_scopes_see_their_own_and_shared_messages(run: Callable) -> None:
    async def scenario(s) -> None:
        shared = Scope("acme", "alice")
        sales = Scope("acme", "alice", agent_id="sales")
        support = Scope("acme", "alice", agent_id="support")
        sales_only = Scope("acme", "alice", agent_id="sales", agent_only=True)
        (m_shared,) = await s.messages.append(shared, "t1", [user("shared")], [])
        (m_sales,) = await s.messages.append(sales, "t1", [user("sales")], [])
        (m_support,) = await s.messages.append(support, "t1", [user("support")], [])
        assert m_sales.scope.agent_id == "sales"
        assert [m.seq for m in (m_shared, m_sales, m_support)] == [0, 1, 2]

        assert [m.content for m in await s.messages.recent(sales_only, "t1", 10)] == [
            "shared",
            "sales",
        ]
        assert [m.content for m in await s.messages.list_thread(sales_only, "t1")] == [
            "shared",
            "sales",
        ]
        got = await s.messages.get_many(sales_only, [m_shared.id, m_sales.id, m_support.id])
        assert sorted(m.content for m in got) == ["sales", "shared"]
        assert await s.messages.count(sales_only) == 2
        assert await s.messages.delete_messages(sales_only, [m_support.id]) == 0
        # Without agent_only, an agent's scope sees everything of the user.
        assert len(await s.messages.recent(sales, "t1", 10)) == 3
        assert await s.messages.count(shared) == 3

    run(scenario)


def test_thread_version_changes_with_every_change_of_the_messages(run: Callable) -> None:
    async def scenario(s) -> None:
        log = s.messages
        assert await log.thread_version(ALICE, "t1") == 0  # no such thread
        first = await log.append(ALICE, "t1", [user("a", id="ext-a"), user("b")], [])
        seen = [await log.thread_version(ALICE, "t1")]
        assert seen[0] != 0
        assert await log.thread_version(ALICE, "t1") == seen[0]  # reading changes nothing
        await log.append(ALICE, "t1", [user("a again", id="ext-a")], [])  # a retry writes nothing
        assert await log.thread_version(ALICE, "t1") == seen[0]

        await log.append(ALICE, "t2", [user("elsewhere")], [])
        await log.append(BOB, "t1", [user("bob's")], [])
        assert await log.thread_version(ALICE, "t1") == seen[0]  # other threads and users: no change
        assert await log.thread_version(ALICE_GLOBEX, "t1") == 0

        await log.append(ALICE, "t1", [user("c")], [])
        seen.append(await log.thread_version(ALICE, "t1"))
        assert await log.delete_messages(ALICE, [first[0].id]) == 1
        seen.append(await log.thread_version(ALICE, "t1"))
        await log.delete_messages(ALICE, ["msg_nope"])  # deleting nothing changes nothing
        assert await log.thread_version(ALICE, "t1") == seen[-1]

        # Deleted and written again, the thread never gets back a version it had: a cache built
        # at any earlier version must not match.
        await log.delete_thread(ALICE, "t1")
        assert await log.thread_version(ALICE, "t1") == 0
        await log.append(ALICE, "t1", [user("new life")], [])
        seen.append(await log.thread_version(ALICE, "t1"))
        await log.delete_user(ALICE)
        assert await log.thread_version(ALICE, "t1") == 0
        assert await log.thread_version(ALICE, "t2") == 0
        assert await log.thread_version(BOB, "t1") != 0
        await log.append(ALICE, "t1", [user("and again")], [])
        seen.append(await log.thread_version(ALICE, "t1"))
        assert len(set(seen)) == len(seen) and 0 not in seen

    run(scenario)


def test_thread_version_is_seen_by_another_connection(run: Callable) -> None:
    async def scenario(s) -> None:
        async with s.another_connection() as other:
            await s.messages.append(ALICE, "t1", [user("a")], [])
            before = await other.messages.thread_version(ALICE, "t1")
            assert before == await s.messages.thread_version(ALICE, "t1") != 0
            await other.messages.append(ALICE, "t1", [user("b")], [])
            assert await s.messages.thread_version(ALICE, "t1") not in (0, before)

    run(scenario)
