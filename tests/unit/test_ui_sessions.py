"""The inspector's server-side sessions: expiry, and sign-in pages that cannot sign anyone out."""

from __future__ import annotations

import pytest
from starlette.requests import Request

from hipocampo.domain.errors import QuotaExceeded
from hipocampo.entrypoints.http.ui import sessions
from hipocampo.entrypoints.http.ui.sessions import COOKIE, SessionStore


def request_with(session_id: str) -> Request:
    return Request({"type": "http", "headers": [(b"cookie", f"{COOKIE}={session_id}".encode())]})


class Clock:
    now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_session_ends_when_idle_and_after_its_lifetime() -> None:
    clock = Clock()
    store = SessionStore(clock)
    s = store.sign_in("hk_x_y", None, tenant_id="acme")
    clock.now += sessions.IDLE_SECONDS - 1
    assert store.get(request_with(s.id)) is s  # used: the idle time starts again
    clock.now += sessions.IDLE_SECONDS + 1
    assert store.get(request_with(s.id)) is None
    t = store.sign_in("hk_x_y", None, tenant_id="acme")
    for _ in range(int(sessions.MAX_SECONDS // (sessions.IDLE_SECONDS / 2)) + 1):
        clock.now += sessions.IDLE_SECONDS / 2
        store.get(request_with(t.id))
    assert store.get(request_with(t.id)) is None  # used all along, but past its lifetime


def test_a_flood_of_sign_in_pages_signs_nobody_out(monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(sessions, "MAX_SESSIONS", 5)
    store = SessionStore()
    signed = store.sign_in("hk_x_y", "ana", tenant_id="acme")
    first = store.new()
    for _ in range(50):
        store.new()
    assert store.get(request_with(signed.id)) is signed
    assert store.get(request_with(first.id)) is None  # only unsigned sessions were pushed out
    assert store.get(request_with("forged")) is None
    assert signed.id != first.id and signed.csrf != first.csrf
    assert signed.csrf_ok(signed.csrf) and not signed.csrf_ok(first.csrf) and not signed.csrf_ok(None)


def test_signed_in_sessions_are_bounded_per_tenant() -> None:
    store = SessionStore(per_tenant=2)
    other = store.sign_in("hk_o_o", None, tenant_id="other")
    mine = [store.sign_in("hk_x_y", None, tenant_id="acme") for _ in range(3)]
    assert store.get(request_with(other.id)) is other  # another tenant's sign-ins never push it out
    assert [store.get(request_with(s.id)) for s in mine] == [None, *mine[1:]]
    store.end(mine[1])
    assert store.get(request_with(mine[1].id)) is None and store.get(request_with(mine[2].id)) is mine[2]


def test_failed_sign_ins_are_limited_per_address() -> None:
    clock = Clock()
    failed = sessions.FailedSignIns(clock)
    for _ in range(sessions.FAILED_SIGN_INS):
        failed.check("10.0.0.1")
        failed.record("10.0.0.1")
    with pytest.raises(QuotaExceeded) as refused:
        failed.check("10.0.0.1")
    assert refused.value.retry_after_seconds and refused.value.retry_after_seconds <= sessions.FAILED_WINDOW_SECONDS
    failed.check("10.0.0.2")  # another address is not limited
    clock.now += sessions.FAILED_WINDOW_SECONDS
    failed.check("10.0.0.1")  # a minute later
