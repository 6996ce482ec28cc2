"""The end of a game in a real browser: places, rating changes, where to go next, and
a rematch in one click."""

from __future__ import annotations

import random

import pytest

from games.models import Game
from tests.games.factories import people_game, people_play

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


def test_an_open_end_screen_shows_the_rematch_another_player_opened(
    live_server, new_page, log_in, alice, bob, carol
):
    """Carol's end screen stays open while Bob opens the rematch: its link replaces her
    Rematch button without a reload (the finished board used to stop refreshing)."""
    from playwright.sync_api import expect

    from games.chat import chat_post
    from games.services import game_rematch

    game = people_play(people_game(alice, bob, carol), random.Random(4))
    page = log_in(new_page(), carol)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".ending__rematch button")).to_be_visible()
    rematch, _opened = game_rematch(game=game, user=bob)
    expect(page.locator(".ending")).to_contain_text(f"Rematch: table {rematch.pk}", timeout=20_000)
    expect(page.locator(".ending__rematch button")).to_have_count(0)
    chat_post(game=game, user=alice, text="Well played!")
    expect(page.locator(".chat__lines")).to_contain_text("Well played!", timeout=20_000)
