"""What one account may hold at once (settings.TABLE_LIMITS): past a limit the service
says which one and what to do, and creates or changes nothing."""

from __future__ import annotations

import pytest

from games.errors import NotAllowed
from games.models import Game, Seat
from games.services import game_create, game_join
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings):
    settings.TABLE_LIMITS = {
        **settings.TABLE_LIMITS,
        "open": 2,
        "running": 3,
        "bot_only": 1,
        "invitations": 3,
    }
    return settings.TABLE_LIMITS


def test_open_tables_per_account(limits, alice):
    for _ in range(2):
        game_create(creator=alice, players=3, seats=[{"open": True}, {"open": True}])
    with pytest.raises(NotAllowed, match="2 tables waiting for players"):
        game_create(creator=alice, players=3, seats=[{"open": True}, {"open": True}])
    assert Game.objects.filter(created_by=alice).count() == 2
    # A table of bots never waits: it starts at once, and this limit is not its own.
    game = game_create(creator=alice, players=3, seats=[{"ai": "easy"}, {"ai": "easy"}])
    assert game.status == Game.Status.ACTIVE


def test_bot_only_games_per_account(limits, alice, bob):
    game_create(creator=alice, players=3, seats=[{"ai": "hard"}, {"ai": "hard"}])
    # A finished table's rematch is refused alike, so the sentence may not suggest
    # inviting people "to this table" (a finished one cannot take invitations).
    with pytest.raises(NotAllowed, match="against bots only.*or play with people"):
        game_create(creator=alice, players=3, seats=[{"ai": "hard"}, {"ai": "easy"}])
    assert Game.objects.filter(created_by=alice).count() == 1
    # A table with people is not a bot-only game.
    game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"ai": "easy"}])


def test_running_games_per_account_when_creating_and_joining(limits, alice):
    limits["bot_only"] = 10  # to reach the running limit with bot tables
    for _ in range(3):
        game_create(creator=alice, players=3, seats=[{"ai": "easy"}, {"ai": "easy"}])
    with pytest.raises(NotAllowed, match="playing 3 games"):
        game_create(creator=alice, players=3, seats=[{"ai": "easy"}, {"ai": "easy"}])
    host = UserFactory()
    table = game_create(creator=host, players=3, seats=[{"open": True}, {"ai": "easy"}])
    with pytest.raises(NotAllowed, match="playing 3 games"):
        game_join(game=table, user=alice)
    assert not Seat.objects.filter(game=table, user=alice).exists()


def test_pending_invitations_per_account(limits, alice):
    names = [UserFactory().username for _ in range(5)]
    game_create(creator=alice, players=3, seats=[{"user": names[0]}, {"user": names[1]}])
    with pytest.raises(NotAllowed, match="2 invitations waiting"):
        game_create(creator=alice, players=3, seats=[{"user": names[2]}, {"user": names[3]}])
    game_create(creator=alice, players=3, seats=[{"user": names[2]}, {"open": True}])
    assert Game.objects.filter(created_by=alice).count() == 2


def test_the_create_form_shows_the_limit(client, limits, alice):
    client.force_login(alice)
    body = {"players": "3", "your_seat": "1", "seat_2": "open", "seat_3": "open"}
    for _ in range(2):
        game_create(creator=alice, players=3, seats=[{"open": True}, {"open": True}])
    page = client.post("/games/new/", body)
    assert page.status_code == 400 and "tables waiting for players" in page.content.decode()


def test_the_api_answers_a_limit_with_409(limits, alice):
    from tests.games.api.conftest import token_client

    api = token_client(alice)
    for _ in range(2):
        game_create(creator=alice, players=3, seats=[{"open": True}, {"open": True}])
    answer = api.post(
        "/api/v1/games/", {"players": 3, "seats": [{"open": True}, {"open": True}]}, format="json"
    )
    assert answer.status_code == 409 and answer.json()["code"] == "not_allowed"
    assert "tables waiting for players" in answer.json()["detail"]
