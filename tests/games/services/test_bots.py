"""Bot turns: queued on commit, computed outside the lock, idempotent, and a chain of
bot turns in eager mode that plays a whole game without deep recursion."""

import logging
import random
import sys

import pytest
from django.db import connection

import games.ai
from games import events
from games.bots import bots_play as game_bot_move
from games.engine import seats_to_act
from games.models import Game, Move
from games.replay import replayed_state
from games.services import game_resign, game_submit_action
from games.tasks import bot_move
from tests.games.factories import GameFactory, people_game, people_play, scenario_deck

pytestmark = pytest.mark.embedded


def _depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


@pytest.fixture
def bot_spy(monkeypatch):
    """Wraps the bots' choose_action to record where it was called from."""
    calls = []
    real = games.ai.choose_action

    def spy(state, seat, level, rng=None):
        calls.append(
            {
                "seat": seat,
                "level": level,
                "in_transaction": connection.in_atomic_block,
                "depth": _depth(),
            }
        )
        return real(state, seat, level, rng=rng)

    monkeypatch.setattr(games.ai, "choose_action", spy)
    return calls


@pytest.mark.django_db
def test_bots_wait_for_the_commit(dora, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game = GameFactory(creator=dora, deck=scenario_deck("lux5"), first_player=1)
    queued = _queueing(callbacks)
    assert len(queued) == 1  # the bot turn is queued, not played inside the transaction
    assert Move.objects.filter(game=game).count() == 0
    queued[0]()
    assert Move.objects.filter(game=game, actor=Move.Actor.BOT).exists()


@pytest.mark.django_db
def test_no_bot_task_when_a_person_is_to_act(dora, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        GameFactory(creator=dora, deck=scenario_deck("lux5"), first_player=0)
    # Only the person's turn is announced (its e-mail, games.notifications), no bot's.
    # (The callbacks are now the events' announcements, named by what they announce.)
    announced = [c.__closure__ for c in _queueing(callbacks)]
    assert len(announced) == 1
    assert any(cell.cell_contents is events.turn_started for cell in announced[0])


def _queueing(callbacks):
    """The on-commit callbacks that queue work (the log lines written after a commit,
    ``services._log_on_commit``, and the open boards' notice that the table changed,
    ``events.board_changed``, are left out)."""

    def board_notice(callback) -> bool:
        cells = callback.__closure__ or ()
        return any(cell.cell_contents is events.board_changed for cell in cells)

    return [
        c
        for c in callbacks
        if not c.__qualname__.startswith("_log_on_commit.") and not board_notice(c)
    ]


@pytest.mark.django_db
def test_the_task_does_nothing_when_the_game_moved_on(dora, alice):
    """A task that finds its game moved on makes no move for the version it was queued
    for; it only plays a bot turn that is due now (one task holds a game at a time, so
    nobody else would), and when none is due it does nothing."""
    game = GameFactory(creator=dora, deck=scenario_deck("lux5"), first_player=1)
    assert bot_move.delay(game.id + 1000, 0).get() is False  # a deleted game
    assert Move.objects.filter(game=game).count() == 0
    assert bot_move.delay(game.id, game.version).get() is True
    moved = Move.objects.filter(game=game).count()
    assert moved >= 1
    # Delivered twice: the second run finds the game at a person's turn and does nothing.
    assert bot_move.delay(game.id, 0).get() is False
    assert bot_move.delay(game.id, moved + 5).get() is False  # a version never reached
    assert Move.objects.filter(game=game).count() == moved


@pytest.mark.django_db
def test_no_bot_move_when_a_person_is_to_act(dora):
    game = GameFactory(creator=dora, deck=scenario_deck("lux5"), first_player=0)
    assert game_bot_move(game_id=game.id, expected_version=0) is False
    assert Move.objects.filter(game=game).count() == 0


@pytest.mark.django_db
def test_no_bot_move_in_a_finished_game(alice, bob, carol):
    game = people_play(people_game(alice, bob, carol), random.Random(4))
    assert game_bot_move(game_id=game.id, expected_version=game.version) is False


@pytest.mark.django_db
def test_every_bot_to_act_chooses_its_yacht_club_card(dora, bot_spy, run_commits):
    with run_commits():
        game = GameFactory(
            creator=dora,
            players=4,
            seats=[{"ai": "easy"}, {"ai": "medium"}, {"ai": "random"}],
            advanced=["yacht"],
            deck=scenario_deck("yacht", ["yacht"]),
            first_player=0,
        )
    game.refresh_from_db()
    state = game.engine_state()
    assert state.phase == "sealed" and seats_to_act(state) == [0]
    assert sorted(call["seat"] for call in bot_spy) == [1, 2, 3]
    assert [m.seat for m in Move.objects.filter(game=game)] == [1, 2, 3]
    # The person's choice completes the Yacht Club; the bots' choices were never shown.
    with run_commits():
        game_submit_action(
            game=game, user=dora, action={"type": "sealed_bid", "card": 1000}, expected_version=3
        )
    game.refresh_from_db()
    assert replayed_state(game) == game.engine_state()


@pytest.mark.django_db
def test_an_illegal_bot_action_is_replaced_by_a_random_legal_one(
    dora, monkeypatch, caplog, run_commits
):
    monkeypatch.setattr(
        games.ai,
        "choose_action",
        lambda state, seat, level, rng=None: {"type": "discard", "card": "lux9"},
    )
    with caplog.at_level(logging.ERROR), run_commits():
        game = GameFactory(creator=dora, deck=scenario_deck("lux5"), first_player=1)
    assert "was illegal" in caplog.text
    assert Move.objects.filter(game=game, actor=Move.Actor.BOT, seat=1).exists()


@pytest.mark.django_db
def test_a_failing_bot_does_not_stop_the_game(dora, monkeypatch, caplog, run_commits):
    def broken(state, seat, level, rng=None):
        raise RuntimeError("bot crashed")

    monkeypatch.setattr(games.ai, "choose_action", broken)
    with caplog.at_level(logging.ERROR), run_commits():
        game = GameFactory(creator=dora, deck=scenario_deck("lux5"), first_player=1)
    assert "bot crashed" in caplog.text
    game.refresh_from_db()
    assert Move.objects.filter(game=game, actor=Move.Actor.BOT).exists()
    assert 0 in seats_to_act(game.engine_state())


@pytest.mark.django_db
def test_a_table_of_bots_plays_to_the_end_in_captured_commits(alice, run_commits):
    game = GameFactory(creator=alice, players=5, seats=[{"ai": "random"}] * 4)
    with run_commits():
        game_resign(game=game, user=alice)  # five bots now
    game.refresh_from_db()
    if game.status != Game.Status.FINISHED:  # alice was not to act: nudge the first bot
        with run_commits():
            bot_move.delay(game.id, game.version)
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert replayed_state(game) == game.engine_state()


@pytest.mark.django_db(transaction=True)
def test_three_bots_play_a_whole_game_in_eager_mode_without_deep_recursion(dora, bot_spy):
    """Real commits: each bot move commits, and the bot task plays on as a loop, at a
    constant stack depth, computed outside any transaction.  (The ten luxuries come
    first, so the game lasts at least ten auctions: with a shuffled deck the four
    game-end cards could end it after a dozen bot decisions.)"""
    game = GameFactory(
        creator=dora,
        seats=[{"ai": "medium"}, {"ai": "easy"}],
        deck=scenario_deck(" ".join(f"lux{n}" for n in range(1, 11))),
        first_player=0,
    )
    assert 0 in seats_to_act(game.engine_state())
    game = game_resign(game=game, user=dora)  # three bots play on
    assert game.status == Game.Status.FINISHED
    assert len(bot_spy) >= 20
    assert not any(call["in_transaction"] for call in bot_spy)
    depths = [call["depth"] for call in bot_spy]
    assert max(depths) - min(depths) <= 30, depths
    assert Move.objects.filter(game=game).count() == game.version
    assert replayed_state(game) == game.engine_state()


@pytest.mark.django_db(transaction=True)
def test_a_persons_move_returns_the_game_after_the_bots_replied(dora, alice):
    game = GameFactory(
        creator=dora,
        seats=[{"ai": "random"}, {"ai": "random"}],
        deck=scenario_deck("lux5 lux6 lux7"),
        first_player=0,
    )
    game = game_submit_action(
        game=game, user=dora, action={"type": "bid", "cards": [1000]}, expected_version=0
    )
    stored = Game.objects.get(pk=game.pk)
    assert game.version == stored.version > 1
    assert game.status == Game.Status.FINISHED or 0 in seats_to_act(game.engine_state())


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_searching_bot_thinks_less_while_many_bot_tasks_wait(level):
    from games.ai import BUDGETS
    from games.bots import MIN_SHARE, bot_time_budget

    full = BUDGETS[level]
    assert bot_time_budget(level, 0) == full
    assert bot_time_budget(level, 2) == pytest.approx(full / 1.5)
    assert bot_time_budget(level, 4) == full / 2
    assert bot_time_budget(level, 1000) == pytest.approx(full * MIN_SHARE)


@pytest.mark.django_db
def test_bots_play_passes_the_shorter_budgets_to_the_searching_bots(dora, monkeypatch, run_commits):
    from games import bots

    budgets = []
    real = games.ai.choose_action

    def spy(state, seat, level, rng=None, **options):
        budgets.append((level, options.get("time_budget")))
        return real(state, seat, level, rng=rng, iterations=20)

    monkeypatch.setattr(games.ai, "choose_action", spy)
    monkeypatch.setattr(bots, "bots_backlog", lambda: 12)  # twelve bot tasks waiting
    with run_commits():
        game = GameFactory(
            creator=dora,
            players=4,
            seats=[{"ai": "hard"}, {"ai": "expert"}, {"ai": "easy"}],
            deck=scenario_deck("lux5"),
            first_player=1,
        )
    assert ("hard", 0.1) in budgets  # 0.25 s / (1 + 12/4), but not under 40% of it
    assert ("expert", 0.8) in budgets  # 2 s / (1 + 12/4) = 0.5 s, under 40% of 2 s
    assert all(budget is None for level, budget in budgets if level == "easy")
    assert game.pk
