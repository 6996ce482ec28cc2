"""The host's changes to the seats of a waiting table (``game_seat_set``): open a seat
nobody has taken, give it to a bot, invite a player there (an unanswered invitation to
that seat is withdrawn).  A refusal says why and changes nothing."""

from __future__ import annotations

import pytest
from django.core import mail

from games.errors import GameError, NotAllowed
from games.models import Game, InvitationBlock, Notification, Seat
from games.services import (
    game_create,
    game_invitation_respond,
    game_join,
    game_seat_set,
)

pytestmark = pytest.mark.django_db


def _seats(game) -> list[tuple]:
    return list(
        Seat.objects.filter(game=game)
        .order_by("position")
        .values_list("user__username", "ai_level", "accepted")
    )


@pytest.fixture
def table(alice, bob):
    """Alice hosts a table of four: Bob invited to seat 1, seats 2 and 3 open."""
    return game_create(
        creator=alice, players=4, seats=[{"user": "bob"}, {"open": True}, {"open": True}]
    )


def test_a_declined_seat_can_go_to_another_player(table, alice, bob, carol, run_commits):
    game_invitation_respond(game=table, user=bob, accept=False)
    with run_commits():
        game_seat_set(game=table, user=alice, position=1, seat={"user": "Carol"})
    assert _seats(table)[1] == ("carol", "", False)
    (message,) = [m for m in mail.outbox if m.to == [carol.email]]
    assert "Alice invites you" in message.subject


def test_withdrawing_an_invitation_opens_the_seat_and_mails_nothing(
    table, alice, bob, django_capture_on_commit_callbacks
):
    Notification.objects.filter(user=bob).delete()
    with django_capture_on_commit_callbacks(execute=False) as later:
        game = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"open": True}])
    game_seat_set(game=game, user=alice, position=1, seat={"open": True})
    for callback in later:
        callback()  # the invitation's e-mail would go only now: it was withdrawn meanwhile
    assert _seats(game)[1] == (None, "", False)
    notice = Notification.objects.get(kind=Notification.Kind.INVITATION, user=bob, game=game)
    assert notice.status == Notification.Status.SKIPPED
    with pytest.raises(NotAllowed, match="no open invitation"):
        game_invitation_respond(game=game, user=bob, accept=True)


def test_a_bot_in_the_last_open_seat_starts_the_game(alice, bob):
    game = game_create(creator=alice, players=3, seats=[{"open": True}, {"ai": "easy"}])
    game_join(game=game, user=bob)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    game = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"open": True}])
    game_seat_set(game=game, user=alice, position=2, seat={"ai": "hard"})
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN  # Bob has not answered
    game_seat_set(game=game, user=alice, position=1, seat={"ai": "medium"})
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.state is not None
    assert _seats(game) == [("alice", "", True), (None, "medium", True), (None, "hard", True)]


def test_a_bot_can_make_way_for_a_player(alice, carol):
    game = game_create(creator=alice, players=3, seats=[{"ai": "easy"}, {"open": True}])
    game_seat_set(game=game, user=alice, position=1, seat={"user": "carol"})
    assert _seats(game)[1] == ("carol", "", False)
    game_seat_set(game=game, user=alice, position=1, seat={"open": True})
    game_join(game=game, user=carol)
    assert [s[0] for s in _seats(game)] == ["alice", "carol", None]


@pytest.mark.parametrize(
    "who, position, seat, error, message",
    [
        ("bob", 2, {"ai": "easy"}, NotAllowed, "Only the table's creator"),
        ("alice", 0, {"ai": "easy"}, NotAllowed, "your own seat"),
        ("alice", 4, {"ai": "easy"}, GameError, "no seat 5"),
        ("alice", -1, {"ai": "easy"}, GameError, "no seat 0"),
        ("alice", True, {"ai": "easy"}, GameError, "by its number"),
        ("alice", "2", {"ai": "easy"}, GameError, "by its number"),
        ("alice", 2, {"ai": "grandmaster"}, GameError, "unknown bot level"),
        ("alice", 2, {"open": False}, GameError, "open seat is written"),
        ("alice", 2, {"ai": "easy", "open": True}, GameError, "say who sits there"),
        ("alice", 2, "hard", GameError, "say who sits there"),
        ("alice", 2, {"user": "  "}, GameError, "give the username"),
        ("alice", 2, {"user": "nobody"}, GameError, "no player called “nobody”"),
        ("alice", 2, {"user": "bob"}, GameError, "“bob” already has a seat"),
        ("alice", 2, {"user": "alice"}, GameError, "You already sit at this table"),
        ("alice", 2, {"user": "dave"}, GameError, "“dave” does not take invitations from you"),
    ],
)
def test_refusals_say_why_and_change_nothing(
    table, alice, bob, dave, who, position, seat, error, message
):
    InvitationBlock.objects.create(user=dave, blocked=alice)
    users = {"alice": alice, "bob": bob}
    before = _seats(table)
    with pytest.raises(error, match=message):
        game_seat_set(game=table, user=users[who], position=position, seat=seat)
    assert _seats(table) == before


def test_a_taken_seat_stays_its_players(table, alice, bob, carol):
    game_invitation_respond(game=table, user=bob, accept=True)
    game_join(game=table, user=carol)
    before = _seats(table)
    for position in (1, 2):
        with pytest.raises(NotAllowed, match="has taken this seat; it stays theirs"):
            game_seat_set(game=table, user=alice, position=position, seat={"ai": "easy"})
    assert _seats(table) == before


def test_only_while_the_table_waits(alice, bob):
    game = game_create(creator=alice, players=3, seats=[{"ai": "easy"}, {"ai": "easy"}])
    with pytest.raises(NotAllowed, match="already started"):
        game_seat_set(game=game, user=alice, position=1, seat={"user": "bob"})
    game = game_create(creator=alice, players=3, seats=[{"open": True}, {"open": True}])
    game.status = Game.Status.ABANDONED
    game.save()
    with pytest.raises(NotAllowed, match="closed before its game started"):
        game_seat_set(game=game, user=alice, position=1, seat={"ai": "easy"})


def test_the_limits_count_as_at_a_new_table(settings, alice, bob, carol):
    settings.TABLE_LIMITS = {
        **settings.TABLE_LIMITS,
        "open": 5,
        "running": 5,
        "bot_only": 1,
        "invitations": 1,
    }
    game = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"open": True}])
    with pytest.raises(NotAllowed, match="1 invitations waiting"):
        game_seat_set(game=game, user=alice, position=2, seat={"user": "carol"})
    # Replacing the one waiting invitation by another keeps the count.
    game_seat_set(game=game, user=alice, position=1, seat={"user": "carol"})
    assert _seats(game)[1] == ("carol", "", False)
    game_create(creator=alice, players=3, seats=[{"ai": "easy"}, {"ai": "easy"}])
    other = game_create(creator=alice, players=3, seats=[{"ai": "easy"}, {"open": True}])
    with pytest.raises(NotAllowed, match="against bots only"):
        game_seat_set(game=other, user=alice, position=2, seat={"ai": "easy"})
    assert Game.objects.get(pk=other.pk).status == Game.Status.OPEN
    settings.TABLE_LIMITS["invitations"] = 2
    game_seat_set(game=other, user=alice, position=2, seat={"user": "bob"})  # people: fine


def test_a_withdrawn_invitation_leaves_the_lobby(client, table, alice, bob):
    client.force_login(bob)
    assert "from Alice" in client.get("/").content.decode()
    game_seat_set(game=table, user=alice, position=1, seat={"ai": "hard"})
    assert "from Alice" not in client.get("/").content.decode()


WITHDRAWN = "The host withdrew your invitation to this table."


def test_the_invitations_link_says_it_was_withdrawn(client, table, alice, bob, carol, dora):
    """Bob follows his invitation's link after Alice gave his seat to a bot: the table
    says why he has no seat there (and that an open seat is still his to take); not to
    someone never invited, nor to a player who declined."""
    game_seat_set(game=table, user=alice, position=1, seat={"ai": "hard"})
    client.force_login(bob)
    page = client.get(f"/games/{table.pk}/").content.decode()
    assert f"{WITHDRAWN} You may still take an open seat." in page
    client.force_login(carol)
    assert WITHDRAWN not in client.get(f"/games/{table.pk}/").content.decode()
    other = game_create(creator=alice, players=3, seats=[{"user": "dora"}, {"open": True}])
    game_invitation_respond(game=other, user=dora, accept=False)
    game_seat_set(game=other, user=alice, position=1, seat={"ai": "easy"})
    client.force_login(dora)
    assert WITHDRAWN not in client.get(f"/games/{other.pk}/").content.decode()
    for position in (2, 3):
        game_seat_set(game=table, user=alice, position=position, seat={"ai": "easy"})
    client.force_login(bob)  # the last seats went to bots too: the game has started
    page = client.get(f"/games/{table.pk}/").content.decode()
    assert WITHDRAWN not in page  # the waiting table's words
    # It said only "you have no seat at this table. Its seats are all taken".
    withdrawn_watching = (
        "You are watching: the host gave the seat of your invitation to someone else "
        "before the game started."
    )
    assert withdrawn_watching in page and "Its seats are all taken" not in page
    client.force_login(carol)
    assert withdrawn_watching not in client.get(f"/games/{table.pk}/").content.decode()


def test_who_declined_is_kept_for_the_host_until_the_seat_changes(table, alice, bob, carol):
    from games.selectors import table_view

    def declined(user):
        return [s.declined_by for s in table_view(game=table, user=user).seats_info]

    game_invitation_respond(game=table, user=bob, accept=False)
    assert declined(alice) == [None, "bob", None, None]
    assert declined(bob) == declined(carol) == declined(None) == [None] * 4
    game_seat_set(game=table, user=alice, position=1, seat={"open": True})  # the host's choice
    assert declined(alice) == [None] * 4
    assert Seat.objects.get(game=table, position=1).declined_by is None


def test_one_invitation_e_mail_per_player_and_table(table, alice, bob, run_commits):
    """Inviting again someone who declined shows in their lobby, without a second
    e-mail: a table cannot be used to mail a player over and over."""
    with run_commits():
        game = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"open": True}])
    assert len([m for m in mail.outbox if m.to == [bob.email]]) == 1
    game_invitation_respond(game=game, user=bob, accept=False)
    with run_commits():
        game_seat_set(game=game, user=alice, position=2, seat={"user": "bob"})
    assert _seats(game)[2] == ("bob", "", False)
    assert len([m for m in mail.outbox if m.to == [bob.email]]) == 1


def test_one_who_left_their_invitation_takes_the_seat_back(client, table, alice, bob, carol):
    """A friend who accepted and then pressed "Leave" (or declined by mistake) was put
    in an open seat meant for strangers on joining again, or, with none open, refused;
    the seat of their invitation stayed held for the host."""
    from games.services import game_leave

    game_join(game=table, user=bob)
    game_leave(game=table, user=bob)  # the host's notice stays owed (no commit runs)
    client.force_login(bob)
    html = client.get(f"/games/{table.pk}/").content.decode()
    assert "Seat 2, the seat of your invitation, waits for the host to fill it" in html
    assert "Take seat 2 back</button>" in html
    client.force_login(carol)  # a stranger: the held seat is not for her
    assert "Take seat" not in client.get(f"/games/{table.pk}/").content.decode()
    game_join(game=table, user=carol)  # seat 3, as before
    client.force_login(bob)
    assert client.post(f"/games/{table.pk}/join/").status_code == 302
    assert _seats(table) == [
        ("alice", "", True),
        ("bob", "", True),
        ("carol", "", True),
        (None, "", False),
    ]
    bobs = Seat.objects.get(game=table, user=bob)
    assert bobs.by_invitation and bobs.declined_by is None
    # The host's notice of his leaving goes (it would be skipped: the seat is taken
    # again); leaving once more owes a new one, which the one kept would have stopped.
    declined = Notification.objects.filter(user=alice, kind=Notification.Kind.DECLINED)
    assert not declined.exists()
    game_leave(game=table, user=bob)
    assert declined.count() == 1
    # Once the host fills it, it is no longer his to take back.
    game_seat_set(game=table, user=alice, position=1, seat={"ai": "easy"})
    client.force_login(bob)
    assert "Take seat" not in client.get(f"/games/{table.pk}/").content.decode()


def test_an_invitation_withdrawn_can_still_be_blocked(client, table, alice, bob, carol, dora):
    """A host who invited and withdrew at once left nothing to block ("You have no open
    invitation to this table"): invited again and again, the invitee could only turn
    all invitation e-mails off."""
    game_seat_set(game=table, user=alice, position=1, seat={"ai": "hard"})
    client.force_login(bob)
    page = client.get(f"/games/{table.pk}/").content.decode()
    assert "Take no more invitations from Alice</button>" in page
    answer = client.post(f"/games/{table.pk}/invitation/", {"accept": "block"}, follow=True)
    assert "You will get no more invitations from this player." in answer.content.decode()
    assert InvitationBlock.objects.filter(user=bob, blocked=alice).exists()
    assert (
        "You take no invitations from Alice." in client.get(f"/games/{table.pk}/").content.decode()
    )
    with pytest.raises(GameError, match="does not take invitations from you"):
        game_seat_set(game=table, user=alice, position=2, seat={"user": "bob"})
    # Nobody else may block through a table they were never invited to.
    client.force_login(carol)
    refused = client.post(f"/games/{table.pk}/invitation/", {"accept": "block"})
    assert refused.status_code == 400
    assert not InvitationBlock.objects.filter(user=carol).exists()
    # Once the game has started, the withdrawn invitee's page still offers it.
    other = game_create(creator=dora, players=3, seats=[{"user": "carol"}, {"open": True}])
    game_seat_set(game=other, user=dora, position=1, seat={"ai": "easy"})
    game_seat_set(game=other, user=dora, position=2, seat={"ai": "easy"})
    assert Game.objects.get(pk=other.pk).status == Game.Status.ACTIVE
    page = client.get(f"/games/{other.pk}/").content.decode()
    assert "Take no more invitations from Dora</button>" in page
    client.post(f"/games/{other.pk}/invitation/", {"accept": "block"})
    assert InvitationBlock.objects.filter(user=carol, blocked=dora).exists()


def test_the_host_hears_that_an_invitation_again_sends_no_e_mail(
    client, table, alice, bob, carol, run_commits
):
    """Bob declined; Alice invited him again and waited for an e-mail that never went
    (one per player and table): the page says so, and not for a first invitation."""
    assert Notification.objects.filter(user=bob, kind=Notification.Kind.INVITATION).exists()
    game_invitation_respond(game=table, user=bob, accept=False)
    client.force_login(alice)
    mail.outbox.clear()
    with run_commits():
        again = client.post(
            f"/games/{table.pk}/seat/",
            {"position": "1", "kind": "invite", "invite": "bob"},
            follow=True,
        )
    page = again.content.decode()
    assert (
        "You invited Bob to seat 2. They were invited to this table before, so no new e-mail"
        in page
    )
    assert not [m for m in mail.outbox if m.to == [bob.email]]
    with run_commits():
        first = client.post(
            f"/games/{table.pk}/seat/",
            {"position": "2", "kind": "invite", "invite": "carol"},
            follow=True,
        )
    assert "You invited Carol to seat 3." in first.content.decode()
    assert "invited to this table before" not in first.content.decode()
    assert [m for m in mail.outbox if m.to == [carol.email]]
