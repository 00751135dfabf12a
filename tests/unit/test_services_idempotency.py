"""services.idempotency over the in-memory adapters: replay, conflicts, reservations, expiry."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from typing import Any

import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.domain.errors import Conflict, InvalidInput
from hipocampo.domain.model import NewMessage, Role, Scope
from hipocampo.ports import PENDING_STATUS, StoredResponse
from hipocampo.services.deps import Deps
from hipocampo.services.idempotency import KEEP, PENDING_LEASE, request_hash, run_once
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
H1 = request_hash("POST", "/v1/users/ana/messages", b'{"content": "oi"}')
H2 = request_hash("POST", "/v1/users/ana/messages", b'{"content": "tchau"}')


def run(scenario: Callable[[Deps], Awaitable[None]]) -> None:
    deps = build_memory_deps(Settings(embedder="fake", tokenizer="chars"), clock=FakeClock(T0))
    asyncio.run(scenario(deps))


class Work:
    """A request handler that counts its runs and answers what it is told."""

    def __init__(self, status: int = 201, body: Any = None) -> None:
        self.calls = 0
        self.status = status
        self.body = {"ok": True} if body is None else body

    async def __call__(self) -> tuple[int, Any]:
        self.calls += 1
        return self.status, {**self.body, "run": self.calls}


def test_request_hash_tells_requests_apart() -> None:
    assert request_hash("post", "/a", b"x") == request_hash("POST", "/a", b"x")
    assert (
        len(
            {
                request_hash("POST", "/a", b"x"),
                request_hash("PUT", "/a", b"x"),
                request_hash("POST", "/ab", b""),
                request_hash("POST", "/a", b"y"),
            }
        )
        == 4
    )
    assert request_hash("POST", "/a", b"bc") != request_hash("POST", "/ab", b"c")


def test_a_retry_replays_the_first_answer_without_running_again() -> None:
    async def scenario(deps: Deps) -> None:
        work = Work()
        assert await run_once(deps, "acme", "k1", H1, work) == (201, {"ok": True, "run": 1}, False)
        assert await run_once(deps, "acme", "k1", H1, work) == (201, {"ok": True, "run": 1}, True)
        assert work.calls == 1
        # another tenant's key of the same name is another key
        assert await run_once(deps, "globex", "k1", H1, work) == (201, {"ok": True, "run": 2}, False)

    run(scenario)


def test_a_key_reused_with_another_request_is_a_conflict() -> None:
    async def scenario(deps: Deps) -> None:
        work = Work()
        await run_once(deps, "acme", "k1", H1, work)
        with pytest.raises(Conflict, match="different request"):
            await run_once(deps, "acme", "k1", H2, work)
        assert work.calls == 1

    run(scenario)


def test_failures_are_not_stored_so_a_retry_runs_again() -> None:
    async def scenario(deps: Deps) -> None:
        refused = Work(status=422)
        assert await run_once(deps, "acme", "k1", H1, refused) == (422, {"ok": True, "run": 1}, False)
        assert await run_once(deps, "acme", "k1", H1, refused) == (422, {"ok": True, "run": 2}, False)

        async def crash() -> tuple[int, Any]:
            raise RuntimeError("boom")

        with pytest.raises(RuntimeError):
            await run_once(deps, "acme", "k2", H1, crash)
        assert await deps.idempotency.get("acme", "k2") is None
        assert (await run_once(deps, "acme", "k2", H1, Work()))[2] is False

    run(scenario)


def test_a_retry_while_the_first_write_runs_waits_for_it_and_replays_its_answer() -> None:
    async def scenario(deps: Deps) -> None:
        started, release = asyncio.Event(), asyncio.Event()

        async def slow() -> tuple[int, Any]:
            started.set()
            await release.wait()
            return 200, {"slow": True}

        first = asyncio.create_task(run_once(deps, "acme", "k1", H1, slow))
        await started.wait()
        work = Work()
        retry = asyncio.create_task(run_once(deps, "acme", "k1", H1, work))
        await asyncio.sleep(0.05)
        assert not retry.done()  # held behind the first request's transaction
        release.set()
        assert await first == (200, {"slow": True}, False)
        assert await retry == (200, {"slow": True}, True)
        assert work.calls == 0

    run(scenario)


def test_a_retry_while_non_atomic_work_runs_is_refused() -> None:
    async def scenario(deps: Deps) -> None:
        started, release = asyncio.Event(), asyncio.Event()

        async def slow() -> tuple[int, Any]:
            started.set()
            await release.wait()
            return 200, {"slow": True}

        first = asyncio.create_task(run_once(deps, "acme", "k1", H1, slow, atomic=False))
        await started.wait()
        with pytest.raises(Conflict, match="still being processed"):
            await run_once(deps, "acme", "k1", H1, Work(), atomic=False)
        release.set()
        assert await first == (200, {"slow": True}, False)
        assert await run_once(deps, "acme", "k1", H1, Work()) == (200, {"slow": True}, True)

    run(scenario)


def test_a_failed_write_leaves_neither_its_rows_nor_the_key() -> None:
    async def scenario(deps: Deps) -> None:
        scope = Scope("acme", "alice")

        async def crashes_after_writing() -> tuple[int, Any]:
            await deps.log.append(scope, "t1", [NewMessage(role=Role.USER, content="hello")], [])
            raise RuntimeError("the process died here")

        with pytest.raises(RuntimeError):
            await run_once(deps, "acme", "k1", H1, crashes_after_writing)
        assert await deps.log.count(scope) == 0  # the write rolled back with the key
        assert await deps.idempotency.get("acme", "k1") is None
        work = Work()
        assert (await run_once(deps, "acme", "k1", H1, work))[2] is False
        assert work.calls == 1

    run(scenario)


def test_the_reservation_of_a_request_that_died_expires() -> None:
    async def scenario(deps: Deps) -> None:
        await deps.idempotency.put("acme", "k1", StoredResponse(H1, PENDING_STATUS, None, T0))
        work = Work()
        with pytest.raises(Conflict, match="still being processed"):
            await run_once(deps, "acme", "k1", H1, work)
        deps.clock.advance(PENDING_LEASE.total_seconds() + 1)  # type: ignore[attr-defined]
        assert (await run_once(deps, "acme", "k1", H1, work))[2] is False
        assert work.calls == 1
        assert (await run_once(deps, "acme", "k1", H1, work))[2] is True

    run(scenario)


def test_answers_expire_after_a_day_and_are_purged() -> None:
    async def scenario(deps: Deps) -> None:
        work = Work()
        await run_once(deps, "acme", "old", H1, work)
        deps.clock.advance(KEEP.total_seconds() + 60)  # type: ignore[attr-defined]
        # an expired answer is ignored: the key runs again, even with another body
        assert await run_once(deps, "acme", "old", H2, work) == (201, {"ok": True, "run": 2}, False)
        assert await run_once(deps, "acme", "old", H2, work) == (201, {"ok": True, "run": 2}, True)
        await run_once(deps, "acme", "k3", H1, work)
        deps.clock.advance(KEEP.total_seconds() + 3600)  # type: ignore[attr-defined]
        await run_once(deps, "acme", "fresh", H1, work)
        assert await deps.idempotency.get("acme", "k3") is None  # purged on the way
        assert await deps.idempotency.get("acme", "fresh") is not None

    run(scenario)


@pytest.mark.parametrize("key", ["", "x" * 201, "tab\there", "new\nline", 42])
def test_keys_must_be_short_printable_text(key: Any) -> None:
    async def scenario(deps: Deps) -> None:
        with pytest.raises(InvalidInput, match="idempotency key"):
            await run_once(deps, "acme", key, H1, Work())

    run(scenario)


def test_a_stored_answer_is_a_copy() -> None:
    async def scenario(deps: Deps) -> None:
        body: dict[str, Any] = {"items": [1]}

        async def work() -> tuple[int, Any]:
            return 200, body

        await run_once(deps, "acme", "k1", H1, work)
        body["items"].append(2)
        _, replayed, _ = await run_once(deps, "acme", "k1", H1, work)
        assert replayed == {"items": [1]}

    run(scenario)


def test_keys_are_compared_as_given() -> None:
    async def scenario(deps: Deps) -> None:
        work = Work()
        await run_once(deps, "acme", "Key 1", H1, work)
        assert (await run_once(deps, "acme", "key 1", H1, work))[2] is False
        assert (await run_once(deps, "acme", "Key 1", H1, work))[2] is True
        assert work.calls == 2

    run(scenario)
