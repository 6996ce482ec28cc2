"""Contract tests of GET/PUT/DELETE /api/v1/games/{id}/orders/: your own standing
orders, 400 for an order that could never act, 409 for an auction that has ended, and
the moves they make in the public log with actor ``order``."""

from __future__ import annotations

import pytest

from games.models import StandingOrder
from tests.games.api.test_moves import GAMES, _error, move, scenario

pytestmark = pytest.mark.embedded


def orders(clients, name: str, game_id: int, method: str = "get", body=None):
    call = getattr(clients[name], method)
    if body is None:
        return call(f"{GAMES}{game_id}/orders/")
    return call(f"{GAMES}{game_id}/orders/", body, format="json")


def test_a_proxy_bid_through_the_api_answers_for_its_owner(clients):
    game_id = scenario(clients, "lux5 lux6")
    empty = orders(clients, "bob", game_id).json()
    assert empty == {
        "card": "lux5",
        "auction": "normal",
        "auction_number": 1,
        "may_bid": True,
        "may_discard": False,
        "may_seal": False,
        "order": None,
        "defaults": {"luxury_below": None, "misfortune_max": None},
    }
    body = {"for_card": "lux5", "order": {"type": "bid", "max": 7000}}
    response = orders(clients, "bob", game_id, "put", body)
    assert response.status_code == 200, response.content
    assert response.json()["order"] == {
        "type": "bid",
        "max": 7000,
        "cards": None,
        "card": None,
        "discard": None,
    }
    assert move(clients, "dora", game_id, type="bid", cards=[1000], version=0).status_code == 201
    log = clients["carol"].get(f"{GAMES}{game_id}/moves/").json()
    last = log["moves"][-1] if isinstance(log, dict) else log[-1]
    assert last["actor"] == "order" and last["action"] == {
        "seat": 1,
        "type": "bid",
        "cards": [2000],
    }
    # Carol sees the move, never the order.
    assert orders(clients, "carol", game_id).json()["order"] is None
    view = clients["carol"].get(f"{GAMES}{game_id}/").json()
    assert "7000" not in str(view) and "'max'" not in str(view)


def test_defaults_are_set_and_cleared_on_their_own(clients):
    game_id = scenario(clients, "lux5 lux6")
    body = {"defaults": {"luxury_below": 4, "misfortune_max": 0}}
    answer = orders(clients, "carol", game_id, "put", body).json()
    assert answer["defaults"] == {"luxury_below": 4, "misfortune_max": 0}
    answer = orders(clients, "carol", game_id, "put", {"defaults": None}).json()
    assert answer["defaults"] == {"luxury_below": None, "misfortune_max": None}
    assert not StandingOrder.objects.exists()


@pytest.mark.parametrize("value", [0, 1, 13, 99])
def test_a_luxury_value_out_of_range_is_a_field_error_the_schema_states(clients, value):
    """The schema said 0 to 2^31; 1 was then refused as a rule (no field named): the
    range is the schema's, and the refusal names the field."""
    game_id = scenario(clients, "lux5 lux6")
    body = {"defaults": {"luxury_below": value}}
    answer = orders(clients, "carol", game_id, "put", body)
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid"), answer.json()
    assert answer.json()["errors"] == {
        "defaults.luxury_below": ["Pass on luxuries below a value from 2 to 12."]
    }
    schema = clients["carol"].get("/api/schema/?format=json").json()
    field = schema["components"]["schemas"]["DefaultsRequest"]["properties"]["luxury_below"]
    assert (field["minimum"], field["maximum"]) == (2, 12)
    assert not StandingOrder.objects.exists()


def test_a_part_of_the_defaults_changes_alone(clients):
    """PUT changes what it is sent: one default sent leaves the other as it was; null
    clears just that one; an empty object changes nothing."""
    game_id = scenario(clients, "lux5 lux6")
    orders(clients, "carol", game_id, "put", {"defaults": {"luxury_below": 5}})
    answer = orders(clients, "carol", game_id, "put", {"defaults": {"misfortune_max": 3000}})
    assert answer.json()["defaults"] == {"luxury_below": 5, "misfortune_max": 3000}
    answer = orders(clients, "carol", game_id, "put", {"defaults": {}})
    assert answer.json()["defaults"] == {"luxury_below": 5, "misfortune_max": 3000}
    answer = orders(clients, "carol", game_id, "put", {"defaults": {"luxury_below": None}})
    assert answer.json()["defaults"] == {"luxury_below": None, "misfortune_max": 3000}


def test_delete_cancels_everything(clients):
    game_id = scenario(clients, "lux5 lux6")
    orders(clients, "bob", game_id, "put", {"for_card": "lux5", "order": {"type": "pass"}})
    assert orders(clients, "bob", game_id, "delete").status_code == 204
    assert orders(clients, "bob", game_id).json()["order"] is None


@pytest.mark.parametrize(
    "body, code, field",
    [
        ({"for_card": "lux5", "order": {"type": "bid", "max": 500}}, "invalid_order", None),
        ({"for_card": "lux5", "order": {"type": "bid"}}, "invalid", "order.max"),
        ({"for_card": "lux5", "order": {"type": "bid", "max": "9000"}}, "invalid", "order.max"),
        ({"order": {"type": "pass"}}, "invalid", "for_card"),
        ({"for_card": "lux5", "order": {"type": "jump"}}, "invalid", "order.type"),
        ({"for_card": "lux5", "order": {"type": "pass", "max": 3}}, "invalid", "order.max"),
        ({"for_card": "lux5", "order": {"type": "pass"}, "x": 1}, "invalid", "x"),
        ({}, "invalid", "order"),
        # Out of the schema's range (2 to 12): that field's error.
        ({"defaults": {"luxury_below": 40}}, "invalid", "defaults.luxury_below"),
        # A card that does not exist is bad input (400), not an auction that ended (409).
        ({"for_card": "bogus", "order": {"type": "pass"}}, "invalid_order", None),
        (
            {"for_card": "lux5", "order": {"type": "bid", "max": 9000, "cards": [7]}},
            "invalid_order",
            None,
        ),
        # A card listed twice, refused as a move's is (it was stored as sent), and as
        # malformed input: the schema says uniqueItems (it was invalid_order).
        (
            {"for_card": "lux5", "order": {"type": "bid", "max": 9000, "cards": [1000, 1000]}},
            "invalid",
            None,
        ),
    ],
)
def test_bad_orders_answer_400_and_change_nothing(clients, body, code, field):
    game_id = scenario(clients, "lux5 lux6")
    move(clients, "dora", game_id, type="bid", cards=[1000], version=0)
    response = orders(clients, "bob", game_id, "put", body)
    error = _error(response, 400, code)
    if field is not None:
        assert field in error["errors"], error
    assert not StandingOrder.objects.exists()


@pytest.mark.parametrize(
    "discard, words",
    [
        ("middle", 'That is not a luxury: discard "lowest" or one of your luxuries'),
        ("lux9", "You do not own Luxury 9"),
    ],
)
def test_a_wrong_discard_is_named_before_the_rest_of_the_order(clients, discard, words):
    """The order's bid is wrong too (its max cannot beat 6,000), but the discard is what
    the answer names: a discard nobody could make would otherwise go unseen."""
    game_id = scenario(clients, "lux2 theft lux7")
    move(clients, "dora", game_id, type="bid", cards=[1000], version=0)
    move(clients, "bob", game_id, type="pass", version=1)
    move(clients, "carol", game_id, type="pass", version=2)  # Dora has Luxury 2; Theft up
    move(clients, "dora", game_id, type="bid", cards=[6000], version=3)
    body = {"for_card": "theft", "order": {"type": "bid", "max": 3000, "discard": discard}}
    response = orders(clients, "bob", game_id, "put", body)
    detail = _error(response, 400, "invalid_order")["detail"]
    assert words in detail and "middle" not in detail
    assert not StandingOrder.objects.exists()


def test_an_auction_that_is_not_on_answers_409_and_says_why(clients):
    """A card still in the deck is not up yet; a card sold is over: each says so."""
    game_id = scenario(clients, "lux5 lux6 lux7")
    pass_order = {"order": {"type": "pass"}}
    response = orders(clients, "bob", game_id, "put", {"for_card": "lux6", **pass_order})
    detail = _error(response, 409, "auction_over")["detail"]
    assert detail == "Luxury 6 is not up for auction yet: an order is for the card up now."
    assert move(clients, "dora", game_id, type="bid", cards=[1000], version=0).status_code == 201
    assert move(clients, "bob", game_id, type="pass", version=1).status_code == 201
    assert move(clients, "carol", game_id, type="pass", version=2).status_code == 201
    response = orders(clients, "bob", game_id, "put", {"for_card": "lux5", **pass_order})
    detail = _error(response, 409, "auction_over")["detail"]
    assert detail == "The auction of Luxury 5 is over: look at the board again."
    # A card up now named with another auction's number, later or earlier, is neither
    # "not up yet" nor "over" (it said one or the other), and a card this game's deck
    # does not hold never comes (it said "not up yet").
    for number in (99, 0):
        other = {"for_card": "lux6", "auction_number": number, **pass_order}
        detail = _error(orders(clients, "bob", game_id, "put", other), 409, "auction_over")
        assert detail["detail"] == (
            "Luxury 6 is up now, but in another auction than the order names:"
            " look at the board again."
        )
    detail = _error(
        orders(clients, "bob", game_id, "put", {"for_card": "yacht", **pass_order}),
        409,
        "auction_over",
    )["detail"]
    assert detail == "Yacht Club is not in this game: an order is for the card up now."
    assert not StandingOrder.objects.exists()


def test_only_players_of_the_running_game_have_orders(clients, anon):
    game_id = scenario(clients, "lux5 lux6")
    assert orders(clients, "oscar", game_id).status_code == 403
    response = orders(clients, "oscar", game_id, "put", {"defaults": {"luxury_below": 3}})
    assert response.status_code == 403
    assert anon.get(f"{GAMES}{game_id}/orders/").status_code == 401
    assert orders(clients, "bob", 10**12).status_code == 404


def test_reading_orders_is_refused_as_leaving_them_is(clients, alice, bob, carol, run_commits):
    """Before the start, once resigned and after the end, GET answers with the status
    and code PUT gives (a seated player was told `not_your_seat`)."""
    import random

    from tests.games.api.conftest import create
    from tests.games.factories import people_game, play_out

    put = {"defaults": {"luxury_below": 3}}

    def both(name: str, game_id: int) -> list[tuple[int, str, str]]:
        answers = [orders(clients, name, game_id), orders(clients, name, game_id, "put", put)]
        return [(a.status_code, a.json()["code"], a.json()["detail"]) for a in answers]

    waiting = create(clients["dora"], players=3, seats=[{"user": "bob"}, {"open": True}])["id"]
    assert clients["bob"].post(f"{GAMES}{waiting}/join/").status_code == 200
    refusals = both("bob", waiting)
    assert refusals[0] == refusals[1]
    assert refusals[0] == (409, "not_allowed", "The game has not started yet.")

    running = scenario(clients, "lux5 lux6")
    assert clients["carol"].post(f"{GAMES}{running}/resign/").status_code == 200
    refusals = both("carol", running)
    assert refusals[0] == refusals[1] and refusals[0][:2] == (409, "not_allowed")
    assert "You resigned" in refusals[0][2]

    with run_commits():
        finished = people_game(alice, bob, carol)
    finished = play_out(finished, random.Random(2), run_commits)
    refusals = both("bob", finished.pk)
    assert refusals[0] == refusals[1] and refusals[0][:2] == (409, "auction_over")
    assert orders(clients, "bob", finished.pk, "delete").status_code == 204
    assert not StandingOrder.objects.exists()


def test_an_order_for_an_earlier_auction_of_the_same_card_answers_409(clients):
    """``auction_number`` (as GET answers it) pins an order to its auction: sent for the
    first Prestige while the second is up, it is refused; left out, as before."""
    game_id = scenario(clients, "prestige lux3 prestige")
    first = orders(clients, "bob", game_id).json()["auction_number"]
    version = 0
    for money in (1000, 2000):  # Dora takes the first Prestige, then Luxury 3
        move(clients, "dora", game_id, type="bid", cards=[money], version=version)
        move(clients, "bob", game_id, type="pass", version=version + 1)
        move(clients, "carol", game_id, type="pass", version=version + 2)
        version += 3
    body = {"for_card": "prestige", "auction_number": first, "order": {"type": "pass"}}
    stale = orders(clients, "bob", game_id, "put", body)
    assert "over" in _error(stale, 409, "auction_over")["detail"]
    assert not StandingOrder.objects.exists()
    now = orders(clients, "bob", game_id).json()["auction_number"]
    assert now == first + 2
    body["auction_number"] = now
    assert orders(clients, "bob", game_id, "put", body).status_code == 200
    bad = orders(clients, "bob", game_id, "put", {**body, "auction_number": -1})
    assert "auction_number" in _error(bad, 400, "invalid")["errors"]


@pytest.mark.parametrize("card", [5, 5.0, True])
def test_a_card_named_by_a_number_is_invalid_input(clients, card):
    """``for_card: 5`` was read as the card "5" and answered "There is no such card"
    (``invalid_order``), where every other field of the wrong type is ``invalid``."""
    game_id = scenario(clients, "lux5 lux6 lux7")
    body = {"for_card": card, "order": {"type": "pass"}}
    response = orders(clients, "bob", game_id, "put", body)
    detail = _error(response, 400, "invalid")["detail"]
    assert detail == "for_card: Text is required (a JSON string)."
    assert not StandingOrder.objects.exists()


def test_a_pass_or_bid_order_while_the_yacht_club_is_chosen_says_there_is_no_auction(clients):
    """The Yacht Club is a sealed choice: an order to pass was told "There is no auction
    to bid in now", which speaks of bidding; it is told as a pass made then is."""
    game_id = scenario(clients, "yacht lux5", advanced=("yacht",))
    said = {}
    for kind, order in (("pass", {"type": "pass"}), ("bid", {"type": "bid", "max": 3000})):
        response = orders(clients, "bob", game_id, "put", {"for_card": "yacht", "order": order})
        said[kind] = _error(response, 400, "invalid_order")["detail"]
    assert said == {
        "pass": "You cannot order a pass now: the Yacht Club is auctioned by sealed choice.",
        "bid": "You cannot order a bid now: the Yacht Club is auctioned by sealed choice.",
    }
    assert not StandingOrder.objects.exists()
