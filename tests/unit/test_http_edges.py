"""Pure rules of the HTTP edge: which hosts are answered, what the access log keeps, the
heavy-request limit, and the cached write probe."""

from __future__ import annotations

import asyncio
import logging

import pytest

from hipocampo.domain.errors import ServerBusy, StorageUnavailable
from hipocampo.entrypoints.http.access_log import DropQueryStrings
from hipocampo.entrypoints.http.heavy import HeavyLimit, SlotStream
from hipocampo.entrypoints.http.hosts import default_allowed_hosts, host_allowed, is_loopback
from hipocampo.services.health import WriteProbe
from hipocampo.settings import Settings

LOOPBACK = ["localhost", "127.0.0.1", "[::1]"]


@pytest.mark.parametrize(
    "host, allowed",
    [
        ("localhost:8765", True),
        ("LOCALHOST", True),
        ("127.0.0.1:1", True),
        ("[::1]:8765", True),
        ("localhost.:8765", True),
        ("evil.example", False),
        ("evil.example:8765", False),
        ("localhost.evil.example", False),
        ("127.0.0.1.nip.io:8765", False),
        ("", False),
    ],
)
def test_loopback_names_any_port(host: str, allowed: bool) -> None:
    assert host_allowed(host, LOOPBACK) is allowed


def test_patterns() -> None:
    assert host_allowed("anything:1", ["*"])
    assert host_allowed("api.example.com", ["*.example.com"])
    assert not host_allowed("example.com.evil", ["*.example.com"])
    assert host_allowed("memory.internal:8765", ["memory.internal:8765"])
    assert not host_allowed("memory.internal:9999", ["memory.internal:8765"])
    assert host_allowed("localhost:3", ["localhost:*"])


def test_defaults_follow_the_bind_address_and_the_auth_mode() -> None:
    assert is_loopback("127.0.0.2") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("10.0.0.5")
    assert default_allowed_hosts("127.0.0.1", auth=False) == LOOPBACK
    assert default_allowed_hosts("127.0.0.1", auth=True) == LOOPBACK
    assert default_allowed_hosts("0.0.0.0", auth=True) == ["*"]
    assert default_allowed_hosts("0.0.0.0", auth=False) == LOOPBACK
    assert default_allowed_hosts("10.0.0.5", auth=False) == [*LOOPBACK, "10.0.0.5"]
    assert default_allowed_hosts("fd00::5", auth=False) == [*LOOPBACK, "[fd00::5]"]


def test_allowed_hosts_setting_is_a_comma_separated_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPOCAMPO_ALLOWED_HOSTS", "localhost, memory.internal:8765 ,[::1]")
    assert Settings().allowed_hosts == ["localhost", "memory.internal:8765", "[::1]"]
    monkeypatch.setenv("HIPOCAMPO_ALLOWED_HOSTS", "")
    assert Settings().allowed_hosts is None


def test_access_log_records_lose_their_query_strings() -> None:
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/api/v1/memory/search?user_id=ana&query=my+secret", "1.1", 200),
        None,
    )
    assert DropQueryStrings().filter(record)
    assert record.getMessage() == '127.0.0.1:5000 - "GET /api/v1/memory/search HTTP/1.1" 200'


def test_heavy_limit_refuses_past_its_limit_and_frees_on_release() -> None:
    limit = HeavyLimit(2)
    first, second = limit.acquire("acme"), limit.acquire("acme")
    with pytest.raises(ServerBusy) as refused:
        limit.acquire("acme")
    assert refused.value.retry_after_seconds and "HIPOCAMPO_MAX_HEAVY_REQUESTS" in str(refused.value)
    first()
    first()  # twice is harmless
    assert limit.running("acme") == 1
    limit.acquire("acme")
    second()


def test_heavy_slots_are_per_tenant_and_deletions_have_their_own() -> None:
    limit = HeavyLimit(1)
    limit.acquire("acme")
    with pytest.raises(ServerBusy):
        limit.acquire("acme")
    release = limit.acquire("other")  # another tenant: its own slots
    erase = limit.acquire("acme", "erase")  # a deletion never waits behind an export
    with pytest.raises(ServerBusy):
        limit.acquire("acme", "erase")
    release()
    erase()
    assert limit.running("other") == 0 and limit.running("acme", "erase") == 0


def test_a_stream_to_a_client_that_stopped_reading_is_cut_and_frees_its_slot() -> None:
    limit = HeavyLimit(1)
    closed: list[str] = []

    async def body():
        try:
            while True:
                yield b"{}\n"
        finally:
            closed.append("body")

    async def main() -> None:
        sent: list[dict] = []
        stalled = asyncio.Event()  # never set: the client's socket buffer is full

        async def send(message: dict) -> None:
            if message["type"] == "http.response.body":
                await stalled.wait()
            sent.append(message)

        async def receive() -> dict:
            await asyncio.Event().wait()
            return {}

        stream = SlotStream(body(), limit.acquire("acme"), 0.05, media_type="application/x-ndjson")
        scope = {"type": "http", "method": "GET", "path": "/v1/users/ana/export", "asgi": {"spec_version": "2.4"}}
        await asyncio.wait_for(stream(scope, receive, send), 5)  # type: ignore[arg-type]
        assert [m["type"] for m in sent] == ["http.response.start"]  # then the first chunk never went out

    asyncio.run(main())
    assert limit.running("acme") == 0 and closed == ["body"]


class FlakyStore:
    def __init__(self) -> None:
        self.broken = False
        self.probes = 0

    async def probe_write(self) -> None:
        self.probes += 1
        if self.broken:
            raise StorageUnavailable("the database file is read-only", 30)


def test_write_probe_is_throttled_cached_and_recovers() -> None:
    now = [0.0]
    probe, store = WriteProbe(interval=5, clock=lambda: now[0]), FlakyStore()

    async def check() -> StorageUnavailable | None:
        return await probe.check(store)  # type: ignore[arg-type]

    assert asyncio.run(check()) is None and store.probes == 1
    assert asyncio.run(check()) is None and store.probes == 1  # cached
    probe.failed(StorageUnavailable("disk full", 30))  # a request just failed: not ready at once
    assert "disk full" in str(asyncio.run(check())) and store.probes == 1
    now[0] = 6
    store.broken = True
    assert "read-only" in str(asyncio.run(check())) and store.probes == 2
    now[0] = 12
    store.broken = False
    assert asyncio.run(check()) is None and store.probes == 3
