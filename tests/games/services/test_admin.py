"""The admin shows games, seats and moves to staff, read-only, without a running
game's secrets."""

import pytest
from django.urls import reverse

from games.models import Move
from games.services import game_submit_action
from tests.games.factories import people_game, scenario_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def yacht_game(dora, alice, bob):
    game = people_game(
        dora,
        alice,
        bob,
        advanced=["yacht"],
        deck=scenario_deck("yacht lux4", ["yacht"]),
        first_player=0,
    )
    game_submit_action(
        game=game, user=alice, action={"type": "sealed_bid", "card": 15000}, expected_version=0
    )
    return game


def test_staff_see_games_read_only_without_the_secrets(admin_client, yacht_game):
    changelist = admin_client.get(reverse("admin:games_game_changelist"))
    assert changelist.status_code == 200
    page = admin_client.get(reverse("admin:games_game_change", args=[yacht_game.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "hidden until the game is over" in text
    assert "setup_deck" not in text and "lux4" not in text
    assert 'name="_save"' not in text  # nothing to edit
    assert admin_client.get(reverse("admin:games_game_add")).status_code == 403

    moves = admin_client.get(reverse("admin:games_move_changelist"))
    assert moves.status_code == 200
    assert "15000" not in moves.content.decode()  # alice's sealed choice is still secret
    move = Move.objects.get(game=yacht_game)
    assert (
        "15000"
        not in admin_client.get(reverse("admin:games_move_change", args=[move.pk])).content.decode()
    )


def test_people_who_are_not_staff_are_sent_to_the_admin_login(client, alice, yacht_game):
    client.force_login(alice)
    response = client.get(reverse("admin:games_game_changelist"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
