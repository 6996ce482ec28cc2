"""The models: constraints, seat kinds and names, the append-only move log."""

import pytest
from django.db import IntegrityError, transaction

from games.engine import State
from games.models import Game, Move, Seat
from games.services import game_create
from tests.games.factories import GameFactory

pytestmark = pytest.mark.django_db


def _constraint_names(model) -> set[str]:
    return {c.name for c in model._meta.constraints}


def test_the_move_number_is_unique_per_game():
    constraint = next(c for c in Move._meta.constraints if c.name == "games_move_unique_number")
    assert tuple(constraint.fields) == ("game", "number")
    game = GameFactory()
    Move.objects.create(
        game=game, number=0, seat=0, action={"seat": 0, "type": "pass"}, actor="player"
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Move.objects.create(
            game=game, number=0, seat=1, action={"seat": 1, "type": "pass"}, actor="bot"
        )
    # Another game may have its own move 0.
    Move.objects.create(
        game=GameFactory(), number=0, seat=0, action={"seat": 0, "type": "pass"}, actor="player"
    )


def test_seat_constraints(alice, bob):
    assert {"games_seat_unique_position", "games_seat_unique_user"} <= _constraint_names(Seat)
    game = game_create(creator=alice, players=3, seats=[{"open": True}, {"open": True}])
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(game=game, position=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(game=game, position=1).update(user=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(game=game, position=1).update(resigned=True)
    # Open seats (no user) do not clash with each other.
    assert game.seats.filter(user__isnull=True).count() == 2


def test_game_constraints(alice):
    game = GameFactory(creator=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(players=6)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(move_deadline_hours=12)


def test_moves_are_append_only():
    move = Move.objects.create(
        game=GameFactory(), number=0, seat=0, action={"seat": 0, "type": "pass"}, actor="player"
    )
    move.seat = 1
    with pytest.raises(ValueError, match="append-only"):
        move.save()


def test_seat_kinds_and_names(alice, bob):
    game = game_create(
        creator=alice,
        players=5,
        seats=[{"user": "bob"}, {"ai": "hard"}, {"open": True}, {"ai": "random"}],
    )
    creator, invited, bot, open_seat, _ = game.seats.order_by("position")
    assert (creator.is_open, creator.is_bot, creator.invited, creator.accepted) == (
        False,
        False,
        False,
        True,
    )
    assert (invited.is_open, invited.is_bot, invited.invited, invited.accepted) == (
        False,
        False,
        True,
        False,
    )
    assert (bot.is_open, bot.is_bot, bot.invited, bot.accepted) == (False, True, False, True)
    assert (open_seat.is_open, open_seat.is_bot, open_seat.invited) == (True, False, False)
    assert [
        creator.display_name,
        invited.display_name,
        bot.display_name,
        open_seat.display_name,
    ] == [
        "Alice",
        "Bob",
        "Bot (hard)",
        "Open seat",
    ]
    creator.user.display_name = ""
    assert creator.display_name == "alice"  # the username when no display name is set
    assert "Seat 3" in str(bot) and str(game.pk) in str(game)


def test_engine_state_round_trips(alice):
    open_table = game_create(creator=alice, players=3, seats=[{"open": True}, {"open": True}])
    assert open_table.engine_state() is None and not open_table.is_started
    game = GameFactory(advanced=["yacht", "gambling"])
    state = game.engine_state()
    assert isinstance(state, State) and game.is_started
    assert Game.objects.get(pk=game.pk).engine_state() == state
    assert state.to_json() == game.state
