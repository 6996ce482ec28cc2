"""Standing orders on the board: left and cancelled with plain forms (htmx-enhanced),
checked as the amount is typed, shown to their owner only, refused with a sentence."""

from __future__ import annotations

import pytest

from games.models import Move, StandingOrder
from tests.games.factories import people_game, scenario_deck

pytestmark = [pytest.mark.django_db, pytest.mark.embedded]

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(dora, alice, bob):
    """dora (seat 0, to act first), alice (1), bob (2); Luxury 5 is up."""
    return people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 debt lux7"), first_player=0)


def orders_post(client, game, data, **extra):
    return client.post(f"/games/{game.pk}/orders/", data, **extra)


def test_an_order_is_left_from_the_board_and_shown_to_its_owner_only(client, game, alice, bob):
    client.force_login(alice)
    board = client.get(f"/games/{game.pk}/").content.decode()
    assert "For this auction, while you are away" in board and 'name="maximum"' in board
    response = orders_post(
        client, game, {"what": "order", "card": "lux5", "kind": "bid", "maximum": "9000"}
    )
    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    assert "Your standing order:" in html and "Bid up to 9,000 for Luxury 5." in html
    client.force_login(bob)
    html = client.get(f"/games/{game.pk}/").content.decode()
    # 9,000: no money card's value, so it could only be the order's maximum.
    assert "9,000" not in html and "standing order" not in html.lower().replace(
        "standing orders for the coming auctions", ""
    )


def test_the_order_form_chooses_nothing_until_the_player_does(client, game, alice):
    """No choice is ticked beforehand (it read as an order already left); an amount typed
    with neither choice ticked is a bid up to it; nothing at all is refused."""
    client.force_login(alice)
    board = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="order-kind-bid">' in board and 'id="order-kind-pass">' in board
    refused = orders_post(client, game, {"what": "order", "card": "lux5"})
    assert "Choose to pass or to bid up to an amount." in refused.content.decode()
    response = orders_post(client, game, {"what": "order", "card": "lux5", "maximum": "9000"})
    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    assert "Bid up to 9,000 for Luxury 5." in html


def test_on_ones_turn_the_order_takes_the_ticked_cards_and_answers_at_once(client, game, dora):
    client.force_login(dora)
    response = orders_post(
        client,
        game,
        {
            "what": "order",
            "card": "lux5",
            "kind": "bid",
            "maximum": "9000",
            "only_ticked": "1",
            "cards": ["4000", "8000"],
            "version": "0",
        },
        **HX,
    )
    assert response.status_code == 200
    move = Move.objects.get(game=game)
    assert move.actor == Move.Actor.ORDER and move.action["cards"] == [4000]
    html = response.content.decode()
    assert "Dora (standing order) bids" in html and "Cancel order" in html


def test_enter_in_the_order_box_sets_the_order_and_never_bids(client, game, dora):
    """Enter in the "bid up to" box pressed the form's first button, Bid: a bid of the
    ticked 4,000 + 8,000 = 12,000 went out, over the 9,000 just typed, and no order was
    set.  The first button is now one that only Enter presses (``type=enter``)."""
    client.force_login(dora)
    board = client.get(f"/games/{game.pk}/").content.decode()
    form = board.split('<form class="tray__form"', 1)[1]
    first_button = form.split("<button", 1)[1].split(">", 1)[0]
    assert 'name="type" value="enter"' in first_button
    entered = {
        "type": "enter",
        "card": "lux5",
        "auction": "1",
        "maximum": "9000",
        "cards": ["4000", "8000"],
        "version": "0",
        "for_auction": "1",
    }
    response = client.post(f"/games/{game.pk}/act/", entered)
    assert response.status_code == 302
    (move,) = Move.objects.filter(game=game)
    assert move.actor == Move.Actor.ORDER and sum(move.action["cards"]) <= 9000
    # Enter with no order filled in: the ticked cards' bid, as before.
    client.post(f"/games/{game.pk}/act/", {**entered, "maximum": "", "version": "1"})
    assert Move.objects.filter(game=game).count() == 1  # not dora's turn any more


def test_enter_with_no_order_filled_in_bids_with_the_ticked_cards(client, game, dora):
    client.force_login(dora)
    data = {"type": "enter", "cards": ["4000"], "version": "0", "for_auction": "1"}
    assert client.post(f"/games/{game.pk}/act/", data).status_code == 302
    (move,) = Move.objects.filter(game=game)
    assert move.actor == Move.Actor.PLAYER
    assert move.action["type"] == "bid" and move.action["cards"] == [4000]


def test_cancel_clears_the_order_and_keeps_the_defaults(client, game, alice):
    client.force_login(alice)
    orders_post(client, game, {"what": "defaults", "luxury_below": "4", "misfortune_max": "2000"})
    orders_post(client, game, {"what": "order", "card": "lux5", "kind": "pass"})
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Pass on Luxury 5." in html
    assert "Pass on every luxury below 4." in html
    assert "Pay up to 2,000 to avoid a misfortune, else take it." in html
    orders_post(client, game, {"what": "cancel"})
    row = StandingOrder.objects.get(game=game)
    assert row.kind == "" and row.luxury_below == 4
    orders_post(client, game, {"what": "defaults_clear"})
    assert not StandingOrder.objects.exists()


@pytest.mark.parametrize(
    "data, sentence",
    [
        ({"what": "order", "card": "lux5", "kind": "bid"}, "Give the most your bid may total"),
        (
            {"what": "order", "card": "lux5", "kind": "bid", "maximum": "12k"},
            "as a number, like 12,000",
        ),
        ({"what": "order", "card": "lux9", "kind": "pass"}, "Luxury 9 is not up for auction yet"),
        ({"what": "nonsense"}, "Choose what to order."),
        ({"what": "defaults", "luxury_below": "1"}, "from 2 to 12"),
        ({"what": "defaults", "misfortune_max": "-5"}, "as a number, like 3,000"),
        (
            {"what": "order", "card": "lux5", "kind": "bid", "maximum": "12.5"},
            "as a number, like 12,000",
        ),
        (
            {"what": "order", "card": "lux5", "kind": "bid", "maximum": "99999999999"},
            "more money than the whole game holds",
        ),
    ],
)
def test_bad_orders_are_refused_with_a_sentence(client, game, alice, data, sentence):
    client.force_login(alice)
    response = orders_post(client, game, data)
    assert response.status_code == 400
    assert sentence in response.content.decode()
    assert not StandingOrder.objects.exists()


def test_the_preview_checks_the_amount_as_it_is_typed(client, game, dora, alice):
    client.force_login(dora)
    url = f"/games/{game.pk}/order-preview/"
    html = client.get(url, {"maximum": "5000"}, **HX).content.decode()
    assert html.lstrip().startswith('<p id="order-preview"')
    assert "Now it would add 1,000 (total 1,000)" in html
    html = client.get(url, {"maximum": "5000", "only_ticked": "1", "cards": ["3000"]}, **HX)
    assert "Now it would add 3,000" in html.content.decode()
    html = client.get(url, {"maximum": "abc"}, **HX).content.decode()
    assert "as a number" in html
    # Nothing typed (the field emptied, or the board redrawn once the order is saved,
    # while a preview was on its way): the hint, not an error.
    html = client.get(url, {"maximum": ""}, **HX).content.decode()
    assert "preview--no" not in html and "Give the most" not in html
    assert "The order answers for you when your turn comes" in html
    client.force_login(alice)
    html = client.get(url, {"maximum": "5000"}, **HX).content.decode()
    assert "When your turn comes it raises" in html
    # Not her turn: an order that could never bid is refused in the preview as setting
    # it is (the preview said it would raise up to 500 with her cheapest cards).
    html = client.get(url, {"maximum": "500"}, **HX).content.decode()
    refused = "No set of your cards brings your bid above 0 without going over 500."
    assert refused in html and "preview--no" in html
    data = {"what": "order", "card": "lux5", "kind": "bid", "maximum": "500"}
    assert refused in orders_post(client, game, data).content.decode()


@pytest.mark.parametrize("typed", ["12000", "12,000", "12.000", "12 000", "12\u202f000", "12'000"])
def test_an_amount_is_read_as_its_language_writes_it(client, game, alice, typed):
    """The board writes 12.000 in German, 12 000 in French: typed so, it is twelve
    thousand (a number box had read the German 12.000 as twelve)."""
    from games.forms import money_amount

    assert money_amount(typed) == 12000
    assert money_amount("1.2345") is None and money_amount("12.5") is None
    client.force_login(alice)
    orders_post(client, game, {"what": "order", "card": "lux5", "kind": "bid", "maximum": typed})
    assert StandingOrder.objects.get(game=game).maximum == 12000
    url = f"/games/{game.pk}/order-preview/"
    html = client.get(url, {"maximum": typed}, **HX).content.decode()
    assert "12,000" in html and "preview--ok" in html


def test_visitors_cannot_leave_orders(client, game, outsider):
    response = orders_post(client, game, {"what": "order", "card": "lux5", "kind": "pass"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(outsider)
    response = orders_post(client, game, {"what": "order", "card": "lux5", "kind": "pass"})
    assert response.status_code == 400
    assert "You do not have a seat at this table." in response.content.decode()


def test_theft_discard_order_from_the_board(client, dora, alice, bob):
    from tests.games.pages.conftest import act

    game = people_game(dora, alice, bob, deck=scenario_deck("lux2 lux8 theft lux7"), first_player=0)
    for user, action in (
        (dora, {"type": "pass"}),
        (alice, {"type": "bid", "cards": [1000]}),
        (bob, {"type": "pass"}),  # Alice has Luxury 2 and opens Luxury 8
        (alice, {"type": "bid", "cards": [2000]}),
        (bob, {"type": "pass"}),
        (dora, {"type": "pass"}),  # Alice has Luxury 2 and 8; Theft is up; Alice first
        (alice, {"type": "bid", "cards": [3000]}),  # Bob's turn
    ):
        game = act(game, user, **action)
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'name="discard"' in html and "your lowest luxury" in html and "Luxury 8" in html
    response = orders_post(
        client, game, {"what": "order", "card": "theft", "kind": "", "discard": "lux8"}
    )
    assert response.status_code == 302
    row = StandingOrder.objects.get(game=game)
    assert (row.kind, row.discard) == ("", "lux8")
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "If you take Theft, discard Luxury 8." in html


def test_the_defaults_say_what_they_cover_and_that_on_ones_turn_they_act_at_once(
    client, game, dora, alice
):
    """Saved on one's turn, defaults that cover the card up answer it at once: the form
    says so beforehand (a review found the move made without warning)."""
    at_once = "Saved now, on your turn, they answer for the card up at once if they cover it."
    covers = "They answer for luxuries and misfortunes only"
    client.force_login(alice)  # not her turn
    board = client.get(f"/games/{game.pk}/").content.decode()
    assert covers in board and at_once not in board
    client.force_login(dora)  # her turn
    board = client.get(f"/games/{game.pk}/").content.decode()
    assert covers in board and at_once in board
    orders_post(client, game, {"what": "defaults", "luxury_below": "6", "misfortune_max": ""})
    assert "Dora (standing order) passes." in client.get(f"/games/{game.pk}/").content.decode()


def _message(client, response) -> str:
    """The board a plain form is redirected to, with the message it shows."""
    assert response.status_code == 302
    return client.get(response["Location"]).content.decode()


def test_without_javascript_the_message_says_when_the_order_made_the_move(client, game, dora):
    """Left on one's own turn, the order answers at once: the message says the move is
    made (it said only that the order answers while one is away)."""
    client.force_login(dora)  # her turn
    data = {"what": "order", "card": "lux5", "kind": "pass"}
    html = _message(client, orders_post(client, game, data))
    assert "Your standing order is in and has already made your move." in html
    assert "Dora (standing order) passes." in html


def test_without_javascript_the_message_says_when_the_defaults_made_the_move(client, game, dora):
    client.force_login(dora)
    data = {"what": "defaults", "luxury_below": "6", "misfortune_max": ""}
    html = _message(client, orders_post(client, game, data))
    assert "saved and have already made your move." in html


def test_an_order_left_off_ones_turn_says_it_waits(client, game, alice):
    client.force_login(alice)  # not her turn: nothing moves yet
    data = {"what": "order", "card": "lux5", "kind": "pass"}
    html = _message(client, orders_post(client, game, data))
    assert "it answers for you until this auction ends." in html
    assert "already made your move" not in html
    data = {"what": "defaults", "luxury_below": "6", "misfortune_max": ""}
    html = _message(client, orders_post(client, game, data))
    assert "Your standing orders for the coming auctions are saved." in html


def test_cancel_says_whether_there_was_an_order_to_cancel(client, game, dora, alice):
    """An order that passed for its owner is used up: cancelling it afterwards says there
    was nothing to cancel (it said "cancelled", as if it had stopped the pass)."""
    client.force_login(alice)
    orders_post(client, game, {"what": "order", "card": "lux5", "kind": "pass"})
    html = _message(client, orders_post(client, game, {"what": "cancel"}))
    assert "Your standing order for this card is cancelled." in html
    html = _message(client, orders_post(client, game, {"what": "cancel"}))
    assert "nothing to cancel" in html and "is cancelled" not in html
    client.force_login(dora)
    orders_post(client, game, {"what": "order", "card": "lux5", "kind": "pass"})
    html = _message(client, orders_post(client, game, {"what": "cancel"}))
    assert "nothing to cancel" in html
    assert Move.objects.filter(game=game, actor=Move.Actor.ORDER).count() == 1


def test_clearing_the_defaults_says_whether_there_were_any(client, game, alice):
    client.force_login(alice)
    html = _message(client, orders_post(client, game, {"what": "defaults_clear"}))
    assert "so there was nothing to clear" in html and "are cleared" not in html
    orders_post(client, game, {"what": "defaults", "luxury_below": "4", "misfortune_max": ""})
    html = _message(client, orders_post(client, game, {"what": "defaults_clear"}))
    assert "Your standing orders for the coming auctions are cleared." in html


def _seen(html: str, form: str) -> str:
    """The ``seen`` stamp of the board's order form (``order``) or defaults form."""
    import re

    stamps = list(re.finditer(r'name="seen" value="([0-9a-f]+)"', html))
    if form == "defaults":  # the defaults form's, the last before its fields
        at = html.index('id="order-luxury-below"')
        return [m for m in stamps if m.start() < at][-1].group(1)
    at = html.index('name="auction"')  # the order's, beside the auction it is for
    return next(m for m in stamps if m.start() > at).group(1)


def test_a_form_drawn_before_the_orders_changed_elsewhere_changes_nothing(client, game, alice):
    """Two windows of Alice's: the first saves "pay at most 2,000" for misfortunes; the
    second, drawn before, saves "pass below 4" and used to wipe the 2,000 unseen.  It
    is refused now, with the orders as they stand; drawn again, it goes through."""
    client.force_login(alice)
    old = client.get(f"/games/{game.pk}/").content.decode()
    orders_post(client, game, {"what": "defaults", "misfortune_max": "2000"})
    stale = {"what": "defaults", "luxury_below": "4", "seen": _seen(old, "defaults")}
    refused = orders_post(client, game, stale, **HX).content.decode()
    assert "Your standing orders were changed in another window" in refused
    assert 'value="2000"' in refused  # the orders as they stand
    row = StandingOrder.objects.get(game=game)
    assert (row.luxury_below, row.misfortune_max) == (None, 2000)
    fresh = client.get(f"/games/{game.pk}/").content.decode()
    stale["seen"] = _seen(fresh, "defaults")
    assert orders_post(client, game, stale).status_code == 302
    row.refresh_from_db()
    assert (row.luxury_below, row.misfortune_max) == (4, None)  # what the form showed
    # The order for the card up likewise: one window bids, the other's pass is refused.
    old = client.get(f"/games/{game.pk}/").content.decode()
    order = {"what": "order", "card": "lux5", "auction": "1"}
    orders_post(client, game, order | {"kind": "bid", "maximum": "9000"})
    pass_ = order | {"kind": "pass", "seen": _seen(old, "order")}
    refused = orders_post(client, game, pass_, **HX).content.decode()
    assert "Your standing orders were changed in another window" in refused
    assert "Bid up to 9,000 for Luxury 5." in refused
    assert StandingOrder.objects.get(game=game).kind == "bid"


def test_a_move_sent_twice_is_answered_as_made_not_refused(client, game, dora):
    """Without JavaScript a double click sends the bid twice: the first counts, and the
    second was answered 400 "the game has moved on", over the bid that had been made."""
    client.force_login(dora)
    bid = {"type": "bid", "cards": ["8000", "4000"], "version": "0", "for_auction": "1"}
    assert client.post(f"/games/{game.pk}/act/", bid).status_code == 302
    again = client.post(f"/games/{game.pk}/act/", bid)
    assert again.status_code == 302 and again["Location"] == f"/games/{game.pk}/"
    assert Move.objects.filter(game=game).count() == 1
    # Another move on the same old page is refused, as before.
    other = client.post(f"/games/{game.pk}/act/", {**bid, "cards": ["1000"]})
    assert other.status_code == 400 and "The game has moved on" in other.content.decode()


def test_orders_sent_twice_are_saved_not_refused(client, game, alice):
    """A double click on Save without JavaScript: the second sending, drawn with the
    orders before the first, said "changed in another window … changed nothing",
    though the first had saved them."""
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    twice = {"what": "defaults", "luxury_below": "4", "seen": _seen(page, "defaults")}
    assert orders_post(client, game, twice).status_code == 302
    again = orders_post(client, game, twice, **HX).content.decode()
    assert "changed in another window" not in again
    assert "Pass on every luxury below 4." in again
    order = {"what": "order", "card": "lux5", "auction": "1", "kind": "bid", "maximum": "9000"}
    order["seen"] = _seen(page, "order")
    assert orders_post(client, game, order).status_code == 302
    assert (
        "changed in another window" not in orders_post(client, game, order, **HX).content.decode()
    )


def _error_beside_the_form(html: str) -> str:
    """The words of the refusal shown beside the form that was sent."""
    import re

    found = re.search(
        r'<ul class="errorlist orders__error" id="order-error"[^>]*><li>(.*?)</li>', html
    )
    assert found, "no refusal beside the form"
    return found.group(1)


def test_a_refused_order_is_told_beside_its_form_with_what_was_typed(client, game, alice):
    """On a phone the board's alert is a screen above the form: the reason is given
    beside it too, with the choices made, to be mended (the auction is the same)."""
    client.force_login(alice)
    data = {"what": "order", "card": "lux5", "auction": "1", "kind": "bid", "maximum": "abc"}
    html = orders_post(client, game, data, **HX).content.decode()
    assert "as a number, like 12,000" in _error_beside_the_form(html)
    assert 'id="order-kind-bid" checked' in html and 'value="abc"' in html
    assert not StandingOrder.objects.exists()
    # The amount is at fault: its box is marked (and takes the focus: board.js).
    assert 'data-field="order-max"' in html and 'aria-invalid="true" aria-describedby' in html


def test_more_than_all_ones_money_is_refused_not_read_as_no_limit(client, game, alice):
    client.force_login(alice)
    data = {"what": "order", "card": "lux5", "auction": "1", "kind": "bid", "maximum": "200000"}
    html = orders_post(client, game, data, **HX).content.decode()
    assert "You have 106,000 in all, your bid included" in _error_beside_the_form(html)
    # Refused by the rules, still for its amount: the box is marked and takes the focus.
    assert 'data-field="order-max"' in html
    assert not StandingOrder.objects.exists()
    preview = client.get(f"/games/{game.pk}/order-preview/", {"maximum": "200000"}, **HX)
    assert "You have 106,000 in all" in preview.content.decode()


def test_an_order_refused_as_out_of_date_comes_back_empty_for_the_new_card(
    client, game, dora, alice, bob
):
    """The page was drawn for Luxury 5; the auction ended before "Set this order": the
    refusal says so, and "pass" is not left ticked for Luxury 6, where a second press
    would have set it for a card the player never chose."""
    from tests.games.pages.conftest import act

    game = act(game, dora, type="bid", cards=[1000])
    game = act(game, alice, type="pass")
    game = act(game, bob, type="pass")  # Dora wins Luxury 5; Luxury 6 is up
    client.force_login(alice)
    data = {"what": "order", "card": "lux5", "auction": "1", "kind": "pass", "cards": ["1000"]}
    html = orders_post(client, game, data, **HX).content.decode()
    assert "Luxury 5 is over" in _error_beside_the_form(html)
    assert (
        'id="order-kind-pass">' in html
        and "checked" not in html.split('id="order-kind-pass"')[1][:10]
    )
    assert not StandingOrder.objects.exists()


def test_refused_defaults_stay_open_with_what_was_typed(client, game, alice):
    client.force_login(alice)
    data = {"what": "defaults", "luxury_below": "4", "misfortune_max": "abc"}
    html = orders_post(client, game, data, **HX).content.decode()
    assert "as a number, like 3,000" in _error_beside_the_form(html)
    assert '<details class="orders__defaults" open>' in html
    assert 'value="abc"' in html and '<option value="4" selected>' in html
    assert not StandingOrder.objects.exists()


def test_a_misfortunes_preview_says_the_pass_takes_the_card(client, dora, alice, bob):
    game = people_game(dora, alice, bob, deck=scenario_deck("debt lux5 lux6"), first_player=0)
    url = f"/games/{game.pk}/order-preview/"
    client.force_login(alice)
    html = client.get(url, {"maximum": "3000"}, **HX).content.decode()
    assert "up to a total of 3,000, to avoid Debt" in html
    assert "above that it passes and you take Debt" in html
    client.force_login(dora)  # her turn
    html = client.get(url, {"maximum": "3000"}, **HX).content.decode()
    assert "Now it would add 1,000" in html and "passes and you take Debt" in html


def test_refused_defaults_mark_the_field_in_error_only(client, game, alice):
    import re

    client.force_login(alice)
    html = orders_post(client, game, {"what": "defaults", "luxury_below": "x"}, **HX)
    html = html.content.decode()
    assert "as a whole number" in _error_beside_the_form(html)
    select = re.search(r'<select name="luxury_below"[^>]*>', html).group(0)
    money = re.search(r'<input type="text" name="misfortune_max"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in select and "aria-invalid" not in money
