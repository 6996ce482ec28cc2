"""A form the board sends with htmx that the server refuses as a whole, not as a move:
the page says so, in the server's words, where the button used to seem dead."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.browser.conftest import PHONE
from tests.games.pages.conftest import table_make

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_form_refused_as_a_whole_says_so_with_a_reload_link(
    live_server, new_page, log_in, screenshot, alice, bob, carol
):
    """The browser lost the site's cookies while Alice's board was open (a privacy
    setting, a cleared history): its Pass is refused by the CSRF check (403), and it
    used to do nothing at all, not a word, while the board went on updating as if all
    were well.  (A log-out or log-in in another tab redraws the board at once:
    tests/browser/test_board_stream.py.)"""
    from playwright.sync_api import expect

    alice.is_staff = True  # a fixed deck and first player (a scenario table)
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [bob, carol])
    page = log_in(new_page(viewport=PHONE), alice)
    new_page.expect("403")  # the refused post, as Chromium and htmx log it
    new_page.expect("htmx:responseError")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".banner")).to_contain_text("Your turn")
    page.context.clear_cookies()

    page.click("#pass-button")
    problem = page.locator("#request-problem")
    expect(problem).to_be_visible()
    expect(problem).to_contain_text("This page was out of date")
    expect(problem).to_contain_text("Nothing was changed.")
    assert Game.objects.get(pk=game.pk).version == 0
    screenshot(page, "browser-refused-request")
    # Its link reloads the page, drawn as the browser is now: signed out.
    page.click(".request-problem__reload")
    expect(problem).to_be_hidden()
    expect(page.locator(".site-header")).not_to_contain_text("Signed in as")
    assert Game.objects.get(pk=game.pk).version == 0
