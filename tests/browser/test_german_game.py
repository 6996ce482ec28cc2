"""A German player in Chromium: signs up with a German browser, verifies the e-mail,
opens a table against two bots and plays the whole game through the pages in German;
a French player's board too.  The screenshots (test-artifacts/i18n-*.png) are for a
person to look at: German words are longer, nothing may overflow."""

from __future__ import annotations

import re
import time

import pytest

from accounts.models import User
from games.engine import LUXURY_VALUE, seats_to_act
from games.models import Game
from tests.browser.conftest import PHONE
from tests.browser.players import give_up_card, sign_up, wait_for_version

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.embedded]

PASSWORD = "ein-langes-Test-Passwort-42"


def play_to_the_end(page, base, game_id, screenshot, prefix):
    game = Game.objects.get(pk=game_id)
    moves = 0
    while game.status == Game.Status.ACTIVE and moves < 200:
        state = game.engine_state()
        page.goto(f"{base}/games/{game_id}/")
        if 0 not in seats_to_act(state):  # a bot's move is on its way
            time.sleep(0.1)
            game = Game.objects.get(pk=game_id)
            continue
        if state.phase == "theft":
            give_up_card(page.locator("[id^=discard-]").first)
        elif state.phase == "sealed":
            give_up_card(page.locator("[id^=seal-]").first)
        elif state.card in LUXURY_VALUE and max(state.bids) == 0 and state.hands[0]:
            smallest = page.locator(".pick__input").first.get_attribute("value")
            page.click(f"label[for=hand-{smallest}]")
            page.wait_for_selector("#bid-preview.preview--ok")
            if moves < 12:
                screenshot(page, f"{prefix}-bid-preview")
            page.click("#bid-button")
        else:
            page.click("#pass-button")
        if moves == 4:
            screenshot(page, f"{prefix}-mid-game")
        game = wait_for_version(game_id, game.version)
        moves += 1
    return Game.objects.get(pk=game_id)


def test_a_german_player_signs_up_and_plays_a_whole_game_against_bots(
    live_server, new_page, screenshot
):
    from playwright.sync_api import expect

    base = live_server.url
    page = new_page(locale="de-DE")
    page.goto(f"{base}/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("main")).to_contain_text("Willkommen bei High Society")
    screenshot(page, "i18n-de-welcome")
    message = sign_up(page, base, "greta", PASSWORD)
    assert User.objects.get(username="greta").language == "de"
    assert "E-Mail" in message.subject or "Bestätige" in message.subject or "E-Mail" in message.body

    page.goto(f"{base}/games/new/")
    expect(page.locator("h1")).to_have_text("Tisch eröffnen")
    page.check("input[name=players][value='3']")
    page.select_option("select[name=seat_2]", "bot:medium")
    page.select_option("select[name=seat_3]", "bot:easy")
    screenshot(page, "i18n-de-create-table")
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/", page.url).group(1))
    # Greta sits in seat 0; the bots answer at once after each of her moves.
    expect(page.locator("#board-title")).to_have_text(f"Tisch {game_id}")

    game = play_to_the_end(page, base, game_id, screenshot, "i18n-de")
    assert game.status == Game.Status.FINISHED
    page.goto(f"{base}/games/{game_id}/")
    expect(page.locator("main")).to_contain_text("Endstand")
    expect(page.locator(".banner")).to_contain_text("Die Partie ist vorbei")
    screenshot(page, "i18n-de-final-scores")
    main = page.locator("main").inner_text()
    for english in ("Final scores", "Your turn", "Waiting for", "bids", "passes."):
        assert english not in main

    small = new_page(viewport=PHONE, locale="de-DE")
    small.goto(f"{base}/accounts/login/")
    small.fill("input[name=login]", "greta")
    small.fill("input[name=password]", PASSWORD)
    small.click("main form button[type=submit]")
    small.goto(f"{base}/games/{game_id}/")
    screenshot(small, "i18n-de-phone-final-scores")
    # Nothing wider than the screen: German's long words wrap instead.
    assert small.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_french_player_reads_the_board_in_french(live_server, new_page, screenshot):
    from playwright.sync_api import expect

    base = live_server.url
    page = new_page(locale="fr-FR")
    sign_up(page, base, "camille", PASSWORD)
    page.goto(f"{base}/games/new/")
    page.check("input[name=players][value='4']")
    for seat, level in ((2, "bot:medium"), (3, "bot:hard"), (4, "bot:random")):
        page.select_option(f"select[name=seat_{seat}]", level)
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/", page.url).group(1))
    expect(page.locator("#board-title")).to_have_text(f"Table {game_id}")
    expect(page.locator("main")).to_contain_text("Journal de la partie")
    game = play_to_the_end(page, base, game_id, screenshot, "i18n-fr")
    assert game.status == Game.Status.FINISHED
    page.goto(f"{base}/games/{game_id}/")
    expect(page.locator("main")).to_contain_text("Scores finaux")
    screenshot(page, "i18n-fr-final-scores")
