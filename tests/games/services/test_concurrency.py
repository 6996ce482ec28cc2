"""Simultaneous submissions on real PostgreSQL connections (docs/architecture.md, "Moves and
concurrency"): the row lock and the version check let exactly one through."""

import threading
import time

import pytest
from django.db import connection

import games.services
from games.errors import VersionConflict
from games.models import Game, Move
from tests.games.factories import people_game, scenario_deck
from tests.races import at_once

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def slow_engine(monkeypatch):
    """The engine takes 50 ms inside the lock, so that every thread is surely waiting
    on the row lock (or reading the row) while the first one holds it."""
    real = games.services.apply_action

    def slow(state, action):
        time.sleep(0.05)
        return real(state, action)

    monkeypatch.setattr(games.services, "apply_action", slow)


def _race(game_id: int, submissions: list[dict]) -> list:
    """Each submission in its own thread and database connection, all released at once."""
    game = Game.objects.get(pk=game_id)

    def submitter(submission: dict):
        return lambda: games.services.game_submit_action(
            game=Game.objects.get(pk=game.pk), **submission
        )

    return at_once([submitter(s) for s in submissions])


@pytest.fixture
def table(dora, alice, bob):
    return people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=0)


def test_ten_identical_submissions_at_once_store_exactly_one_move(table, dora, slow_engine):
    request = {"user": dora, "action": {"type": "bid", "cards": [1000]}, "expected_version": 0}
    outcomes = _race(table.pk, [request] * 10)
    stored = [o for o in outcomes if isinstance(o, Game)]
    conflicts = [o for o in outcomes if isinstance(o, VersionConflict)]
    assert len(stored) == 1 and len(conflicts) == 9, outcomes
    # Each one waited for the lock and then saw the new version (the unique move
    # number, the backstop, was never needed).
    assert all("it is at move 1, you saw move 0" in str(c) for c in conflicts), conflicts
    assert Move.objects.filter(game=table).count() == 1
    game = Game.objects.get(pk=table.pk)
    assert game.version == 1
    assert game.engine_state().bids[0] == 1  # the 1,000 card, once


def test_two_different_moves_for_the_same_version(table, dora, slow_engine):
    outcomes = _race(
        table.pk,
        [
            {"user": dora, "action": {"type": "bid", "cards": [2000]}, "expected_version": 0},
            {"user": dora, "action": {"type": "pass"}, "expected_version": 0},
        ],
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["Game", "VersionConflict"]
    winner = next(o for o in outcomes if isinstance(o, Game))
    move = Move.objects.get(game=table)
    assert Game.objects.get(pk=table.pk).state == winner.state
    assert move.number == 0


def test_without_a_slow_engine_too(table, dora):
    request = {"user": dora, "action": {"type": "pass"}, "expected_version": 0}
    outcomes = _race(table.pk, [request] * 10)
    assert sum(isinstance(o, Game) for o in outcomes) == 1
    conflicts = [o for o in outcomes if isinstance(o, VersionConflict)]
    assert len(conflicts) == 9
    assert all("it is at move 1, you saw move 0" in str(c) for c in conflicts), conflicts
    assert Move.objects.filter(game=table).count() == 1


def test_the_deadline_sweep_and_a_players_move_never_deadlock(dora, alice, bob, monkeypatch):
    """One lock order everywhere (the game row, then its seats): the deadline sweep's
    move for an absent player and that player's own move, raced 100 times, never
    deadlock; each race stores exactly one of the two moves.  The sweep lingers a
    little between its locks, and the player's move arrives at varying moments, so
    that the two lock requests overlap in every order."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writer at a time: there is no lock order to get wrong")
    from django.utils import timezone

    from games import deadlines
    from tests.games.factories import game_age

    real_submit = deadlines.game_submit_action

    def lingering_submit(**kwargs):
        time.sleep(0.02)
        return real_submit(**kwargs)

    monkeypatch.setattr(deadlines, "game_submit_action", lingering_submit)

    failures = []
    for race in range(100):
        game = people_game(
            dora, alice, bob, deck=scenario_deck("lux5"), first_player=0, move_deadline_hours=24
        )
        game = game_age(game, 25)  # Dora's deadline has passed
        outcomes = _sweep_and_move(game, dora, delay=0.01 * (race % 4), now=timezone.now())
        stored = Move.objects.filter(game=game, number=game.version).count()
        errors = [
            o for o in outcomes if isinstance(o, Exception) and not isinstance(o, VersionConflict)
        ]
        if errors or stored != 1:
            failures.append((race, errors, stored))
    assert not failures, failures[:5]


def _sweep_and_move(game: Game, user, *, delay: float, now) -> list:
    """The deadline sweep for ``game`` and ``user``'s pass at the same version, each in
    its own thread and connection, released together; the pass ``delay`` s later."""
    from games.deadlines import game_deadline_pass

    barrier = threading.Barrier(2)
    outcomes: list = [None, None]

    def sweep() -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[0] = game_deadline_pass(game_id=game.pk, now=now)
        except Exception as error:  # recorded for the assertions
            outcomes[0] = error
        finally:
            connection.close()

    def move() -> None:
        try:
            mine = Game.objects.get(pk=game.pk)
            barrier.wait(timeout=10)
            time.sleep(delay)
            outcomes[1] = games.services.game_submit_action(
                game=mine, user=user, action={"type": "pass"}, expected_version=game.version
            )
        except Exception as error:
            outcomes[1] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep), threading.Thread(target=move)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes
