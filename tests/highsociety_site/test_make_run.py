"""`make run`, the README's first command, lets a newcomer play a whole game.

The test runs the Makefile's own recipe (migrate, the demo account, uvicorn) with the
embedded defaults: SQLite, tasks in-process, no broker, no Redis.  Only the SQLite file
is moved into the test's temporary folder, through ``DATABASE_URL`` (the same engine
and options as the default file), so the developer's own ``db.sqlite3`` is never
touched.  Then the demo account plays a whole game against two bots through the API,
one move at a time, and the server's log is checked for errors.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest
import requests

from tests.moves import view_choose as choose
from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # runs the same in either pass: no database of the run is used


@pytest.fixture
def make_run(request, tmp_path):
    """``make run`` on a free port, with nothing configured but the SQLite file (and
    the settings an indirect parameter gives)."""
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "PYTEST_", "CELERY_", "HIGHSOCIETY_TEST"))
        and key not in ("DATABASE_URL", "REDIS_URL", "CACHE_KEY_PREFIX", "EMAIL_URL")
    }
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    env.update(getattr(request, "param", {}))
    log = open(tmp_path / "make-run.log", "w+")  # noqa: SIM115 (closed below)
    server = subprocess.Popen(
        ["make", "--no-print-directory", "run", f"PORT={port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # uvicorn's reloader child goes with the group
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if requests.get(f"{base}/health/", timeout=2).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                pytest.fail(f"make run did not serve:\n{log.read()[-4000:]}")
            time.sleep(0.3)
        yield base, log
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(20)
        log.close()


def test_the_demo_account_plays_a_whole_game_against_two_bots(make_run):
    base, log = make_run
    ready = requests.get(f"{base}/health/ready/", timeout=10)
    assert ready.status_code == 200, ready.text
    assert ready.json() == {
        "status": "ok",
        "database": "ok",
        "moves": "ok",
        "broker": "in-process",
        "worker": "in-process",
    }
    api = requests.Session()
    token = api.post(
        f"{base}/api/v1/auth/token/",
        json={"username": "demo", "password": "demo-password-123", "name": "make run test"},
        timeout=10,
    )
    assert token.status_code == 200, token.text
    api.headers["Authorization"] = f"Token {token.json()['token']}"
    created = api.post(
        f"{base}/api/v1/games/",
        json={"players": 3, "seats": [{"ai": "easy"}, {"ai": "medium"}]},
        timeout=30,
    )
    assert created.status_code == 201, created.text
    url = f"{base}/api/v1/games/{created.json()['id']}/"
    rng = random.Random(3)
    moves = 0
    while True:
        view = api.get(url, timeout=30).json()
        if view["status"] != "active":
            break
        # The bots answered in-process before the move's answer: it is the demo's turn.
        assert view["legal_actions"] is not None, view
        body = {**choose(view, rng), "version": view["version"]}
        answer = api.post(f"{url}moves/", json=body, timeout=60)
        assert answer.status_code == 201, answer.text
        moves += 1
        assert moves < 400, "the game should have ended"
    assert view["status"] == "finished", view
    assert moves >= 5
    log.seek(0)
    output = log.read()
    for bad in ("Traceback", "OperationalError", " 500 ", " 503 "):
        assert bad not in output, output[-4000:]


def test_a_forged_forwarded_for_does_not_dodge_the_log_in_limit(make_run):
    """uvicorn believed X-Forwarded-For from a client on loopback and rewrote the
    client's address before the app saw it: a new forged address per attempt never met
    the ten-per-minute limit on token log-ins.  TRUSTED_PROXY_COUNT (0 here) decides."""
    base, _ = make_run
    statuses = [
        requests.post(
            f"{base}/api/v1/auth/token/",
            json={"username": f"nobody{n}", "password": "wrong"},
            headers={"X-Forwarded-For": f"203.0.113.{n}"},
            timeout=10,
        ).status_code
        for n in range(12)
    ]
    assert statuses[:10] == [400] * 10, statuses
    assert statuses[10:] == [429, 429], statuses


@pytest.mark.parametrize(
    "make_run",
    # The sweeps every second, two seconds of grace: not every minute after a minute.
    [{"SWEEP_IN_PROCESS_SECONDS": "1", "TURN_EMAIL_GRACE_SECONDS": "2"}],
    indirect=True,
)
def test_the_demo_gets_its_turn_email_from_the_web_process_sweeps(make_run):
    """With no beat, no worker and no cron, `make run`'s own process runs the sweeps: the
    demo account, whose game waits for its move and who has not opened the board, gets
    its turn e-mail in the terminal."""
    base, log = make_run
    subject = "Subject: [High Society] Your turn at table 1"
    deadline = time.monotonic() + 60
    while True:
        log.seek(0)
        output = log.read()
        if subject in output or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert subject in output, output[-4000:]
    assert "To: demo@example.com" in output.split(subject, 1)[1][:400]
    time.sleep(3)  # three more sweeps
    log.seek(0)
    output = log.read()
    assert output.count(subject) == 1  # sent once, though the sweeps run every second
    for bad in ("Traceback", "OperationalError", "in-process sweeps failed"):
        assert bad not in output, output[-4000:]
