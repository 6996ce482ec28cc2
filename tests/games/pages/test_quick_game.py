"""The lobby's "Play now against bots": one click to a running game against bots of
one level, for a newcomer who found no other way than three changes to the create-table
form; bad input and the limits answer in the lobby and create nothing."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages

from games.models import Game

pytestmark = pytest.mark.django_db


def _form(client) -> dict[str, str]:
    html = client.get("/").content.decode()
    form = html.split('class="quick-game"', 1)[1].split("</form>", 1)[0]
    once = re.search(r'name="once" value="([^"]+)"', form).group(1)
    assert 'name="players"' in form and 'name="level"' in form
    return {"once": once}


def test_play_now_starts_a_game_against_bots_at_once(client, alice):
    client.force_login(alice)
    data = {**_form(client), "players": "4", "level": "hard"}
    response = client.post("/games/quick/", data)
    game = Game.objects.get(created_by=alice)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.ACTIVE and game.players == 4
    seats = list(game.seats.order_by("position"))
    assert seats[0].user == alice
    assert [s.ai_level for s in seats[1:]] == ["hard", "hard", "hard"]
    assert game.advanced == [] and game.move_deadline_hours is None and not game.memory_aid
    # The same form sent again (a double click) opens no second table.
    again = client.post("/games/quick/", data)
    assert again["Location"] == f"/games/{game.pk}/"
    assert Game.objects.filter(created_by=alice).count() == 1


def test_a_first_game_shows_everyones_money_unless_unticked(client, alice, bob):
    """A newcomer cast out at the end had no way to see it coming: the board showed no
    one's money.  Before their first finished game, "Play now" ticks the memory aid;
    afterwards it is unticked, and either way the player's choice holds."""
    from accounts.models import PlayerStats

    client.force_login(alice)
    form = client.get("/").content.decode().split('class="quick-game"', 1)[1].split("</form>")[0]
    assert re.search(r'<input type="checkbox" name="memory_aid"[^>]* checked', form)
    assert "Show everyone&#x27;s money" in form
    data = {**_form(client), "players": "3", "level": "easy", "memory_aid": "on"}
    client.post("/games/quick/", data)
    assert Game.objects.get(created_by=alice).memory_aid
    PlayerStats.objects.update_or_create(user=bob, defaults={"games_played": 1})
    client.force_login(bob)
    form = client.get("/").content.decode().split('class="quick-game"', 1)[1].split("</form>")[0]
    assert 'name="memory_aid"' in form and " checked" not in form
    client.post("/games/quick/", {**_form(client), "players": "3", "level": "easy"})
    assert not Game.objects.get(created_by=bob).memory_aid


@pytest.mark.parametrize(
    "data",
    [
        {"players": "2", "level": "easy"},
        {"players": "6", "level": "easy"},
        {"players": "3", "level": "random"},
        {"players": "3", "level": "god"},
        {"players": "3"},
        {},
    ],
)
def test_bad_input_says_so_in_the_lobby_and_creates_nothing(client, alice, data):
    client.force_login(alice)
    response = client.post("/games/quick/", data)
    assert response.status_code == 302 and response["Location"] == "/"
    text = [str(m) for m in get_messages(response.wsgi_request)]
    assert text == ["Choose 3, 4 or 5 players and a bot level to play now."]
    assert not Game.objects.exists()


def test_the_limit_of_bot_only_games_is_said_in_the_lobby(client, alice, settings):
    settings.TABLE_LIMITS = {**settings.TABLE_LIMITS, "bot_only": 1}
    client.force_login(alice)
    client.post("/games/quick/", {"players": "3", "level": "easy"})
    response = client.post("/games/quick/", {"players": "3", "level": "easy"}, follow=True)
    assert "against bots only" in response.content.decode()
    assert Game.objects.filter(created_by=alice).count() == 1


def test_play_now_is_for_players_who_are_logged_in_and_posts_only(client, alice):
    assert 'class="quick-game"' not in client.get("/").content.decode()
    response = client.post("/games/quick/", {"players": "3", "level": "easy"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(alice)
    assert client.get("/games/quick/").status_code == 405
    assert not Game.objects.exists()
