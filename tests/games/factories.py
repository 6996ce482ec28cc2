"""Factories and helpers for game tests: tables are made through the services, as
in the app, so every factory-made game is one the app could have made."""

from __future__ import annotations

import random
from datetime import timedelta

import factory

from games.engine import seats_to_act
from games.models import Game, Move, Notification, Seat
from games.services import game_create, game_invitation_respond, game_submit_action
from tests.factories import UserFactory
from tests.games.engine.scenario import make_deck
from tests.moves import action_pick


class StaffUserFactory(UserFactory):
    is_staff = True


class GameFactory(factory.Factory):
    """``GameFactory()``: a table of a new user and two random bots, started at once
    (the bots' first turns wait for the commit, like every task).  Any argument of
    ``game_create`` can be given; ``deck``/``first_player`` need a staff ``creator``."""

    class Meta:
        model = Game

    creator = factory.SubFactory(UserFactory)
    players = 3
    seats = factory.LazyAttribute(lambda o: [{"ai": "random"}] * (o.players - 1))
    advanced = ()
    move_deadline_hours = None
    memory_aid = False
    deck = None
    first_player = None

    @classmethod
    def _create(cls, model_class, **kwargs):
        return game_create(**kwargs)


def scenario_deck(top: str, advanced=()) -> list[str]:
    """A full deck that starts with the cards written in ``top`` (top card first)."""
    return make_deck(top, tuple(advanced))


def people_game(creator, *others, **options) -> Game:
    """A started table of people only: ``creator`` at seat 0, then ``others`` in order,
    each invited and accepting."""
    game = GameFactory(
        creator=creator,
        players=1 + len(others),
        seats=[{"user": user.username} for user in others],
        **options,
    )
    for user in others:
        game = game_invitation_respond(game=game, user=user, accept=True)
    return game


def people_play(game: Game, rng: random.Random, *, until_version: int | None = None) -> Game:
    """The people at the table make random legal moves through game_submit_action
    until the game ends, ``until_version`` is reached, or only bots are to act."""
    people = {
        seat.position: seat.user
        for seat in Seat.objects.filter(game=game).select_related("user")
        if seat.user_id is not None and not seat.is_bot
    }
    while game.status == Game.Status.ACTIVE and (
        until_version is None or game.version < until_version
    ):
        state = game.engine_state()
        seats = [p for p in seats_to_act(state) if p in people]
        if not seats:
            break
        seat = seats[0]
        game = game_submit_action(
            game=game,
            user=people[seat],
            action=action_pick(state, seat, rng),
            expected_version=game.version,
        )
    return game


def play_out(game: Game, rng: random.Random, run_commits) -> Game:
    """``people_play`` to the end of the game, the bots answering as each block's
    commit runs (``run_commits``, the fixture)."""
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        with run_commits():
            game = people_play(game, rng)
        game.refresh_from_db()
    return game


def table_snapshot(game: Game) -> tuple:
    """Everything stored about a table, to prove that a refused request changed nothing."""
    return (
        Game.objects.filter(pk=game.pk).values().get(),
        list(Seat.objects.filter(game=game).order_by("position").values()),
        list(Move.objects.filter(game=game).order_by("number").values()),
    )


def game_age(game: Game, hours: float) -> Game:
    """The current turn started ``hours`` earlier (its deadline and its notices too): a
    test's clock for deadlines and reminders, without touching the real one."""
    delta = timedelta(hours=hours)
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=game.turn_started_at - delta,
        deadline_at=(game.deadline_at - delta) if game.deadline_at else None,
        updated_at=game.updated_at - delta,
    )
    Notification.objects.filter(game=game, turn_started_at=game.turn_started_at).update(
        turn_started_at=game.turn_started_at - delta
    )
    game.refresh_from_db()
    return game
