"""Structured logs (settings.LOGGING, highsociety_site/logcontext.py).

The lines are read from the real handler that ``settings.LOGGING`` installed on the root
logger (its stream pointed at a buffer for the test), so they went through the real
context filter and the real JSON formatter, as in production.
"""

from __future__ import annotations

import io
import json
import logging
import runpy
import subprocess
import sys
from datetime import datetime, timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.utils import timezone

import highsociety_site.settings
from games.deadlines import deadlines_sweep
from games.errors import IllegalMove
from games.models import Game
from games.services import game_submit_action
from games.tasks import bot_move
from ops.logcontext import ContextFilter, log_context, log_context_get
from tests.games.factories import GameFactory, StaffUserFactory, people_game, scenario_deck

pytestmark = pytest.mark.django_db


def _real_handler() -> logging.Handler:
    """The handler settings.LOGGING put on the root logger (the one with the filter)."""
    [handler] = [
        h
        for h in logging.getLogger().handlers
        if any(isinstance(f, ContextFilter) for f in h.filters)
    ]
    return handler


@pytest.fixture
def log_lines():
    """``log_lines()``: the JSON objects the real handler wrote so far in this test."""
    handler = _real_handler()
    buffer = io.StringIO()
    old = handler.setStream(buffer)
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.DEBUG)

    def lines() -> list[dict]:
        return [json.loads(line) for line in buffer.getvalue().splitlines()]

    try:
        yield lines
    finally:
        handler.setStream(old)
        root.setLevel(level)


@pytest.fixture
def dora(db):
    return StaffUserFactory(username="dora", display_name="Dora")


def _move(game: Game, user, **action) -> Game:
    game = Game.objects.get(pk=game.pk)
    return game_submit_action(game=game, user=user, action=action, expected_version=game.version)


def test_a_move_logs_a_json_line_with_its_game_and_move_number(
    dora, bob, carol, log_lines, django_capture_on_commit_callbacks
):
    game = people_game(dora, bob, carol, deck=scenario_deck("lux5 lux3"), first_player=0)
    with django_capture_on_commit_callbacks(execute=True):
        _move(game, dora, type="bid", cards=[1000])
    assert log_context_get() == {}  # after the service, nothing is bound any more
    with django_capture_on_commit_callbacks(execute=True):
        _move(game, bob, type="pass")

    lines = log_lines()
    stored = [line for line in lines if line["message"].startswith("move ")]
    assert [(s["game_id"], s["move_number"], s["seat"], s["kind"]) for s in stored] == [
        (game.pk, 0, 0, "bid"),
        (game.pk, 1, 1, "pass"),
    ]
    first = stored[0]
    assert first["level"] == "INFO" and first["logger"] == "games.services"
    assert first["actor"] == "player" and first["message"] == "move 0 stored: seat 0, bid (player)"
    assert datetime.fromisoformat(first["time"]).utcoffset() == timedelta(0)
    assert list(first)[:4] == ["time", "level", "logger", "message"]
    # The kind only: never the cards of a bid (nor, for a seal, its card).
    assert "1000" not in json.dumps(first) and "1,000" not in json.dumps(first)
    assert log_context_get() == {}


def test_a_probe_inside_the_service_carries_the_context(dora, bob, carol, log_lines):
    game = people_game(dora, bob, carol, deck=scenario_deck("lux5 lux3"), first_player=0)

    # Any logger writing while the service runs gets the game and the move number: here
    # one line per database query the move makes, from inside its transaction.
    def probe(execute, sql, params, many, context):
        logging.getLogger("tests.probe").warning("query")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(probe):
        _move(game, dora, type="bid", cards=[2000])
    lines = [line for line in log_lines() if line["logger"] == "tests.probe"]
    # The first query (the test reading the game) is outside the service.
    assert "game_id" not in lines[0]
    inside = lines[1:]
    assert inside and all(
        (line["game_id"], line["move_number"], line["level"]) == (game.pk, 0, "WARNING")
        for line in inside
    )


def test_a_refused_move_leaves_no_context_behind(dora, bob, carol, log_lines):
    game = people_game(dora, bob, carol, deck=scenario_deck("lux5 lux3"), first_player=0)
    with pytest.raises(IllegalMove):
        _move(game, dora, type="bid", cards=[777])
    assert log_context_get() == {}
    logging.getLogger("tests.probe").info("after")
    [after] = [line for line in log_lines() if line["message"] == "after"]
    assert "game_id" not in after and "move_number" not in after


def test_bot_tasks_and_game_start_and_end_are_logged_with_their_game(
    dora, log_lines, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = GameFactory(
            creator=dora,
            seats=[{"ai": "random"}, {"ai": "random"}],
            first_player=1,
            deck=scenario_deck("lux5 lux3"),
        )
    assert log_context_get() == {}
    lines = log_lines()
    started = [line for line in lines if line["message"] == f"game {game.pk} started: 3 players"]
    assert len(started) == 1 and started[0]["game_id"] == game.pk
    bots = [line for line in lines if line["message"].startswith("bot moved")]
    assert bots, "the bots of seats 1 and 2 moved before Dora's turn"
    for line in bots:
        assert line["task"] == "bot_move" and line["game_id"] == game.pk
        assert isinstance(line["move_number"], int) and line["level"] == "INFO"
    # Each task's context ends with it: a later task of another game carries its own.
    other = GameFactory(creator=dora, seats=[{"ai": "random"}, {"ai": "random"}])
    bot_move.delay(other.pk, other.version + 99)  # stale: does nothing, logs nothing
    assert log_context_get() == {}

    # Play Dora's moves (passing) to the end: the end is logged once.
    game = Game.objects.get(pk=game.pk)
    while game.status == Game.Status.ACTIVE:
        state = game.engine_state()
        if state.phase == "theft":
            from games.engine import legal_actions

            action = next(a for a in legal_actions(state) if a["seat"] == 0)
        else:
            action = {"type": "pass"}
        with django_capture_on_commit_callbacks(execute=True):
            game = game_submit_action(
                game=game, user=dora, action=action, expected_version=game.version
            )
        game = Game.objects.get(pk=game.pk)
    finished = [line for line in log_lines() if "finished after" in line["message"]]
    assert len(finished) == 1 and finished[0]["game_id"] == game.pk
    assert finished[0]["winners"] == [r["seat"] for r in game.result["players"] if r["winner"]]


def test_requests_get_their_own_request_id_and_leave_nothing_behind(client, log_lines):
    client.get("/games/999999/")  # django.request logs the 404 as a warning
    client.get("/games/999998/", HTTP_X_REQUEST_ID="edge-42.a")
    client.get("/games/999997/", HTTP_X_REQUEST_ID="bad id\nforged")
    assert log_context_get() == {}
    found = [line for line in log_lines() if line["logger"] == "django.request"]
    assert [line["message"] for line in found] == [
        "Not Found: /games/999999/",
        "Not Found: /games/999998/",
        "Not Found: /games/999997/",
    ]
    first, given, replaced = (line["request_id"] for line in found)
    assert given == "edge-42.a"  # the proxy's id, so its logs and ours can be matched
    assert len({first, given, replaced}) == 3 and "\n" not in replaced and " " not in replaced
    # A request inside a bound block (a test, a task rendering a page) gets its own
    # request id, and the block's fields come back afterwards.
    with log_context(game_id=5):
        client.get("/games/999996/")
        assert log_context_get() == {"game_id": 5}
    assert log_context_get() == {}


def _asgi_get(path: str, request_id: bytes | None = None) -> int:
    """One GET through the site's ASGI application, as uvicorn serves it: its status."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.testing import ApplicationCommunicator
    from django.core.handlers.asgi import ASGIHandler

    from ops.logcontext import asgi_request_ids

    # What highsociety_site/asgi.py serves (importing it here would set Django up again,
    # and with it the log handlers this test reads).
    application = asgi_request_ids(ASGIHandler())

    headers = [(b"host", b"testserver")]
    if request_id is not None:
        headers.append((b"x-request-id", request_id))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 4000),
        "server": ("testserver", 80),
    }

    async def get() -> int:
        talk = ApplicationCommunicator(application, scope)
        await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await talk.receive_output(10)
        while (await talk.receive_output(10)).get("more_body"):
            pass
        return start["status"]

    # In a thread of its own, with an event loop of its own: a browser test that ran
    # before in this process may have left one running in this thread, where asgiref
    # refuses to start another.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, get()).result()


@pytest.mark.django_db(transaction=True)
def test_under_asgi_each_request_has_its_request_id(log_lines):
    """Served by uvicorn (ASGI), Django sends request_started to its receivers in tasks
    of their own, where an id bound is lost: the ASGI application binds it instead."""
    assert _asgi_get("/no-such-page/", b"edge-asgi.7") == 404
    assert _asgi_get("/no-such-page-either/") == 404
    found = [line for line in log_lines() if line["logger"] == "django.request"]
    assert [line["message"] for line in found] == [
        "Not Found: /no-such-page/",
        "Not Found: /no-such-page-either/",
    ]
    assert found[0]["request_id"] == "edge-asgi.7"
    assert len(found[1]["request_id"]) == 16 and found[1]["request_id"] != "edge-asgi.7"
    assert log_context_get() == {}


def test_the_deadline_move_and_the_email_are_logged(
    dora, log_lines, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = GameFactory(
            creator=dora,
            seats=[{"ai": "medium"}, {"ai": "medium"}],
            deck=scenario_deck("lux5 lux3"),
            first_player=0,
            move_deadline_hours=24,
        )
    game.refresh_from_db()
    past = timedelta(hours=25)
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=game.turn_started_at - past, deadline_at=game.deadline_at - past
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert deadlines_sweep(now=timezone.now()) == 1
    lines = log_lines()
    [deadline] = [line for line in lines if "deadline passed" in line["message"]]
    assert (deadline["game_id"], deadline["move_number"], deadline["seat"]) == (game.pk, 0, 0)
    sent = [line for line in lines if line["message"].startswith("e-mail sent")]
    assert {line["email_kind"] for line in sent} >= {"turn", "deadline"}
    for line in sent:
        assert line["user_id"] == dora.pk and line["game_id"] == game.pk
    everything = "\n".join(json.dumps(line) for line in lines)
    assert "dora@example.com" not in everything  # who, never the address
    assert all(message.body not in everything for message in mail.outbox)


def _settings_with(monkeypatch, **environ):
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(highsociety_site.settings.__file__)


def test_log_format_is_json_text_or_refused(monkeypatch):
    monkeypatch.delenv("LOG_FORMAT", raising=False)
    assert _settings_with(monkeypatch)["LOGGING"]["handlers"]["stdout"]["formatter"] == "json"
    text = _settings_with(monkeypatch, LOG_FORMAT="Text")
    assert text["LOGGING"]["handlers"]["stdout"]["formatter"] == "text"
    with pytest.raises(ImproperlyConfigured, match="LOG_FORMAT='xml'"):
        _settings_with(monkeypatch, LOG_FORMAT="xml")


def test_the_text_format_shows_the_context_as_key_value(tmp_path):
    code = (
        "import django, logging; django.setup()\n"
        "from ops.logcontext import log_context\n"
        "with log_context(game_id=7, move_number=3):\n"
        "    logging.getLogger('games.services').info('move 3 stored')\n"
        "logging.getLogger('games.services').info('no game')\n"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "highsociety_site.settings",
        "LOG_FORMAT": "text",
        "DEBUG": "1",  # a developer's machine, as make run (it needs no SECRET_KEY then)
        "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}",
    }
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.splitlines()
    assert first.endswith("INFO games.services move 3 stored [game_id=7 move_number=3]")
    assert second.endswith("INFO games.services no game")


def test_a_version_in_odd_digits_is_refused_not_a_crash(dora, bob, carol):
    """'²' is a digit to str.isdigit() but not a number to int(): the service refuses it
    with its own sentence, and the log context simply leaves the move number out."""
    from games.errors import GameError

    game = people_game(dora, bob, carol, deck=scenario_deck("lux5 lux3"), first_player=0)
    with pytest.raises(GameError, match="whole number"):
        game_submit_action(game=game, user=dora, action={"type": "pass"}, expected_version="²")
