"""A player who resigned watches the rest of the game as a visitor does: the bot that
plays their seat makes its own sealed Yacht Club choices, which they must not see
before the reveal (a review found the board and the API showing the bot's card to the
player who had left it, who could still chat to the table)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.tokens.services import token_create
from games.models import Move
from games.services import game_resign
from tests.games.factories import people_game, scenario_deck

pytestmark = pytest.mark.django_db


def test_a_resigned_player_does_not_see_the_bots_sealed_choice(
    client, dora, alice, bob, run_commits
):
    game = people_game(
        dora, alice, bob, deck=scenario_deck("yacht lux5", ("yacht",)), advanced=["yacht"]
    )
    assert game.engine_state().phase == "sealed"
    with run_commits():
        game_resign(game=game, user=bob)  # the bot in his seat chooses at once
    assert Move.objects.filter(game=game, seat=2, action__type="sealed_bid").exists()
    client.force_login(bob)
    board = client.get(f"/games/{game.pk}/").content.decode()
    assert "Your choice is sealed" not in board and "You resigned: a bot plays your seat" in board
    assert "Choose one card in secret" not in board
    _token, secret = token_create(user=bob, name="bob's client")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    view = api.get(f"/api/v1/games/{game.pk}/").json()
    assert view["your_seat"] is None and view["sealed_choice"] is None
    assert view["hand"] is None
    # The others, still playing, see their own choice only.
    client.force_login(alice)
    assert "Choose one card in secret" in client.get(f"/games/{game.pk}/").content.decode()
