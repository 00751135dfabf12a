"""The IdempotencyStore port contract: one answer per tenant and key, insert-if-absent, purge."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone

import pytest

from hipocampo.ports import PENDING_STATUS, StoredResponse

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


def answer(body: object = None, *, at: datetime = T0, status: int = 201, request: str = "h1") -> StoredResponse:
    return StoredResponse(request_hash=request, status_code=status, body=body, created_at=at)


def test_put_then_get_per_tenant(run: Callable) -> None:
    async def scenario(s) -> None:
        assert await s.idempotency.get("acme", "k1") is None
        body = {"messages": [{"id": "m1", "content": "olá"}], "count": 1, "ok": True, "none": None}
        assert await s.idempotency.put("acme", "k1", answer(body)) is True
        got = await s.idempotency.get("acme", "k1")
        assert got == answer(body)
        got.body["count"] = 99  # a read is a copy
        assert (await s.idempotency.get("acme", "k1")).body["count"] == 1
        assert await s.idempotency.get("globex", "k1") is None  # keys are per tenant
        assert await s.idempotency.get("acme", "k2") is None

    run(scenario)


def test_put_keeps_the_first_answer(run: Callable) -> None:
    async def scenario(s) -> None:
        assert await s.idempotency.put("acme", "k1", answer("first")) is True
        assert await s.idempotency.put("acme", "k1", answer("second", request="h2")) is False
        assert (await s.idempotency.get("acme", "k1")).body == "first"

    run(scenario)


def test_put_replaces_only_entries_older_than_replace_before(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.idempotency.put("acme", "k1", answer("old", at=T0))
        later = T0 + timedelta(hours=1)
        assert await s.idempotency.put("acme", "k1", answer("new", at=later), replace_before=T0) is False
        assert (
            await s.idempotency.put(
                "acme", "k1", answer("new", at=later), replace_before=T0 + timedelta(milliseconds=1)
            )
            is True
        )
        assert (await s.idempotency.get("acme", "k1")).body == "new"

    run(scenario)


def test_replace_and_delete(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.idempotency.put("acme", "k1", answer(status=PENDING_STATUS))
        assert (await s.idempotency.get("acme", "k1")).pending
        done = answer([1, 2, 3], at=T0 + timedelta(seconds=5), status=200)
        await s.idempotency.replace("acme", "k1", done)
        got = await s.idempotency.get("acme", "k1")
        assert got == done and not got.pending
        await s.idempotency.replace("acme", "k2", done)  # replacing nothing stores it
        await s.idempotency.delete("acme", "k1")
        await s.idempotency.delete("acme", "nope")
        assert await s.idempotency.get("acme", "k1") is None
        assert await s.idempotency.get("acme", "k2") == done

    run(scenario)


def test_a_body_that_is_not_json_is_refused_before_writing(run: Callable) -> None:
    async def scenario(s) -> None:
        with pytest.raises(TypeError):
            await s.idempotency.put("acme", "k1", answer({"when": object()}))
        assert await s.idempotency.get("acme", "k1") is None

    run(scenario)


def test_purge_deletes_entries_created_before(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.idempotency.put("acme", "old", answer(at=T0))
        await s.idempotency.put("globex", "old", answer(at=T0 + timedelta(minutes=1)))
        await s.idempotency.put("acme", "new", answer(at=T0 + timedelta(days=1)))
        assert await s.idempotency.purge(T0 + timedelta(hours=1)) == 2
        assert await s.idempotency.get("acme", "old") is None
        assert await s.idempotency.get("acme", "new") is not None
        assert await s.idempotency.purge(T0 + timedelta(hours=1)) == 0

    run(scenario)


def test_what_one_connection_stores_another_sees(run: Callable) -> None:
    async def scenario(s) -> None:
        await s.idempotency.put("acme", "k1", answer("first"))
        async with s.another_connection() as other:
            assert await other.idempotency.put("acme", "k1", answer("racer")) is False
            assert (await other.idempotency.get("acme", "k1")).body == "first"

    run(scenario)
