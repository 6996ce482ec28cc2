"""Fixtures for browser tests: the live server of pytest-django and a headless Chromium
driven by Playwright.  Every test under tests/browser is marked ``browser``
(``pytest -m "not browser"`` leaves them out).  Screenshots go to test-artifacts/.

Chromium: ``CHROMIUM`` (default /usr/bin/chromium, Debian's package), else Playwright's
own download if there is one; without either the tests are skipped.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the tests still call the ORM
# from it (to set up tables), which Django would otherwise refuse as "async".
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    options = {"args": CHROMIUM_ARGS}
    if shutil.which(executable) or Path(executable).exists():
        options["executable_path"] = executable
    with sync_api.sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(**options)
        except Exception as error:  # no browser on this machine
            pytest.skip(f"Chromium is not available: {error}")
        yield chromium
        chromium.close()


# What htmx logs as errors but is the page working as meant:
# - the board stream's EventSource "error" event, which is how a browser learns that a
#   stream ended and reconnects: every LIVE_STREAM_SECONDS in production, at once under
#   the tests' WSGI live server (no streaming there: those boards poll);
# - a request that hx-sync="this:replace" aborted for a newer one (a preview while the
#   player goes on ticking cards): "htmx:sendAbort" and the "htmx:afterRequest" that
#   comes with it (a request that really failed logs "htmx:sendError" or
#   "htmx:timeout" beside that one).
EXPECTED_BY_DESIGN = ("[object Event]", "htmx:sendAbort, ", "htmx:afterRequest, ")


def refusals_of(context) -> list[str]:
    """What went wrong in ``context``'s pages, as Chromium reports it on the console:
    what the Content-Security-Policy refused (an inline style or script, an eval, a
    foreign source), every other error on the console (htmx's among them: a selector
    that matches nothing, a target that is gone) and every uncaught script error. The
    list fills while the pages run."""
    refused: list[str] = []

    def console(message) -> None:
        csp = "Content Security Policy" in message.text
        if csp or (
            message.type == "error"
            and not any(message.text.startswith(text) for text in EXPECTED_BY_DESIGN)
        ):
            refused.append(f"{message.page.url if message.page else '?'}: {message.text}")

    context.on("console", console)
    context.on("weberror", lambda error: refused.append(f"page error: {error.error}"))
    return refused


@pytest.fixture
def new_page(browser, live_server):
    """``new_page(viewport=DESKTOP, javascript=True, locale=None, touch=False,
    timezone_id=None)``: a page in a fresh context (its own cookies; ``locale`` sets the
    browser's languages; ``touch``: a phone's touch screen; ``timezone_id``: the
    browser's own time zone), closed after the
    test.  The test fails if anything went wrong in those pages (``refusals_of``): a
    refused style or script, or a script error, is a broken page that no assertion on
    its text would notice.  ``new_page.expect(fragment)``: a test that provokes an
    error on purpose (a blocked stream, a browser without a push service) names it."""
    contexts = []
    refusals: list[list[str]] = []
    expected: list[str] = []

    def make(viewport=DESKTOP, javascript=True, locale=None, touch=False, timezone_id=None):
        options = {"locale": locale} if locale else {}
        if timezone_id:
            options["timezone_id"] = timezone_id
        if touch:  # a phone's touch screen: no hover, a coarse pointer
            options.update(has_touch=True, is_mobile=True)
        context = browser.new_context(viewport=viewport, java_script_enabled=javascript, **options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        refusals.append(refusals_of(context))
        return context.new_page()

    make.expect = expected.append
    yield make
    for context in contexts:
        context.close()
    refused = [
        line
        for lines in refusals
        for line in lines
        if not any(fragment in line for fragment in expected)
    ]
    assert refused == [], "the pages reported:\n" + "\n".join(refused)


@pytest.fixture
def log_in(live_server):
    """``log_in(page, user)``: through the real log-in form (password from the factory)."""
    from tests.factories import PASSWORD

    def do(page, user):
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=login]", user.username)
        page.fill("input[name=password]", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        return page

    return do


@pytest.fixture
def screenshot():
    """``screenshot(page, name)``: a full-page PNG in test-artifacts/ (gitignored).

    ``caret="initial"``: Playwright otherwise hides the text caret by giving every input
    an inline style (htmx no longer copies such styles onto the next board it swaps in,
    test_csp.py, but the screenshot should show the page as a person sees it)."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name):
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True, caret="initial")
        return path

    return take


@pytest.fixture
def asgi_server(transactional_db):
    """The site under uvicorn (ASGI) in a thread of this process, on a loopback port the
    system hands out: the boards' streams need an ASGI server (pytest-django's live
    server is WSGI, where the stream answers 204 and the board polls).  ``.url`` is its
    address.

    uvicorn binds the port itself (port 0: bound and listening in one step, so two test
    processes never share one) and owns its socket from start to end.  The test fails if
    the server stopped before the test ended, with what stopped it, or did not stop."""
    import threading
    import time
    from types import SimpleNamespace

    import uvicorn
    from django.core.asgi import get_asgi_application
    from django.db import connection

    # As in production under ASGI: no persistent connections (each sync request has a
    # thread of its own, whose connection would outlive it and hold the test database).
    kept = connection.settings_dict["CONN_MAX_AGE"]
    connection.settings_dict["CONN_MAX_AGE"] = 0

    config = uvicorn.Config(
        get_asgi_application(),
        host="127.0.0.1",
        port=0,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    ended: list[BaseException | None] = []

    def serve():
        try:
            server.run()
        except BaseException as error:  # reported at the end of the test
            ended.append(error)
        else:
            ended.append(None)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and not ended and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, f"uvicorn did not start: {ended!r}"
    port = server.servers[0].sockets[0].getsockname()[1]
    yield SimpleNamespace(url=f"http://127.0.0.1:{port}")
    stopped_early = list(ended)
    server.should_exit = True
    thread.join(10)
    connection.settings_dict["CONN_MAX_AGE"] = kept
    if stopped_early:
        why = repr(stopped_early[0]) if stopped_early[0] else "it returned, asked to or not"
        pytest.fail(f"the ASGI server stopped during the test: {why}")
    assert not thread.is_alive(), "the ASGI server did not stop within 10 s"
