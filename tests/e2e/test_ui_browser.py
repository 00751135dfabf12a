"""The web inspector in a real headless Chromium, against a real ``hipocampo serve`` on loopback.

One server and one browser per backend (module-scoped: a browser costs seconds on a small
machine), driven through a few flows that cover much: sign in, browse, the recall playground,
editing a fact and seeing its history, forgetting a thread, another tenant's ids, hostile content,
operations. The store is seeded before the server starts, through the facade, with a short
summarisation threshold so threads have summaries, and a consolidation so the page has some.

Screenshots of the main pages go to ``HIPOCAMPO_TEST_SCREENSHOTS`` (a folder; ``docs/img`` to refresh
the documentation's) or the test's temporary folder. Chromium comes from ``scripts/browser.sh``;
without it these tests skip, unless ``scripts/test.sh`` installed it (``HIPOCAMPO_TEST_BROWSER=required``).
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from serve_process import ServeProcess, serve_process

from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.client import AsyncMemory
from hipocampo.domain.model import Job
from hipocampo.domain.tenancy import KeyRole
from hipocampo.services import tenancy
from hipocampo.testing import deps_of

CHROMIUM = os.environ.get("HIPOCAMPO_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("HIPOCAMPO_CHROMEDRIVER", "/usr/bin/chromedriver")
HOSTILE = [
    "<script>document.title='pwned-script'</script>",
    '"><img src=x onerror="document.title=\'pwned-img\'">',
    "[click me](javascript:document.title='pwned-link') and <a href=\"javascript:alert(1)\">a link</a>",
]
EVIL_USER = '"><svg onload=alert(4)>'
EVIL_THREAD = "t'\"><img src=x onerror=alert(5)>"
BETA_SECRET = "beta-secret-passport-9911"

pytestmark = [pytest.mark.slow, pytest.mark.backends()]


def _browser_or_skip() -> None:
    present = os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)
    wanted = os.environ.get("HIPOCAMPO_TEST_BROWSER", "")
    if wanted == "skip" or (not present and wanted != "required"):
        pytest.skip(f"no headless browser ({CHROMIUM}, {CHROMEDRIVER}): run scripts/browser.sh install")
    assert present, f"scripts/test.sh installed a browser, but {CHROMIUM} or {CHROMEDRIVER} is missing"
    pytest.importorskip("selenium")


@dataclass
class Site:
    server: ServeProcess
    tokens: dict[str, str]
    ids: dict[str, str]

    def url(self, path: str) -> str:
        return self.server.url + path


def ago(days: int, hour: int) -> str:
    """A time ``days`` before today at ``hour``: recent enough for consolidation's look-back."""
    day = datetime.now(timezone.utc).replace(hour=hour, minute=0, second=0, microsecond=0)
    return (day - timedelta(days=days)).isoformat()


async def seed(db: str) -> tuple[dict[str, str], dict[str, str]]:
    """Tenants alpha and beta, both with a user ``ana``; alpha's ana has facts that changed,
    people and pets, a summarised thread; mallory (and a user whose very id is hostile) said
    hostile things; each tenant has a dead job."""
    mem = await AsyncMemory.open(db, embedder=FakeEmbedder(), summarization_threshold=6, summary_keep_recent=2)
    try:
        deps = deps_of(mem)
        tokens: dict[str, str] = {}
        for tenant in ("alpha", "beta"):
            await tenancy.create_tenant(deps, tenant, requests_per_minute=100_000, max_memories=5_000)
            tokens[f"{tenant}-admin"] = (await tenancy.issue_key(deps, tenant, role=KeyRole.ADMIN))[1]
            tokens[tenant] = (await tenancy.issue_key(deps, tenant))[1]
        a = {"tenant_id": "alpha"}
        await mem.add(
            "ana",
            "t-lisbon",
            [
                "Moro em Lisboa desde 2023",
                "I'm allergic to peanuts",
                "My sister Maria lives in Porto",
                "I have a cat called Miau",
                "I work at Acme as a designer",
                "We should plan the trip to Japan in October",
                "I prefer meetings in the morning",
                "Remind me that my passport number is X1234567",
            ],
            at=ago(80, 9),
            **a,
        )
        await mem.add("ana", "t-move", ["I moved to Porto last month", "I now work at Globex"], at=ago(40, 18), **a)
        await mem.add(
            "ana",
            "t-trip",
            ["Booked the flights to Tokyo for the 12th of October", "What about hotels?"],
            at=ago(6, 12),
            **a,
        )
        await mem.add("bob", "t-bob", ["I love hiking in the Alps"], at=ago(60, 10), **a)
        await mem.add("mallory", EVIL_THREAD, HOSTILE, at=ago(20, 10), **a)
        await mem.remember("mallory", HOSTILE[1], memory_type="preference", **a)
        await mem.add(EVIL_USER, "t-evil", [HOSTILE[0]], at=ago(19, 10), **a)
        await mem.add("ana", "t-beta-secret", [f"My passport is {BETA_SECRET}"], tenant_id="beta")
        beta_fact = await mem.remember("ana", f"Passport {BETA_SECRET}", tenant_id="beta")
        await mem.flush(timeout=120)
        await mem.consolidate("ana", tenant_id="alpha")
        await mem.flush(timeout=120)
        ids = {"beta_fact": beta_fact.id, "beta_thread": "t-beta-secret"}
        # A dead job per tenant: enqueued, claimed and failed for good here, so no worker races us.
        mem.stop_worker()
        await deps.jobs.enqueue(
            [
                Job("index_memories", {"memory_ids": []}, "alpha", "ana"),
                Job("index_memories", {"memory_ids": []}, "beta", "ana"),
            ]
        )
        for job in await deps.jobs.claim(10, 60.0):
            await deps.jobs.fail(job.id, f"RuntimeError: {job.tenant_id} boom", retry_at=None)
        return tokens, ids
    finally:
        await mem.close()


@pytest.fixture(scope="module")
def site(module_db: str) -> Iterator[Site]:
    _browser_or_skip()
    tokens, ids = asyncio.run(seed(module_db))
    with pytest.MonkeyPatch.context() as env:
        kept = ("HIPOCAMPO_TEST_", "HIPOCAMPO_REDIS_URL")  # a Postgres store's Redis stays; the developer's settings go
        for name in list(os.environ):
            if name.startswith("HIPOCAMPO_") and not name.startswith(kept):
                env.delenv(name)
        command = [sys.executable, "-m", "hipocampo.entrypoints.cli", "--db", module_db]
        with serve_process(command, env={"HIPOCAMPO_EMBEDDER": "fake"}) as server:
            yield Site(server, tokens, ids)
    output = server.output
    for token in tokens.values():  # keys never reach a URL, the access log or any other output
        assert token not in output and token.split("_")[1] not in output


@pytest.fixture(scope="module")
def browser(site: Site) -> Iterator[object]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--window-size=1280,900",
        "--lang=en-US",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def shots(store_backend: str, tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """Where screenshots go: one backend's are enough."""
    if store_backend != "sqlite":
        return None
    folder = Path(os.environ.get("HIPOCAMPO_TEST_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# -- helpers --------------------------------------------------------------------------------------
def css(driver, selector: str):  # noqa: ANN001, ANN201
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, selector)


def one(driver, selector: str, timeout: float = 10):  # noqa: ANN001, ANN201
    """The first element ``selector`` finds, waiting for it a little (pages load after a click)."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, timeout).until(lambda d: css(d, selector))[0]
    except TimeoutException:
        raise AssertionError(f"no {selector!r} on {driver.current_url}:\n{text(driver)[:2000]}") from None


def submit(driver, target) -> None:  # noqa: ANN001
    """Click a button or link (an element, or a selector) and wait for the page it leads to."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    button = one(driver, target) if isinstance(target, str) else target
    button.click()
    wait = WebDriverWait(driver, 30)

    def left_the_page(_driver) -> bool:  # noqa: ANN001
        # Chromium answers a node of the page being replaced with "stale element" or, mid-navigation,
        # "Node with given id does not belong to the document": both mean the old page is gone.
        try:
            button.is_enabled()
        except WebDriverException:
            return True
        return False

    wait.until(left_the_page)
    wait.until(lambda d: d.execute_script("return document.readyState") == "complete")


def text(driver) -> str:  # noqa: ANN001
    return str(driver.execute_script("return document.body.innerText"))


def sign_in(driver, site: Site, who: str, user: str = "") -> None:  # noqa: ANN001
    driver.delete_all_cookies()
    driver.get(site.url("/ui/login"))
    one(driver, "#key").send_keys(site.tokens[who])
    if user:
        one(driver, "#user_id").send_keys(user)
    submit(driver, "#sign-in")
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 30).until(  # past the redirect, on the landing page
        lambda d: "/ui/login" not in d.current_url and d.execute_script("return document.readyState") == "complete"
    )
    assert site.tokens[who] not in driver.current_url


def no_alert(driver) -> None:  # noqa: ANN001
    from selenium.common.exceptions import NoAlertPresentException

    try:
        alert = driver.switch_to.alert
    except NoAlertPresentException:
        return
    raise AssertionError(f"a script ran: alert {alert.text!r}")


def shoot(driver, shots: Path | None, name: str, width: int = 1280) -> None:  # noqa: ANN001
    """A whole-page screenshot at ``width`` (the window grows to the page's height, at most 2,400)."""
    if shots is None:
        return
    driver.set_window_size(width, 900)
    driver.execute_script("window.scrollTo(0, 0)")
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.set_window_size(width, min(max(height, 600) + 80, 3200))
    driver.save_screenshot(str(shots / f"inspector-{name}.png"))
    driver.set_window_size(1280, 900)


# -- flows ----------------------------------------------------------------------------------------
def test_sign_in_and_browse(site: Site, browser, shots: Path | None) -> None:  # noqa: ANN001
    d = browser
    d.delete_all_cookies()
    d.get(site.url("/ui/"))
    assert d.current_url.endswith("/ui/login")  # signed out: the sign-in page
    shoot(d, shots, "login")
    sign_in(d, site, "alpha-admin")
    cookie = next(c for c in d.get_cookies() if c["name"] == "hipocampo_ui")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/ui"
    assert d.current_url.endswith("/ui/users")
    rows = {r.text.split()[0]: r.text for r in css(d, "#users tbody tr")}
    assert {"ana", "bob", "mallory", EVIL_USER.split()[0]} <= set(rows)
    assert ago(6, 12)[:10] in rows["ana"]  # last activity
    shoot(d, shots, "users")
    submit(d, "#users a[href$='/users/ana']")
    page = text(d)
    assert "The user is allergic to peanuts" in page or "allergic to peanuts" in page
    assert BETA_SECRET not in page
    # Facts that changed: what holds now is plain, what held before is struck through.
    struck = [e.text for e in css(d, "#facts del")]
    assert any("Acme" in s for s in struck), struck
    current = [e.text for e in css(d, "#facts .fact:not(.closed) > .fact-main .fact-text")]
    assert not any("Acme" in c for c in current) and any("Globex" in c for c in current), current
    assert "Miau" in one(d, "#people").text and "Maria" in one(d, "#people").text
    assert css(d, "#threads .summary"), "a summarised thread shows its summary"
    assert css(d, "#over-time svg.chart rect")
    shoot(d, shots, "user")
    shoot(d, shots, "user-phone", width=390)


def test_playground_shows_the_agents_context_and_why(site: Site, browser, shots: Path | None) -> None:  # noqa: ANN001
    d = browser
    sign_in(d, site, "alpha-admin")
    d.get(site.url("/ui/users/ana/recall"))
    one(d, "#query").send_keys("what should I avoid cooking, any allergy?")
    submit(d, "#recall")
    context = one(d, "#context").text
    assert "peanuts" in context
    first = one(d, "#hits .hit")
    labels = [e.text for e in css(first, ".bar-label")]
    assert "dense" in labels and "keyword" in labels and "final" in labels, labels
    assert css(first, "svg.bar rect.b-final")
    shoot(d, shots, "playground")
    source = one(d, "#hits a.source")
    href = source.get_attribute("href")
    submit(d, source)
    assert "/threads/" in d.current_url and "#m-" in href
    fragment = href.split("#", 1)[1]
    assert d.execute_script(
        "return document.querySelector(':target') && document.querySelector(':target').id"
    ) == fragment.replace("%3A", ":")  # the source turn is the page's target


def test_edit_a_fact_and_see_its_history(site: Site, browser, shots: Path | None) -> None:  # noqa: ANN001
    d = browser
    sign_in(d, site, "alpha-admin")
    d.get(site.url("/ui/users/ana"))
    fact = next(a for a in css(d, "#facts .fact-text") if "peanuts" in a.text)
    submit(d, fact)
    box = one(d, "#content")
    box.clear()
    box.send_keys("The user is allergic to peanuts and cashews.")
    submit(d, "#save")
    assert "Saved" in one(d, ".notice").text
    history = one(d, "#history").text
    _, key_id, secret = site.tokens["alpha-admin"].split("_", 2)
    assert "changed" in history.lower() and f"by inspector, key {key_id}" in history  # who, by the key's public id
    assert secret not in d.page_source
    assert [e.text for e in css(d, "#history del")][-1].startswith("The user is allergic to peanuts")
    assert "cashews" in [e.text for e in css(d, "#history ins")][-1]
    shoot(d, shots, "memory")


def test_forget_a_thread(site: Site, browser) -> None:  # noqa: ANN001
    d = browser
    sign_in(d, site, "alpha-admin")
    d.get(site.url("/ui/users/ana/threads/t-trip"))
    assert "Tokyo" in text(d)
    submit(d, "#forget-thread")
    one(d, "#forget").click()  # the box is not ticked: the browser refuses to send the form
    assert d.current_url.endswith("/forget")
    one(d, "#confirm").click()
    submit(d, "#forget")
    assert "Forgot thread" in one(d, ".notice").text
    assert not any("t-trip" in a.text for a in css(d, "#threads a"))
    d.get(site.url("/ui/users/ana/threads/t-trip"))
    assert "Not found" in one(d, "h1").text


def test_another_tenants_ids_are_a_404_page(site: Site, browser) -> None:  # noqa: ANN001
    d = browser
    sign_in(d, site, "alpha-admin")
    for path in (
        f"/ui/users/ana/threads/{site.ids['beta_thread']}",
        f"/ui/users/ana/memories/{site.ids['beta_fact']}",
        "/ui/users/nobody-here",
    ):
        d.get(site.url(path))
        assert "Not found" in one(d, "h1").text, path
        assert BETA_SECRET not in d.page_source
    # A user key shows its one user: the tenant's other users and its operations are not there.
    sign_in(d, site, "alpha", user="bob")
    assert d.current_url.endswith("/ui/users/bob") and "hiking" in text(d)
    d.get(site.url("/ui/users/ana"))
    assert "Not found" in one(d, "h1").text
    d.get(site.url("/ui/operations"))
    assert "Not allowed" in one(d, "h1").text


def test_hostile_content_is_shown_inert(site: Site, browser, shots: Path | None) -> None:  # noqa: ANN001
    d = browser
    sign_in(d, site, "alpha-admin")
    title = None
    for path in ("/ui/users/mallory", "/ui/users", f"/ui/users/{EVIL_USER}"):
        d.get(site.url(path.replace('"', "%22").replace("<", "%3C").replace(">", "%3E").replace(" ", "%20")))
        title = title or d.title
        no_alert(d)
        assert "pwned" not in d.title
        assert not css(d, "main img, main script, [onerror], [onload], main a[href^='javascript']"), path
    d.get(site.url("/ui/users/mallory"))
    page = text(d)
    assert HOSTILE[1] in page  # shown as text, exactly
    submit(d, "#threads .thread-head a")
    no_alert(d)
    page = text(d)
    for payload in HOSTILE:
        assert payload in page
    assert not css(d, "main img, main script, [onerror], main a[href^='javascript']")
    assert "pwned" not in d.title
    shoot(d, shots, "hostile")


def test_operations_and_retrying_dead_jobs(site: Site, browser, shots: Path | None) -> None:  # noqa: ANN001
    d = browser
    sign_in(d, site, "alpha-admin")
    d.get(site.url("/ui/operations"))
    assert one(d, "#dead-count").text == "1"
    dead = one(d, "#dead").text
    assert "alpha boom" in dead and "beta boom" not in dead
    assert "5000" in text(d) or "5,000" in text(d)  # the tenant's memory quota
    shoot(d, shots, "operations")
    submit(d, "#retry-dead")
    assert "1 dead job queued again" in one(d, ".notice").text
