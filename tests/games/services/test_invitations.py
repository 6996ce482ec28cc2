"""Invitations a player did not ask for: decline them all at once, and block a sender
whose invitations are unwanted."""

from __future__ import annotations

import pytest

from games.errors import GameError
from games.models import Game, Notification, Seat
from games.services import game_create, game_invitation_respond, invitations_decline_all
from tests.factories import UserFactory
from tests.races import at_once

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
    # One more step before the seats go back: the button sits inside a fold.
    assert '<details class="confirm-step panel__actions">' in lobby and "{#" not in lobby
    board = client.get(f"/games/{tables[0].pk}/").content.decode()
    assert "Decline and block Bob" in board
    answer = client.post(f"/games/{tables[0].pk}/invitation/", {"accept": "block"})
    assert answer.status_code == 302
    assert client.post("/games/invitations/decline-all/").status_code == 302
    assert not Seat.objects.filter(user=alice).exists()
    with pytest.raises(GameError):
        _invite(bob, alice)


def test_the_profile_lists_a_block_and_undoes_it(client, alice, bob):
    """A block is not for ever: the profile names whom one blocks, and one button
    takes their invitations again."""
    table = _invite(bob, alice)
    client.force_login(alice)
    assert "Nobody. At a table you can mute" in client.get("/accounts/profile/").content.decode()
    game_invitation_respond(game=table, user=alice, accept=False, block=True)
    page = client.get("/accounts/profile/").content.decode()
    assert "These players cannot invite you to a table:" in page and ">Bob<" in page
    answer = client.post("/accounts/profile/people/", {"what": "unblock", "username": "bob"})
    assert answer.status_code == 302 and answer["Location"] == "/accounts/profile/#people"
    after = client.get(answer["Location"]).content.decode()
    assert "You take invitations from Bob again." in after
    assert "These players cannot invite you" not in after
    _invite(bob, alice)  # bob may invite her again


def test_the_profile_lists_a_mute_and_undoes_it(client, alice, bob):
    """A mute holds at every table, so it can be undone where no table is needed."""
    from games.chat import chat_mute
    from games.models import ChatMute

    chat_mute(user=alice, username="bob")
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert "You do not see the chat messages of these players" in page and ">Bob<" in page
    client.post("/accounts/profile/people/", {"what": "unmute", "username": "bob"})
    assert not ChatMute.objects.filter(user=alice).exists()


@pytest.mark.parametrize(
    "body, words",
    [
        ({"what": "unblock", "username": "nobody"}, "There is no such player."),
        ({"what": "unmute", "username": "alice"}, "You cannot mute yourself."),
        ({"what": "delete", "username": "bob"}, "Choose whom to show again"),
        ({}, "Choose whom to show again"),
    ],
)
def test_bad_undo_requests_say_why_and_change_nothing(client, alice, bob, body, words):
    table = _invite(bob, alice)
    game_invitation_respond(game=table, user=alice, accept=False, block=True)
    client.force_login(alice)
    page = client.post("/accounts/profile/people/", body, follow=True).content.decode()
    assert words in page
    with pytest.raises(GameError):
        _invite(bob, alice)


def test_invitations_sent_in_a_day_are_limited_even_from_tables_left_again(
    settings, alice, bob, run_commits
):
    """Each invitation is an e-mail: opening a table and leaving it again (which frees
    the waiting invitations) still counts them for 24 hours, in all and per person."""
    from games.services import game_leave

    settings.TABLE_LIMITS = {
        **settings.TABLE_LIMITS,
        "invitations_per_day": 7,
        "invitations_per_person": 5,
    }
    mallory = UserFactory(display_name="WIN 500 USD at evil.example")
    for _ in range(5):
        with run_commits():
            table = _invite(mallory, alice)
        game_leave(game=table, user=mallory)
    with pytest.raises(GameError, match="You have invited Alice 5 times in the last 24 hours") as e:
        _invite(mallory, alice)
    # The tables were closed: no answer to wait for; the way on now is an open seat.
    assert "(withdrawn and answered invitations count too)" in str(e.value)
    assert "wait for an answer" not in str(e.value) and "table's link" in str(e.value)
    with run_commits():
        _invite(mallory, bob)
        _invite(mallory, bob)
    with pytest.raises(
        GameError,
        match="You have sent 7 invitations in the last 24 hours; one account may send 7 a day",
    ):
        _invite(mallory, bob)
    assert Game.objects.filter(created_by=mallory).count() == 7


@pytest.mark.django_db(transaction=True)
def test_invitations_sent_at_once_keep_to_the_limits(settings, monkeypatch, alice):
    """Nine tables opened together, each inviting Alice: the e-mails' rows commit with
    the invitations, so the host's row lock counts each one before the next (made
    after the commit, a row was missed by a request that took the lock meanwhile:
    the owing takes a moment here, so that it would be)."""
    import time

    from games import notifications

    owe = notifications.invitation_notices_create

    def slowly(**kwargs):
        time.sleep(0.05)
        return owe(**kwargs)

    monkeypatch.setattr(notifications, "invitation_notices_create", slowly)
    settings.TABLE_LIMITS = {**settings.TABLE_LIMITS, "invitations_per_person": 5}
    mallory = UserFactory()
    outcomes = at_once([lambda: _invite(mallory, alice)] * 9)
    refused = [o for o in outcomes if isinstance(o, GameError)]
    assert len(refused) == 4, outcomes
    assert all("You have invited" in str(o) for o in refused), refused
    invitations = Notification.objects.filter(user=alice, kind=Notification.Kind.INVITATION)
    assert invitations.count() == 5
    assert Game.objects.filter(created_by=mallory).count() == 5


def test_a_player_is_invited_by_the_name_the_site_shows_for_them(alice, bob, carol, client):
    """Bob goes by "Bobby B" on every board, lobby and e-mail, and his username shows
    nowhere there: the host typed "Bobby B" and was told "There is no player called
    “Bobby B”", and sent off to share a sign-up link.  A display name is unique (no two
    players can be taken for each other), so it names him as his username does; the
    same person named both ways is one seat."""
    bob.display_name = "Bobby B"
    bob.save()
    game = game_create(creator=alice, players=3, seats=[{"user": "bobby b"}, {"open": True}])
    assert Seat.objects.get(game=game, position=1).user == bob
    with pytest.raises(GameError, match="listed twice"):
        game_create(creator=alice, players=3, seats=[{"user": "Bobby B"}, {"user": bob.username}])
    with pytest.raises(GameError, match="There is no player called"):
        game_create(creator=alice, players=3, seats=[{"user": "Bobby"}, {"open": True}])
    client.force_login(alice)
    page = _new_table(client, {"seat_2": "invite", "invite_2": "Bobby B", "seat_3": "open"})
    assert page.status_code == 302
    newest = Game.objects.filter(created_by=alice).latest("pk")
    assert newest.pk != game.pk and newest.seats.filter(user=bob).exists()


def test_the_host_named_twice_or_by_display_name_is_refused_not_a_crash(alice, bob, client):
    """The host's own display name beside their username (all seats listed), or
    typed into the form as a friend to invite, reached the database as two seats for
    one person and ended in a server error."""
    alice.display_name = "Alice A"
    alice.save()
    with pytest.raises(GameError, match="listed twice"):
        game_create(
            creator=alice, players=3, seats=[{"user": "alice"}, {"user": "Alice A"}, {"open": True}]
        )
    client.force_login(alice)
    page = _new_table(client, {"seat_2": "invite", "invite_2": "alice a", "seat_3": "open"})
    assert page.status_code == 400
    assert "You already sit in seat 1." in page.content.decode()
    bob.display_name = "Bobby B"
    bob.save()
    page = _new_table(
        client, {"seat_2": "invite", "invite_2": "bob", "seat_3": "invite", "invite_3": "Bobby B"}
    )
    assert page.status_code == 400
    assert "Bobby B is already invited to another seat." in page.content.decode()
    assert not Game.objects.exists()


def _new_table(client, seats: dict[str, str]):
    """The new-table form of three seats sent, the host in seat 1, ``seats`` the others."""
    return client.post("/games/new/", {"players": "3", "your_seat": "1", **seats})
