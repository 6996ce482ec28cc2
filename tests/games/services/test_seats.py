"""Seats: joining, invitations, leaving before the start, the start, resigning."""

import pytest
from django.contrib.auth.models import AnonymousUser

from games.engine import seats_to_act
from games.errors import GameError, NotAllowed, NotYourSeat
from games.models import Game, Move
from games.selectors import games_open
from games.services import (
    game_create,
    game_invitation_respond,
    game_join,
    game_leave,
    game_resign,
    game_seat_set,
    game_start,
    game_submit_action,
)
from tests.games.factories import GameFactory, people_game, scenario_deck, table_snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.embedded]


def _open_table(creator, *seats):
    return game_create(creator=creator, players=1 + len(seats), seats=list(seats))


# --- join -------------------------------------------------------------------


def test_join_takes_the_lowest_open_seat(alice, bob, carol):
    game = _open_table(alice, {"ai": "easy"}, {"open": True}, {"open": True})
    seat = game_join(game=game, user=bob)
    assert (seat.position, seat.user, seat.accepted) == (2, bob, True)
    assert seat.joined_at is not None
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_the_last_seat_filled_starts_the_game(alice, bob, carol):
    game = _open_table(alice, {"open": True}, {"user": "carol"})
    game_join(game=game, user=bob)
    assert game.status == Game.Status.OPEN  # carol has not accepted yet
    seat = game_join(game=game, user=carol)  # an invited user joining accepts
    assert seat.position == 2 and seat.accepted
    # The caller's game object is brought up to date.
    assert game.status == Game.Status.ACTIVE
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.started_at is not None
    assert game.engine_state().players == 3
    assert game.deadline_at is None  # no deadline chosen


@pytest.mark.parametrize(
    ("setup", "phrase"),
    [
        ("full", "kept for invited players"),
        ("seated", "You already have a seat"),
        ("started", "already started"),
        ("abandoned", "closed before its game started"),
        ("finished", "is over"),
    ],
)
def test_join_refusals(alice, bob, carol, erin, setup, phrase):
    if setup == "full":
        game = _open_table(alice, {"user": "bob"}, {"user": "carol"})
        user = erin
    elif setup == "seated":
        game = _open_table(alice, {"open": True}, {"open": True})
        user = alice
    elif setup == "started":
        game = _open_table(alice, {"ai": "easy"}, {"ai": "easy"})
        user = erin
    elif setup == "abandoned":
        game = _open_table(alice, {"open": True}, {"open": True})
        game_leave(game=game, user=alice)
        user = erin
    else:
        game = _open_table(alice, {"open": True}, {"open": True})
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
        user = erin
    before = table_snapshot(game)
    with pytest.raises(NotAllowed) as error:
        game_join(game=game, user=user)
    assert phrase in str(error.value)
    assert table_snapshot(game) == before


def test_join_needs_a_logged_in_user(alice):
    game = _open_table(alice, {"open": True}, {"open": True})
    before = table_snapshot(game)
    for user in (None, AnonymousUser()):
        with pytest.raises(NotAllowed, match="Log in"):
            game_join(game=game, user=user)
    assert table_snapshot(game) == before


# --- invitations --------------------------------------------------------------


def test_accepting_an_invitation(alice, bob):
    game = _open_table(alice, {"user": "bob"}, {"open": True})
    game = game_invitation_respond(game=game, user=bob, accept=True)
    seat = game.seats.get(user=bob)
    assert seat.accepted and seat.joined_at is not None
    assert game.status == Game.Status.OPEN


def test_seats_nobody_plays_yet_are_not_numbered_like_players(client, alice, bob, carol):
    """Two declined seats read "Kept for the host", each beside its seat number, not
    "Kept for the host #1" like a player's name (two bots still read apart)."""
    from games.selectors import seat_names

    game = _open_table(alice, {"user": "bob"}, {"user": "carol"}, {"open": True}, {"open": True})
    for user in (bob, carol):
        game_invitation_respond(game=game, user=user, accept=False)
    seats = list(game.seats.order_by("position"))
    assert seat_names(seats) == ["Alice", *["Kept for the host"] * 2, *["Open seat"] * 2]
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Kept for the host #" not in html and "Open seat #" not in html
    for position in (3, 4):
        game_seat_set(game=game, user=alice, position=position, seat={"ai": "easy"})
    names = seat_names(list(game.seats.order_by("position")))
    assert names[3:] == ["Bot (easy) #4", "Bot (easy) #5"]


def test_a_declined_seat_waits_for_the_host(alice, bob, carol):
    """Declined, an invited seat is not open to strangers (a table of friends, a
    rematch): it waits until the host gives it to a bot, invites someone or opens it."""
    game = _open_table(alice, {"user": "bob"}, {"ai": "easy"})
    game_invitation_respond(game=game, user=bob, accept=False)
    seat = game.seats.get(position=1)
    assert seat.held and not seat.is_open and seat.user is None
    assert seat.display_name == "Kept for the host"
    assert not games_open(user=carol).filter(pk=game.pk).exists()
    with pytest.raises(NotAllowed, match="kept for invited players or for the host to fill"):
        game_join(game=game, user=carol)
    assert game.seats.get(position=1).user is None
    game_seat_set(game=game, user=alice, position=1, seat={"open": True})
    assert games_open(user=carol).filter(pk=game.pk).exists()
    assert game_join(game=game, user=carol).position == 1
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_no_join_button_where_no_seat_is_open(client, alice, bob, carol):
    """After declining (or as anyone, at a table whose free seats are all kept), the
    board offered "Join this table", and the click was refused."""
    game = _open_table(alice, {"user": "bob"}, {"user": "carol"})
    game_invitation_respond(game=game, user=bob, accept=False)
    for who in (carol, None):
        client.logout()
        if who:
            client.force_login(who)
        html = client.get(f"/games/{game.pk}/").content.decode()
        assert f'action="/games/{game.pk}/join/"' not in html
        assert "Log in to join" not in html
        assert "Take seat" not in html
    client.logout()  # a visitor, since Carol's seat waits for her, reads how to answer
    assert "Invited? Log in" in client.get(f"/games/{game.pk}/").content.decode()
    client.force_login(bob)  # the seat he declined waits for the host, and for him
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "No seat is open at this table." not in html and "Take seat 2 back</button>" in html
    game_seat_set(game=game, user=alice, position=1, seat={"open": True})
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert f'action="/games/{game.pk}/join/"' in html and "Take seat" not in html


def test_the_last_acceptance_starts_the_game(alice, bob, carol):
    game = people_game(alice, bob, carol)
    assert game.status == Game.Status.ACTIVE


@pytest.mark.parametrize(
    ("who", "accept", "error", "phrase"),
    [
        ("carol", True, NotAllowed, "no open invitation"),  # not invited
        ("alice", True, NotAllowed, "already sit at this table, in seat 1"),  # the host
        ("bob", "yes", GameError, "accept or decline"),
        ("bob", None, GameError, "accept or decline"),
    ],
)
def test_invitation_refusals(alice, bob, carol, who, accept, error, phrase):
    users = {"alice": alice, "bob": bob, "carol": carol}
    game = _open_table(alice, {"user": "bob"}, {"open": True})
    before = table_snapshot(game)
    with pytest.raises(error) as raised:
        game_invitation_respond(game=game, user=users[who], accept=accept)
    assert phrase in str(raised.value)
    assert table_snapshot(game) == before


def test_an_answered_invitation_cannot_be_answered_again(alice, bob):
    game = _open_table(alice, {"user": "bob"}, {"open": True})
    game_invitation_respond(game=game, user=bob, accept=True)
    with pytest.raises(NotAllowed, match="You already sit at this table, in seat 2."):
        game_invitation_respond(game=game, user=bob, accept=False)
    assert game.seats.get(user=bob).accepted


# --- leave ------------------------------------------------------------------


def test_leaving_before_the_start_opens_the_seat(alice, bob):
    game = _open_table(alice, {"open": True}, {"open": True})
    game_join(game=game, user=bob)
    game = game_leave(game=game, user=bob)
    assert game.status == Game.Status.OPEN
    assert game.seats.get(position=1).is_open
    assert not game.seats.filter(user=bob).exists()


def test_an_invited_user_leaving_declines(alice, bob):
    game = _open_table(alice, {"user": "bob"}, {"open": True})
    game_leave(game=game, user=bob)
    seat = game.seats.get(position=1)
    assert seat.held and not seat.is_open and seat.declined_by == bob  # as if answering no


@pytest.mark.parametrize("accept", ["respond", "join"])
def test_an_invited_user_who_accepted_then_leaves_keeps_the_seat_for_the_host(
    alice, bob, carol, accept, run_commits
):
    """Bob accepted and then left: his seat became a public open seat (a stranger could
    take a seat at a table of friends) and Alice was not told.  Now it waits for her,
    as when he declines, and she hears of it."""
    from games.models import Notification

    game = _open_table(alice, {"user": "bob"}, {"user": "carol"})
    if accept == "respond":
        game_invitation_respond(game=game, user=bob, accept=True)
    else:
        game_join(game=game, user=bob)
    with run_commits():
        game_leave(game=game, user=bob)
    seat = game.seats.get(position=1)
    assert seat.held and not seat.is_open and seat.declined_by == bob
    assert not games_open(user=carol).filter(pk=game.pk).exists()
    assert Notification.objects.filter(
        user=alice, kind=Notification.Kind.DECLINED, game=game
    ).exists()
    # Someone who took an open seat and leaves opens it again, as before.
    other = _open_table(alice, {"open": True}, {"open": True})
    game_join(game=other, user=bob)
    game_leave(game=other, user=bob)
    assert other.seats.get(position=1).is_open


def test_the_creator_leaving_abandons_the_table(alice, bob):
    game = _open_table(alice, {"open": True}, {"open": True})
    game_join(game=game, user=bob)
    game = game_leave(game=game, user=alice)
    assert game.status == Game.Status.ABANDONED
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED


@pytest.mark.parametrize(
    ("setup", "error", "phrase"),
    [
        ("outsider", NotYourSeat, "do not have a seat"),
        ("started", NotAllowed, "resign instead"),
        ("abandoned", NotAllowed, "closed before its game started"),
    ],
)
def test_leave_refusals(alice, bob, carol, setup, error, phrase):
    if setup == "outsider":
        game, user = _open_table(alice, {"open": True}, {"open": True}), carol
    elif setup == "started":
        game, user = people_game(alice, bob, carol), bob
    else:
        game = _open_table(alice, {"user": "bob"}, {"open": True})
        game_leave(game=game, user=alice)
        user = bob
    before = table_snapshot(game)
    with pytest.raises(error) as raised:
        game_leave(game=game, user=user)
    assert phrase in str(raised.value)
    assert table_snapshot(game) == before


# --- start ------------------------------------------------------------------


def test_game_start_refuses_a_table_with_empty_seats(alice):
    game = _open_table(alice, {"open": True}, {"ai": "easy"})
    before = table_snapshot(game)
    with pytest.raises(NotAllowed, match="every seat is filled"):
        game_start(game=game)
    assert table_snapshot(game) == before


def test_game_start_twice_changes_nothing(alice):
    game = _open_table(alice, {"ai": "easy"}, {"ai": "easy"})
    before = table_snapshot(game)
    with pytest.raises(NotAllowed, match="already started"):
        game_start(game=game)
    assert table_snapshot(game) == before


# --- resign -------------------------------------------------------------------


def test_resigning_hands_the_seat_to_a_medium_bot_that_plays_at_once(dora, alice, bob, run_commits):
    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=1)
    with run_commits():
        game = game_resign(game=game, user=alice)
    seat = game.seats.get(user=alice)
    assert (seat.ai_level, seat.resigned, seat.is_bot, seat.display_name) == (
        "medium",
        True,
        True,
        "Alice",
    )
    move = Move.objects.get(game=game, number=0)
    assert (move.seat, move.actor, move.user) == (1, Move.Actor.BOT, None)
    game.refresh_from_db()
    assert 1 not in seats_to_act(game.engine_state())


def test_resigning_out_of_turn_plays_nothing_yet(dora, alice, bob, run_commits):
    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=0)
    with run_commits():
        game_resign(game=game, user=bob)
    assert Move.objects.filter(game=game).count() == 0
    with run_commits():
        game = game_submit_action(game=game, user=dora, action={"type": "pass"}, expected_version=0)
    game.refresh_from_db()
    # dora passed, alice is to act: bob's bot waits for its turn.
    assert Move.objects.filter(game=game, actor=Move.Actor.BOT).count() == 0
    with run_commits():
        game_submit_action(
            game=game, user=alice, action={"type": "bid", "cards": [1000]}, expected_version=1
        )
    assert Move.objects.filter(game=game, actor=Move.Actor.BOT, seat=2).exists()


def test_the_log_says_when_a_bot_took_a_resigned_players_seat(dora, alice, bob, client):
    """The board's log says, after the last move before it, that a bot plays for the
    player from then on: their resignation is not silent."""
    from games.selectors import log_entries, table_view

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=0)
    game = game_submit_action(game=game, user=dora, action={"type": "pass"}, expected_version=0)
    game_resign(game=game, user=bob)
    game.refresh_from_db()
    entries = log_entries(game=game, view=table_view(game=game, user=alice))
    takeover = "From here on, a bot (medium) plays for Bob."
    # A line of its own, after move 1 (Dora's pass), with no number and no time.
    assert [(e.number, e.actor, e.at) for e in entries if takeover in e.text] == [
        (1, "takeover", None)
    ]
    assert entries[1].text.startswith("Dora passes") and takeover not in entries[1].text
    assert entries[2].text == takeover
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert f'<li class="log__takeover">{takeover}</li>' in html


def test_a_resigned_player_can_no_longer_move(dora, alice, bob):
    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=0)
    game_resign(game=game, user=dora)
    before = table_snapshot(game)
    with pytest.raises(NotYourSeat, match="resigned"):
        game_submit_action(game=game, user=dora, action={"type": "pass"}, expected_version=0)
    with pytest.raises(NotAllowed, match="already resigned"):
        game_resign(game=game, user=dora)
    assert table_snapshot(game) == before


@pytest.mark.parametrize(
    ("setup", "error", "phrase"),
    [
        ("outsider", NotYourSeat, "do not have a seat"),
        ("open", NotAllowed, "leave the table instead"),
        ("invited", NotYourSeat, "Accept your invitation first"),
        ("finished", NotAllowed, "is over"),
    ],
)
def test_resign_refusals(alice, bob, carol, outsider, setup, error, phrase):
    user = bob
    if setup == "outsider":
        game, user = people_game(alice, bob, carol), outsider
    elif setup == "open":
        game = _open_table(alice, {"open": True}, {"open": True})
        game_join(game=game, user=bob)
    elif setup == "invited":
        game = _open_table(alice, {"user": "bob"}, {"open": True})
    else:
        game = people_game(alice, bob, carol)
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    before = table_snapshot(game)
    with pytest.raises(error) as raised:
        game_resign(game=game, user=user)
    assert phrase in str(raised.value)
    assert table_snapshot(game) == before


def test_factory_tables_are_started_bot_tables(alice):
    game = GameFactory(creator=alice)
    assert game.status == Game.Status.ACTIVE
    assert [s.is_bot for s in game.seats.order_by("position")] == [False, True, True]
