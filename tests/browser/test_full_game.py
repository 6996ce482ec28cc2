"""Issue 3 end to end: three people sign up in Chromium, verify their e-mail from the
real message, create and join a table, and play a whole game to the final scores
through the pages."""

from __future__ import annotations

import re

import pytest

from games.engine import LUXURY_VALUE, seats_to_act
from games.models import Game
from tests.browser.players import give_up_card, sign_up, wait_for_version

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.embedded]

PASSWORD = "a-long-test-password-42"


def test_three_people_sign_up_and_play_a_whole_game(live_server, new_page, screenshot):
    from playwright.sync_api import expect

    base = live_server.url
    pages = {}
    for name in ("alice", "bob", "carol"):
        pages[name] = new_page()
        sign_up(pages[name], base, name, PASSWORD)

    alice = pages["alice"]
    alice.goto(f"{base}/games/new/")
    alice.check("input[name=players][value='3']")
    alice.select_option("select[name=seat_2]", "invite")
    alice.fill("input[name=invite_2]", "bob")
    alice.select_option("select[name=seat_3]", "open")
    screenshot(alice, "e2e-create-table")
    alice.click("main form button[type=submit]")
    alice.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/", alice.url).group(1))

    bob = pages["bob"]
    bob.goto(f"{base}/")
    expect(bob.locator("main")).to_contain_text("alice")
    bob.goto(f"{base}/games/{game_id}/")
    bob.click("button[name=accept][value=yes]")
    carol = pages["carol"]
    carol.goto(f"{base}/")
    carol.goto(f"{base}/games/{game_id}/")
    carol.click("text=Join this table")

    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.ACTIVE
    owners = {seat.position: seat.user.username for seat in game.seats.select_related("user")}

    moves = 0
    while game.status == Game.Status.ACTIVE and moves < 300:
        state = game.engine_state()
        seat = seats_to_act(state)[0]
        page = pages[owners[seat]]
        page.goto(f"{base}/games/{game_id}/")
        expect(page.locator(".banner--you")).to_be_visible()
        if state.phase == "theft":
            give_up_card(page.locator("[id^=discard-]").first)
        elif state.card in LUXURY_VALUE and max(state.bids) == 0 and state.hands[seat]:
            # The leader opens a luxury with their smallest card, ticked on the page.
            smallest = page.locator(".pick__input").first.get_attribute("value")
            page.click(f"label[for=hand-{smallest}]")
            expect(page.locator("#bid-preview")).to_contain_text(f"{int(smallest):,}")
            page.click("#bid-button")
        else:
            page.click("#pass-button")
        if moves == 3:
            screenshot(page, "e2e-mid-game")
        game = wait_for_version(game_id, game.version)
        moves += 1

    assert game.status == Game.Status.FINISHED, "the game ended through the pages"
    assert game.result is not None
    for page in pages.values():
        page.goto(f"{base}/games/{game_id}/")
        expect(page.locator("main")).to_contain_text("Final scores")
        expect(page.locator(".banner")).to_contain_text("The game is over")
    screenshot(pages["carol"], "e2e-final-scores")
    winners = [p["seat"] for p in game.result["players"] if p["winner"]]
    page_text = pages["alice"].locator("main").inner_text()
    for seat in winners:
        assert owners[seat] in page_text.lower()
