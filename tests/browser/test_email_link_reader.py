"""A turn e-mail's link opened in a browser logged in as someone else (a shared
computer): the board says whose link it is, and its button logs out and back in as
that person, to the table, where it is their turn."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from tests.factories import PASSWORD
from tests.games.factories import GameFactory, scenario_deck

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_link_for_bob_opened_as_dora_leads_to_bobs_turn(
    new_page, log_in, live_server, dora, bob, screenshot, settings, run_commits
):
    settings.SITE_URL = live_server.url
    from games.services import game_invitation_respond

    with run_commits():
        game = GameFactory(
            creator=dora,
            seats=[{"user": "bob"}, {"ai": "easy"}],
            deck=scenario_deck("lux5 lux4 lux3"),
            first_player=1,
        )
        game_invitation_respond(game=game, user=bob, accept=True)
    (message,) = [m for m in mail.outbox if m.to == ["bob@example.com"] and "turn" in m.subject]
    link = re.search(rf"{re.escape(live_server.url)}/games/\d+/\S*", message.body).group(0)

    page = log_in(new_page(), dora)
    page.goto(link)
    notice = page.locator("#link-reader")
    assert notice.inner_text().startswith(
        "This link was sent to Bob, but you are logged in as Dora."
    )
    assert page.locator(".board--my-turn").count() == 0
    screenshot(page, "link-reader-notice")
    notice.get_by_role("button", name="Log out, to log in as Bob").click()
    page.wait_for_url(re.compile(r"/accounts/login/"))
    page.fill("input[name=login]", "bob")
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    assert page.locator(".board--my-turn").count() == 1
    assert page.locator("#link-reader").count() == 0
