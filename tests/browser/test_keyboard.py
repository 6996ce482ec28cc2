"""The board with the keyboard and a screen reader, as an accessibility review met it:
the focus stays in the game log or the chat when the board redraws itself, the others'
chat messages are read out, and a money card reached with Tab is shown whole, above the
sticky Bid and Pass bar, not under it."""

from __future__ import annotations

import time

import pytest

from games.chat import chat_post
from tests.games.pages.conftest import act, table_make

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def game(alice, bob, carol):
    alice.is_staff = True  # a staff table: the first player is fixed (Alice)
    alice.save(update_fields=["is_staff"])
    return table_make(alice, [bob, carol])


def _until(page, script: str, timeout: float = 10.0) -> None:
    """Poll ``script`` in the page until it is true (Playwright's wait_for_function
    evaluates a string, which the site's Content-Security-Policy refuses)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"timed out waiting for {script}"
        page.wait_for_timeout(50)


def _redrawn(page, version: int) -> None:
    _until(page, f"document.querySelector('#board')?.dataset.version === '{version}'")
    page.wait_for_timeout(300)  # htmx settles, board.js puts the focus back


def test_the_focus_stays_in_the_log_and_the_chat_and_chat_is_read_out(
    new_page, log_in, live_server, game, alice, bob
):
    page = log_in(new_page(viewport=DESKTOP), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.focus("#log-lines")
    act(game, alice, type="pass")  # a move made elsewhere: the board redraws itself
    _redrawn(page, 1)
    assert page.evaluate("document.activeElement.id") == "log-lines"

    page.focus("#chat-lines")
    chat_post(game=game, user=bob, text="Are you there?")
    _until(page, "document.getElementById('turn-announcer').textContent.includes('Are you there?')")
    assert page.evaluate("document.activeElement.id") == "chat-lines"
    said = page.text_content("#turn-announcer")
    assert said.startswith(f"{bob.public_name}: Are you there?"), said
    chat_post(game=game, user=alice, text="Here I am")  # one's own message is not read out
    page.wait_for_selector("#chat-lines >> text=Here I am")
    page.wait_for_timeout(300)
    assert "Here I am" not in page.text_content("#turn-announcer")


def test_a_card_reached_with_tab_shows_whole_above_the_bid_bar(
    new_page, log_in, live_server, game, alice
):
    page = log_in(new_page(viewport=DESKTOP), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#board.board--my-turn")
    page.evaluate("window.scrollTo(0, 0)")
    page.focus("body")
    for _ in range(80):  # from the top of the page, as a keyboard user goes
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('pick__input')"):
            break
    else:
        pytest.fail("Tab never reached the hand")
    seen = 0
    while page.evaluate("document.activeElement.classList.contains('pick__input')"):
        card = page.evaluate(
            "(() => { const r = document.activeElement.closest('.pick').getBoundingClientRect();"
            " return [r.top, r.bottom]; })()"
        )
        bar = page.evaluate(
            "document.querySelector('#board .tray__actions').getBoundingClientRect().top"
        )
        assert card[0] >= 0 and card[1] <= bar + 1, (seen, card, bar)
        seen += 1
        page.keyboard.press("Tab")
    assert seen == 11


def test_the_lobby_redrawn_keeps_the_focus_on_the_same_link(
    new_page, live_server, log_in, alice, bob, carol
):
    """The lobby's lists redraw themselves when a table changed: a keyboard user's
    focus on a table's link (or the header's count) stays there, not back at the top."""
    alice.is_staff = True  # a staff table: the deck and the first player are set
    alice.save(update_fields=["is_staff"])
    page = log_in(new_page(), alice)
    game = table_make(alice, [bob, carol])
    page.goto(f"{live_server.url}/")
    for focused in (f"mine-{game.pk}", "turns-waiting-link"):
        page.focus(f"#{focused}")
        page.evaluate(
            """() => new Promise(done => {
                document.body.addEventListener('htmx:afterSettle', () => done(), {once: true});
                htmx.ajax('GET', '/', {target: '#lobby-live', select: '#lobby-live',
                                       swap: 'outerHTML', selectOOB: '#turns-waiting'});
            })"""
        )
        assert page.evaluate("document.activeElement.id") == focused


def test_a_replay_step_puts_the_focus_on_the_move_and_names_it_in_the_title(
    new_page, log_in, live_server, alice, bob, carol
):
    import random

    from tests.games.factories import people_game, people_play

    finished = people_play(people_game(alice, bob, carol), random.Random(4))
    page = log_in(new_page(viewport=DESKTOP), alice)
    page.goto(f"{live_server.url}/games/{finished.pk}/replay/?move=5")
    assert page.title().startswith("Move 5 of ")
    assert page.evaluate("document.activeElement.id") != "replay-move-text"  # a plain visit
    page.focus("a[data-replay-step=next]")
    page.keyboard.press("Enter")
    page.wait_for_url("**move=6")
    assert page.title().startswith("Move 6 of ")
    # The link pressed keeps the focus (pressed again, it steps again); the move is read.
    assert page.evaluate("document.activeElement.dataset.replayStep") == "next"
    page.keyboard.press("ArrowRight")  # the key steps too
    page.wait_for_url("**move=7")
    assert page.evaluate("document.activeElement.id") == "replay-move-text"


def test_a_form_sent_back_with_errors_gets_the_focus_and_says_so_in_the_title(
    new_page, live_server, alice
):
    page = new_page(viewport=DESKTOP)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", "alice")
    page.fill("input[name=password]", "not her password")
    page.click("main form button[type=submit]")
    page.wait_for_selector(".errorlist.nonfield")
    assert page.evaluate("document.activeElement.matches('.errorlist.nonfield')")
    assert page.title().startswith("Error: ")

    from tests.factories import PASSWORD

    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/games/new/")
    assert not page.title().startswith("Error")
    page.select_option("select[name=seat_2]", "invite")
    new_page.expect(
        "/games/new/: Failed to load resource: the server responded with a status of 400"
    )
    page.click("main form button[type=submit]")
    page.wait_for_selector("#form-errors")
    assert page.evaluate("document.activeElement.id") == "form-errors"
    assert page.title().startswith("Error: ")


def test_a_saved_setting_says_so_with_the_focus(new_page, live_server, log_in, alice):
    """The profile's "Your display name is saved." was drawn in a status box present
    as the page loaded, which a screen reader does not read out, with the focus at the
    top of the page."""
    page = log_in(new_page(viewport=DESKTOP), alice)
    page.goto(f"{live_server.url}/accounts/profile/")
    page.fill("input[name=display_name]", "Alice Liddell")
    page.locator("input[name=display_name]").press("Enter")
    page.wait_for_selector(".messages")
    assert page.evaluate("document.activeElement.matches('.messages')")
    assert "Your display name is saved." in page.evaluate("document.activeElement.textContent")


def test_a_board_opened_on_ones_turn_starts_the_keyboard_at_the_hand(
    live_server, new_page, log_in, alice, bob, carol
):
    """The page scrolled down to the hand, but the focus stayed at the top: the first
    Tab went to "Skip to main content" and the page jumped back up; fifteen presses to
    reach a card."""
    alice.is_staff = True  # a staff table: the first player is fixed (Alice)
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [bob, carol])
    page = log_in(new_page(viewport={"width": 390, "height": 700}), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#board.board--my-turn")
    page.wait_for_timeout(300)
    assert page.evaluate("document.activeElement.id") == "tray"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.matches('#board .pick__input')")
    # Not so on a board opened while others are to move: the page starts at the top.
    act(game, alice, type="pass")
    page.reload()
    page.wait_for_selector("#board:not(.board--my-turn)")
    page.wait_for_timeout(300)
    assert page.evaluate("document.activeElement === document.body")


def test_your_seat_offers_only_the_seats_of_the_table(new_page, live_server, log_in, alice):
    """With three players, End in "Your seat" chose seat 5: the rows then showed seats
    1 to 3 open and nobody's "you sit here", and only sending the form said why."""
    page = log_in(new_page(viewport=DESKTOP), alice)
    page.goto(f"{live_server.url}/games/new/")
    page.check("input[name=players][value='3']")
    page.focus("#id_your_seat")
    page.keyboard.press("End")
    assert page.input_value("#id_your_seat") == "3"
    assert page.locator("#id_your_seat option:disabled").count() == 2
    page.check("input[name=players][value='5']")
    assert page.locator("#id_your_seat option:disabled").count() == 0
    page.select_option("#id_your_seat", "5")
    page.check("input[name=players][value='4']")  # seat 5 is gone: the last seat is taken
    assert page.input_value("#id_your_seat") == "4"
    assert page.locator(".seat-row--4 .seat-row__you").is_visible()


def test_resigning_puts_the_focus_on_what_it_did(live_server, new_page, log_in, game, alice):
    """The Resign button vanished with the board it was on, and the focus fell to the
    top of the page: a screen reader said nothing of the seat now played by a bot."""
    page = log_in(new_page(viewport=DESKTOP), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#board.board--my-turn")
    page.click(".resign summary")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('.resign') !== null")
    page.keyboard.press("Enter")
    page.wait_for_selector("#seat-note")
    page.wait_for_timeout(300)
    assert page.evaluate("document.activeElement.id") == "seat-note"
    assert "You resigned" in page.evaluate("document.activeElement.textContent")


def test_resigning_a_game_the_bots_then_finish_puts_the_focus_on_the_result(
    live_server, new_page, log_in, alice
):
    """Against bots alone, resigning ends the game at once: the page came back finished
    with the focus on <body>, and only "You resigned" was read, not the result."""
    from games.services import game_create

    game = game_create(creator=alice, players=3, seats=[{"ai": "easy"}, {"ai": "easy"}])
    page = log_in(new_page(viewport=DESKTOP), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click(".resign summary")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    from playwright.sync_api import expect

    page.wait_for_selector("#board.board--finished", timeout=20_000)
    banner = page.locator("#board .banner")
    expect(banner).to_be_focused()
    expect(banner).to_contain_text("The game is over")
