"""The board in a real browser: compose a bid with the server-side preview, the poll
that never wipes the selection, moves by htmx and without JavaScript."""

from __future__ import annotations

import re

import pytest

from games.models import Game
from tests.browser.conftest import PHONE
from tests.games.pages.conftest import act, table_make

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def staff_alice(alice):
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    return alice


def test_compose_a_bid_and_see_others_move(
    live_server, new_page, log_in, screenshot, staff_alice, bob, carol
):
    from playwright.sync_api import expect

    game = table_make(staff_alice, [bob, carol])
    page = log_in(new_page(), staff_alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".banner")).to_contain_text("Your turn")

    # The preview's live region stays in place while its words change (a screen reader
    # reads a region that changes, not one that arrives already filled).
    page.evaluate("window.liveRegion = document.getElementById('bid-preview-live')")
    page.click("label[for=hand-10000]")
    page.click("label[for=hand-2000]")
    expect(page.locator("#bid-preview")).to_have_text(re.compile(r"Your bid would total 12,000"))
    assert page.evaluate(
        "window.liveRegion === document.getElementById('bid-preview-live')"
        " && window.liveRegion.getAttribute('aria-live') === 'polite'"
        " && window.liveRegion.contains(document.getElementById('bid-preview'))"
        " && document.querySelectorAll('#bid-preview-live [aria-live]').length === 0"
    )
    # Two polls later the selection is still there: the page saw no change (204).
    page.wait_for_timeout(6500)
    expect(page.locator("#hand-10000")).to_be_checked()
    expect(page.locator("#hand-2000")).to_be_checked()
    screenshot(page, "browser-compose-bid")

    page.click("#bid-button")
    expect(page.locator(".banner")).to_contain_text("Waiting for Bob.")
    expect(page.locator(".log")).to_contain_text("Alice bids 2,000 + 10,000 (total 12,000).")
    assert Game.objects.get(pk=game.pk).version == 1

    # Bob moves elsewhere; Alice's board shows it by itself.
    act(game, bob, type="pass")
    expect(page.locator(".log")).to_contain_text("Bob passes.", timeout=8000)
    expect(page.locator(".banner")).to_contain_text("Waiting for Carol.")


def test_a_refused_bid_shows_the_sentence_in_place(
    live_server, new_page, log_in, staff_alice, bob, carol
):
    from playwright.sync_api import expect

    game = table_make(staff_alice, [bob, carol])
    act(game, staff_alice, type="bid", cards=[8000])
    page = log_in(new_page(), bob)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("label[for=hand-1000]")
    expect(page.locator("#bid-preview")).to_contain_text("must total more than 8,000")
    # Pressed before the preview came back (the button then waits for the server's
    # word, which is this refusal): once the preview has settled (Bid inactive), the
    # test makes it active again, as it is while a preview is on its way.
    expect(page.locator("#bid-button")).to_have_attribute("aria-disabled", "true")
    page.evaluate("document.getElementById('bid-button').removeAttribute('aria-disabled')")
    page.click("#bid-button")
    expect(page.locator(".flash--error")).to_contain_text(
        "Your bid must total more than 8,000; yours would be 1,000."
    )
    # The same sentence beside the buttons, where the player is looking (the top of
    # the board may be a screen away).
    expect(page.locator("#bid-preview")).to_have_text(
        "Your bid must total more than 8,000; yours would be 1,000."
    )
    expect(page.locator("#bid-preview")).to_be_in_viewport()
    expect(page.locator("#hand-1000")).to_be_checked()
    assert Game.objects.get(pk=game.pk).version == 1


def test_the_bid_button_waits_for_a_bid_that_beats_the_high_bid(
    live_server, new_page, log_in, staff_alice, bob, carol
):
    """With nothing ticked, or cards that do not beat the high bid, Bid looks inactive;
    pressing it sends nothing and reads the preview's reason out instead."""
    from playwright.sync_api import expect

    game = table_make(staff_alice, [bob, carol])
    act(game, staff_alice, type="bid", cards=[8000])
    page = log_in(new_page(), bob)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    button = page.locator("#bid-button")
    expect(button).to_have_attribute("aria-disabled", "true")

    page.click("label[for=hand-1000]")
    expect(page.locator("#bid-preview")).to_contain_text("yours would be 1,000")
    expect(button).to_have_attribute("aria-disabled", "true")
    expect(button).to_have_accessible_description(re.compile("yours would be 1,000"))
    button.click(force=True)  # (Playwright takes aria-disabled for disabled; a person can press it)
    expect(page.locator("#turn-announcer")).to_have_text(
        "Your bid must total more than 8,000; yours would be 1,000."
    )
    expect(page.locator(".flash--error")).to_have_count(0)
    assert Game.objects.get(pk=game.pk).version == 1
    expect(page.locator("#hand-1000")).to_be_checked()

    expect(button).to_have_text("Bid")  # no good: no total on it
    page.click("label[for=hand-10000]")
    expect(page.locator("#bid-preview")).to_have_class(re.compile("preview--ok"))
    expect(button).not_to_have_attribute("aria-disabled", "true")
    # The total the preview gives, on the button that stays in sight at the bottom.
    expect(button).to_have_text("Bid 11,000")
    button.click()
    expect(page.locator(".log")).to_contain_text("Bob bids 1,000 + 10,000 (total 11,000).")
    assert Game.objects.get(pk=game.pk).version == 2


def test_keyboard_ticks_cards(live_server, new_page, log_in, staff_alice, bob, carol):
    from playwright.sync_api import expect

    game = table_make(staff_alice, [bob, carol])
    page = log_in(new_page(), staff_alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.focus("#hand-1000")
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    expect(page.locator("#hand-1000")).to_be_checked()
    expect(page.locator("#hand-2000")).to_be_checked()
    expect(page.locator("#bid-preview")).to_contain_text("3,000")


def test_without_javascript_the_forms_still_work(
    live_server, new_page, log_in, screenshot, staff_alice, bob, carol
):
    from playwright.sync_api import expect

    game = table_make(staff_alice, [bob, carol])
    page = log_in(new_page(viewport=PHONE, javascript=False), staff_alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("label[for=hand-4000]")
    page.click("#bid-button")
    expect(page.locator(".log")).to_contain_text("Alice bids 4,000 (total 4,000).")
    screenshot(page, "browser-no-js-phone")
    assert Game.objects.get(pk=game.pk).version == 1


def test_the_notice_offers_follow_the_table_from_waiting_to_the_end(
    live_server, new_page, log_in, staff_alice, bob, carol
):
    """ "Tell me in this browser when it is my turn" is on the page of a host waiting for
    players, stays when that board turns into the game by itself, and goes when the
    board, refreshed by itself, shows the end: no more turns to be told of."""
    from playwright.sync_api import expect

    from games import services
    from games.engine import OVER, apply_action
    from tests.games.pages.conftest import passing_move, play_passing

    offer = "p.notify-opt-in"
    waiting = services.game_create(
        creator=staff_alice, players=3, seats=[{"user": "bob"}, {"user": "carol"}]
    )
    page = log_in(new_page(), staff_alice)
    page.goto(f"{live_server.url}/games/{waiting.pk}/")
    expect(page.locator("main")).to_contain_text("Waiting for players")
    expect(page.locator(offer)).to_be_attached()
    expect(page.locator(offer)).not_to_have_attribute("hidden", "")
    services.game_invitation_respond(game=waiting, user=bob, accept=True)
    services.game_invitation_respond(game=waiting, user=carol, accept=True)
    expect(page.locator(".board--active")).to_be_attached(timeout=8000)
    expect(page.locator(offer)).not_to_have_attribute("hidden", "")

    def the_next_move_ends_it(state) -> bool:
        move = {"seat": state.turn, **passing_move(state)}
        return apply_action(state, move).phase == OVER

    users = {0: staff_alice, 1: bob, 2: carol}
    game = play_passing(Game.objects.get(pk=waiting.pk), users, until=the_next_move_ends_it)
    last = game.engine_state()
    watcher = users[(last.turn + 1) % 3]  # not the one who makes the last move
    page = log_in(new_page(), watcher)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(offer)).not_to_have_attribute("hidden", "")
    act(game, users[last.turn], **passing_move(last))
    expect(page.locator(".board--finished")).to_be_attached(timeout=8000)
    expect(page.locator(offer)).to_have_attribute("hidden", "")


REFUSED_CONSTRUCTOR = """
Object.defineProperty(Document.prototype, "hidden", { get() { return true; } });
(function () {
  var Real = window.Notification;
  function Refused() {
    throw new TypeError("Failed to construct 'Notification': Illegal constructor. "
      + "Use ServiceWorkerRegistration.showNotification() instead.");
  }
  Object.defineProperty(Refused, "permission", { get() { return Real.permission; } });
  Refused.requestPermission = Real.requestPermission.bind(Real);
  window.Notification = Refused;
})();
"""

SHOWN_BY_THE_WORKER = """() => navigator.serviceWorker.getRegistration()
    .then(r => r ? r.getNotifications() : [])
    .then(list => list.map(n => ({title: n.title, url: n.data && n.data.url})))"""


def test_a_turn_notice_where_the_browser_refuses_new_notification(
    live_server, new_page, log_in, staff_alice, bob, carol
):
    """Android's Chrome shows notifications only through a service worker: its
    `new Notification()` throws ("Illegal constructor"), so "Tell me in this browser when
    it is my turn" told nothing there, and the error stopped the rest of the refresh.
    (The page here acts as Android's does: the tab in the background, the constructor
    refused.)"""
    game = table_make(staff_alice, [bob, carol], first_player=2)  # Carol first, then Alice
    page = new_page()
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.add_init_script(REFUSED_CONSTRUCTOR)
    log_in(page, staff_alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    act(game, carol, type="pass")
    shown = []
    for _ in range(100):
        shown = page.evaluate(SHOWN_BY_THE_WORKER)
        if shown:
            break
        page.wait_for_timeout(100)
    [shown] = shown
    assert "Your turn" in shown["title"]
    assert shown["url"] == f"{live_server.url}/games/{game.pk}/"


def test_a_refused_move_says_why_even_when_a_refresh_came_first(
    live_server, new_page, log_in, staff_alice, bob, carol
):
    """Alice passes in another tab while this one's Bid is on its way: the board here
    refreshes to the new turn first, and the Bid's refusal, answering a board already
    replaced, was dropped without a word: the player saw the board jump on."""
    from playwright.sync_api import expect

    game = table_make(staff_alice, [bob, carol])  # Alice to bid first
    page = log_in(new_page(), staff_alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".board--my-turn")).to_be_attached()
    held = []
    page.route("**/act/", lambda route: held.append(route))
    page.click("label[for=hand-10000]")
    expect(page.locator("#bid-preview.preview--ok")).to_be_attached()
    page.click("#bid-button")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the Bid never left"
    act(game, staff_alice, type="pass")  # the other tab
    expect(page.locator(".board--my-turn")).not_to_be_attached(timeout=10_000)
    held[0].continue_()
    expect(page.locator("#board-flash .flash--error")).to_contain_text(
        "Look at the board again before you act.", timeout=10_000
    )
    assert Game.objects.get(pk=game.pk).version == 1  # the pass alone


def test_a_board_offline_says_so_and_catches_up_when_back(
    live_server, new_page, log_in, staff_alice, bob, carol
):
    """A phone that lost its connection kept showing the board as if it were current,
    without a word, until its player tried a move."""
    from playwright.sync_api import expect

    game = table_make(staff_alice, [bob, carol], first_player=1)  # Bob first
    page = log_in(new_page(viewport=PHONE, touch=True), staff_alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    note = page.locator("#offline-note")
    expect(note).to_be_empty()
    expect(note).to_be_hidden()
    page.context.set_offline(True)
    expect(note).to_have_text(
        "You are offline: this board will catch up once the connection is back."
    )
    expect(note).to_be_visible()
    assert note.get_attribute("role") == "status"
    act(game, bob, type="pass")  # meanwhile
    page.context.set_offline(False)
    expect(note).to_be_empty()
    expect(page.locator("#board")).to_have_attribute("data-version", "1", timeout=15_000)
