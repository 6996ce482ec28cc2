"""Only a lost database connection is a 503 "try again"; any other database error is a
bug: a 500, logged with its traceback.  And /health/ready/ is not "ok" on a database
that cannot store moves.  Run on PostgreSQL and on SQLite (the embedded default)."""

from __future__ import annotations

import logging
import socket

import pytest
from django.db import DatabaseError, connection, connections
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Move
from ops.outages import database_unreachable
from tests.games.factories import people_game

pytestmark = pytest.mark.embedded


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens there once the probe is closed


def _refused_error(tmp_path) -> DatabaseError:
    """The error Django raises for a database that cannot be reached, made for real."""
    settings = {**connection.settings_dict}
    if connection.vendor == "sqlite":
        settings["NAME"] = str(tmp_path / "missing-folder" / "db.sqlite3")
    else:
        settings["PORT"], settings["HOST"] = _closed_port(), "127.0.0.1"
    unreachable = type(connections["default"])(settings, alias="unreachable")
    with pytest.raises(DatabaseError) as raised:
        unreachable.ensure_connection()
    return raised.value


def _bug_error() -> DatabaseError:
    """The error Django raises for a statement the database does not understand."""
    with pytest.raises(DatabaseError) as raised, connection.cursor() as cursor:
        cursor.execute("SELEC 1")
    return raised.value


@pytest.mark.django_db
def test_a_refused_connection_is_an_outage_and_a_syntax_error_is_not(tmp_path):
    assert database_unreachable(_refused_error(tmp_path))
    assert not database_unreachable(_bug_error())


@pytest.fixture
def moving(alice, bob, carol):
    """Alice's turn in a running game of three people, and her logged-in client."""
    game = people_game(alice, bob, carol)
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    return game, client


def _bid(client, game):
    return client.post(
        f"/api/v1/games/{game.pk}/moves/",
        {"type": "bid", "cards": [1000], "version": game.version},
        content_type="application/json",
    )


@pytest.mark.django_db(transaction=True)  # the failed statement must not poison the test's
def test_a_database_bug_in_a_move_is_a_500_with_its_traceback_logged(moving, monkeypatch, caplog):
    game, client = moving

    def broken(**kwargs):
        with connection.cursor() as cursor:
            cursor.execute("SELEC 1")

    monkeypatch.setattr(services, "game_submit_action", broken)
    with caplog.at_level(logging.ERROR):
        answer = _bid(client, game)
    assert answer.status_code == 500
    assert answer.json() == {"detail": "Something went wrong on our side.", "code": "server_error"}
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info]
    assert logged, "the 500 is logged with its traceback"
    assert "SELEC" in "".join(logging.Formatter().formatException(logged[0].exc_info))
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        page = client.post(
            reverse("games:act", args=[game.pk]),
            {"type": "bid", "cards": ["1000"], "version": game.version},
        )
    assert page.status_code == 500
    assert any(r.exc_info for r in caplog.records if r.name == "django.request")
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_a_lost_connection_during_a_move_is_a_503_try_again(moving, monkeypatch, tmp_path):
    game, client = moving
    error = _refused_error(tmp_path)

    def unreachable(**kwargs):
        raise error

    monkeypatch.setattr(services, "game_submit_action", unreachable)
    answer = _bid(client, game)
    assert answer.status_code == 503 and answer["Retry-After"]
    assert answer.json()["code"] == "service_unavailable"
    assert "try again" in answer.json()["detail"]


@pytest.mark.django_db(transaction=True)
def test_readiness_is_not_ok_on_a_database_that_cannot_store_moves(client, caplog):
    assert client.get(reverse("health_ready")).json()["moves"] == "ok"
    # Test-only statements that make this connection read-only, one per engine.
    read_only, writable = {
        "postgresql": (
            "SET default_transaction_read_only = on",
            "SET default_transaction_read_only = off",
        ),
        "sqlite": ("PRAGMA query_only = ON", "PRAGMA query_only = OFF"),
    }[connection.vendor]
    with connection.cursor() as cursor:
        cursor.execute(read_only)
    try:
        answer = client.get(reverse("health_ready"))
    finally:
        with connection.cursor() as cursor:
            cursor.execute(writable)
    assert answer.status_code == 503
    assert answer.json()["database"] == "ok"  # it answers...
    assert answer.json()["moves"] == "unavailable"  # ...but cannot store a move
    assert client.get(reverse("health_ready")).json()["moves"] == "ok"


@pytest.mark.django_db
def test_the_outages_warning_keeps_a_links_key_out(tmp_path, caplog):
    """The "503 for <path>" line wrote an unsubscribe link's token whole."""
    from ops.outages import unavailable_log

    token = "eyJ1IjoxLCJrIjoidHVybiJ9:1xXnV4:AbCdEf0123456789"
    with caplog.at_level(logging.WARNING, logger="ops.outages"):
        unavailable_log(_refused_error(tmp_path), f"/accounts/unsubscribe/{token}/")
    assert "503 for /accounts/unsubscribe/…/" in caplog.text
    assert token not in caplog.text
