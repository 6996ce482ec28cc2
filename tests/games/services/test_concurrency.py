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
    barrier = threading.Barrier(len(submissions))
    outcomes: list = [None] * len(submissions)

    def submit(index: int, submission: dict) -> None:
        try:
            game = Game.objects.get(pk=game_id)
            barrier.wait(timeout=10)
            outcomes[index] = games.services.game_submit_action(game=game, **submission)
        except Exception as error:  # recorded for the assertions
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(i, s)) for i, s in enumerate(submissions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return outcomes


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
