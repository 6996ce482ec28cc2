"""In Chromium: a secret Yacht Club choice gives a money card up for good, so a first
tap (a slip of the thumb, on a phone) only marks the card and says so; the second sends
it.  Without JavaScript one press sends it, as the form does (tests/games/pages)."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.browser.conftest import PHONE
from tests.games.factories import scenario_deck
from tests.games.pages.conftest import table_make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def yacht_board(live_server, new_page, log_in, alice, bob, carol):
    """Alice's board on a phone, the Yacht Club up first (a staff table: the deck is
    set): (the game, the page)."""
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    game = table_make(
        alice, [bob, carol], deck=scenario_deck("yacht lux5", ("yacht",)), advanced=("yacht",)
    )
    page = log_in(new_page(viewport=PHONE, touch=True), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    return game, page


def test_a_secret_choice_takes_two_taps(yacht_board, screenshot):
    from playwright.sync_api import expect

    game, page = yacht_board
    choice = page.locator("#seal-1000")
    cards = page.locator(".choice-row button.card-button")
    before = [cards.nth(i).bounding_box() for i in range(cards.count())]
    choice.click()
    expect(choice).to_have_class("card-button is-armed")
    expect(choice.locator(".card-button__label")).to_have_text("Press again")
    expect(page.locator("#choice-confirm")).to_have_text("Choose 1,000: press again to choose it")
    assert Game.objects.get(pk=game.pk).version == 0  # nothing sent yet
    # No card moved: the marked one grew a row wide and pushed the others along, so a
    # thumb changing its mind landed on another card (a card given up for good).
    after = [cards.nth(i).bounding_box() for i in range(cards.count())]
    for old, new in zip(before, after, strict=True):
        assert all(abs(old[k] - new[k]) < 1 for k in ("x", "y", "width", "height")), (old, new)
    screenshot(page, "yacht-club-armed-phone")
    page.locator("#seal-2000").click()  # another card: that one is marked instead
    expect(page.locator("#seal-2000")).to_have_class("card-button is-armed")
    expect(choice).to_have_class("card-button")
    expect(choice.locator(".card-button__label")).to_have_text("Choose")
    page.locator("#seal-2000").click()
    expect(page.locator(".tray")).to_contain_text("Your choice is sealed: 2,000.")
    assert Game.objects.get(pk=game.pk).engine_state().sealed[0] == 2000


def test_a_first_tap_survives_another_players_choice(yacht_board, bob):
    """The sealed choices are made at the same time: Bob's, coming while Alice's first
    tap was on, redrew her board and the card went back to "Choose"; her second tap
    only marked it again.  Now the mark stays and the second tap sends."""
    from playwright.sync_api import expect

    from tests.games.pages.conftest import act

    game, page = yacht_board
    choice = page.locator("#seal-3000")
    choice.click()
    expect(choice).to_have_class("card-button is-armed")
    board = page.locator("#board")
    version = board.get_attribute("data-version")
    act(game, bob, type="sealed_bid", card=1000)
    expect(board).not_to_have_attribute("data-version", version, timeout=8000)
    expect(page.locator("#seal-3000")).to_have_class("card-button is-armed")
    expect(page.locator("#seal-3000 .card-button__label")).to_have_text("Press again")
    page.locator("#seal-3000").click()
    expect(page.locator(".tray")).to_contain_text("Your choice is sealed: 3,000.")
    assert Game.objects.get(pk=game.pk).engine_state().sealed[0] == 3000
