"""The action bar is in view whenever it is your turn (issue #14), on a laptop screen
(beside the card up for auction) and on a phone; after a move, keyboard focus is back in your hand; the headline is
announced to screen readers."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import PHONE
from tests.games.pages.conftest import act, table_make

pytestmark = pytest.mark.django_db(transaction=True)

LAPTOP = {"width": 1366, "height": 768}
TALL = {"width": 1366, "height": 2000}  # the whole board without scrolling


def _in_view(page, selector: str) -> bool:
    return page.evaluate(
        """(selector) => {
            const box = document.querySelector(selector).getBoundingClientRect();
            return box.top >= 0 && box.bottom <= window.innerHeight;
        }""",
        selector,
    )


def _your_turn(live_server, new_page, log_in, alice, bob, carol, viewport):
    """Alice's board of a new table with Bob and Carol, open on her turn: (page, game)."""
    from playwright.sync_api import expect

    alice.is_staff = True  # a staff table: the deck and the first player are set
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [bob, carol])
    page = log_in(new_page(viewport=viewport), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".banner")).to_contain_text("Your turn")
    return page, game


@pytest.mark.parametrize(
    "size, name",
    [(LAPTOP, "laptop"), (PHONE, "phone"), ({"width": 375, "height": 640}, "small-phone")],
)
def test_bid_and_pass_are_in_view_on_your_turn(
    live_server, new_page, log_in, screenshot, alice, bob, carol, size, name
):
    from playwright.sync_api import expect

    page, game = _your_turn(live_server, new_page, log_in, alice, bob, carol, size)
    assert _in_view(page, "#bid-button") and _in_view(page, "#pass-button")
    # The hand's instruction and its first cards are in sight, not under the bar.
    assert page.evaluate(
        """() => {
            const legend = document.querySelector('.hand__legend').getBoundingClientRect();
            const card = document.querySelector('label[for^=hand-]').getBoundingClientRect();
            const bar = document.querySelector('.tray__actions').getBoundingClientRect();
            return legend.top >= 0 && card.bottom <= bar.top;
        }"""
    )
    if name == "laptop":
        # Beside the hand, not a scroll away: the card up for auction and its high bid.
        assert _in_view(page, ".auction__card") and _in_view(page, ".auction__high")
        page.evaluate("window.scrollBy(0, 200)")
        assert _in_view(page, ".auction__card") and _in_view(page, ".auction__high")
    screenshot(page.set_viewport_size(size) or page, f"browser-action-bar-{name}")
    page.screenshot(path=f"test-artifacts/browser-action-bar-{name}-viewport.png", caret="initial")

    # A bid through htmx: focus is back in the hand, not at the top of the page.
    page.click("label[for=hand-3000]")
    page.click("#bid-button")
    expect(page.locator(".banner")).to_contain_text("Waiting for Bob")
    # Focus is set once the swap has settled (htmx settles a moment after the new board
    # shows), and a refresh the stream triggers meanwhile keeps it: wait for it.
    # A function, not an expression: Playwright polls an expression with eval, which the
    # page's Content Security Policy refuses whenever the first check is false.
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.matches('#board #tray')",
        timeout=5000,
    )
    # … the hand where the move was made, in sight (the headline was far above).
    assert page.evaluate(
        """() => {
            const box = document.activeElement.getBoundingClientRect();
            return box.bottom > 0 && box.top < window.innerHeight;
        }"""
    )
    # The others move; when the turn comes back, the bar comes into view again and
    # the headline is announced.
    page.evaluate("window.scrollTo(0, 0)")
    act(game, bob, type="pass")
    act(game, carol, type="pass")
    expect(page.locator(".banner")).to_contain_text("Your turn", timeout=8000)
    expect(page.locator("#turn-announcer")).to_contain_text("Your turn")
    assert _in_view(page, "#bid-button")
    expect(page).to_have_title(re.compile(r"^\(1\) Your turn — Table \d+ · High Society$"))


def test_on_a_taller_screen_the_headline_stays_in_view_above_the_hand(
    live_server, new_page, log_in, alice, bob, carol
):
    """When the headline, the hand and its buttons fit on the screen, the turn scrolls
    no further than the buttons need: it put the whole tray, standing orders and all, at
    the bottom of the screen, and the headline and the players out of sight."""
    page, _game = _your_turn(
        live_server, new_page, log_in, alice, bob, carol, {"width": 1280, "height": 900}
    )
    assert _in_view(page, ".banner") and _in_view(page, "#bid-button")
    assert _in_view(page, ".hand__legend")


def test_focus_returns_to_the_hand_when_a_refresh_lands_before_the_move_settles(
    live_server, new_page, log_in, alice, bob, carol
):
    """A refresh of the board (the poll, the stream's news of one's own move) may replace
    the board one's move brought, before that board has settled: the focus still goes
    back to the hand.  A long settle delay makes the race certain."""
    from playwright.sync_api import expect

    page, _ = _your_turn(live_server, new_page, log_in, alice, bob, carol, LAPTOP)
    stale = page.get_attribute("#board", "hx-get")  # the refresh as it was asked before the move
    page.evaluate("htmx.config.defaultSettleDelay = 2000")
    page.click("label[for=hand-3000]")
    page.click("#bid-button")
    expect(page.locator(".banner")).to_contain_text("Waiting for Bob")
    page.evaluate(
        "(url) => htmx.ajax('GET', url, {source: '#board', target: '#board', swap: 'outerHTML'})",
        stale,
    )
    # Once both swaps have settled, the focus is in the hand.
    focused = page.locator("#board .pick__input:focus, #board #tray:focus")
    expect(focused).to_have_count(1, timeout=10_000)


def test_ticking_a_card_with_the_keyboard_keeps_the_focus_on_it(
    live_server, new_page, log_in, alice, bob, carol
):
    """The bid preview that a tick brings is not a move: the focus stays on the card."""
    from playwright.sync_api import expect

    page, _ = _your_turn(live_server, new_page, log_in, alice, bob, carol, LAPTOP)
    page.focus("#hand-6000")
    page.keyboard.press("Space")
    expect(page.locator("#hand-6000")).to_be_checked()
    # The focus ring is dashed, the ticked card's ring solid: the two looked alike.
    page.keyboard.press("Tab")
    rings = page.evaluate(
        """() => ['hand-6000', 'hand-8000'].map(id => {
            const face = document.getElementById(id).nextElementSibling;
            return [getComputedStyle(face).outlineStyle, getComputedStyle(face).boxShadow];
        })"""
    )
    assert rings[1][0] == "dashed" and rings[0][0] != "dashed" and rings[0][1] != "none"
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#bid-preview")).to_have_class(re.compile("preview--ok"))  # it is back
    page.wait_for_timeout(500)  # past the preview's settle
    assert page.evaluate("() => document.activeElement.id") == "hand-6000"


def test_a_chat_line_during_your_turn_keeps_the_ticked_cards_and_the_focus(
    live_server, new_page, log_in, alice, bob, carol
):
    """Bob writes while Alice is building her bid: her board refreshes with his line,
    and the cards she ticked, the bid's preview, the page's scroll and her focus (on an
    element without an id, too) are as she left them."""
    from playwright.sync_api import expect

    from games.chat import chat_post

    page, game = _your_turn(live_server, new_page, log_in, alice, bob, carol, LAPTOP)
    # Each money card's box is named by its value, whole ("3,000", not "3 ,000").
    expect(page.get_by_role("checkbox", name="3,000", exact=True)).to_have_count(1)
    page.click("label[for=hand-3000]")
    page.click("label[for=hand-6000]")
    expect(page.locator("#bid-preview")).to_contain_text("9,000")
    scrolled = page.evaluate("window.scrollY")
    page.focus("#hand-6000")
    chat_post(game=game, user=bob, text="Take your time")
    expect(page.locator(".chat__lines")).to_contain_text("Take your time", timeout=8000)
    expect(page.locator("#hand-3000")).to_be_checked()
    expect(page.locator("#hand-6000")).to_be_checked()
    expect(page.locator("#bid-preview")).to_contain_text("9,000")
    assert abs(page.evaluate("window.scrollY") - scrolled) <= 2
    assert page.evaluate("() => document.activeElement.id") == "hand-6000"

    link = "#board a[href='/players/bob/']"
    page.focus(link)
    chat_post(game=game, user=bob, text="Still here?")
    expect(page.locator(".chat__lines")).to_contain_text("Still here?", timeout=8000)
    page.wait_for_timeout(300)  # past the refresh's settle
    assert page.evaluate(
        "(selector) => document.activeElement === document.querySelector(selector)", link
    )
    expect(page.locator("#hand-3000")).to_be_checked()


def test_the_focus_goes_back_into_the_hand_when_the_turn_comes_back(
    live_server, new_page, log_in, alice, bob, carol
):
    """After her bid the focus waits on her hand (the headline, "Waiting for Bob", is
    read out); when the others have passed and her turn comes back, it is on a card of
    her hand, in sight, not on a headline far above the screen."""
    from playwright.sync_api import expect

    page, game = _your_turn(live_server, new_page, log_in, alice, bob, carol, LAPTOP)
    page.focus("#hand-3000")
    page.keyboard.press("Space")
    page.focus("#bid-button")
    page.keyboard.press("Enter")
    expect(page.locator(".banner")).to_contain_text("Waiting for Bob")
    page.wait_for_function("() => document.activeElement.matches('#board #tray')")
    act(game, bob, type="pass")
    act(game, carol, type="pass")
    expect(page.locator(".banner")).to_contain_text("Your turn", timeout=8000)
    # A screen reader hears what the others did, then the headline.
    expect(page.locator("#turn-announcer")).to_contain_text("Carol passes.")
    expect(page.locator("#turn-announcer")).to_contain_text("Your turn")
    page.wait_for_function(
        "() => document.activeElement.matches('#board .pick__input')", timeout=5000
    )
    assert page.evaluate(
        """() => {
            const box = document.activeElement.closest('label, .pick').getBoundingClientRect();
            return box.bottom > 0 && box.top < window.innerHeight;
        }"""
    )


def test_a_skip_link_leads_the_keyboard_to_the_hand(
    live_server, new_page, log_in, alice, bob, carol
):
    """On one's turn the second Tab of the page offers "Skip to your hand": the next Tab
    is on the first money card, not a dozen stops later.  (On a screen that shows the
    hand without scrolling: a page scrolled down to it gives the hand the focus.)"""
    page, _ = _your_turn(live_server, new_page, log_in, alice, bob, carol, TALL)
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Skip to your hand"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "hand-1000"


def test_a_turn_that_comes_while_the_focus_is_nowhere_starts_the_keyboard_at_the_hand(
    live_server, new_page, log_in, alice, bob, carol
):
    """Bob's board, opened while Alice is to act, the focus nowhere: his turn comes,
    and the next Tab is in his hand; the skip link to it is there all along (his hand
    is on the board while he waits too)."""
    from playwright.sync_api import expect

    _, game = _your_turn(live_server, new_page, log_in, alice, bob, carol, TALL)
    page = log_in(new_page(viewport=TALL), bob)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".banner")).to_contain_text("Waiting for Alice")
    assert page.locator("#skip-hand").get_attribute("hidden") is None
    page.evaluate("document.activeElement.blur()")
    act(game, alice, type="pass")
    expect(page.locator(".banner")).to_contain_text("Your turn", timeout=8000)
    page.wait_for_function("() => document.activeElement.id === 'tray'", timeout=5000)
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "hand-1000"


def test_a_skip_link_leads_the_keyboard_to_the_chat(
    live_server, new_page, log_in, alice, bob, carol
):
    """The chat's message box is a skip link away (it was 15 to 20 Tabs past the hand)."""
    page, _ = _your_turn(live_server, new_page, log_in, alice, bob, carol, TALL)
    for _tab in range(3):
        page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Skip to the chat"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "chat-text"


def test_the_hand_takes_the_focus_when_what_had_it_leaves_the_board(
    live_server, new_page, log_in, screenshot, alice, bob, carol
):
    """Alice's focus is on a card when her bid is made elsewhere (another tab, a
    standing order): the refresh has no such card any more, and the focus goes to her
    hand, not to the top of the page (it fell to <body>, 14 tabs from the hand)."""
    from playwright.sync_api import expect

    page, game = _your_turn(live_server, new_page, log_in, alice, bob, carol, LAPTOP)
    page.focus("#hand-3000")
    act(game, alice, type="bid", cards=[3000])
    expect(page.locator(".banner")).to_contain_text("Waiting for Bob", timeout=8000)
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.matches('#board #tray')",
        timeout=5000,
    )
    screenshot(page, "browser-focus-on-hand")


def _war_in_one_refresh(live_server, new_page, log_in, alice, bob, carol, rounds: int):
    """Alice's board once she passed and Bob and Carol bid ``rounds`` times each, all
    brought by one refresh (the board's requests held back meanwhile): its announcer."""
    from playwright.sync_api import expect

    page, game = _your_turn(live_server, new_page, log_in, alice, bob, carol, LAPTOP)
    act(game, alice, type="pass")
    expect(page.locator(".banner")).to_contain_text("Waiting for Bob", timeout=8000)
    held = []  # the board's next refresh, held back while the others bid
    page.route("**/board/*", lambda route: held.append(route))
    raises = [1000, 2000, 3000, 4000, 6000, 8000, 10000, 12000]
    for round_ in range(rounds):  # totals: Bob 1, 3, 6, …; Carol 2, 5, 9, …
        act(game, bob, type="bid", cards=[raises[round_]])
        act(game, carol, type="bid", cards=[raises[round_ + 1]])
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the board asked for no refresh"
    for route in list(held):
        route.continue_()
    page.unroute("**/board/*")
    return page.locator("#turn-announcer")


def test_every_move_a_refresh_brings_is_read_out(live_server, new_page, log_in, alice, bob, carol):
    """A refresh that brought more than five moves (a bidding war while the board was
    busy) read out only the last five: who opened the bidding was never said."""
    from playwright.sync_api import expect

    announcer = _war_in_one_refresh(live_server, new_page, log_in, alice, bob, carol, 3)
    expect(announcer).to_contain_text("Carol bids 4,000 (total 9,000).", timeout=8000)
    expect(announcer).to_contain_text("Bob bids 1,000 (total 1,000).")


def test_a_refresh_that_brings_a_long_war_reads_the_latest_moves(
    live_server, new_page, log_in, alice, bob, carol
):
    """After a sleep one refresh may bring dozens of moves: the latest twelve are read
    out, after a word that the earlier ones are in the log."""
    from playwright.sync_api import expect

    announcer = _war_in_one_refresh(live_server, new_page, log_in, alice, bob, carol, 7)
    expect(announcer).to_contain_text("Carol bids 12,000 (total 45,000).", timeout=8000)
    said = announcer.text_content()
    assert said.startswith("Earlier moves are in the log. Bob bids 2,000 (total 3,000).")
    assert "Bob bids 1,000" not in said and "Carol bids 2,000 (total 2,000)" not in said
