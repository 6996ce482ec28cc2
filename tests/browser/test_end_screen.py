"""The end of a game in a real browser: places, rating changes, where to go next, and
a rematch in one click."""

from __future__ import annotations

import random

import pytest

from games.models import Game
from tests.games.factories import people_game, people_play, scenario_deck

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_end_screen_and_a_rematch(live_server, new_page, log_in, screenshot, alice, bob, carol):
    from playwright.sync_api import expect

    game = people_play(people_game(alice, bob, carol), random.Random(4))
    assert game.status == Game.Status.FINISHED
    page = log_in(new_page(), bob)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".scores__table tbody tr")).to_have_count(3)
    expect(page.locator(".ending")).to_contain_text("Watch the replay")
    screenshot(page, "browser-end-screen")
    page.click(".ending__rematch button")
    rematch = Game.objects.get(rematch_of=game)
    page.wait_for_url(f"{live_server.url}/games/{rematch.pk}/")
    expect(page.locator("main")).to_contain_text(f"Rematch: table {rematch.pk}")
    # On a board its script reads the message out; the focus stays the board's.
    expect(page.locator("#turn-announcer")).to_contain_text(f"Rematch: table {rematch.pk}")
    assert not page.evaluate("document.activeElement.matches('.messages')")


def test_an_open_end_screen_shows_the_rematch_another_player_opened(
    live_server, new_page, log_in, alice, bob, carol
):
    """Carol's end screen stays open while Bob opens the rematch: without a reload her
    Rematch button now says it takes her seat there (the finished board used to stop
    refreshing), and pressed, it does; then the link to the table shows."""
    from playwright.sync_api import expect

    from games.chat import chat_post
    from games.services import game_rematch

    game = people_play(people_game(alice, bob, carol), random.Random(4))
    page = log_in(new_page(), carol)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".ending__rematch button")).to_be_visible()
    rematch, _opened = game_rematch(game=game, user=bob)
    expect(page.locator(".ending")).to_contain_text(
        f"Another player opened it (table {rematch.pk})", timeout=20_000
    )
    page.click(".ending__rematch button")
    page.wait_for_url(f"{live_server.url}/games/{rematch.pk}/")
    assert rematch.seats.get(user=carol).accepted
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".ending")).to_contain_text(f"Rematch: table {rematch.pk}")
    expect(page.locator(".ending__rematch button")).to_have_count(0)
    chat_post(game=game, user=alice, text="Well played!")
    expect(page.locator(".chat__lines")).to_contain_text("Well played!", timeout=20_000)


def test_the_final_scores_keep_a_players_row_short_on_a_phone_held_sideways(
    live_server, new_page, log_in, alice, bob, carol
):
    """At 844 x 390 the score sheet keeps its columns; the status cards had what the
    other columns left, two to a line, and a winner's row was taller than the screen.
    The deck, the first player and the moves are fixed, so the sheet has long rows."""
    alice.is_staff = True  # a staff table: the deck and the first player are set
    alice.save()
    deck = scenario_deck("lux1 lux2 lux3 lux4 lux5 lux6 lux7 lux8 lux9 lux10 debt theft")
    game = people_game(alice, bob, carol, deck=deck, first_player=0)
    finished = people_play(game, random.Random(13))
    page = log_in(new_page(viewport={"width": 844, "height": 390}, touch=True), alice)
    page.goto(f"{live_server.url}/games/{finished.pk}/")
    cells = page.locator(".scores__cards")
    assert cells.count() == 3
    most = 0
    for i in range(3):
        tops = {
            round(box["y"])
            for box in cells.nth(i)
            .locator(".hs-card")
            .evaluate_all("cards => cards.map(c => c.getBoundingClientRect().toJSON())")
        }
        count = cells.nth(i).locator(".hs-card").count()
        most = max(most, count)
        assert len(tops) <= (count + 4) // 5, (i, count, tops)  # five to a line at least
    assert most >= 5  # the game dealt rows that wrapped
