"""Fixtures for the async-play tests (games.notifications, games.deadlines,
games.tasks: turn e-mails, deadlines, vacations, workers)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import timezone

from games.models import Game
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
def now():
    return timezone.now()
