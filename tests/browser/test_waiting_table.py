"""A host's waiting table in the browser: who declined shows up by itself, and "Change
seat N" opens a seat to another player or a bot until the table starts."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services import game_create, game_invitation_respond

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_host_fills_a_declined_seat_with_a_bot_and_the_game_starts(
    live_server, new_page, log_in, screenshot, alice, bob
):
    from playwright.sync_api import expect

    table = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"open": True}])
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{table.pk}/")
    seats = page.locator(".seat-list > li")
    expect(seats.nth(1)).to_contain_text("Invited, not answered")
    game_invitation_respond(game=table, user=bob, accept=False)
    expect(seats.nth(1)).to_contain_text("Bob declined", timeout=8000)  # by itself

    seats.nth(1).get_by_text("Change seat 2").click()
    form = seats.nth(1).locator("form")
    expect(form.locator("select[name=kind]")).to_have_value("open")
    expect(form.locator("input[name=invite]")).to_be_hidden()  # until "Invite" is chosen
    form.locator("select[name=kind]").select_option("invite")
    expect(form.locator("input[name=invite]")).to_be_visible()
    screenshot(page, "waiting-table-host")
    form.locator("select[name=kind]").select_option("bot:easy")
    form.get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("A bot (easy) takes seat 2.")
    expect(seats.nth(1)).to_contain_text("Bot (easy)")
    expect(seats.nth(1)).not_to_contain_text("declined")

    seats.nth(2).get_by_text("Change seat 3").click()
    seats.nth(2).locator("select[name=kind]").select_option("bot:medium")
    seats.nth(2).get_by_role("button", name="Save").click()
    expect(page.locator("#board.board--active")).to_be_attached()
    assert Game.objects.get(pk=table.pk).status == Game.Status.ACTIVE
