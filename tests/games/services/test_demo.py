"""``manage.py demo`` also sets up a game against two medium bots, once."""

import pytest
from django.core.management import call_command

from games.models import Game
from games.selectors import games_for_user
from games.services import game_resign

pytestmark = pytest.mark.django_db


def test_demo_creates_one_game_against_two_medium_bots(run_commits, capsys):
    with run_commits():
        call_command("demo", "--force")
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE and game.players == 3
    seats = list(game.seats.order_by("position"))
    assert seats[0].user.username == "demo"
    assert [s.ai_level for s in seats[1:]] == ["medium", "medium"]
    # The bots have played their opening turns: the demo player's turn is waiting.
    assert [g.your_turn for g in games_for_user(user=seats[0].user)] == [True]
    assert f"/games/{game.pk}/" in capsys.readouterr().out

    with run_commits():
        call_command("demo", "--force")
    assert Game.objects.get() == game


def test_demo_starts_a_new_game_when_the_last_one_is_over(run_commits):
    with run_commits():
        call_command("demo", "--force")
    first = Game.objects.get()
    with run_commits():
        game_resign(game=first, user=first.created_by)
    with run_commits():
        call_command("demo", "--force")
    assert Game.objects.count() == 2
