"""What one account may hold at once (settings.TABLE_LIMITS): past a limit the service
says which one and what to do, and creates or changes nothing."""

from __future__ import annotations

import pytest

from games.errors import NotAllowed
from games.models import Game, Seat
from games.services import game_create, game_invitation_respond, game_join, game_leave
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
        "joined": 2,
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


def test_seats_at_waiting_tables_count_against_the_running_games(limits, alice):
    """Seats taken at tables that had not started were not counted: an account at the
    limit's worth of waiting tables played past it once they filled."""
    limits["joined"] = 10
    hosts = [UserFactory() for _ in range(4)]
    tables = [
        game_create(creator=host, players=3, seats=[{"open": True}, {"open": True}])
        for host in hosts
    ]
    for table in tables[:3]:
        game_join(game=table, user=alice)
    with pytest.raises(NotAllowed, match="playing 0 games and sit at 3 tables waiting"):
        game_join(game=tables[3], user=alice)
    assert not Seat.objects.filter(game=tables[3], user=alice).exists()
    # An invitation accepted is a seat taken too: it was not checked at all.
    invited = game_create(creator=hosts[0], players=3, seats=[{"user": "alice"}, {"open": True}])
    with pytest.raises(NotAllowed, match="sit at 3 tables waiting"):
        game_invitation_respond(game=invited, user=alice, accept=True)
    assert not Seat.objects.get(game=invited, user=alice).accepted
    # Leaving a waiting table makes room.
    game_leave(game=tables[0], user=alice)
    game_invitation_respond(game=invited, user=alice, accept=True)


def test_open_seats_taken_at_other_players_waiting_tables(limits, alice):
    """One account could take a seat at every table of the lobby, and no host could
    remove it: each waited for a game that would never start."""
    limits["running"] = 10
    hosts = [UserFactory() for _ in range(3)]
    tables = [game_create(creator=host, players=4, seats=[{"open": True}] * 3) for host in hosts]
    game_join(game=tables[0], user=alice)
    game_join(game=tables[1], user=alice)
    with pytest.raises(NotAllowed, match="You sit at 2 tables of other players"):
        game_join(game=tables[2], user=alice)
    assert not Seat.objects.filter(game=tables[2], user=alice).exists()
    # Her own table, and a table she was invited to, are not strangers' open seats.
    game_create(creator=alice, players=3, seats=[{"open": True}, {"open": True}])
    friends = game_create(creator=hosts[2], players=3, seats=[{"user": "alice"}, {"open": True}])
    game_join(game=friends, user=alice)  # accepts her invitation
    # A table that starts no longer waits: room for another.
    for filler in (UserFactory(), UserFactory()):
        game_join(game=tables[0], user=filler)
    assert Game.objects.get(pk=tables[0].pk).status == Game.Status.ACTIVE
    game_join(game=tables[2], user=alice)


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
