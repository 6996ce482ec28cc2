"""Invitations a player did not ask for: decline them all at once, and block a sender
whose invitations are unwanted."""

from __future__ import annotations

import pytest

from games.errors import GameError
from games.models import Game, Seat
from games.services import game_create, game_invitation_respond, invitations_decline_all
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _invite(creator, *guests):
    return game_create(
        creator=creator,
        players=3,
        seats=[{"user": g.username} for g in guests][:2] + [{"open": True}] * (2 - len(guests)),
    )


def test_decline_all_opens_every_seat_one_was_invited_to(alice, bob):
    tables = [_invite(UserFactory(), alice) for _ in range(3)]
    mine = _invite(bob, alice)
    game_invitation_respond(game=mine, user=alice, accept=True)  # accepted: stays
    assert invitations_decline_all(user=alice) == 3
    for table in tables:
        assert not Seat.objects.filter(game=table, user=alice).exists()
        assert Seat.objects.filter(game=table, user=None, ai_level="").count() == 2
    assert Seat.objects.get(game=mine, user=alice).accepted
    assert invitations_decline_all(user=alice) == 0


def test_a_blocked_sender_cannot_invite_again(alice, bob, carol):
    table = _invite(bob, alice)
    game_invitation_respond(game=table, user=alice, accept=False, block=True)
    with pytest.raises(GameError, match="does not take invitations from you"):
        _invite(bob, alice)
    assert Game.objects.filter(created_by=bob).count() == 1
    _invite(carol, alice)  # others still can
    _invite(alice, bob)  # and alice can still invite bob


def test_the_lobby_and_the_board_offer_both(client, alice, bob):
    tables = [_invite(bob, alice) for _ in range(2)]
    client.force_login(alice)
    lobby = client.get("/").content.decode()
    assert "Decline all invitations" in lobby and "from Bob" in lobby
    board = client.get(f"/games/{tables[0].pk}/").content.decode()
    assert "Decline and block Bob" in board
    answer = client.post(f"/games/{tables[0].pk}/invitation/", {"accept": "block"})
    assert answer.status_code == 302
    assert client.post("/games/invitations/decline-all/").status_code == 302
    assert not Seat.objects.filter(user=alice).exists()
    with pytest.raises(GameError):
        _invite(bob, alice)
