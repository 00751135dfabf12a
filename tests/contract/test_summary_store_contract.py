"""The SummaryStore port contract: one rolling summary per thread, in scope."""

from __future__ import annotations

from collections.abc import Callable

from hipocampo.domain.model import Scope, Summary

ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
ALICE_GLOBEX = Scope("globex", "alice")


def summary(scope: Scope, thread_id: str, content: str, s, *, n: int = 10) -> Summary:
    return Summary(
        scope=scope,
        thread_id=thread_id,
        content=content,
        messages_summarized=n,
        last_message_seq=n - 1,
        token_count=len(content.split()),
        updated_at=s.clock.now(),
    )


def test_put_then_get(run: Callable) -> None:
    async def scenario(s) -> None:
        assert await s.summaries.get(ALICE, "t1") is None
        written = summary(ALICE, "t1", "Alice planeja uma viagem a Lisboa.", s)
        await s.summaries.put(written)
        assert await s.summaries.get(ALICE, "t1") == written
        assert await s.summaries.get(ALICE, "t2") is None

    run(scenario)


def test_put_overwrites_the_threads_summary(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.summaries.put(summary(ALICE, "t1", "first version", s, n=10))
        s.clock.advance(3600)
        newer = summary(ALICE, "t1", "second version, longer", s, n=25)
        await s.summaries.put(newer)
        got = await s.summaries.get(ALICE, "t1")
        assert got == newer
        assert got.updated_at == s.clock.now()

    run(scenario)


def test_users_and_tenants_have_their_own_summaries(run: Callable) -> None:
    async def scenario(s) -> None:
        for scope in (ALICE, BOB, ALICE_GLOBEX):
            await s.summaries.put(summary(scope, "t1", f"summary of {scope.tenant_id}/{scope.user_id}", s))
        for scope in (ALICE, BOB, ALICE_GLOBEX):
            got = await s.summaries.get(scope, "t1")
            assert got is not None and got.content == f"summary of {scope.tenant_id}/{scope.user_id}"
        assert await s.summaries.get(Scope("acme", "carol"), "t1") is None

    run(scenario)


def test_delete_thread_is_limited_to_the_thread_and_the_user(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.summaries.put(summary(ALICE, "t1", "a1", s))
        await s.summaries.put(summary(ALICE, "t2", "a2", s))
        await s.summaries.put(summary(BOB, "t1", "b1", s))
        await s.summaries.delete_thread(ALICE, "t1")
        assert await s.summaries.get(ALICE, "t1") is None
        assert (await s.summaries.get(ALICE, "t2")).content == "a2"
        assert (await s.summaries.get(BOB, "t1")).content == "b1"
        await s.summaries.delete_thread(ALICE, "t1")  # deleting again is fine

    run(scenario)


def test_delete_user_is_limited_to_the_user(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.summaries.put(summary(ALICE, "t1", "a1", s))
        await s.summaries.put(summary(ALICE, "t2", "a2", s))
        await s.summaries.put(summary(BOB, "t1", "b1", s))
        await s.summaries.put(summary(ALICE_GLOBEX, "t1", "g1", s))
        await s.summaries.delete_user(ALICE)
        assert await s.summaries.get(ALICE, "t1") is None
        assert await s.summaries.get(ALICE, "t2") is None
        assert (await s.summaries.get(BOB, "t1")).content == "b1"
        assert (await s.summaries.get(ALICE_GLOBEX, "t1")).content == "g1"

    run(scenario)
