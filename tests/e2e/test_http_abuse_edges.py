"""Smaller abuses of a real server on loopback (SQLite, and Postgres with Redis): inspector
sign-ins that dodge the rate limit or sign other tenants out, a file posted as a fact, a quota
refusal answered two ways, Redis's address on the public readiness probe, the worker's banner
printing the database password, and bodies of the wrong shape answered without saying the
right one.
"""

from __future__ import annotations

import re
import signal
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from live_http import LiveServer, live_server
from serve_process import free_port

from hipocampo.client import AsyncMemory
from hipocampo.domain.tenancy import KeyRole
from hipocampo.services import tenancy
from hipocampo.testing import deps_of

pytestmark = pytest.mark.backends()

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
SESSIONS_PER_TENANT = 3
DEAD_REDIS_PORT = free_port()  # nothing listens there


async def setup(mem: AsyncMemory) -> dict[str, str]:
    tokens = {}
    for tenant, rpm in (("alpha", 100_000), ("beta", 100_000), ("slow", 5)):
        await tenancy.create_tenant(deps_of(mem), tenant, requests_per_minute=rpm)
        tokens[tenant] = (await tenancy.issue_key(deps_of(mem), tenant, role=KeyRole.ADMIN))[1]
    await tenancy.create_tenant(deps_of(mem), "small", requests_per_minute=100_000, max_memories=5)
    tokens["small"] = (await tenancy.issue_key(deps_of(mem), "small"))[1]
    for i in range(4):
        await mem.remember("ana", f"fact number {i}", tenant_id="small")
    tokens["fact"] = (await mem.remember("ana", "Ana is vegan", tenant_id="alpha")).id
    return tokens


@pytest.fixture
def server(db_path: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setenv("HIPOCAMPO_UI_SESSIONS_PER_TENANT", str(SESSIONS_PER_TENANT))
    with live_server(db_path, setup) as live:
        yield live


@pytest.fixture
def server_without_redis(db_path: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    """Redis configured but down (nothing listens on its port): still ready, degraded."""
    monkeypatch.setenv("HIPOCAMPO_REDIS_URL", f"redis://127.0.0.1:{DEAD_REDIS_PORT}/0")
    with live_server(db_path, setup) as live:
        yield live


def sign_in(server: LiveServer, key: str) -> tuple[httpx.Client, httpx.Response]:
    """A browser's sign-in: the form's page (a CSRF token), then the key posted."""
    ui = server.client()
    token = CSRF.search(ui.get("/ui/login").text).group(1)  # type: ignore[union-attr]
    return ui, ui.post("/ui/login", data={"csrf": token, "key": key})


def signed_in(ui: httpx.Client) -> bool:
    r = ui.get("/ui/users")
    assert r.status_code in (200, 303), r.text
    return r.status_code == 200


def test_inspector_sign_ins_count_against_the_tenants_rate_limit(server: LiveServer) -> None:
    answers = [sign_in(server, server.tokens["slow"])[1].status_code for _ in range(8)]
    assert answers[:5] == [303] * 5 and answers[5:] == [429] * 3, answers  # 5 requests a minute


def test_sign_ins_with_unknown_keys_are_limited_per_address(server: LiveServer) -> None:
    answers = [sign_in(server, f"hk_nope_{i}")[1].status_code for i in range(12)]
    assert answers == [401] * 10 + [429] * 2, answers  # 10 failures a minute per address
    # While limited, the address is refused before any key is looked up, right ones included.
    refused = sign_in(server, server.tokens["alpha"])[1]
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1


def test_inspector_sessions_are_bounded_per_tenant(server: LiveServer) -> None:
    alpha, r = sign_in(server, server.tokens["alpha"])
    assert r.status_code == 303
    betas = []
    for _ in range(SESSIONS_PER_TENANT + 1):
        beta, r = sign_in(server, server.tokens["beta"])
        assert r.status_code == 303
        betas.append(beta)
    assert signed_in(alpha)  # another tenant's sign-ins never sign alpha out
    assert [signed_in(b) for b in betas] == [False] + [True] * SESSIONS_PER_TENANT  # beta's oldest went


def test_an_inspector_edit_posted_with_a_file_is_refused(server: LiveServer) -> None:
    ui, r = sign_in(server, server.tokens["alpha"])
    fact = server.tokens["fact"]
    page = ui.get(f"/ui/users/ana/memories/{fact}")
    token = CSRF.search(page.text).group(1)  # type: ignore[union-attr]
    r = ui.post(
        f"/ui/users/ana/memories/{fact}/edit",
        data={"csrf": token},
        files={"content": ("fact.txt", b"Ana eats fish", "text/plain")},
    )
    assert 400 <= r.status_code < 500 and "file" in r.text, r.text
    api = server.client("alpha")
    assert api.get(f"/v1/users/ana/memories/{fact}").json()["content"] == "Ana is vegan"


def test_save_memory_refuses_a_full_quota_with_429_only(server: LiveServer) -> None:
    """Racing saves past the quota: every refusal is the 429 other write routes answer, never a
    200 with ``success: false``; exactly one save fits."""
    c = server.client("small")
    body = {"session": {"user_id": "ana", "thread_id": "t1"}, "arguments": {"memory_type": "preference"}}

    def save(i: int) -> httpx.Response:
        return c.post(
            "/v1/tools/save_memory", json={**body, "arguments": {**body["arguments"], "content": f"likes {i}"}}
        )

    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(save, range(32)))
    saved = [r for r in answers if r.status_code == 200]
    assert all(r.json()["success"] for r in saved), [r.text for r in saved if not r.json()["success"]][:3]
    assert len(saved) == 1, [r.text for r in answers]
    for r in answers:
        if r.status_code != 200:
            assert r.status_code == 429 and r.json()["error"] == "quota_exceeded", r.text


def test_the_public_readiness_probe_names_no_backend_address(server_without_redis: LiveServer) -> None:
    server = server_without_redis
    r = server.client().get("/readyz")
    assert r.status_code == 200, r.text
    assert r.json()["cache"].startswith("degraded") and r.json()["rate_limits"].startswith("degraded")
    assert str(DEAD_REDIS_PORT) not in r.text and "127.0.0.1" not in r.text, r.text
    details = server.client("alpha").get("/readyz")  # an admin key sees why
    assert str(DEAD_REDIS_PORT) in details.text, details.text


def test_tool_and_chat_bodies_of_the_wrong_shape_say_the_expected_one(server: LiveServer) -> None:
    c = server.client("alpha")
    for path, flat in [
        ("/v1/tools/save_memory", {"user_id": "ana", "content": "Ana is vegan", "memory_type": "preference"}),
        ("/v1/tools/get_memory", {"user_id": "ana", "query": "food"}),
        ("/v1/chat", {"user_id": "ana", "message": "hi"}),
    ]:
        r = c.post(path, json=flat)
        assert r.status_code == 422, r.text
        assert '{"session": {"user_id":' in r.json()["detail"], r.text


def test_context_leaves_the_tenants_quotas_out_of_the_prompt_unless_asked(server: LiveServer) -> None:
    c = server.client("alpha")
    body = {"thread_id": "t1", "query": "what does Ana eat?"}
    text = c.post("/v1/users/ana/context", json=body).json()["context"]
    assert "vegan" in text and "quota" not in text and "plan" not in text, text
    text = c.post("/v1/users/ana/context", json={**body, "flags": {"quotas": True}}).json()["context"]
    assert "quotas: max_memories" in text and "vegan" in text, text


@pytest.mark.backends("postgresql")  # a SQLite path has no password to hide
def test_the_worker_banner_masks_the_database_password(cli_command: list[str], db_path: str) -> None:
    password = db_path.split("://", 1)[1].split("@", 1)[0].split(":", 1)[1]
    proc = subprocess.Popen([*cli_command, "worker"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        while "hipocampo worker:" not in (line := proc.stdout.readline()):
            assert line and time.monotonic() < deadline, "the worker printed no banner"
        assert ":***@" in line and f":{password}@" not in line, line
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
