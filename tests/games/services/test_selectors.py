"""Reads: the lobby lists and the one view of a game that pages and the API render."""

import json
import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from games.engine import player_view, score_details, seats_to_act
from games.models import Game
from games.selectors import game_seat_for_user, games_for_user, games_open, table_view
from games.services import (
    game_create,
    game_invitation_respond,
    game_join,
    game_leave,
    game_submit_action,
)
from tests.games.factories import GameFactory, people_game, people_play, scenario_deck

pytestmark = pytest.mark.django_db


# --- lobby lists -------------------------------------------------------------


def test_games_open_lists_tables_with_an_open_seat_newest_first(alice, bob, carol, erin):
    older = game_create(creator=alice, players=3, seats=[{"open": True}, {"ai": "easy"}])
    newer = game_create(creator=bob, players=3, seats=[{"open": True}, {"open": True}])
    game_create(creator=carol, players=3, seats=[{"user": "erin"}, {"ai": "easy"}])  # no open seat
    GameFactory(creator=carol)  # started
    abandoned = game_create(creator=carol, players=3, seats=[{"open": True}, {"open": True}])
    game_leave(game=abandoned, user=carol)
    Game.objects.filter(pk=older.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert list(games_open()) == [newer, older]
    assert list(games_open(user=AnonymousUser())) == [newer, older]
    assert list(games_open(user=alice)) == [newer]  # not the table she sits at
    game_join(game=newer, user=erin)
    assert list(games_open(user=erin)) == [older]


def test_games_open_loads_seats_and_users_in_a_fixed_number_of_queries(
    alice, bob, django_assert_num_queries
):
    for _ in range(4):
        game_create(
            creator=alice, players=4, seats=[{"user": "bob"}, {"open": True}, {"ai": "hard"}]
        )
    with django_assert_num_queries(2):
        names = [
            [seat.display_name for seat in game.seats.all()] + [game.created_by.public_name]
            for game in games_open()
        ]
    assert names[0] == ["Alice", "Bob", "Open seat", "Bot (hard)", "Alice"]


def test_games_for_user_puts_the_games_where_it_is_your_turn_first(
    dora, alice, bob, carol, django_assert_num_queries
):
    deck = scenario_deck("lux5 lux6")
    waiting = people_game(dora, alice, bob, deck=deck, first_player=0)  # dora's turn
    yours_late = people_game(dora, alice, bob, deck=deck, first_player=1, move_deadline_hours=168)
    yours_soon = people_game(dora, alice, bob, deck=deck, first_player=1, move_deadline_hours=24)
    yours_none = people_game(dora, alice, bob, deck=deck, first_player=1)
    invited = game_create(creator=bob, players=3, seats=[{"user": "alice"}, {"open": True}])
    joined = game_create(creator=carol, players=3, seats=[{"open": True}, {"open": True}])
    game_join(game=joined, user=alice)
    finished = people_play(
        people_game(dora, alice, bob, deck=deck, first_player=0), random.Random(0)
    )
    assert finished.status == Game.Status.FINISHED
    abandoned = game_create(creator=alice, players=3, seats=[{"open": True}, {"open": True}])
    game_leave(game=abandoned, user=alice)
    game_create(creator=carol, players=3, seats=[{"open": True}, {"open": True}])  # not hers

    with django_assert_num_queries(4):  # with the finished game's result
        games = games_for_user(user=alice)
    assert games == [yours_soon, yours_late, yours_none, waiting, invited, joined, finished]
    assert [g.your_turn for g in games] == [True, True, True, False, False, False, False]
    assert [g.your_seat.position for g in games] == [1, 1, 1, 1, 1, 1, 1]
    assert games[4].your_seat.invited
    assert games[6].your_result.game_id == finished.pk and games[6].your_result.user == alice
    assert games_for_user(user=AnonymousUser()) == []


def test_your_turn_in_the_yacht_club_until_you_chose(dora, alice, bob):
    game = people_game(
        dora, alice, bob, advanced=["yacht"], deck=scenario_deck("yacht", ["yacht"]), first_player=0
    )
    assert [g.your_turn for g in games_for_user(user=alice)] == [True]
    game_submit_action(
        game=game, user=alice, action={"type": "sealed_bid", "card": 2000}, expected_version=0
    )
    assert [g.your_turn for g in games_for_user(user=alice)] == [False]
    assert [g.your_turn for g in games_for_user(user=bob)] == [True]


def test_a_resigned_seat_is_never_your_turn(dora, alice, bob):
    from games.services import game_resign

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5"), first_player=1)
    game_resign(game=game, user=alice)
    assert [g.your_turn for g in games_for_user(user=alice)] == [False]


def test_game_seat_for_user(alice, bob, outsider):
    game = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"open": True}])
    assert game_seat_for_user(game=game, user=alice).position == 0
    assert game_seat_for_user(game=game, user=bob).invited
    assert game_seat_for_user(game=game, user=outsider) is None
    assert game_seat_for_user(game=game, user=AnonymousUser()) is None
    assert game_seat_for_user(game=game, user=None) is None


# --- the view of a game -----------------------------------------------------


@pytest.fixture
def table(dora, alice, bob):
    """dora bids 3,000 on Luxury 5; alice (seat 1) is to act."""
    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 theft lux6"), first_player=0)
    return game_submit_action(
        game=game, user=dora, action={"type": "bid", "cards": [3000]}, expected_version=0
    )


def test_the_view_of_the_player_to_act(table, alice):
    view = table_view(game=table, user=alice).to_json()
    state = table.engine_state()
    expected = player_view(state, 1).to_json()
    assert {k: view[k] for k in expected} == expected
    assert (view["id"], view["version"], view["status"], view["your_seat"]) == (
        table.id,
        1,
        "active",
        1,
    )
    assert view["hand"] == [1000, 2000, 3000, 4000, 6000, 8000, 10000, 12000, 15000, 20000, 25000]
    assert (
        "hand" in view["seats"][1]
        and "hand" not in view["seats"][0]
        and "hand" not in view["seats"][2]
    )
    assert view["legal_actions"] == {
        "can_pass": True,
        "can_bid": True,
        "to_beat": 3000,
        "current_bid": 0,
        "hand": view["hand"],
        "discard_choices": [],
        "sealed_choices": [],
    }
    assert view["log_text"] == ["Dora reveals Luxury 5.", "Dora bids 3,000 (total 3,000)."]
    assert view["seats_info"][1] == {
        "position": 1,
        "display_name": "Alice",
        "is_bot": False,
        "ai_level": "",
        "is_open": False,
        "invited": False,
        "held": False,
        "user_id": alice.id,
        "username": "alice",
        "user": {"id": alice.id, "username": "alice"},
        "accepted": True,
        "resigned": False,
        "handed_over": False,
        "is_you": True,
        "vacation_until": None,
        "timeouts": 0,
        "idle_since": table.turn_started_at,  # to act, at a table without deadlines
        "declined_by": None,
    }
    assert [s["is_you"] for s in view["seats_info"]] == [False, True, False]
    assert view["options"] == {
        "players": 3,
        "advanced": [],
        "memory_aid": False,
        "move_deadline_hours": None,
    }
    assert view["result"] is None and view["score_details"] is None and view["deadline_at"] is None
    # JSON-ready; its times are datetimes, which the API writes as it writes every time.
    json.dumps(view, cls=DjangoJSONEncoder)


def test_the_view_of_another_player(table, dora):
    view = table_view(game=table, user=dora).to_json()
    assert view["your_seat"] == 0 and view["legal_actions"] == []
    assert view["hand"] == [1000, 2000, 4000, 6000, 8000, 10000, 12000, 15000, 20000, 25000]
    assert "hand" not in view["seats"][1] and "hand" not in view["seats"][2]


@pytest.mark.parametrize("who", ["outsider", "anonymous"])
def test_an_outsider_sees_the_spectator_view(table, outsider, who):
    user = outsider if who == "outsider" else AnonymousUser()
    view = table_view(game=table, user=user).to_json()
    assert view["your_seat"] is None and view["seat"] is None
    assert view["hand"] is None and view["discards"] is None
    assert all("hand" not in seat and "discards" not in seat for seat in view["seats"])
    assert view["legal_actions"] == []
    assert not any(s["is_you"] for s in view["seats_info"])
    spectator = player_view(table.engine_state(), None).to_json()
    assert {k: view[k] for k in spectator} == spectator


def test_the_memory_aid_shows_everyones_money(dora, alice, bob):
    game = people_game(
        dora, alice, bob, memory_aid=True, deck=scenario_deck("lux5"), first_player=0
    )
    view = table_view(game=game, user=bob).to_json()
    assert all(seat["money"] == 106000 for seat in view["seats"])


def test_the_view_never_holds_the_deck_or_the_state(dora, alice, bob):
    deck = scenario_deck("lux5 lux6")
    game = people_game(dora, alice, bob, deck=deck, first_player=0)
    for user in (dora, alice, None):
        text = json.dumps(table_view(game=game, user=user).to_json(), default=str)
        assert "setup_deck" not in text and "scenario" not in text and "deck_pos" not in text
        assert "lux6" not in text  # the next card


def test_games_differing_only_in_secrets_look_the_same(dora, alice, bob):
    """The strongest test of hidden information.  Same seats, same moves, decks that differ only
    below the cards revealed so far: every viewer's view is identical, ids aside."""
    first = people_game(
        dora, alice, bob, deck=scenario_deck("lux5 lux6 lux1 lux2 lux3"), first_player=0
    )
    second = people_game(
        dora, alice, bob, deck=scenario_deck("lux5 lux6 debt theft lux9"), first_player=0
    )
    moves = [
        (dora, {"type": "bid", "cards": [1000]}),
        (alice, {"type": "pass"}),
        (bob, {"type": "bid", "cards": [2000]}),
    ]
    for game in (first, second):
        for version, (user, action) in enumerate(moves):
            game_submit_action(game=game, user=user, action=action, expected_version=version)
    for user in (dora, alice, bob, None):
        views = []
        for game in (first, second):
            view = table_view(game=game, user=user).to_json()
            view["id"] = None
            for seat in view["seats_info"]:  # since when the turn waits: a clock, no secret
                seat["idle_since"] = None
            views.append(json.dumps(view, default=str, sort_keys=True))
        assert views[0] == views[1]


def test_the_theft_choice_and_the_yacht_club_summaries(dora, alice, bob):
    game = people_game(dora, alice, bob, deck=scenario_deck("lux3 lux7 theft"), first_player=0)
    for version, (user, action) in enumerate(
        [
            (dora, {"type": "bid", "cards": [1000]}),
            (alice, {"type": "pass"}),
            (bob, {"type": "pass"}),  # dora wins Luxury 3 and leads Luxury 7
            (dora, {"type": "bid", "cards": [2000]}),
            (alice, {"type": "pass"}),
            (bob, {"type": "pass"}),  # dora wins Luxury 7 and leads Theft
            (dora, {"type": "pass"}),  # and takes it
        ]
    ):
        game = game_submit_action(game=game, user=user, action=action, expected_version=version)
    summary = table_view(game=game, user=dora).to_json()["legal_actions"]
    assert (summary["can_pass"], summary["can_bid"]) == (False, False)
    assert summary["discard_choices"] == ["lux3", "lux7"]
    assert table_view(game=game, user=alice).to_json()["legal_actions"] == []

    yacht = people_game(
        dora, alice, bob, advanced=["yacht"], deck=scenario_deck("yacht", ["yacht"]), first_player=0
    )
    summary = table_view(game=yacht, user=bob).to_json()["legal_actions"]
    assert summary["sealed_choices"] == summary["hand"] and len(summary["hand"]) == 11
    assert summary["can_pass"] is False
    game_submit_action(
        game=yacht, user=bob, action={"type": "sealed_bid", "card": 25000}, expected_version=0
    )
    assert table_view(game=yacht, user=bob).to_json()["legal_actions"] == []
    assert table_view(game=yacht, user=bob).to_json()["sealed_choice"] == 25000
    # The others see that bob chose, not what.
    dora_view = table_view(game=yacht, user=dora).to_json()
    assert dora_view["seats"][2]["sealed"] == "chosen"
    assert (
        "25000" not in json.dumps(dora_view["seats"][2])
        and dora_view["seats"][2]["hand_count"] == 11
    )


def test_a_finished_game_has_the_result_and_the_breakdown(dora, alice, bob):
    game = people_play(
        people_game(dora, alice, bob, deck=scenario_deck("lux5"), first_player=0), random.Random(7)
    )
    view = table_view(game=game, user=None).to_json()
    assert view["status"] == "finished"
    assert view["result"] == game.result and view["result"]["players"]
    assert view["score_details"] == score_details(game.engine_state())
    assert view["legal_actions"] == []
    assert view["log_text"][-1].endswith("the game ends.")


def test_the_view_of_a_table_that_has_not_started(alice, bob):
    game = game_create(
        creator=alice,
        players=4,
        seats=[{"user": "bob"}, {"ai": "medium"}, {"open": True}],
        memory_aid=True,
    )
    view = table_view(game=game, user=bob).to_json()
    assert view["state"] is None and view["status"] == "open"
    assert view["your_seat"] == 1 and view["seats_info"][1]["invited"]
    assert [s["display_name"] for s in view["seats_info"]] == [
        "Alice",
        "Bob",
        "Bot (medium)",
        "Open seat",
    ]
    assert view["options"]["memory_aid"] is True and view["legal_actions"] == []
    game_invitation_respond(game=game, user=bob, accept=False)
    assert table_view(game=game, user=bob).to_json()["your_seat"] is None


def test_two_bots_of_a_level_get_told_apart(alice, run_commits):
    with run_commits():
        game = GameFactory(creator=alice, seats=[{"ai": "medium"}, {"ai": "medium"}])
    game.refresh_from_db()
    names = [s["display_name"] for s in table_view(game=game, user=alice).to_json()["seats_info"]]
    assert names == ["Alice", "Bot (medium) #2", "Bot (medium) #3"]


def test_the_view_costs_the_same_queries_after_2_and_after_40_moves(
    dora, alice, bob, carol, django_assert_num_queries
):
    counts = {}
    for target in (2, 40):
        game = people_game(dora, alice, bob, carol, deck=scenario_deck("lux5"), first_player=0)
        game = people_play(game, random.Random(11), until_version=target)
        assert game.version >= target and game.status == Game.Status.ACTIVE
        with django_assert_num_queries(2) as captured:
            fresh = Game.objects.get(pk=game.pk)
            view = table_view(game=fresh, user=alice).to_json()
        counts[target] = len(captured.captured_queries)
        assert len(view["log_text"]) > target
    assert counts[2] == counts[40]


def test_the_view_uses_prefetched_seats_without_a_query(table, alice, django_assert_num_queries):
    from django.db.models import Prefetch

    from games.models import Seat

    game = Game.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    ).get(pk=table.pk)
    with django_assert_num_queries(0):
        table_view(game=game, user=alice).to_json()


def test_the_to_act_list_of_the_view(table, alice):
    view = table_view(game=table, user=alice).to_json()
    assert view["to_act"] == seats_to_act(table.engine_state()) == [1]
