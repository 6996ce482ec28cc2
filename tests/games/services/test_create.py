"""game_create: every kind of seat, the options, and every bad input refused with a
clear sentence and nothing stored."""

import pytest

from games.engine import deck_cards
from games.errors import GameError, NotAllowed
from games.models import Game, Move, Seat
from games.services import game_create
from tests.factories import UserFactory
from tests.games.factories import scenario_deck

pytestmark = pytest.mark.django_db


def test_creator_takes_seat_0_before_the_listed_seats(alice, bob):
    game = game_create(
        creator=alice,
        players=4,
        seats=[{"user": "bob"}, {"ai": "hard"}, {"open": True}],
        advanced=["yacht", "gambling"],
        move_deadline_hours=48,
        memory_aid=True,
    )
    assert game.status == Game.Status.OPEN
    assert game.state is None and game.version == 0
    assert game.created_by == alice
    assert game.advanced == ["gambling", "yacht"]  # the canonical order
    assert (game.move_deadline_hours, game.memory_aid) == (48, True)
    seats = list(game.seats.order_by("position"))
    assert [s.position for s in seats] == [0, 1, 2, 3]
    assert seats[0].user == alice and seats[0].accepted and seats[0].joined_at
    assert seats[1].user == bob and seats[1].invited and not seats[1].accepted
    assert seats[2].is_bot and seats[2].ai_level == "hard"
    assert seats[3].is_open
    assert [s.display_name for s in seats] == ["Alice", "Bob", "Bot (hard)", "Open seat"]


def test_listing_every_seat_puts_the_creator_where_their_name_is(alice, bob):
    game = game_create(
        creator=alice, players=3, seats=[{"ai": "easy"}, {"user": "alice"}, {"user": "bob"}]
    )
    seats = list(game.seats.order_by("position"))
    assert seats[0].ai_level == "easy"
    assert seats[1].user == alice and seats[1].accepted
    assert seats[2].user == bob and seats[2].invited


def test_usernames_match_without_regard_to_case(alice, bob):
    game = game_create(creator=alice, players=3, seats=[{"user": "BOB"}, {"open": True}])
    assert game.seats.get(position=1).user == bob


def test_a_table_full_of_bots_starts_at_once(alice):
    game = game_create(
        creator=alice,
        players=5,
        seats=[{"ai": level} for level in ("random", "easy", "medium", "hard")],
    )
    assert game.status == Game.Status.ACTIVE
    assert game.started_at is not None
    state = game.engine_state()
    assert state.players == 5 and state.phase == "auction"
    assert game.version == state.moves == Move.objects.filter(game=game).count()


def test_the_deck_is_shuffled_at_the_start_and_never_follows_the_id(alice):
    decks = {
        tuple(
            game_create(creator=alice, players=3, seats=[{"ai": "random"}] * 2)
            .engine_state()
            .setup_deck
        )
        for _ in range(6)
    }
    assert len(decks) > 1


def test_staff_fix_the_deck_and_first_player(dora):
    deck = scenario_deck("lux3 yacht debt", advanced=["yacht"])
    game = game_create(
        creator=dora,
        players=3,
        seats=[{"ai": "random"}] * 2,
        advanced=["yacht"],
        deck=deck,
        first_player=2,
    )
    state = game.engine_state()
    assert list(state.setup_deck) == deck
    assert state.first_player == 2 and state.card == "lux3"
    assert game.scenario_deck == deck and game.scenario_first_player == 2


def _nothing_stored():
    return Game.objects.count() == 0 and Seat.objects.count() == 0 and Move.objects.count() == 0


BAD_TABLES = [
    # (keyword arguments, a phrase of the message)
    ({"players": 2, "seats": [{"ai": "easy"}]}, "3 to 5 players, not 2"),
    ({"players": 6, "seats": [{"ai": "easy"}] * 5}, "3 to 5 players, not 6"),
    ({"players": "4", "seats": [{"ai": "easy"}] * 3}, "whole number from 3 to 5"),
    ({"players": True, "seats": []}, "whole number from 3 to 5"),
    ({"players": None, "seats": []}, "whole number from 3 to 5"),
    ({"players": 3, "seats": "bob"}, "must be a list"),
    ({"players": 3, "seats": {"ai": "easy"}}, "must be a list"),
    ({"players": 3, "seats": None}, "must be a list"),
    ({"players": 4, "seats": [{"ai": "easy"}]}, "1 was given"),
    ({"players": 3, "seats": [{"ai": "easy"}] * 4}, "4 were given"),
    ({"players": 3, "seats": [{"ai": "easy"}, "bob"]}, "Seat 2: say who sits there"),
    ({"players": 3, "seats": [{"ai": "easy"}, {}]}, "Seat 2: say who sits there"),
    (
        {"players": 3, "seats": [{"ai": "easy", "open": True}, {"open": True}]},
        "Seat 1: say who sits there",
    ),
    ({"players": 3, "seats": [{"robot": "easy"}, {"open": True}]}, "Seat 1: say who sits there"),
    ({"players": 3, "seats": [{"ai": "master"}, {"open": True}]}, "unknown bot level “master”"),
    ({"players": 3, "seats": [{"ai": 3}, {"open": True}]}, "unknown bot level “3”"),
    ({"players": 3, "seats": [{"ai": ""}, {"open": True}]}, "unknown bot level"),
    ({"players": 3, "seats": [{"open": False}, {"open": True}]}, 'written {"open": true}'),
    ({"players": 3, "seats": [{"open": "yes"}, {"open": True}]}, 'written {"open": true}'),
    ({"players": 3, "seats": [{"user": "nobody"}, {"open": True}]}, "no player called “nobody”"),
    ({"players": 3, "seats": [{"user": "  "}, {"open": True}]}, "give the username"),
    ({"players": 3, "seats": [{"user": 7}, {"open": True}]}, "give the username"),
    ({"players": 3, "seats": [{"user": "bob"}, {"user": "Bob"}]}, "listed twice"),
    ({"players": 3, "seats": [{"user": "alice"}, {"open": True}]}, "leave your name out"),
    (
        {"players": 3, "seats": [{"user": "bob"}, {"ai": "easy"}, {"open": True}]},
        "one of them must be yours (alice)",
    ),
    (
        {"players": 3, "seats": [{"ai": "easy"}] * 2, "advanced": ["casino"]},
        "Unknown advanced card “casino”",
    ),
    ({"players": 3, "seats": [{"ai": "easy"}] * 2, "advanced": ["yacht", "yacht"]}, "added once"),
    ({"players": 3, "seats": [{"ai": "easy"}] * 2, "advanced": "yacht"}, "must be a list"),
    ({"players": 3, "seats": [{"ai": "easy"}] * 2, "advanced": [None]}, "Unknown advanced card"),
    ({"players": 3, "seats": [{"ai": "easy"}] * 2, "move_deadline_hours": 12}, "move deadline"),
    ({"players": 3, "seats": [{"ai": "easy"}] * 2, "move_deadline_hours": "48"}, "move deadline"),
    ({"players": 3, "seats": [{"ai": "easy"}] * 2, "move_deadline_hours": 0}, "move deadline"),
    ({"players": 3, "seats": [{"ai": "easy"}] * 2, "memory_aid": "yes"}, "memory aid"),
]


@pytest.mark.parametrize(("kwargs", "phrase"), BAD_TABLES)
def test_bad_input_is_refused_and_nothing_is_stored(alice, bob, kwargs, phrase):
    with pytest.raises(GameError) as error:
        game_create(creator=alice, **kwargs)
    assert phrase in str(error.value)
    assert _nothing_stored()


@pytest.mark.parametrize(
    "language, quoted",
    [("en", "“nobody”"), ("de", "„nobody“"), ("fr", "«\u00a0nobody\u00a0»")],
)
def test_a_name_as_typed_is_quoted_as_the_language_quotes(alice, language, quoted):
    """Python's repr quoted it 'nobody' in every language."""
    from django.utils import translation

    with translation.override(language), pytest.raises(GameError) as error:
        game_create(creator=alice, players=3, seats=[{"user": "nobody"}, {"open": True}])
    assert quoted in str(error.value) and "'nobody'" not in str(error.value)


def test_an_inactive_user_cannot_be_invited(alice):
    UserFactory(username="gone", is_active=False)
    with pytest.raises(GameError, match="no player called “gone”"):
        game_create(creator=alice, players=3, seats=[{"user": "gone"}, {"open": True}])
    assert _nothing_stored()


@pytest.mark.parametrize("creator", [None, "anonymous", "inactive"])
def test_only_a_logged_in_user_opens_a_table(creator):
    from django.contrib.auth.models import AnonymousUser

    user = {
        None: None,
        "anonymous": AnonymousUser(),
        "inactive": UserFactory(is_active=False) if creator == "inactive" else None,
    }[creator]
    with pytest.raises(NotAllowed, match="Log in"):
        game_create(creator=user, players=3, seats=[{"ai": "easy"}] * 2)
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    "scenario",
    [
        {"deck": list(deck_cards())},
        {"first_player": 0},
        {"deck": list(deck_cards()), "first_player": 1},
    ],
)
def test_only_staff_fix_the_deck_or_first_player(alice, scenario):
    with pytest.raises(NotAllowed, match="Only staff"):
        game_create(creator=alice, players=3, seats=[{"ai": "easy"}] * 2, **scenario)
    assert _nothing_stored()


BAD_SCENARIOS = [
    ({"deck": list(deck_cards())[:-1]}, "exactly the 16 cards"),
    ({"deck": [*deck_cards(), "lux1"]}, "exactly the 16 cards"),
    ({"deck": list(deck_cards())}, "exactly the 17 cards", ["yacht"]),
    ({"deck": [*deck_cards()[:-1], "lux11"]}, "exactly the 16 cards"),
    ({"deck": "lux1 lux2"}, "exactly the 16 cards"),
    ({"deck": [1, 2, 3]}, "exactly the 16 cards"),
    ({"first_player": 3}, "from 0 to 2"),
    ({"first_player": -1}, "from 0 to 2"),
    ({"first_player": True}, "from 0 to 2"),
    ({"first_player": "0"}, "from 0 to 2"),
]


@pytest.mark.parametrize("case", BAD_SCENARIOS)
def test_bad_scenarios_are_refused(dora, case):
    scenario, phrase, *advanced = case
    with pytest.raises(GameError) as error:
        game_create(
            creator=dora,
            players=3,
            seats=[{"ai": "easy"}] * 2,
            advanced=advanced[0] if advanced else (),
            **scenario,
        )
    assert phrase in str(error.value)
    assert _nothing_stored()


def test_a_table_that_starts_at_once_starts_as_it_is_created(alice):
    """Its start was stamped before its creation (by the ~50 ms of creating it), so a
    client's "time to start" came out negative."""
    game = game_create(creator=alice, players=3, seats=[{"ai": "easy"}, {"ai": "easy"}])
    assert game.status == Game.Status.ACTIVE
    assert game.started_at == game.created_at
    assert {s.joined_at for s in game.seats.all()} == {game.created_at}
