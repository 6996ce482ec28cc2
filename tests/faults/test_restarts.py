"""PostgreSQL, Redis and a Celery worker restarted in the middle of play, for real.

The app runs under gunicorn (DEBUG off) and a Celery worker on a private PostgreSQL
cluster and Redis server (``conftest.py``), which these tests stop and start again;
people play through the REST API.  Each test checks that while a service is down the
app answers with a clear message (503 with ``Retry-After``, never a 500), that it
recovers by itself (no restart of the app), that the game then plays to its end, and
that no move was lost or doubled (``stack.game_check``: moves numbered without a gap,
the stored state equal to the replay of the moves, each accepted POST stored once).
"""

from __future__ import annotations

import random
import time

import pytest
import requests

from tests.faults.stack import Ledger, game_check, play, wait_for
from tests.moves import choose

pytestmark = pytest.mark.slow

LEAKS = ("Traceback", "OperationalError", "psycopg", "connection refused", "5432", "site-packages")


def _no_leak(text: str) -> None:
    for leak in LEAKS:
        assert leak.lower() not in text.lower(), leak


def _person_to_act(apis):
    return lambda view: any(seat in apis for seat in view["to_act"])


def _recovered_within(check, timeout: float = 30) -> float:
    started = time.monotonic()
    wait_for(check, timeout, "the app to recover", step=0.05)
    return time.monotonic() - started


def test_postgres_restarted_mid_play(stack):
    game_id, apis = stack.table_create([{"open": True}, {"open": True}], ["alice", "bob", "carol"])
    ledger, rng = Ledger(), random.Random(1)
    server_pid = stack.procs["server"].pid
    play(game_id, apis, ledger, rng, until=lambda v: v["version"] >= 5, logs=stack.logs)

    for mode in ("fast", "immediate"):  # a clean shutdown, then a crash
        view = play(game_id, apis, ledger, rng, until=_person_to_act(apis), logs=stack.logs)
        assert view["status"] == "active"
        seat = next(s for s in view["to_act"] if s in apis)
        mine = apis[seat].game(game_id).json()
        action = choose(mine["legal_actions"], rng, pass_chance=0.65)
        stack.pg.stop(mode)

        # The API: its one error format, 503, Retry-After.
        answer = apis[seat].game(game_id)
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
        assert answer.json() == {
            "detail": "The database is unavailable; try again in a moment.",
            "code": "service_unavailable",
        }
        # A move sent now is refused, says so, and is not stored (below: the same move
        # at the same version is accepted once the database is back).
        refused = apis[seat].move(game_id, action, mine["version"])
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"
        assert refused.json()["code"] == "service_unavailable"
        assert "Nothing was saved" in refused.json()["detail"]
        # The pages: the plain 503 page.
        for path in (f"/games/{game_id}/", "/", f"/games/{game_id}/board/?version=0"):
            page = requests.get(stack.base + path, timeout=10)
            assert page.status_code == 503, (path, page.status_code)
            assert page.headers["Retry-After"] == "5"
            assert "The database is unavailable; try again in a moment." in page.text
            _no_leak(page.text)
        _no_leak(answer.text + refused.text)
        # The health checks name the part that is down.
        ready = requests.get(f"{stack.base}/health/ready/", timeout=10)
        assert ready.status_code == 503 and ready.json()["database"] == "unavailable"
        assert requests.get(f"{stack.base}/health/", timeout=10).status_code == 503

        stack.pg.start()
        seconds = _recovered_within(lambda s=seat: apis[s].game(game_id).status_code == 200)
        assert seconds < 5, f"recovered only after {seconds:.1f} s"
        assert stack.procs["server"].poll() is None and stack.procs["server"].pid == server_pid
        stored = apis[seat].move(game_id, action, mine["version"])
        assert stored.status_code == 201, stored.text
        ledger.accepted.append((mine["version"], action))
        again = apis[seat].move(game_id, action, mine["version"])  # a repeated request
        assert again.status_code == 200, again.text  # answered as made: stored once
        assert requests.get(f"{stack.base}/health/", timeout=10).status_code == 200
        play(game_id, apis, ledger, rng, until=lambda v, at=mine["version"]: v["version"] >= at + 6)

    final = play(game_id, apis, ledger, rng, logs=stack.logs)
    assert final["status"] == "finished" and final["result"]
    figures = game_check(stack.pg.url(), game_id, ledger.accepted)
    assert figures["status"] == "finished" and figures["actors"]["player"] == len(ledger.accepted)
    log = (stack.folder / "gunicorn.log").read_text()
    assert "Internal Server Error" not in log and "Traceback" not in log


def test_redis_restarted_mid_play(stack):
    """Redis is the cache and the broker.  While it is down, people's moves are stored
    (the throttle and the board's "seen" mark do without the cache; the bot's task cannot
    be queued); once it is back, empty, the stalled-bots sweep re-queues the bot's turn
    and the worker, still the same process, plays it."""
    worker = stack.worker_start("w-redis")
    game_id, apis = stack.table_create([{"open": True}, {"ai": "easy"}], ["alice", "bob"])
    ledger, rng = Ledger(), random.Random(2)
    play(game_id, apis, ledger, rng, until=lambda v: v["version"] >= 4, logs=stack.logs)
    browser = stack.browser_login("alice")  # her board polls mark her as seen (the cache)
    bot_turns = 0
    for _round in range(2):
        view = play(game_id, apis, ledger, rng, until=_person_to_act(apis), logs=stack.logs)
        assert view["status"] == "active"
        stack.redis.stop()

        # People move on; each answer comes quickly even though nothing can be queued.
        moved_while_down = 0
        while True:
            seen = apis[min(apis)].game(game_id)
            assert seen.status_code == 200, seen.text
            view = seen.json()
            people = [s for s in view["to_act"] if s in apis]
            if view["status"] != "active" or not people:
                break
            mine = apis[people[0]].game(game_id).json()
            action = choose(mine["legal_actions"], rng, pass_chance=0.65)
            started = time.monotonic()
            answer = apis[people[0]].move(game_id, action, mine["version"])
            assert answer.status_code == 201, answer.text
            assert time.monotonic() - started < 5
            ledger.accepted.append((mine["version"], action))
            moved_while_down += 1
        assert moved_while_down >= 1
        # The pages and the board's poll (which marks the player as seen in the cache).
        for path in (f"/games/{game_id}/", f"/games/{game_id}/board/?version=0", "/"):
            assert requests.get(stack.base + path, timeout=10).status_code == 200, path
            page = browser.get(stack.base + path, timeout=10)
            assert page.status_code == 200 and "alice" in page.text, path
        ready = requests.get(f"{stack.base}/health/ready/", timeout=10)
        assert ready.status_code == 503 and ready.json()["broker"] == "unavailable"
        assert ready.json()["database"] == "ok"
        # Token log-ins are refused cleanly: their limit cannot be counted.
        login = requests.post(
            f"{stack.base}/api/v1/auth/token/",
            json={"username": "alice", "password": "wrong"},
            timeout=10,
        )
        assert login.status_code == 503 and login.json()["code"] == "service_unavailable"
        if view["status"] != "active":
            break
        stuck_at = view["version"]  # a bot is to act, and its task was never queued
        time.sleep(1)
        assert apis[min(apis)].game(game_id).json()["version"] == stuck_at

        stack.redis.start()
        started = time.monotonic()
        assert stack.stalled_sweep() >= 1
        wait_for(
            lambda at=stuck_at: apis[min(apis)].game(game_id).json()["version"] > at,
            30,
            f"the bot to move after Redis came back\n{stack.logs('w-redis')}",
        )
        bot_turns += 1
        assert time.monotonic() - started < 30
        assert worker.poll() is None  # the same worker reconnected by itself

    final = play(game_id, apis, ledger, rng, logs=stack.logs)
    assert final["status"] == "finished"
    figures = game_check(stack.pg.url(), game_id, ledger.accepted)
    assert figures["actors"].get("bot", 0) >= bot_turns
    log = (stack.folder / "gunicorn.log").read_text()
    assert "Internal Server Error" not in log
    stack.worker_kill("w-redis")


def test_a_stalled_redis_holds_up_no_move(stack):
    """Redis stops answering without closing its connections (frozen): a person's move
    is still stored and answered within seconds, the cache and the broker giving up
    after their socket timeouts, and once Redis answers again the bot plays on.  Without
    those timeouts the move's request waited as long as the stall did."""
    stack.worker_start("w-stall")
    game_id, apis = stack.table_create([{"open": True}, {"ai": "easy"}], ["alice", "bob"])
    ledger, rng = Ledger(), random.Random(3)
    view = play(game_id, apis, ledger, rng, until=_person_to_act(apis), logs=stack.logs)
    assert view["status"] == "active"
    person = next(s for s in view["to_act"] if s in apis)
    mine = apis[person].game(game_id).json()
    stack.redis.freeze()
    try:
        started = time.monotonic()
        action = choose(mine["legal_actions"], rng, pass_chance=0.65)
        answer = apis[person].move(game_id, action, mine["version"])
        took = time.monotonic() - started
    finally:
        stack.redis.thaw()
    assert answer.status_code == 201, answer.text
    assert took < 20, took
    ledger.accepted.append((mine["version"], action))
    assert stack.stalled_sweep() >= 0
    final = play(game_id, apis, ledger, rng, logs=stack.logs, timeout=120)
    assert final["status"] == "finished"
    game_check(stack.pg.url(), game_id, ledger.accepted)
    log = (stack.folder / "gunicorn.log").read_text()
    assert "Internal Server Error" not in log
    stack.worker_kill("w-stall")  # the stack is shared: the next test's workers alone


def test_worker_killed_mid_bot_move(stack):
    """A worker is SIGKILLed while a bot thinks; the next worker makes that move,
    once, and the game plays to its end through it."""
    stack.worker_start("w-first")
    game_id, apis = stack.table_create([{"ai": "easy"}, {"ai": "easy"}], ["alice"])
    ledger, rng = Ledger(), random.Random(3)
    play(game_id, apis, ledger, rng, until=lambda v: v["version"] >= 6, logs=stack.logs)
    view = play(game_id, apis, ledger, rng, until=_person_to_act(apis), logs=stack.logs)
    assert view["status"] == "active"
    stack.worker_kill("w-first")  # killed between tasks: nothing was running

    doomed = stack.worker_start("w-doomed", bot_delay=3)
    # Alice passes until her move hands the turn to a bot: a pass that takes a
    # disgrace card leaves her to start the next round (the flake this loop mends).
    for _attempt in range(20):
        view = play(game_id, apis, ledger, rng, until=_person_to_act(apis), logs=stack.logs)
        assert view["status"] == "active"
        lines_before = len(stack.marker.read_text().split())
        mine = apis[0].game(game_id).json()
        action = choose(mine["legal_actions"], rng, pass_chance=1.0)  # a pass when it may
        answer = apis[0].move(game_id, action, mine["version"])
        assert answer.status_code == 201, answer.text
        ledger.accepted.append((mine["version"], action))
        if answer.json()["status"] == "active" and 0 not in answer.json()["to_act"]:
            break
    else:
        pytest.fail("no move of Alice's handed the turn to a bot")
    # 60 s, as for a worker to start: on a machine busy with other test runs, 20 s
    # between the move's answer and the worker taking the bot's task has run out.
    wait_for(lambda: len(stack.marker.read_text().split()) > lines_before, 60,
             f"a bot to start thinking\n{stack.logs('w-doomed')}")  # fmt: skip
    thinking_at = apis[0].game(game_id).json()["version"]
    stack.worker_kill("w-doomed")  # SIGKILL in the middle of the bot's move: no ack sent
    time.sleep(1)
    assert apis[0].game(game_id).json()["version"] == thinking_at  # that move was not made

    stack.worker_start("w-heir", bot_delay=0.01)
    started = time.monotonic()
    wait_for(
        lambda: apis[0].game(game_id).json()["version"] > thinking_at,
        30,
        f"the redelivered bot move\n{stack.logs('w-heir')}",
    )
    redelivered_after = time.monotonic() - started
    final = play(game_id, apis, ledger, rng, logs=stack.logs)
    assert final["status"] == "finished"

    starts = stack.marker.read_text().split()[lines_before:]
    assert starts[0] == str(doomed.pid) and starts.count(str(doomed.pid)) == 1
    assert len(starts) >= 2  # the heir thought about the same move again
    figures = game_check(stack.pg.url(), game_id, ledger.accepted)
    assert figures["actors"]["bot"] >= 4
    assert redelivered_after < 20
    stack.worker_kill("w-heir")
