"""game_submit_action: the one door for moves.  Legal moves stored with their Move row,
forced passes, the end of the game, deadlines, and every refusal changing nothing."""

import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction

from games.engine import MONEY, legal_actions, result, seats_to_act
from games.errors import GameError, IllegalMove, NotAllowed, NotYourSeat, VersionConflict
from games.models import Game, Move
from games.replay import replayed_state
from games.services import game_create, game_submit_action
from tests.games.factories import (
    GameFactory,
    people_game,
    people_play,
    scenario_deck,
    table_snapshot,
)
from tests.moves import action_pick

pytestmark = [pytest.mark.django_db, pytest.mark.embedded]


@pytest.fixture
def table(dora, alice, bob):
    """dora (seat 0, to act first), alice (1), bob (2); Luxury 5 is up."""
    return people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 debt lux7"), first_player=0)


def test_a_legal_move_is_stored_with_its_move_row(table, dora):
    game = game_submit_action(
        game=table,
        user=dora,
        action={"seat": 0, "type": "bid", "cards": [2000, 1000]},
        expected_version=0,
    )
    assert game is table  # the caller's object, brought up to date
    assert game.version == 1
    state = game.engine_state()
    assert state.moves == 1 and state.turn == 1
    move = Move.objects.get(game=game)
    assert (move.number, move.seat, move.actor, move.user) == (0, 0, Move.Actor.PLAYER, dora)
    assert move.action == {"seat": 0, "type": "bid", "cards": [1000, 2000]}
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == 1 and stored.state == game.state


def test_the_seat_may_be_left_out_and_extra_keys_are_not_stored(table, dora):
    game_submit_action(
        game=table,
        user=dora,
        action={"type": "pass", "version": 0, "note": "x"},
        expected_version=0,
    )
    assert Move.objects.get(game=table).action == {"seat": 0, "type": "pass"}


def test_the_version_may_come_as_digits_from_a_form(table, dora):
    game = game_submit_action(game=table, user=dora, action={"type": "pass"}, expected_version="0")
    assert game.version == 1


@pytest.mark.parametrize("version", ["\u0660", "\uff10", "\u00b2"])  # Arabic-Indic, full-width 0, ²
def test_a_version_in_other_digits_than_0_to_9_is_refused_and_changes_nothing(table, dora, version):
    with pytest.raises(GameError, match="whole number"):
        game_submit_action(game=table, user=dora, action={"type": "pass"}, expected_version=version)
    table.refresh_from_db()
    assert table.version == 0 and not Move.objects.filter(game=table).exists()


def test_a_whole_game_of_one_person_and_two_bots_through_the_service(alice, run_commits):
    with run_commits():
        game = GameFactory(creator=alice, seats=[{"ai": "medium"}, {"ai": "medium"}])
    game.refresh_from_db()
    rng = random.Random(3)
    turns = 0
    while game.status == Game.Status.ACTIVE:
        state = game.engine_state()
        assert seats_to_act(state) == [0] or 0 in seats_to_act(state)  # the bots have replied
        with run_commits():
            game_submit_action(
                game=game,
                user=alice,
                action=action_pick(state, 0, rng),
                expected_version=game.version,
            )
        game.refresh_from_db()
        turns += 1
    # The deck is shuffled for real: a game may end after a few cards (all four game-end
    # cards early), so the count of turns is compared with the log, not with a floor.
    assert game.status == Game.Status.FINISHED
    assert game.finished_at is not None and game.deadline_at is None
    assert game.result == result(game.engine_state())
    moves = list(Move.objects.filter(game=game).order_by("number"))
    assert [m.number for m in moves] == list(range(game.version))
    assert {m.actor for m in moves} <= {Move.Actor.PLAYER, Move.Actor.BOT, Move.Actor.FORCED}
    assert {m.seat for m in moves if m.actor == Move.Actor.BOT} == {1, 2}
    assert all(m.user == alice for m in moves if m.actor == Move.Actor.PLAYER)
    assert sum(m.actor == Move.Actor.PLAYER for m in moves) == turns >= 1
    assert replayed_state(game) == game.engine_state()


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("advanced", [(), ("gambling", "excursions", "yacht")])
def test_the_stored_state_equals_the_replay_of_the_moves(dora, alice, bob, carol, seed, advanced):
    rng = random.Random(seed)
    players = [dora, alice, bob, carol][: 3 + seed % 2]
    game = people_game(*players, advanced=advanced, first_player=seed % len(players))
    game = people_play(game, rng)
    assert game.status == Game.Status.FINISHED
    stored = Game.objects.get(pk=game.pk)
    assert replayed_state(stored) == stored.engine_state()
    assert stored.engine_state().moves == stored.version == Move.objects.filter(game=game).count()
    assert stored.result == {"players": stored.result["players"]} and len(
        stored.result["players"]
    ) == len(players)


def test_replay_matches_mid_game_and_with_bots(alice, run_commits):
    with run_commits():
        game = GameFactory(creator=alice, advanced=["yacht", "excursions"])
    game.refresh_from_db()
    with run_commits():
        people_play(game, random.Random(5), until_version=game.version + 1)
    game.refresh_from_db()
    assert replayed_state(game) == game.engine_state()


def test_forced_passes_are_played_at_once_and_logged_as_forced(table, dora):
    everything = list(MONEY)
    game = game_submit_action(
        game=table, user=dora, action={"type": "bid", "cards": everything}, expected_version=0
    )
    moves = list(
        Move.objects.filter(game=game).order_by("number").values_list("seat", "actor", "action")
    )
    assert moves == [
        (0, "player", {"seat": 0, "type": "bid", "cards": everything}),
        # Nobody can beat 106,000: alice and bob pass by force and dora wins Luxury 5 ...
        (1, "forced", {"seat": 1, "type": "pass"}),
        (2, "forced", {"seat": 2, "type": "pass"}),
        # ... then leads Luxury 6 with no money left: her pass is forced too.
        (0, "forced", {"seat": 0, "type": "pass"}),
    ]
    assert Move.objects.filter(game=game, actor=Move.Actor.FORCED, user__isnull=True).count() == 3
    state = game.engine_state()
    assert game.version == 4 == state.moves
    assert state.owned[0] == ("lux5",) and state.card == "lux6" and seats_to_act(state) == [1]
    assert replayed_state(game) == state


def test_the_theft_choice_goes_through_the_service(dora, alice, bob):
    game = people_game(dora, alice, bob, deck=scenario_deck("lux3 theft"), first_player=0)
    game = game_submit_action(
        game=game, user=dora, action={"type": "bid", "cards": [1000]}, expected_version=0
    )
    game = game_submit_action(game=game, user=alice, action={"type": "pass"}, expected_version=1)
    game = game_submit_action(game=game, user=bob, action={"type": "pass"}, expected_version=2)
    # dora won Luxury 3 and leads Theft; passing first, she takes it and must choose.
    game = game_submit_action(game=game, user=dora, action={"type": "pass"}, expected_version=3)
    assert game.engine_state().phase == "theft"
    with pytest.raises(IllegalMove, match="do not own"):
        game_submit_action(
            game=game, user=dora, action={"type": "discard", "card": "lux9"}, expected_version=4
        )
    game = game_submit_action(
        game=game, user=dora, action={"type": "discard", "card": "lux3"}, expected_version=4
    )
    assert game.engine_state().owned[0] == ()
    assert replayed_state(game) == game.engine_state()


def test_the_yacht_club_sealed_choices(dora, alice, bob):
    game = people_game(
        dora,
        alice,
        bob,
        advanced=["yacht"],
        deck=scenario_deck("yacht lux1", ["yacht"]),
        first_player=0,
        move_deadline_hours=72,
    )
    state = game.engine_state()
    assert state.phase == "sealed" and seats_to_act(state) == [0, 1, 2]
    deadline = game.deadline_at
    assert deadline is not None
    game = game_submit_action(
        game=game, user=alice, action={"type": "sealed_bid", "card": 3000}, expected_version=0
    )
    assert game.deadline_at == deadline  # one turn for everyone: the clock runs on
    before = table_snapshot(game)
    with pytest.raises(NotYourSeat, match="made your Yacht Club choice"):
        game_submit_action(
            game=game, user=alice, action={"type": "sealed_bid", "card": 4000}, expected_version=1
        )
    assert table_snapshot(game) == before
    game = game_submit_action(
        game=game, user=bob, action={"type": "sealed_bid", "card": 3000}, expected_version=1
    )
    game = game_submit_action(
        game=game, user=dora, action={"type": "sealed_bid", "card": 1000}, expected_version=2
    )
    state = game.engine_state()
    assert state.owned[0] == ("yacht",) and state.card == "lux1"
    assert game.deadline_at > deadline


def test_the_deadline_restarts_with_each_turn_and_ends_with_the_game(dora, alice, bob):
    game = people_game(
        dora, alice, bob, deck=scenario_deck("lux5"), first_player=0, move_deadline_hours=48
    )
    first = game.deadline_at
    assert first - game.turn_started_at == timedelta(hours=48)
    game = game_submit_action(game=game, user=dora, action={"type": "pass"}, expected_version=0)
    assert game.deadline_at - game.turn_started_at == timedelta(hours=48)
    assert game.deadline_at > first
    game = people_play(game, random.Random(1))
    assert game.status == Game.Status.FINISHED
    assert game.deadline_at is None and game.turn_started_at is None


def test_no_deadline_while_only_bots_are_to_act(dora):
    deck = scenario_deck("lux5")
    bots_first = game_create(
        creator=dora,
        players=3,
        seats=[{"ai": "random"}] * 2,
        move_deadline_hours=24,
        deck=deck,
        first_player=1,
    )
    assert bots_first.deadline_at is None and bots_first.turn_started_at is not None
    person_first = game_create(
        creator=dora,
        players=3,
        seats=[{"ai": "random"}] * 2,
        move_deadline_hours=24,
        deck=deck,
        first_player=0,
    )
    assert person_first.deadline_at - person_first.turn_started_at == timedelta(hours=24)


# --- refusals: nothing changes -------------------------------------------------


def _refused(game, error, phrase, **kwargs):
    before = table_snapshot(game)
    with pytest.raises(error) as raised:
        game_submit_action(game=game, **kwargs)
    assert phrase in str(raised.value)
    assert table_snapshot(game) == before
    return raised.value


@pytest.mark.parametrize(
    ("action", "phrase"),
    [
        ({"type": "bid", "cards": [30000]}, "not a money card"),
        ({"type": "bid", "cards": []}, "at least one money card"),
        ({"type": "bid", "cards": "1000"}, "at least one money card"),
        ({"type": "bid", "cards": [1000, 1000]}, "twice"),
        ({"type": "bid", "cards": [1000.0]}, "not a money card"),
        ({"type": "discard", "card": "lux5"}, "no Theft"),
        ({"type": "sealed_bid", "card": 1000}, "no Yacht Club"),
        ({"type": "jump"}, "Unknown action type 'jump'"),
        ({}, "Unknown action type"),
        ({"type": "pass", "seat": "0"}, "seat number"),
        ({"type": "pass", "seat": True}, "seat number"),
    ],
)
def test_illegal_actions_give_the_engine_sentence(table, dora, action, phrase):
    _refused(table, IllegalMove, phrase, user=dora, action=action, expected_version=0)


def test_an_action_must_be_an_object(table, dora):
    for action in (None, "pass", ["pass"]):
        _refused(
            table, IllegalMove, "must be an object", user=dora, action=action, expected_version=0
        )


def test_a_bid_that_does_not_beat_the_high_bid(table, dora, alice):
    game_submit_action(
        game=table, user=dora, action={"type": "bid", "cards": [3000]}, expected_version=0
    )
    _refused(
        table,
        IllegalMove,
        "more than 3,000",
        user=alice,
        action={"type": "bid", "cards": [2000]},
        expected_version=1,
    )


def test_stale_version_is_a_conflict_and_nothing_is_stored(table, dora, alice):
    game_submit_action(game=table, user=dora, action={"type": "pass"}, expected_version=0)
    error = _refused(
        table,
        VersionConflict,
        "moved on since you loaded it",
        user=alice,
        action={"type": "pass"},
        expected_version=0,
    )
    assert "move 1" in str(error)
    # A version ahead of the game (a forged or garbled form) is not a game that "moved
    # on" since a page showed move 5: the game never reached it.
    ahead = _refused(
        table,
        VersionConflict,
        "is at move 1; no page showed move 5",
        user=alice,
        action={"type": "pass"},
        expected_version=5,
    )
    assert "moved on" not in str(ahead)


def test_repeating_the_same_request_makes_one_move(table, dora):
    request = {
        "game": table,
        "user": dora,
        "action": {"type": "bid", "cards": [1000]},
        "expected_version": 0,
    }
    game_submit_action(**request)
    with pytest.raises(VersionConflict):
        game_submit_action(**request)
    assert Move.objects.filter(game=table).count() == 1
    assert Game.objects.get(pk=table.pk).version == 1


@pytest.mark.parametrize("version", [-1, None, 1.0, "one", True])
def test_a_version_that_is_not_a_move_number(table, dora, version):
    _refused(
        table,
        GameError,
        "The version must be",
        user=dora,
        action={"type": "pass"},
        expected_version=version,
    )


def test_an_outsider_cannot_move(table, outsider):
    _refused(
        table,
        NotYourSeat,
        "do not have a seat",
        user=outsider,
        action={"type": "pass"},
        expected_version=0,
    )


@pytest.mark.parametrize("user", [None, AnonymousUser()])
def test_an_anonymous_visitor_cannot_move(table, user):
    _refused(table, NotYourSeat, "Log in", user=user, action={"type": "pass"}, expected_version=0)


def test_a_player_cannot_move_out_of_turn(table, alice):
    _refused(
        table, NotYourSeat, "not your turn", user=alice, action={"type": "pass"}, expected_version=0
    )


def test_a_player_cannot_act_for_another_seat(table, dora):
    _refused(
        table,
        NotYourSeat,
        "own seat",
        user=dora,
        action={"seat": 1, "type": "pass"},
        expected_version=0,
    )


def test_an_invited_user_who_has_not_accepted_cannot_move(alice, bob):
    game = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"ai": "easy"}])
    _refused(
        game,
        NotYourSeat,
        "Accept your invitation first",
        user=bob,
        action={"type": "pass"},
        expected_version=0,
    )


def test_no_move_before_the_start(alice):
    game = game_create(creator=alice, players=3, seats=[{"open": True}, {"ai": "easy"}])
    _refused(
        game, NotAllowed, "not started", user=alice, action={"type": "pass"}, expected_version=0
    )


def test_no_move_after_the_end(table, dora, alice, bob):
    game = people_play(table, random.Random(2))
    assert game.status == Game.Status.FINISHED
    for user in (dora, alice, bob):
        _refused(
            game,
            NotAllowed,
            "The game is over",
            user=user,
            action={"type": "pass"},
            expected_version=game.version,
        )
    # A stale version on a finished game is still a conflict (a repeated last move).
    _refused(
        game,
        VersionConflict,
        "moved on",
        user=dora,
        action={"type": "pass"},
        expected_version=game.version - 1,
    )


def test_bot_and_deadline_moves_name_a_seat_of_the_right_kind(table, dora):
    _refused(
        table,
        NotYourSeat,
        "bot only plays",
        user=None,
        action={"seat": 0, "type": "pass"},
        expected_version=0,
        actor=Move.Actor.BOT,
    )
    _refused(
        table,
        NotYourSeat,
        "must name a seat",
        user=None,
        action={"type": "pass"},
        expected_version=0,
        actor=Move.Actor.BOT,
    )
    _refused(
        table,
        NotYourSeat,
        "must name a seat",
        user=None,
        action={"seat": 7, "type": "pass"},
        expected_version=0,
        actor=Move.Actor.DEADLINE,
    )
    _refused(
        table,
        NotAllowed,
        "without a user",
        user=dora,
        action={"seat": 0, "type": "pass"},
        expected_version=0,
        actor=Move.Actor.BOT,
    )
    _refused(
        table,
        NotAllowed,
        "Only players, bots and deadlines",
        user=None,
        action={"seat": 0, "type": "pass"},
        expected_version=0,
        actor=Move.Actor.FORCED,
    )


def test_a_deadline_move_plays_the_absent_persons_seat(table):
    game = game_submit_action(
        game=table,
        user=None,
        action={"seat": 0, "type": "pass"},
        expected_version=0,
        actor=Move.Actor.DEADLINE,
    )
    move = Move.objects.get(game=game)
    assert (move.actor, move.user, move.seat) == (Move.Actor.DEADLINE, None, 0)


def test_the_move_number_is_unique_per_game(table, dora):
    game_submit_action(game=table, user=dora, action={"type": "pass"}, expected_version=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        Move.objects.create(
            game=table, number=0, seat=1, action={"seat": 1, "type": "pass"}, actor="player"
        )


@pytest.mark.parametrize("step", range(0, 2047, 97))
def test_legal_actions_listed_by_the_engine_are_accepted(dora, alice, bob, step):
    game = people_game(dora, alice, bob, deck=scenario_deck("lux5"), first_player=0)
    action = legal_actions(game.engine_state())[step]
    game = game_submit_action(game=game, user=dora, action=action, expected_version=0)
    assert Move.objects.get(game=game, number=0).action == action


def test_a_sealed_choice_is_taken_though_others_chose_meanwhile(dora, alice, bob):
    """Yacht Club choices are independent: a player who loaded the board before the
    others (bots or people) chose still has theirs taken, while the sealed phase is
    open and they have not chosen.  Once the phase has moved on, a stale choice is
    refused as any stale move is, and a second choice by the same seat too."""
    game = people_game(
        dora,
        alice,
        bob,
        advanced=["yacht"],
        deck=scenario_deck("yacht lux1 lux2", ["yacht"]),
        first_player=0,
    )
    assert game.version == 0
    game = game_submit_action(
        game=game, user=bob, action={"type": "sealed_bid", "card": 2000}, expected_version=0
    )
    game = game_submit_action(
        game=game, user=alice, action={"type": "sealed_bid", "card": 3000}, expected_version=0
    )  # alice saw move 0; bob chose meanwhile: taken
    assert game.version == 2
    with pytest.raises(NotYourSeat, match="made your Yacht Club choice"):
        game_submit_action(
            game=game, user=alice, action={"type": "sealed_bid", "card": 4000}, expected_version=0
        )
    with pytest.raises(VersionConflict):  # not a sealed choice: the usual check
        game_submit_action(game=game, user=dora, action={"type": "pass"}, expected_version=0)
    game = game_submit_action(
        game=game, user=dora, action={"type": "sealed_bid", "card": 1000}, expected_version=1
    )
    state = game.engine_state()
    assert state.phase != "sealed" and state.owned[1] == ("yacht",)  # alice: highest
    assert replayed_state(game) == state


def test_a_stale_sealed_choice_after_the_phase_is_refused(dora, alice, bob):
    """Seen in an auction, sent once a later Yacht Club phase is open: moves other
    than sealed choices happened since, so it is refused as moved on."""
    game = people_game(
        dora,
        alice,
        bob,
        advanced=["yacht"],
        deck=scenario_deck("lux1 yacht lux2", ["yacht"]),
        first_player=0,
    )
    for user in (dora, alice, bob):
        state = game.engine_state()
        if state.phase == "sealed":
            break
        game = game_submit_action(
            game=game, user=user, action={"type": "pass"}, expected_version=game.version
        )
    assert game.engine_state().phase == "sealed"
    with pytest.raises(VersionConflict):
        game_submit_action(
            game=game, user=dora, action={"type": "sealed_bid", "card": 1000}, expected_version=0
        )


def test_the_board_log_marks_forced_passes(client, table, dora):
    """docs/rules.md: the log marks a forced pass as forced, on the board as in the
    replay, and the player's own passes stay plain."""
    game = game_submit_action(
        game=table, user=dora, action={"type": "bid", "cards": list(MONEY)}, expected_version=0
    )
    client.force_login(dora)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Alice (forced) passes." in page and "Bob (forced) passes." in page
    assert "Dora (forced) passes" in page
