"""In Chromium: a new API token, shown once, is copied with one click (on a phone the
field is too narrow to select the whole of it by hand), and its field shows it whole."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_new_token_is_copied_with_one_click(live_server, new_page, log_in, alice):
    from playwright.sync_api import expect

    page = new_page(viewport=PHONE, touch=True)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(page, alice)
    page.goto(f"{live_server.url}/accounts/profile/tokens/")
    page.fill("input[name=name]", "my phone bot")
    page.get_by_role("button", name="Create token").click()
    field = page.locator("#new-token")
    secret = field.input_value()
    assert secret
    # Shown only this once: the box with it takes the focus, so it is read out.
    assert page.evaluate("document.activeElement.id") == ""
    assert page.evaluate("document.activeElement.hasAttribute('data-takes-focus')")
    box = field.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]  # in view
    copy = page.locator("[data-copy-from=new-token]")
    expect(copy).to_have_text("Copy the token")
    copy.click()
    expect(copy).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == secret
    # Read out by a status region; the button says what it does again a moment later.
    expect(page.locator("span[role=status].visually-hidden")).to_have_text("Copied")
    expect(copy).to_have_text("Copy the token", timeout=6000)


def test_an_open_tables_link_is_copied_by_the_same_button(live_server, new_page, log_in, alice):
    """The share link of a table waiting for players: one click copies it (copy.js, as
    the token), on the board that htmx redraws."""
    from playwright.sync_api import expect

    from games import services

    game = services.game_create(creator=alice, players=3, seats=[{"open": True}, {"ai": "easy"}])
    page = new_page()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(page, alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    copy = page.locator("#share-copy")
    expect(copy).to_be_visible()
    copy.click()
    expect(copy).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()").endswith(f"/games/{game.pk}/")
