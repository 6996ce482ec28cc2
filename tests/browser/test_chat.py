"""The table chat in a real browser: a message sent by htmx appears for the other
player with their board's next refresh, and what someone is typing survives it."""

from __future__ import annotations

import pytest

from games.chat import chat_post
from tests.games.pages.conftest import table_make

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_players_chat_while_the_board_refreshes(
    live_server, new_page, log_in, screenshot, alice, bob, carol
):
    from playwright.sync_api import expect

    alice.is_staff = True  # a staff table: the deck and the first player are set
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [bob, carol])
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.fill("#chat-text", "Good luck, all <3")
    page.click(".chat__form button[type=submit]")
    expect(page.locator(".chat__lines")).to_contain_text("Good luck, all <3")
    expect(page.locator("#chat-text")).to_have_value("")  # emptied after sending

    # Alice starts typing; Bob writes meanwhile: her board refreshes with his message
    # and her unfinished line is still there.
    page.fill("#chat-text", "half a sente")
    chat_post(game=game, user=bob, text="Thanks, you too!")
    expect(page.locator(".chat__lines")).to_contain_text("Thanks, you too!", timeout=8000)
    expect(page.locator("#chat-text")).to_have_value("half a sente")
    screenshot(page, "browser-chat")
