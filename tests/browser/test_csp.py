"""Pages in a real browser under the Content-Security-Policy: nothing is refused
(Chromium reports each refusal on the console), and htmx still works."""

from __future__ import annotations

import pytest

from tests.browser.conftest import refusals_of
from tests.games.pages.conftest import table_make

pytestmark = pytest.mark.django_db(transaction=True)


def test_pages_load_with_nothing_refused(live_server, new_page, log_in, alice, bob, carol):
    from playwright.sync_api import expect

    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [bob, carol])
    page = new_page()
    refused = refusals_of(page.context)
    for url in ("/", "/accounts/login/", "/accounts/signup/"):
        page.goto(f"{live_server.url}{url}")
    log_in(page, alice)
    for url in ("/accounts/profile/", "/accounts/email/", f"/games/{game.pk}/", "/api/docs/"):
        page.goto(f"{live_server.url}{url}")
        page.wait_for_load_state("networkidle")
    expect(page.locator("#swagger-ui .info")).to_be_visible()
    # htmx under the policy: a server-side bid preview on the board.
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("label[for=hand-10000]")
    expect(page.locator("#bid-preview")).to_contain_text("10,000")
    assert refused == []


def test_an_inline_style_put_on_the_board_by_an_extension_is_not_copied_by_htmx(
    live_server, new_page, log_in, alice, bob, carol
):
    """Password managers and writing aids give inputs an inline style through the DOM
    (which the policy allows).  htmx used to carry such a ``style`` over to the same
    element of the board it swaps in with ``setAttribute``, and the policy refused each
    one (three console errors a move; Playwright's screenshots, which hide the caret
    that way, did it too).  The board now settles no ``style``: nothing is refused."""
    from playwright.sync_api import expect

    alice.is_staff = True  # table_make fixes the deck: a staff scenario
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [bob, carol])
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".banner")).to_contain_text("Your turn")
    page.evaluate(
        "for (const e of document.querySelectorAll('#board [id]')) e.style.outline = '1px solid red'"
    )
    page.click("label[for=hand-10000]")
    expect(page.locator("#bid-preview")).to_contain_text("10,000")
    page.click("#bid-button")
    expect(page.locator(".log")).to_contain_text("Alice bids 10,000")
    # (new_page fails the test on any refusal the console reported)
