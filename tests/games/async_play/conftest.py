"""Fixtures for the async-play tests (games.notifications, games.deadlines,
games.tasks: turn e-mails, deadlines, vacations, workers)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import timezone

from accounts.management.commands.vapid_keys import vapid_key_pair
from games.deadlines import deadlines_sweep
from games.engine import seats_to_act
from games.models import Game
from games.services import game_invitation_respond, game_submit_action
from tests.games.async_play import push_service
from tests.games.factories import GameFactory, game_age, scenario_deck


@pytest.fixture
def table(dora, run_commits):
    """Dora (seat 0, to act first) against two medium bots, 1-day deadline; her turn
    e-mail has been sent already and the outbox is empty again."""

    def make(top="lux5 lux3 prestige", *, first=0, deadline=24, seats=None, advanced=()):
        with run_commits():
            game = GameFactory(
                creator=dora,
                seats=seats or [{"ai": "medium"}, {"ai": "medium"}],
                deck=scenario_deck(top, advanced),
                first_player=first,
                move_deadline_hours=deadline,
                advanced=advanced,
            )
        mail.outbox.clear()
        return Game.objects.get(pk=game.pk)

    return make


@pytest.fixture
def age():
    """``age(game, hours)``: the current turn started ``hours`` earlier (its deadline
    too): the test's clock for deadlines, without touching the real one."""

    return game_age


@pytest.fixture
def bobs_table_with(dora, bob, run_commits):
    """``bobs_table_with(deadline=24, first=1)``: ``bobs_table`` with another move
    deadline (hours, or None for none) or another seat to act first."""

    def make(*, deadline=24, first=1):
        with run_commits():
            game = GameFactory(
                creator=dora,
                seats=[{"user": "bob"}, {"ai": "easy"}],
                deck=scenario_deck("lux5 lux4 lux3 lux2 lux1"),
                first_player=first,
                move_deadline_hours=deadline,
            )
            game_invitation_respond(game=game, user=bob, accept=True)
        return game

    return make


@pytest.fixture
def bobs_table(bobs_table_with):
    """Dora's table with Bob (seat 1, to act first, his invitation accepted) and an
    easy bot, a day per move."""
    return bobs_table_with()


@pytest.fixture
def passes_until(run_commits):
    """``passes_until(game, host, position)``: the host (the only other person at the
    table) passes until seat ``position`` is to act.  Returns the game as it is then."""

    def play(game, host, position):
        game.refresh_from_db()
        while seats_to_act(game.engine_state()) != [position]:
            with run_commits():
                game_submit_action(
                    game=game, user=host, action={"type": "pass"}, expected_version=game.version
                )
            game.refresh_from_db()
        return game

    return play


@pytest.fixture
def misses_deadline(passes_until, age, run_commits):
    """``misses_deadline(game, host, position)``: ``passes_until`` that seat is to act;
    then its deadline passes and the sweep's bot moves for it."""

    def miss(game, host, position):
        game = age(passes_until(game, host, position), 25)
        with run_commits():
            assert deadlines_sweep(now=timezone.now()) == 1
        game.refresh_from_db()
        return game

    return miss


@pytest.fixture
def now():
    return timezone.now()


@pytest.fixture
def vapid(settings):
    """The site's Web Push keys, and push services on this machine allowed."""
    public, private = vapid_key_pair()
    settings.WEBPUSH = {
        "public_key": public,
        "private_key": private,
        "subject": "mailto:ops@highsociety.example",
    }
    settings.PUSH_SERVICE_HOSTS = ["localhost:*"]
    return settings.WEBPUSH


@pytest.fixture
def service(tmp_path, monkeypatch, vapid):
    """A push service on this machine (``push_service``), trusted for the test."""
    found, server, cert = push_service.start(tmp_path)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(cert))  # trust the stand-in's certificate
    yield found
    server.shutdown()
    server.server_close()
