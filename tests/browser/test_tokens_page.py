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


@pytest.mark.parametrize("width", [320, 390])
def test_an_authenticator_secret_shows_whole_and_is_copied_on_a_phone(
    live_server, new_page, log_in, alice, width
):
    """Setting up a second factor on a phone, whose app cannot scan the QR code on its own
    screen: allauth's secret field was disabled (Chromium would neither select nor copy
    it) and cut off at the 26th of its 32 letters.  Now it shows whole, a button copies
    it, and a link hands the set-up to the phone's authenticator app."""
    from playwright.sync_api import expect

    from tests.factories import PASSWORD

    page = new_page(viewport={"width": width, "height": 844}, touch=True)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(page, alice)
    page.goto(f"{live_server.url}/accounts/2fa/totp/activate/")
    page.fill("input[name=password]", PASSWORD)  # allauth asks for it once more
    page.click("main form button[type=submit]")
    field = page.locator("#authenticator_secret")
    secret = field.input_value()
    assert len(secret) == 32 and field.is_enabled() and not field.is_editable()
    assert field.evaluate("e => e.scrollWidth <= e.clientWidth"), "the secret is cut off"
    assert page.locator("#totp-app-link").get_attribute("href").startswith("otpauth://totp/")
    assert f"secret={secret}" in page.locator("#totp-app-link").get_attribute("href")
    page.get_by_role("button", name="Copy the secret").click()
    assert page.evaluate("navigator.clipboard.readText()") == secret
    expect(page.locator("span[role=status].visually-hidden")).to_have_text("Copied")
