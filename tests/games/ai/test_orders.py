"""games.ai.orders without a database: what each kind of order does from a seat's view,
why an order could never act, and that only the seat's own view counts."""

from __future__ import annotations

import random

import pytest

from games.ai.orders import (
    Defaults,
    Order,
    defaults_problem,
    order_action,
    order_problem,
    proxy_bid,
)
from games.engine import apply_action, new_game, player_view
from tests.games.engine.scenario import make_deck


def game(top: str, advanced=(), players=3):
    return new_game(
        players=players, deck=make_deck(top, tuple(advanced)), first_player=0, advanced=advanced
    )


def play(state, *actions):
    for action in actions:
        state = apply_action(state, action)
    return state


def test_nothing_when_it_is_not_the_seats_turn():
    state = game("lux5 lux6")
    assert order_action(player_view(state, 1), Order(kind="pass")) is None


def test_a_proxy_bid_raises_with_the_cheapest_set_then_passes_above_its_maximum():
    state = play(game("lux5 lux6"), {"seat": 0, "type": "bid", "cards": [3000]})
    view = player_view(state, 1)
    order = Order(kind="bid", maximum=6000)
    assert order_action(view, order) == {"seat": 1, "type": "bid", "cards": [4000]}
    state = play(
        state,
        {"seat": 1, "type": "bid", "cards": [4000]},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "bid", "cards": [4000]},  # 7,000: beating it needs 8,000
    )
    assert order_action(player_view(state, 1), order) == {"seat": 1, "type": "pass"}


def test_a_proxy_bid_keeps_small_cards_when_totals_tie():
    # To beat 2,000 from nothing: 3,000 alone, not 1,000 + 2,000 (same total, fewer options left).
    state = play(game("lux5 lux6"), {"seat": 0, "type": "bid", "cards": [2000]})
    assert proxy_bid(player_view(state, 1), 9000) == (3000,)


def test_a_proxy_bid_only_from_the_ticked_cards():
    state = game("lux5 lux6")
    view = player_view(state, 0)
    assert proxy_bid(view, 30000, (12000, 20000)) == (12000,)
    assert proxy_bid(view, 10000, (12000, 20000)) == ()


def test_defaults_pass_on_small_luxuries_and_pay_to_avoid_misfortunes():
    defaults = Defaults(luxury_below=4, misfortune_max=2000)
    assert order_action(player_view(game("lux3"), 0), None, defaults)["type"] == "pass"
    assert order_action(player_view(game("lux4"), 0), None, defaults) is None
    debt = play(game("debt"), {"seat": 0, "type": "bid", "cards": [1000]})
    assert order_action(player_view(debt, 1), None, defaults)["cards"] == [2000]
    debt = play(debt, {"seat": 1, "type": "bid", "cards": [2000]})
    debt = play(debt, {"seat": 2, "type": "bid", "cards": [3000]})
    debt = play(debt, {"seat": 0, "type": "bid", "cards": [3000]})  # Dora 4,000
    assert order_action(player_view(debt, 1), None, defaults) == {"seat": 1, "type": "pass"}


def test_an_order_for_the_card_goes_before_the_defaults():
    view = player_view(game("lux3"), 0)
    assert order_action(view, Order(kind="bid", maximum=5000), Defaults(luxury_below=9)) == {
        "seat": 0,
        "type": "bid",
        "cards": [1000],
    }


def test_theft_and_yacht_club_choices():
    state = play(
        game("lux2 lux8 theft"),
        {"seat": 0, "type": "bid", "cards": [1000]},
        {"seat": 1, "type": "pass"},
        {"seat": 2, "type": "pass"},  # Dora takes Luxury 2 and starts Luxury 8
        {"seat": 0, "type": "bid", "cards": [2000]},
        {"seat": 1, "type": "pass"},
        {"seat": 2, "type": "pass"},  # Dora: Luxury 2 and 8; Theft is up, Dora first
        {"seat": 0, "type": "pass"},  # Dora takes Theft: she must choose
    )
    view = player_view(state, 0)
    assert order_action(view, Order(discard="lowest")) == {
        "seat": 0,
        "type": "discard",
        "card": "lux2",
    }
    assert order_action(view, Order(discard="lux8"))["card"] == "lux8"
    assert order_action(view, Order(discard="lux5")) is None  # not hers: she decides
    yacht = game("yacht", advanced=("yacht",))
    assert order_action(player_view(yacht, 2), Order(kind="seal", seal=6000)) == {
        "seat": 2,
        "type": "sealed_bid",
        "card": 6000,
    }


@pytest.mark.parametrize(
    "order, problem",
    [
        (Order(kind="bid", maximum=3000), "cannot beat the high bid of 3,000"),
        (Order(kind="bid", maximum=0), "Give the most your bid may total"),
        (Order(kind="bid", maximum=9000, cards=()), "Tick at least one card"),
        (Order(kind="bid", maximum=9000, cards=(7000,)), "You do not hold 7,000"),
        (Order(kind="bid", maximum=9000, cards=(1000, 2000, 1000)), "the 1,000 card twice"),
        (Order(kind="bid", maximum=3500, cards=(1000, 2000, 4000)), "without going over 3,500"),
        (Order(kind="seal", seal=1000), "no Yacht Club auction"),
        (Order(discard="lowest"), "only for the Theft card"),
    ],
)
def test_orders_that_could_never_act(order, problem):
    state = play(game("lux5 lux6"), {"seat": 0, "type": "bid", "cards": [3000]})
    assert problem in order_problem(player_view(state, 1), order)


def test_sound_orders_have_no_problem():
    state = play(game("lux5 lux6"), {"seat": 0, "type": "bid", "cards": [3000]})
    view = player_view(state, 1)
    for order in (Order(kind="pass"), Order(kind="bid", maximum=4000)):
        assert order_problem(view, order) is None
    assert defaults_problem(Defaults(luxury_below=12, misfortune_max=0)) is None
    assert "from 2 to 12" in defaults_problem(Defaults(luxury_below=1))


def test_orders_decide_from_the_seats_view_only():
    """Two deals that differ only in the unseen deck give the same answer."""
    rng = random.Random(5)
    for _ in range(30):
        deck = make_deck("lux5 debt", ())
        head, tail = deck[:3], deck[3:]
        other = tail[:]
        rng.shuffle(other)
        views = []
        for order_of_deck in (head + tail, head + other):
            state = new_game(players=3, deck=order_of_deck, first_player=0)
            state = play(state, {"seat": 0, "type": "bid", "cards": [1000]})
            views.append(player_view(state, 1))
        maximum = rng.choice((2000, 5000, 9000))
        answers = [order_action(v, Order(kind="bid", maximum=maximum)) for v in views]
        assert answers[0] == answers[1]
