"""Standing orders through the services: each kind answers in the transaction of the
move that made the turn come round, is stored as the order's move, ends with its
auction, and every refusal changes nothing."""

import random

import pytest

from games.ai.orders import Defaults, Order
from games.errors import AuctionOver, InvalidOrder, NotAllowed, NotYourSeat
from games.models import Move, Notification, StandingOrder
from games.replay import replayed_state
from games.services import (
    game_orders_cancel,
    game_orders_set,
    game_resign,
    game_submit_action,
)
from tests.games.factories import people_game, people_play, scenario_deck, table_snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.embedded]


def table_of(dora, alice, bob, top: str, advanced=()):
    """dora (seat 0, to act first), alice (1), bob (2)."""
    return people_game(
        dora, alice, bob, deck=scenario_deck(top, advanced), first_player=0, advanced=advanced
    )


def act(game, user, **action):
    return game_submit_action(game=game, user=user, action=action, expected_version=game.version)


def order_moves(game):
    return list(Move.objects.filter(game=game, actor=Move.Actor.ORDER).order_by("number"))


def test_a_proxy_bid_raises_with_the_cheapest_cards_until_its_maximum(dora, alice, bob):
    game = table_of(dora, alice, bob, "lux5 lux6 lux7")
    game_orders_set(game=game, user=alice, card="lux5", order=Order(kind="bid", maximum=5000))
    assert game.version == 0  # not alice's turn: nothing moved

    game = act(game, dora, type="bid", cards=[1000])
    # alice's order answered in the same transaction: 2,000 beats 1,000.
    assert game.version == 2
    [move] = order_moves(game)
    assert (move.seat, move.action, move.user) == (
        1,
        {"seat": 1, "type": "bid", "cards": [2000]},
        None,
    )
    assert game.engine_state().turn == 2  # bob's turn now

    game = act(game, bob, type="bid", cards=[3000])
    game = act(game, dora, type="bid", cards=[3000])  # dora 4,000 in all
    # alice must beat 4,000 with at most 5,000: adds 3,000 (total 5,000).
    moves = order_moves(game)
    assert moves[-1].action == {"seat": 1, "type": "bid", "cards": [3000]}
    game = act(game, bob, type="bid", cards=[4000])  # bob 7,000
    game = act(game, dora, type="pass")
    # Beating 7,000 would cost more than 5,000: the order passes, and bob wins.
    moves = order_moves(game)
    assert moves[-1].action == {"seat": 1, "type": "pass"}
    state = game.engine_state()
    assert state.owned[2] == ("lux5",)
    assert not StandingOrder.objects.filter(game=game).exists()  # spent and gone


def test_a_proxy_bid_only_from_the_ticked_cards(dora, alice, bob):
    game = table_of(dora, alice, bob, "lux5 lux6 lux7")
    game_orders_set(
        game=game,
        user=alice,
        card="lux5",
        order=Order(kind="bid", maximum=20000, cards=(10000, 12000)),
    )
    game = act(game, dora, type="bid", cards=[1000])
    assert order_moves(game)[-1].action["cards"] == [10000]


def test_an_order_left_on_ones_turn_answers_at_once(dora, alice, bob):
    game = table_of(dora, alice, bob, "lux5 lux6 lux7")
    game_orders_set(game=game, user=dora, card="lux5", order=Order(kind="bid", maximum=3000))
    game.refresh_from_db()
    assert game.version == 1
    assert order_moves(game)[0].action == {"seat": 0, "type": "bid", "cards": [1000]}
    assert StandingOrder.objects.get(game=game).kind == "bid"  # still answers later


def test_a_pass_order_passes_and_is_spent(dora, alice, bob):
    game = table_of(dora, alice, bob, "lux5 lux6 lux7")
    game_orders_set(game=game, user=alice, card="lux5", order=Order(kind="pass"))
    game = act(game, dora, type="bid", cards=[1000])
    assert order_moves(game)[-1].action == {"seat": 1, "type": "pass"}
    assert not StandingOrder.objects.filter(game=game).exists()


def test_paying_up_to_a_maximum_to_avoid_a_misfortune(dora, alice, bob):
    game = table_of(dora, alice, bob, "debt lux6 lux7")
    game_orders_set(game=game, user=alice, card="debt", order=Order(kind="bid", maximum=2000))
    game = act(game, dora, type="bid", cards=[1000])
    assert order_moves(game)[-1].action == {"seat": 1, "type": "bid", "cards": [2000]}
    game = act(game, bob, type="bid", cards=[3000])
    game = act(game, dora, type="bid", cards=[3000])  # dora 4,000
    # Dodging again would cost more than 2,000: alice passes and takes Debt.
    assert order_moves(game)[-1].action == {"seat": 1, "type": "pass"}
    assert "debt" in game.engine_state().owned[1]


def test_an_order_ends_with_its_auction(dora, alice, bob):
    game = table_of(dora, alice, bob, "lux5 lux6 lux7")
    game_orders_set(game=game, user=alice, card="lux5", order=Order(kind="bid", maximum=30000))
    game = act(game, dora, type="pass")  # alice's order opens with 1,000
    game = act(game, bob, type="pass")  # alice wins Luxury 5; she starts the next round
    state = game.engine_state()
    assert state.owned[1] == ("lux5",) and state.card == "lux6" and state.turn == 1
    assert not StandingOrder.objects.filter(game=game).exists()  # its auction is over
    assert game.version == 3  # and it made no move for Luxury 6


def test_defaults_pass_on_small_luxuries_and_pay_to_dodge_misfortunes(dora, alice, bob):
    game = table_of(dora, alice, bob, "lux3 debt lux9")
    game_orders_set(game=game, user=alice, defaults=Defaults(luxury_below=5, misfortune_max=1000))
    game = act(game, dora, type="bid", cards=[1000])
    assert order_moves(game)[-1].action == {"seat": 1, "type": "pass"}  # Luxury 3 < 5
    game = act(game, bob, type="pass")  # dora wins Luxury 3; dora starts on Debt
    assert game.engine_state().card == "debt"
    game = act(game, dora, type="pass")  # dora takes Debt at once: the auction ends
    state = game.engine_state()
    assert state.card == "lux9"
    # Luxury 9 is not below 5: alice's defaults say nothing, she is asked herself.
    game = act(game, dora, type="bid", cards=[2000])
    assert game.engine_state().turn == 1
    assert StandingOrder.objects.get(game=game).luxury_below == 5  # defaults stand


def test_the_misfortune_default_pays_within_its_maximum(dora, alice, bob):
    game = table_of(dora, alice, bob, "scandal lux6 lux7")
    game_orders_set(game=game, user=alice, defaults=Defaults(misfortune_max=3000))
    game = act(game, dora, type="bid", cards=[1000])
    assert order_moves(game)[-1].action == {"seat": 1, "type": "bid", "cards": [2000]}


def test_theft_discards_the_lowest_or_the_named_luxury(dora, alice, bob):
    game = table_of(dora, alice, bob, "lux2 lux8 theft lux7")
    game = act(game, dora, type="pass")
    game = act(game, alice, type="bid", cards=[1000])
    game = act(game, bob, type="pass")  # alice has Luxury 2; alice starts Luxury 8
    game = act(game, alice, type="bid", cards=[2000])
    game = act(game, bob, type="pass")
    game = act(game, dora, type="pass")  # alice has Luxury 2 and 8; Theft is up
    state = game.engine_state()
    assert state.card == "theft" and state.turn == 1
    game_orders_set(game=game, user=alice, card="theft", order=Order(discard="lux8"))
    game = act(game, alice, type="pass")  # alice takes Theft and must choose
    assert order_moves(game)[-1].action == {"seat": 1, "type": "discard", "card": "lux8"}
    assert game.engine_state().owned[1] == ("lux2",)


@pytest.mark.parametrize(
    "order",
    [Order(kind="pass", discard="lowest"), Order(kind="bid", maximum=3000, discard="lowest")],
    ids=["pass", "proxy-bid-that-gives-up"],
)
def test_an_order_that_takes_theft_also_discards(dora, alice, bob, order):
    """The order's own pass takes Theft (the first to pass takes a misfortune), and the
    same order then discards: the table does not wait for Alice, away, to choose."""
    game = table_of(dora, alice, bob, "lux2 lux8 theft lux7")
    game = act(game, dora, type="pass")
    game = act(game, alice, type="bid", cards=[1000])
    game = act(game, bob, type="pass")
    game = act(game, alice, type="bid", cards=[2000])
    game = act(game, bob, type="pass")
    game = act(game, dora, type="pass")  # alice has Luxury 2 and 8; Theft is up, her turn
    game_orders_set(game=game, user=alice, card="theft", order=order)
    if order.kind == "bid":  # her proxy bids 3,000; then 6,000 is more than it may pay
        game = act(game, bob, type="bid", cards=[4000])
        game = act(game, dora, type="bid", cards=[6000])
    game.refresh_from_db()
    actions = [move.action for move in order_moves(game)[-2:]]
    assert actions == [
        {"seat": 1, "type": "pass"},
        {"seat": 1, "type": "discard", "card": "lux2"},
    ]
    assert game.engine_state().owned[1] == ("lux8",)
    assert not StandingOrder.objects.filter(seat__game=game, seat__position=1).exists()
    # The log names the order as the discard's maker, not as the luxury's owner
    # ("Alice (standing order)'s Luxury 2").
    from games.selectors import log_entries, table_view

    entry = log_entries(game=game, view=table_view(game=game, user=bob))[-1]
    assert entry.actor == "order"
    assert entry.text.startswith("Theft: Alice (standing order) discards Luxury 2"), entry.text


def test_the_log_names_only_the_move_itself_as_the_orders(dora, alice, bob):
    """ "Alice (standing order) passes. Alice takes Debt …": what followed from the move
    (taking the card, revealing the next) is Alice's, not the order's."""
    from games.selectors import log_entries, table_view

    game = table_of(dora, alice, bob, "debt lux6 lux7")
    game_orders_set(game=game, user=alice, card="debt", order=Order(kind="pass"))
    game = act(game, dora, type="bid", cards=[1000])  # alice's order passes: she takes Debt
    entry = log_entries(game=game, view=table_view(game=game, user=bob))[-1]
    assert entry.actor == "order"
    assert entry.text.startswith("Alice (standing order) passes")
    assert entry.text.count("(standing order)") == 1 and "Alice takes Debt" in entry.text


def test_a_yacht_club_order_seals_the_card(dora, alice, bob):
    game = table_of(dora, alice, bob, "yacht lux6 lux7", advanced=("yacht",))
    game_orders_set(game=game, user=alice, card="yacht", order=Order(kind="seal", seal=4000))
    move = order_moves(game)[-1]
    assert move.action == {"seat": 1, "type": "sealed_bid", "card": 4000}


@pytest.mark.parametrize(
    "order, error",
    [
        (Order(kind="bid", maximum=1000), "cannot beat the high bid of 2,000"),
        (Order(kind="bid", maximum=9000, cards=(5000,)), "You do not hold 5,000"),
        (Order(kind="bid", maximum=9000, cards=(25000,)), "without going over 9,000"),
        (Order(kind="bid", maximum=9000, cards=()), "Tick at least one card"),
        # More than all her money (a zero too many): refused, not read as "no limit".
        (Order(kind="bid", maximum=106_001), r"You have 106,000 in all, your bid included"),
        (Order(kind="seal", seal=1000), "no Yacht Club auction"),
        (Order(discard="lowest"), "only for the Theft card"),
    ],
)
def test_an_order_that_could_never_act_is_refused_and_changes_nothing(
    dora, alice, bob, order, error
):
    game = table_of(dora, alice, bob, "lux5 lux6 lux7")
    game = act(game, dora, type="bid", cards=[2000])
    before = table_snapshot(game)
    with pytest.raises(InvalidOrder, match=error):
        game_orders_set(game=game, user=alice, card="lux5", order=order)
    assert table_snapshot(game) == before
    assert not StandingOrder.objects.exists()


def test_an_order_for_an_auction_that_ended_is_refused(dora, alice, bob):
    game = table_of(dora, alice, bob, "lux5 lux6 lux7")
    with pytest.raises(AuctionOver, match="Luxury 6 is not up for auction yet"):
        game_orders_set(game=game, user=alice, card="lux6", order=Order(kind="pass"))
    # A card that does not exist is bad input, and not echoed back.
    with pytest.raises(InvalidOrder, match="There is no such card") as refused:
        game_orders_set(game=game, user=alice, card="<script>", order=Order(kind="pass"))
    assert "<script>" not in str(refused.value)
    game = act(game, dora, type="bid", cards=[1000])
    game = act(game, alice, type="pass")
    with pytest.raises(InvalidOrder, match="You have passed"):
        game_orders_set(game=game, user=alice, card="lux5", order=Order(kind="pass"))
    assert not StandingOrder.objects.exists()


def test_an_order_drawn_for_an_earlier_auction_of_the_same_card_is_refused(
    dora, alice, bob, client
):
    """Three Prestige cards: a form left open on the first one's auction names the
    card that is up again, and was taken for the second; its auction number tells."""
    from games.selectors import orders_view, table_view

    game = table_of(dora, alice, bob, "prestige lux3 prestige")
    first = orders_view(game=game, view=table_view(game=game, user=alice)).number
    client.force_login(alice)
    drawn = client.get(f"/games/{game.pk}/").content.decode()
    assert f'name="auction" value="{first}"' in drawn
    for money in (1000, 2000):  # Dora takes the first Prestige, then Luxury 3
        game = act(game, dora, type="bid", cards=[money])
        game = act(game, alice, type="pass")
        game = act(game, bob, type="pass")
    game.refresh_from_db()
    assert game.engine_state().card == "prestige"
    with pytest.raises(AuctionOver, match="The auction of Prestige is over"):
        game_orders_set(
            game=game, user=alice, card="prestige", order=Order(kind="pass"), auction_number=first
        )
    answer = client.post(
        f"/games/{game.pk}/orders/",
        {"what": "order", "card": "prestige", "auction": first, "kind": "pass"},
    )
    assert "The auction of Prestige is over" in answer.content.decode()
    assert not StandingOrder.objects.exists()
    now = orders_view(game=game, view=table_view(game=game, user=alice)).number
    assert now == first + 2
    game_orders_set(
        game=game, user=alice, card="prestige", order=Order(kind="pass"), auction_number=now
    )
    assert StandingOrder.objects.count() == 1


def test_bad_defaults_are_refused(dora, alice, bob):
    game = table_of(dora, alice, bob, "lux5 lux6 lux7")
    with pytest.raises(InvalidOrder, match="from 2 to 12"):
        game_orders_set(game=game, user=alice, defaults=Defaults(luxury_below=1))
    with pytest.raises(InvalidOrder, match="from 0 to 106,000"):
        game_orders_set(game=game, user=alice, defaults=Defaults(misfortune_max=200000))


def test_only_a_seated_player_leaves_orders(dora, alice, bob, outsider):
    game = table_of(dora, alice, bob, "lux5 lux6 lux7")
    with pytest.raises(NotYourSeat):
        game_orders_set(game=game, user=outsider, card="lux5", order=Order(kind="pass"))
    game_resign(game=game, user=bob)
    with pytest.raises(NotAllowed, match="resigned"):
        game_orders_set(game=game, user=bob, card="lux5", order=Order(kind="pass"))


def test_cancel_and_resign_clear_the_orders(dora, alice, bob):
    game = table_of(dora, alice, bob, "lux5 lux6 lux7")
    game_orders_set(game=game, user=alice, card="lux5", order=Order(kind="pass"))
    game_orders_cancel(game=game, user=alice)
    assert not StandingOrder.objects.exists()
    game_orders_set(game=game, user=alice, defaults=Defaults(luxury_below=3))
    game_resign(game=game, user=alice)
    assert not StandingOrder.objects.exists()


def test_clearing_with_none_keeps_the_other_part(dora, alice, bob):
    game = table_of(dora, alice, bob, "lux5 lux6 lux7")
    game_orders_set(
        game=game,
        user=alice,
        card="lux5",
        order=Order(kind="pass"),
        defaults=Defaults(luxury_below=3),
    )
    row = game_orders_set(game=game, user=alice, order=None)
    assert row is not None and row.kind == "" and row.luxury_below == 3
    assert game_orders_set(game=game, user=alice, defaults=None) is None


def test_no_turn_email_while_an_order_answers(dora, alice, bob, run_commits):
    game = table_of(dora, alice, bob, "lux5 lux6 lux7")
    game_orders_set(game=game, user=alice, card="lux5", order=Order(kind="bid", maximum=9000))
    with run_commits():
        act(game, dora, type="bid", cards=[1000])
    assert not Notification.objects.filter(user=alice, kind=Notification.Kind.TURN).exists()
    assert Notification.objects.filter(user=bob, kind=Notification.Kind.TURN).exists()


def test_games_with_order_moves_replay_to_the_stored_state(dora, alice, bob):
    game = table_of(dora, alice, bob, "lux5 debt lux6 theft lux7 lux8")
    rng = random.Random(3)
    for turn in range(40):
        if game.status != "active":
            break
        state = game.engine_state()
        if state.card is not None and turn % 3 == 0:
            for user in (alice, bob):
                try:
                    game_orders_set(
                        game=game,
                        user=user,
                        card=state.card,
                        order=Order(kind="bid", maximum=rng.choice((3000, 8000, 15000))),
                    )
                except (InvalidOrder, AuctionOver):
                    pass
            game.refresh_from_db()
        game = people_play(game, rng, until_version=game.version + 1)
    assert order_moves(game)
    assert replayed_state(game) == game.engine_state()


def test_an_order_answers_a_bots_move_and_the_version_check_holds(dora, alice, bob):
    from games.bots import bots_play
    from games.errors import VersionConflict
    from games.services import game_invitation_respond
    from tests.games.factories import GameFactory

    game = GameFactory(
        creator=dora,
        players=3,
        seats=[{"ai": "easy"}, {"user": alice.username}],
        deck=scenario_deck("lux5 lux6 lux7"),
        first_player=1,  # the bot opens; Alice (seat 2) is next
    )
    game = game_invitation_respond(game=game, user=alice, accept=True)
    seen = game.version
    game_orders_set(game=game, user=alice, card="lux5", order=Order(kind="bid", maximum=20000))
    bots_play(game_id=game.pk, expected_version=game.version, limit=1)
    game.refresh_from_db()
    bot, order = Move.objects.filter(game=game).order_by("number")[:2]
    assert (bot.actor, order.actor, order.seat) == (Move.Actor.BOT, Move.Actor.ORDER, 2)
    assert game.engine_state().turn == 0  # Dora's turn: the order answered the bot
    with pytest.raises(VersionConflict):
        game_submit_action(game=game, user=dora, action={"type": "pass"}, expected_version=seen)


def test_proxy_bids_raise_against_each_other_in_one_transaction(dora, alice, bob):
    game = table_of(dora, alice, bob, "lux5 lux6 lux7")
    game_orders_set(game=game, user=bob, card="lux5", order=Order(kind="pass"))
    game_orders_set(game=game, user=alice, card="lux5", order=Order(kind="bid", maximum=9000))
    # Dora's own order, on her turn: everything that follows answers at once.
    game_orders_set(game=game, user=dora, card="lux5", order=Order(kind="bid", maximum=5000))
    game.refresh_from_db()
    moves = [(m.seat, m.action.get("cards"), m.actor) for m in Move.objects.filter(game=game)]
    assert moves == [
        (0, [1000], "order"),
        (1, [2000], "order"),
        (2, None, "order"),  # Bob passes
        (0, [2000], "order"),  # Dora 3,000
        (1, [3000], "order"),  # Alice 5,000
        (0, None, "order"),  # beating 5,000 costs Dora more than 5,000: she passes
    ]
    state = game.engine_state()
    assert state.owned[1] == ("lux5",) and state.card == "lux6" and state.turn == 1
    assert not StandingOrder.objects.filter(game=game).exists()
