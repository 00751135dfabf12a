"""The inspector's server-side sessions: expiry, and sign-in pages that cannot sign anyone out."""

from __future__ import annotations

from starlette.requests import Request

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
    s = store.sign_in("hk_x_y", None)
    clock.now += sessions.IDLE_SECONDS - 1
    assert store.get(request_with(s.id)) is s  # used: the idle time starts again
    clock.now += sessions.IDLE_SECONDS + 1
    assert store.get(request_with(s.id)) is None
    t = store.sign_in("hk_x_y", None)
    for _ in range(int(sessions.MAX_SECONDS // (sessions.IDLE_SECONDS / 2)) + 1):
        clock.now += sessions.IDLE_SECONDS / 2
        store.get(request_with(t.id))
    assert store.get(request_with(t.id)) is None  # used all along, but past its lifetime


def test_a_flood_of_sign_in_pages_signs_nobody_out(monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(sessions, "MAX_SESSIONS", 5)
    store = SessionStore()
    signed = store.sign_in("hk_x_y", "ana")
    first = store.new()
    for _ in range(50):
        store.new()
    assert store.get(request_with(signed.id)) is signed
    assert store.get(request_with(first.id)) is None  # only unsigned sessions were pushed out
    assert store.get(request_with("forged")) is None
    assert signed.id != first.id and signed.csrf != first.csrf
    assert signed.csrf_ok(signed.csrf) and not signed.csrf_ok(first.csrf) and not signed.csrf_ok(None)
