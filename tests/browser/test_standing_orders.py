"""A standing order in a real browser: Alice leaves a proxy bid, closes the tab, the
others raise, and her order answers for her until its maximum, then passes."""

from __future__ import annotations

import re

import pytest

from games.models import Move, StandingOrder
from tests.browser.conftest import PHONE
from tests.games.factories import people_game, scenario_deck
from tests.games.pages.conftest import act

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_proxy_bid_answers_while_its_owner_is_away(
    live_server, new_page, log_in, screenshot, dora, alice, bob
):
    from playwright.sync_api import expect

    # Dora (seat 0) opens on Luxury 5; Alice sits at seat 1, Bob at seat 2.
    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 lux7"), first_player=0)
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".banner")).to_contain_text("Waiting for Dora")
    page.evaluate("window.liveRegion = document.getElementById('order-preview-live')")
    page.fill("#order-max", "9000")
    expect(page.locator("#order-preview")).to_contain_text(
        "When your turn comes it raises with your cheapest cards, up to a total of 9,000"
    )
    # The same live region, its words changed: what a screen reader reads out.
    assert page.evaluate("window.liveRegion === document.getElementById('order-preview-live')")
    page.click("#order-button")
    expect(page.locator("#order-line")).to_have_text("Bid up to 9,000 for Luxury 5.")
    screenshot(page, "browser-standing-order")
    page.context.close()  # Alice closes the tab and goes away

    # Dora and Bob raise; Alice's order answers each time, in their own moves'
    # transactions, with her cheapest cards, while the total stays within 9,000.
    game = act(game, dora, type="bid", cards=[1000])
    game = act(game, bob, type="bid", cards=[3000])
    game = act(game, dora, type="bid", cards=[3000])  # Dora: 4,000
    game = act(game, bob, type="bid", cards=[2000, 1000])  # Bob: 6,000
    game = act(game, dora, type="pass")
    game = act(game, bob, type="bid", cards=[4000])  # Bob: 10,000: beyond Alice's 9,000
    orders = [
        m.action for m in Move.objects.filter(game=game, actor=Move.Actor.ORDER).order_by("number")
    ]
    totals, total = [], 0
    for action in orders:
        if action["type"] == "bid":
            total += sum(action["cards"])
            totals.append(total)
    assert totals == [2000, 5000, 9000]
    assert orders[-1] == {"seat": 1, "type": "pass"}
    assert game.engine_state().owned[2] == ("lux5",)  # Bob won it

    # Alice comes back (on her phone): the log says what her order did; it is spent.
    page = log_in(new_page(viewport=PHONE), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    log = page.locator(".log")
    expect(log).to_contain_text(re.compile(r"Alice \(standing order\) bids .*total 9,000"))
    expect(log).to_contain_text("Alice (standing order) passes")
    expect(page.locator("#order-line")).to_have_count(0)
    screenshot(page, "browser-standing-order-after")


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_on_ones_turn_an_order_from_the_ticked_cards_answers_at_once(
    live_server, new_page, log_in, screenshot, dora, alice, bob, javascript
):
    from playwright.sync_api import expect

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 lux7"), first_player=0)
    page = log_in(new_page(javascript=javascript), dora)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".banner")).to_contain_text("Your turn")
    page.click("label[for=hand-4000]")
    page.click("label[for=hand-8000]")
    page.check("#order-only-ticked")
    page.fill("#order-max", "12000")
    if javascript:
        expect(page.locator("#order-preview")).to_contain_text("Now it would add 4,000")
        screenshot(page, "browser-standing-order-my-turn")
    page.click("#order-button")
    expect(page.locator("#order-line")).to_have_text(
        "Bid up to 12,000 for Luxury 5, only with 4,000 + 8,000."
    )
    expect(page.locator(".log")).to_contain_text("Dora (standing order) bids 4,000")
    move = Move.objects.get(game=game)
    assert move.actor == Move.Actor.ORDER and move.action["cards"] == [4000]


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_enter_in_the_order_box_sets_the_order_not_a_bid(
    live_server, new_page, log_in, dora, alice, bob, javascript
):
    """Enter in "bid up to" pressed Bid: 6,000 + 8,000 went out, over the 12,000 typed."""
    from playwright.sync_api import expect

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 lux7"), first_player=0)
    page = log_in(new_page(javascript=javascript), dora)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("label[for=hand-6000]")
    page.click("label[for=hand-8000]")
    page.check("#order-only-ticked")
    page.fill("#order-max", "12000")
    page.press("#order-max", "Enter")
    expect(page.locator("#order-line")).to_have_text(
        "Bid up to 12,000 for Luxury 5, only with 6,000 + 8,000."
    )
    move = Move.objects.get(game=game)
    assert move.actor == Move.Actor.ORDER and sum(move.action["cards"]) <= 12000
    # Set, its fields start empty: a second Enter would place the same order on the
    # next card up.
    expect(page.locator("#order-max")).to_have_value("")
    expect(page.locator("#order-only-ticked:checked")).to_have_count(0)


def test_an_order_being_written_survives_a_refresh_and_empties_once_set(
    live_server, new_page, log_in, dora, alice, bob
):
    """The others' news redraws the board: the pass-or-bid choice and the amount of an
    order not yet set stay; once set, the order shows above empty fields."""
    from playwright.sync_api import expect

    from games.chat import chat_post

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 lux7"), first_player=0)
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#orders")).to_contain_text("For this auction, while you are away:")
    page.check("#order-kind-bid")
    page.fill("#order-max", "9000")
    chat_post(game=game, user=dora, text="thinking…")
    expect(page.locator(".chat")).to_contain_text("thinking…", timeout=8000)
    expect(page.locator("#order-kind-bid")).to_be_checked()
    expect(page.locator("#order-max")).to_have_value("9000")

    page.click("#order-button")
    expect(page.locator("#order-line")).to_have_text("Bid up to 9,000 for Luxury 5.")
    expect(page.locator("#orders")).to_contain_text("(replaces your order)")
    expect(page.locator("#order-max")).to_have_value("")
    expect(page.locator("#order-kind-bid")).not_to_be_checked()


def test_only_with_the_ticked_cards_survives_a_refresh_on_ones_turn(
    live_server, new_page, log_in, dora, alice, bob
):
    """On one's turn the order may keep to the ticked cards: that check box, like the
    ticked cards themselves, stays through a refresh caused by the others' news."""
    from playwright.sync_api import expect

    from games.chat import chat_post

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 lux7"), first_player=1)
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("label[for^=hand-]:has-text('4,000')")
    page.check("#order-kind-bid")
    page.check("#order-only-ticked")
    chat_post(game=game, user=dora, text="thinking…")
    expect(page.locator(".chat")).to_contain_text("thinking…", timeout=8000)
    expect(page.locator("#order-only-ticked")).to_be_checked()
    expect(page.locator("#order-kind-bid")).to_be_checked()


def test_the_orders_fields_are_whole_on_a_german_phone(
    live_server, new_page, log_in, dora, alice, bob
):
    """At 360 px in German the Theft discard's list read "— (du ents", the second
    radio button was squeezed smaller than the first, and the defaults' maximum showed
    "du entscheide…"."""
    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 theft lux7"), first_player=0)
    act(game, dora, type="bid", cards=[1000])
    act(game, alice, type="pass")
    act(game, bob, type="pass")  # Dora owns Luxury 5; Theft is up
    dora.language = "de"
    dora.save(update_fields=["language"])
    page = log_in(new_page(viewport={"width": 360, "height": 740}, locale="de-DE"), dora)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    discard = page.locator("#order-discard").bounding_box()
    assert discard["width"] > 250, discard  # under its words, the width of the form
    radios = [page.locator(f"#order-kind-{k}").bounding_box() for k in ("pass", "bid")]
    assert radios[0]["width"] == radios[1]["width"] > 15, radios
    page.locator(".orders__defaults summary").click()
    most = page.locator("#order-misfortune-max")
    assert most.evaluate("e => e.clientWidth") > 150
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_an_order_being_written_is_emptied_when_the_card_up_changes(
    live_server, new_page, log_in, dora, alice, bob
):
    """Bob writes "bid up to 3,000" against Debt and does not set it; Dora passes and
    takes Debt: the board redrawn for Luxury 6 must not offer Bob's half-written order
    for it, ready to be set with one tap (it was, amount and choice kept)."""
    from playwright.sync_api import expect

    game = people_game(dora, alice, bob, deck=scenario_deck("debt lux6 lux7"), first_player=0)
    page = _phone_board(live_server, new_page, log_in, game, bob)
    expect(page.locator("#orders")).to_contain_text("For this auction, while you are away:")
    page.check("#order-kind-bid")
    page.fill("#order-max", "3000")
    act(game, dora, type="pass")  # Dora takes Debt; Luxury 6 is up
    expect(page.locator(".auction")).to_contain_text("Luxury 6", timeout=8000)
    expect(page.locator("#order-max")).to_have_value("")
    expect(page.locator("#order-kind-bid")).not_to_be_checked()


def test_a_refused_order_says_why_beside_the_form_and_keeps_nothing_for_the_next_card(
    live_server, new_page, log_in, screenshot, dora, alice, bob
):
    """A phone that slept: Bob's board still shows Debt when he sets "pass"; Debt went
    meanwhile. The refusal is beside the form, in sight, with the focus; the form comes
    back empty for Luxury 6, so a second tap sets nothing Bob did not choose."""
    from playwright.sync_api import expect

    game = people_game(dora, alice, bob, deck=scenario_deck("debt lux6 lux7"), first_player=0)
    page = _phone_board(live_server, new_page, log_in, game, bob)
    expect(page.locator("#orders")).to_contain_text("For this auction, while you are away:")
    # The board hears nothing more: no stream, no poll.
    new_page.expect("ERR_FAILED")
    new_page.expect("htmx:sendError")
    page.route(re.compile(r"/games/\d+/(board|stream)/"), lambda route: route.abort())
    act(game, dora, type="pass")  # Dora takes Debt; Luxury 6 is up
    page.check("#order-kind-pass")
    page.click("#order-button")
    error = page.locator("#order-error")
    expect(error).to_contain_text("is over: look at the board again")
    expect(error).to_be_in_viewport()
    # Drawn at the swap, focused when the board settles: waited for, not sampled (a
    # loaded machine read the focus between the two).
    expect(error).to_be_focused()
    expect(page.locator(".auction")).to_contain_text("Luxury 6")
    expect(page.locator("#order-kind-pass")).not_to_be_checked()
    screenshot(page, "browser-standing-order-refused-phone")
    assert not StandingOrder.objects.filter(game=game).exists()


def test_the_orders_are_tapped_as_easily_as_bid_and_pass(
    live_server, new_page, log_in, dora, alice, bob
):
    """On a touch screen: the order's choices and buttons were 25 and 36 px tall beside
    a 44 px Bid."""
    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 lux7"), first_player=1)
    page = log_in(new_page(viewport=PHONE, touch=True), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    for selector in (
        "label:has(#order-kind-pass)",
        "label:has(#order-kind-bid)",
        "label:has(#order-only-ticked)",
        "#order-button",
        ".orders__defaults summary",
        "#pass-button",
    ):
        box = page.locator(selector).bounding_box()
        assert box["height"] >= 43.5, (selector, box)


def test_refused_defaults_stay_open_beside_their_reason_through_a_refresh(
    live_server, new_page, log_in, dora, alice, bob
):
    """Refused defaults are told beside their form, open, with what was typed; another
    player's move then redraws the board: the box stayed so only until then (it closed,
    and "abc" and its reason were gone)."""
    from playwright.sync_api import expect

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 lux7"), first_player=0)
    page = _phone_board(live_server, new_page, log_in, game, bob)
    page.locator(".orders__defaults summary").click()
    page.fill("#order-misfortune-max", "abc")
    page.click("#defaults-save")
    # Refused: the reason beside the form, in sight; the box open with what was typed.
    error = page.locator("#order-error")
    expect(error).to_contain_text("as a number, like 3,000")
    expect(error).to_be_in_viewport()
    expect(page.locator(".orders__defaults")).to_have_attribute("open", "")
    expect(page.locator("#order-misfortune-max")).to_have_value("abc")
    game = act(game, dora, type="bid", cards=[1000])
    expect(page.locator(".log")).to_contain_text("Dora bids 1,000", timeout=8000)
    expect(page.locator(".orders__defaults")).to_have_attribute("open", "")
    expect(page.locator("#order-misfortune-max")).to_have_value("abc")
    expect(page.locator("#order-error")).to_contain_text("as a number, like 3,000")
    # Typed, not sent: kept too.
    page.select_option("#order-luxury-below", "6")
    game = act(game, alice, type="bid", cards=[2000])
    expect(page.locator(".log")).to_contain_text("Alice bids 2,000", timeout=8000)
    expect(page.locator("#order-luxury-below")).to_have_value("6")


def test_saved_orders_say_so_and_keep_the_focus_on_ones_turn(
    live_server, new_page, log_in, dora, alice, bob
):
    """Saved with Enter on one's turn, the defaults sent the focus to the first money
    card at the top of the hand, and nothing said they were saved: a screen reader
    heard nothing, and a keyboard user was taken out of the form."""
    from playwright.sync_api import expect

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 lux7"), first_player=0)
    page = _phone_board(live_server, new_page, log_in, game, dora)
    expect(page.locator(".banner")).to_contain_text("Your turn")
    page.locator(".orders__defaults summary").focus()
    page.keyboard.press("Enter")
    page.focus("#order-misfortune-max")
    page.keyboard.type("5000")
    page.keyboard.press("Enter")
    saved = "Your standing orders for the coming auctions are saved."
    expect(page.locator("#order-done")).to_have_text(saved)
    expect(page.locator("#turn-announcer")).to_contain_text(saved)
    expect(page.locator("#order-misfortune-max")).to_be_focused()
    expect(page.locator("#order-done")).to_be_in_viewport()


def _phone_board(live_server, new_page, log_in, game, user):
    """``user``'s board of ``game`` on a phone, the standing orders' form drawn."""
    page = log_in(new_page(viewport=PHONE), user)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    return page


def test_a_refused_amount_takes_the_focus_back_to_its_box(
    live_server, new_page, log_in, dora, alice, bob
):
    """A bid's order refused for its amount: the focus went to the reason, so what one
    typed next went nowhere; now the amount box has it, marked invalid and described by
    the reason, and loses the mark once an order is set."""
    from playwright.sync_api import expect

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 lux7"), first_player=0)
    page = _phone_board(live_server, new_page, log_in, game, bob)
    page.fill("#order-max", "abc")  # no choice ticked: an amount alone is a bid
    page.click("#order-button")
    expect(page.locator("#order-error")).to_contain_text("as a number")
    box = page.locator("#order-max")
    expect(box).to_be_focused()
    page.check("#order-kind-bid")
    page.fill("#order-max", "abc")
    page.click("#order-button")
    expect(page.locator("#order-error")).to_be_visible()
    expect(box).to_be_focused()
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(box).to_have_attribute("aria-describedby", "order-error")
    page.keyboard.press("Control+A")
    page.keyboard.type("3000")
    page.keyboard.press("Enter")
    expect(page.locator("#order-error")).to_have_count(0)
    expect(box).not_to_have_attribute("aria-invalid", "true")
    assert StandingOrder.objects.filter(game=game).exists()


def test_a_set_order_keeps_the_keyboard_in_the_orders(
    live_server, new_page, log_in, dora, alice, bob
):
    """Enter on "Set this order" (disabled under the focus while sent) left the focus on
    the page itself: the next Tab went to the Resign toggle, far below.  The sentence
    saying the order is in takes it."""
    from playwright.sync_api import expect

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 lux7"), first_player=0)
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.check("#order-kind-bid")
    page.fill("#order-max", "9000")
    page.focus("#order-button")
    page.keyboard.press("Enter")
    expect(page.locator("#order-line")).to_have_text("Bid up to 9,000 for Luxury 5.")
    expect(page.locator("#order-done")).to_be_focused()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#orders') !== null")
