"""Fixtures for the async-play tests (turn e-mails, deadlines, vacations, workers).

The directory is called ``async``, a Python keyword: test modules here are imported by
pytest (and the worker's settings by Django) with importlib, which accepts it; nothing
imports them with an import statement, so helpers live here as fixtures.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import timezone

from games.models import Game
from tests.games.factories import GameFactory, StaffUserFactory, game_age, scenario_deck


@pytest.fixture
def dora(db):
    """Staff: she can fix the deck and the first player of her tables."""
    return StaffUserFactory(username="dora", display_name="Dora")


@pytest.fixture
def run_commits(django_capture_on_commit_callbacks):
    """``with run_commits(): ...`` runs what the block queues on commit (bot turns,
    e-mails), as a real commit would; nested commits run too."""

    def runner():
        return django_capture_on_commit_callbacks(execute=True)

    return runner


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
