"""A form the board sends with htmx that the server refuses as a whole, not as a move:
the page says so, in the server's words, where the button used to seem dead."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.browser.conftest import PHONE
from tests.games.pages.conftest import table_make

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_board_opened_before_a_new_log_in_in_another_tab_says_to_reload(
    live_server, new_page, log_in, screenshot, alice, bob, carol
):
    """Two tabs of one browser on Alice's board; she logs out and in again in the
    first.  The second's forms carry the old session's CSRF token: its Pass is refused
    (403), and it used to do nothing at all, not a word, while the board went on
    updating as if all were well."""
    from playwright.sync_api import expect

    alice.is_staff = True  # a fixed deck and first player (a scenario table)
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [bob, carol])
    page = log_in(new_page(viewport=PHONE), alice)
    new_page.expect("403")  # the refused post, as Chromium and htmx log it
    new_page.expect("htmx:responseError")
    stale = page.context.new_page()
    stale.goto(f"{live_server.url}/games/{game.pk}/")
    expect(stale.locator(".banner")).to_contain_text("Your turn")
    page.goto(f"{live_server.url}/")
    page.click(".site-header__who button")  # Log out
    log_in(page, alice)

    stale.click("#pass-button")
    problem = stale.locator("#request-problem")
    expect(problem).to_be_visible()
    expect(problem).to_contain_text("This page was out of date")
    expect(problem).to_contain_text("Nothing was changed.")
    assert Game.objects.get(pk=game.pk).version == 0
    screenshot(stale, "browser-refused-request")
    # Its link reloads the page, whose forms then go through.
    stale.click(".request-problem__reload")
    expect(problem).to_be_hidden()
    stale.click("#pass-button")
    expect(stale.locator(".log")).to_contain_text("Alice passes.")
    assert Game.objects.get(pk=game.pk).version == 1
