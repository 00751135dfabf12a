"""The web inspector's security, over real HTTP (a live server on loopback, a real store): session
cookies, CSRF on every change, the Content-Security-Policy and no inline script or style, keys that
stop working, and tenant isolation on every inspector route, as the API's isolation test does it.

Tenant ``alpha`` holds the victim (user ``ana``: a thread, a fact); tenant ``beta``'s admin and
alpha's user key bound to ``bob`` try every inspector route with ana's ids. Every route of the
inspector must have a case here (a new route fails the coverage test until it gets one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

import httpx
import pytest
from fastapi.routing import APIRoute, iter_route_contexts
from live_http import LiveServer, live_server
from starlette.routing import Mount

from hipocampo.client import AsyncMemory
from hipocampo.domain.tenancy import KeyRole
from hipocampo.entrypoints.http.ui.core import CSP
from hipocampo.services import tenancy
from hipocampo.testing import deps_of

pytestmark = pytest.mark.backends()

SECRET = "SECRET-ana-41c9"


async def setup(mem: AsyncMemory) -> dict[str, str]:
    deps = deps_of(mem)
    tokens = {}
    for tenant in ("alpha", "beta"):
        await tenancy.create_tenant(deps, tenant, requests_per_minute=100_000)
        tokens[tenant] = (await tenancy.issue_key(deps, tenant))[1]
        tokens[f"{tenant}-admin"] = (await tenancy.issue_key(deps, tenant, role=KeyRole.ADMIN))[1]
    await mem.add("ana", "t-ana", [f"My bank pin is {SECRET}"], tenant_id="alpha")
    fact = await mem.remember("ana", f"The user's pin is {SECRET}", tenant_id="alpha")
    await mem.add("bob", "t-bob", ["bob's own words"], tenant_id="alpha")
    await mem.flush()
    tokens["fact"] = fact.id
    return tokens


@pytest.fixture(scope="module")
def server(module_db: str) -> LiveServer:
    with live_server(module_db, setup) as live:
        yield live


CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@dataclass
class Browser:
    """An HTTP client that keeps its cookies and the CSRF token of the last page, like a browser."""

    client: httpx.Client
    csrf: str = ""

    def get(self, path: str) -> httpx.Response:
        r = self.client.get(path)
        if found := CSRF.search(r.text):
            self.csrf = found.group(1)
        return r

    def post(self, path: str, data: dict[str, str] | None = None, csrf: str | None = None) -> httpx.Response:
        return self.client.post(path, data={"csrf": self.csrf if csrf is None else csrf, **(data or {})})

    def sign_in(self, token: str, user: str = "") -> httpx.Response:
        self.get("/ui/login")
        r = self.post("/ui/login", {"key": token, "user_id": user})
        assert r.status_code == 303, r.text
        self.get(r.headers["location"])
        return r


def browser(server: LiveServer, who: str | None = None, user: str = "") -> Browser:
    b = Browser(server.client())
    if who is not None:
        b.sign_in(server.tokens[who], user)
    return b


def ui_routes(server: LiveServer) -> set[tuple[str, str]]:
    (mount,) = [r for r in server.app.routes if isinstance(r, Mount) and r.path == "/ui"]
    return {
        (m, r.path)
        for r in iter_route_contexts(mount.app.routes)  # included routers are not flattened
        if isinstance(r.original_route, APIRoute)
        for m in r.methods or ()
    }


def cases(fact: str) -> dict[tuple[str, str], tuple[str, dict[str, str]]]:
    """Every inspector route with the victim's ids: (url, form)."""
    yes = {"confirm": "yes"}
    return {
        ("GET", "/"): ("/ui/", {}),
        ("GET", "/login"): ("/ui/login", {}),
        ("POST", "/login"): ("/ui/login", {}),
        ("POST", "/logout"): ("/ui/logout", {}),
        ("GET", "/users"): ("/ui/users", {}),
        ("GET", "/users/{user_id}"): ("/ui/users/ana", {}),
        ("GET", "/users/{user_id}/threads/{thread_id}"): ("/ui/users/ana/threads/t-ana", {}),
        ("GET", "/users/{user_id}/memories/{memory_id}"): (f"/ui/users/ana/memories/{fact}", {}),
        ("GET", "/users/{user_id}/recall"): ("/ui/users/ana/recall", {}),
        ("POST", "/users/{user_id}/recall"): ("/ui/users/ana/recall", {"query": "bank pin"}),
        ("POST", "/users/{user_id}/memories/{memory_id}/edit"): (
            f"/ui/users/ana/memories/{fact}/edit",
            {"content": "overwritten"},
        ),
        ("POST", "/users/{user_id}/memories/{memory_id}/delete"): (f"/ui/users/ana/memories/{fact}/delete", yes),
        ("GET", "/users/{user_id}/threads/{thread_id}/forget"): ("/ui/users/ana/threads/t-ana/forget", {}),
        ("POST", "/users/{user_id}/threads/{thread_id}/forget"): ("/ui/users/ana/threads/t-ana/forget", yes),
        ("GET", "/users/{user_id}/forget"): ("/ui/users/ana/forget", {}),
        ("POST", "/users/{user_id}/forget"): ("/ui/users/ana/forget", yes),
        ("GET", "/operations"): ("/ui/operations", {}),
        ("POST", "/operations/retry-dead"): ("/ui/operations/retry-dead", {}),
    }


def assert_victim_intact(server: LiveServer) -> None:
    alpha = server.client("alpha")
    assert alpha.get(f"/v1/users/ana/memories/{server.tokens['fact']}").json()["content"].endswith(SECRET)
    assert alpha.get("/v1/users/ana/threads/t-ana/messages").json()["messages"][0]["content"].endswith(SECRET)


def test_every_inspector_route_has_a_case(server: LiveServer) -> None:
    assert ui_routes(server) == set(cases("m"))


@pytest.mark.parametrize("viewer", ["beta-admin", "bob"])
def test_no_inspector_route_reaches_another_tenant_or_user(server: LiveServer, viewer: str) -> None:
    fact = server.tokens["fact"]
    for (method, template), (url, form) in cases(fact).items():
        if template in ("/login", "/logout"):
            continue
        b = browser(server, "beta-admin") if viewer == "beta-admin" else browser(server, "alpha", user="bob")
        r = b.get(url) if method == "GET" else b.post(url, form)
        assert SECRET not in r.text, (viewer, url)
        if "{user_id}" in template:
            assert r.status_code == 404 and "Not found" in r.text, (viewer, url, r.status_code)
        elif template in ("/users", "/operations", "/operations/retry-dead") and viewer == "bob":
            assert r.status_code == 403, (viewer, url, r.status_code)  # a user key has no tenant pages
        else:
            assert r.status_code in (200, 303), (viewer, url, r.status_code)
    assert_victim_intact(server)


def test_every_change_needs_the_sessions_csrf_token(server: LiveServer) -> None:
    b = browser(server, "alpha-admin")
    posts = {t: c for t, c in cases(server.tokens["fact"]).items() if t[0] == "POST" and t[1] != "/login"}
    for (_, template), (url, form) in posts.items():
        for token in ("", "forged-token", None):
            if token is None:  # no field at all
                r = b.client.post(url, data=form)
            else:
                r = b.post(url, form, csrf=token)
            assert r.status_code == 403 and "security token" in r.text, (template, token, r.status_code)
    assert_victim_intact(server)
    assert b.get("/ui/users/ana").status_code == 200  # still signed in: a refused form ends nothing
    # Signing in needs the token of the sign-in page the browser was given (no login CSRF).
    stranger = browser(server)
    r = stranger.post("/ui/login", {"key": server.tokens["alpha-admin"]}, csrf="guess")
    assert r.status_code == 403 and "hipocampo_ui" not in r.headers.get("set-cookie", "")


def test_session_cookie_and_security_headers(server: LiveServer) -> None:
    b = browser(server)
    r = b.get("/ui/login")
    before = r.headers["set-cookie"]
    for flag in ("HttpOnly", "Path=/ui", "SameSite=strict"):
        assert flag.lower() in before.lower(), before
    assert "secure" not in before.lower()  # plain http on loopback; https requests get Secure
    assert r.headers["content-security-policy"] == CSP
    assert r.headers["x-frame-options"] == "DENY" and r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["cache-control"] == "no-store" and r.headers["referrer-policy"] == "no-referrer"
    token = server.tokens["alpha-admin"]
    r = b.post("/ui/login", {"key": token, "user_id": ""})
    assert r.status_code == 303 and token not in r.headers["location"]
    after = r.headers["set-cookie"]
    assert after.split(";")[0] != before.split(";")[0]  # a new session id at sign-in
    assert token not in after and token.split("_")[1] not in after
    again = b.get("/ui/login")  # signed in already: the sign-in page sends you in, and ends nothing
    assert again.status_code == 303 and b.get("/ui/users").status_code == 200
    css = b.client.get("/ui/static/inspector.css")
    assert css.status_code == 200 and css.headers["content-security-policy"] == CSP


class Inline(HTMLParser):
    """Collects what a strict CSP would block or what would run: inline scripts and styles,
    event handler attributes, javascript: URLs, and anything loaded from another origin."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script":
            self.in_script = True
            if not (names.get("src") or "").startswith("/ui/static/"):
                self.problems.append(f"script {names}")
        if tag == "style":
            self.problems.append("style element")
        for name, value in attrs:
            if name == "style" or name.startswith("on"):
                self.problems.append(f"{tag} {name}={value}")
            if name in ("href", "src", "action") and value and not value.startswith(("/", "#", "data:")):
                self.problems.append(f"{tag} {name}={value}")

    def handle_endtag(self, tag: str) -> None:
        self.in_script = False if tag == "script" else self.in_script

    def handle_data(self, data: str) -> None:
        if self.in_script and data.strip():
            self.problems.append(f"inline script {data[:40]!r}")


def test_pages_carry_no_inline_script_or_style(server: LiveServer) -> None:
    b = browser(server, "alpha-admin")
    fact = server.tokens["fact"]
    pages = [
        "/ui/users",
        "/ui/users/ana",
        "/ui/users/ana/threads/t-ana",
        f"/ui/users/ana/memories/{fact}",
        "/ui/users/ana/recall",
        "/ui/operations",
        "/ui/users/ana/forget",
        "/ui/users/nobody",
        "/ui/no-such-page",
    ]
    for path in pages:
        r = b.get(path)
        parser = Inline()
        parser.feed(r.text)
        assert parser.problems == [], (path, parser.problems)
        assert r.headers["content-security-policy"] == CSP, path
    r = b.post("/ui/users/ana/recall", {"query": "bank pin"})
    parser = Inline()
    parser.feed(r.text)
    assert r.status_code == 200 and parser.problems == []


def test_a_wrong_or_revoked_key_gets_no_session(server: LiveServer) -> None:
    b = browser(server)
    b.get("/ui/login")
    r = b.post("/ui/login", {"key": "hk_nope_nope"})
    assert r.status_code == 401 and "invalid or revoked API key" in r.text
    assert b.get("/ui/users").status_code == 303  # still signed out
    r = b.post("/ui/login", {"key": server.tokens["alpha"]})  # a user key must name its user
    assert r.status_code == 422 and "name the user" in r.text
    # A key revoked after sign-in ends its sessions at the next page.
    key, token = server.call(tenancy.issue_key(deps_of(server.memory), "alpha", role=KeyRole.ADMIN))
    signed = browser(server)
    signed.sign_in(token)
    assert signed.get("/ui/users").status_code == 200
    server.call(tenancy.revoke_key(deps_of(server.memory), key.id))
    r = signed.get("/ui/users")
    assert r.status_code == 303 and r.headers["location"].endswith("/ui/login")


def test_sign_out_ends_the_session(server: LiveServer) -> None:
    b = browser(server, "alpha-admin")
    old_cookie = dict(b.client.cookies)
    assert b.post("/ui/logout").status_code == 303
    replay = browser(server)
    replay.client.cookies.update(old_cookie)  # the old session id, replayed
    assert replay.get("/ui/users").status_code == 303


def test_bad_input_is_a_clear_4xx_page(server: LiveServer) -> None:
    b = browser(server, "alpha-admin")
    assert b.post("/ui/users/ana/recall", {"query": "   "}).status_code == 422
    assert b.post("/ui/users/ana/recall", {"query": "x" * 5000}).status_code == 422
    assert b.post("/ui/users/ana/recall", {"query": "pin", "thread_id": "no-such"}).status_code == 404
    r = b.post(f"/ui/users/ana/memories/{server.tokens['fact']}/edit", {"content": "x", "importance": "lots"})
    assert r.status_code == 422 and "importance" in r.text
    r = b.post(f"/ui/users/ana/memories/{server.tokens['fact']}/delete", {})  # the box not ticked
    assert r.status_code == 422 and "confirm" in r.text
    assert b.get("/ui/users?page=0").status_code == 422
    assert b.get("/ui/users/%E2%80%8B").status_code == 422  # an invisible character as the user id
    assert_victim_intact(server)


def test_curation_deletes_and_forgets_as_the_api_does(server: LiveServer) -> None:
    api = server.client("alpha")
    fact = api.post("/v1/users/carol/memories", json={"content": "Carol likes tea"}).json()["id"]
    api.post("/v1/users/carol/threads/t-carol/messages", json={"messages": [{"content": "hi, I'm Carol"}]})
    server.flush()
    b = browser(server, "alpha-admin")
    r = b.post(f"/ui/users/carol/memories/{fact}/delete", {"confirm": "yes"})
    assert r.status_code == 303 and r.headers["location"].endswith("/ui/users/carol")
    assert "Deleted fact" in b.get("/ui/users/carol").text  # said once, on the next page
    assert "Deleted fact" not in b.get("/ui/users/carol").text
    assert api.get(f"/v1/users/carol/memories/{fact}").status_code == 404
    assert "Forget user" in b.get("/ui/users/carol/forget").text
    r = b.post("/ui/users/carol/forget", {"confirm": "yes"})
    assert r.status_code == 303 and r.headers["location"].endswith("/ui/users")
    assert api.get("/v1/users/carol/threads").json()["threads"] == []
    assert b.get("/ui/users/carol").status_code == 404
    assert_victim_intact(server)


def test_without_keys_the_local_admin_signs_in_with_a_click(tmp_path) -> None:  # noqa: ANN001
    async def nothing(mem: AsyncMemory) -> dict[str, str]:
        await mem.add("ana", "t1", ["hello there"])
        await mem.flush()
        return {}

    with live_server(str(tmp_path / "local.db"), nothing, auth=False) as local:
        b = browser(local)
        page = b.get("/ui/login").text
        assert 'name="key"' not in page and "without keys" in page
        r = b.post("/ui/login", {})
        assert r.status_code == 303 and r.headers["location"].endswith("/ui/users")
        assert "ana" in b.get("/ui/users").text
        assert b.post("/ui/logout", {}, csrf="forged").status_code == 403  # CSRF still guards every change
