"""A web node told to stop (a deploy, a scale-down) under the ASGI workers the
deployment runs: the requests in flight finish, and the boards' streams, which would
run for minutes, are ended within the workers' short grace, so the node is gone in
seconds and its browsers reconnect to a node that runs (highsociety_site/asgi_worker.py)."""

from __future__ import annotations

import signal
import threading
import time

import pytest
import requests

from highsociety_site.asgi_worker import GRACE_SECONDS
from tests.faults.conftest import PEOPLE
from tests.faults.stack import Stack, missing_binaries, wait_for

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def asgi_stack():
    reason = missing_binaries()
    if reason:
        pytest.skip(f"fault tests need a private PostgreSQL and Redis: {reason}")
    stack = Stack(server_workers=1)
    try:
        stack.migrate()
        stack.users_create(PEOPLE)
        stack.server_start(asgi=True)
        yield stack
    finally:
        stack.close()


def test_a_stopping_node_ends_its_streams_within_its_grace(asgi_stack):
    stack = asgi_stack
    game_id, _apis = stack.table_create([{"open": True}, {"open": True}], PEOPLE)
    browser = stack.browser_login("bob")
    stream = browser.get(f"{stack.base}/games/{game_id}/stream/", stream=True, timeout=30)
    assert stream.status_code == 200, stream.status_code
    chunks = stream.iter_content(chunk_size=None)
    assert "event: hello" in next(chunks).decode()
    ended = threading.Event()

    def read_to_the_end() -> None:
        try:
            for _chunk in chunks:
                pass
        except requests.RequestException:
            pass  # cut rather than closed: the browser reconnects all the same
        ended.set()

    threading.Thread(target=read_to_the_end, daemon=True).start()
    server = stack.procs["server"]
    started = time.monotonic()
    server.send_signal(signal.SIGTERM)
    wait_for(lambda: server.poll() is not None, 25, "gunicorn to stop")
    took = time.monotonic() - started
    assert ended.wait(5), "the stream was left open"
    # Without the short grace the worker waited for the stream (gunicorn killed it
    # after its own 30-second graceful timeout).
    assert took < GRACE_SECONDS + 8, f"the node took {took:.1f} s to stop"
    assert server.returncode == 0, stack.logs("gunicorn")
    stack.procs.pop("server")
