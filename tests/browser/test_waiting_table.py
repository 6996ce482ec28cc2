"""A host's waiting table in the browser: who declined shows up by itself, and "Change
seat N" opens a seat to another player or a bot until the table starts."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services import game_create, game_invitation_respond, game_join

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
    # A screen reader hears the seat that changed, in its own words.
    expect(page.locator("#turn-announcer")).to_contain_text("Seat 2")
    expect(page.locator("#turn-announcer")).to_contain_text("Bob declined")

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


def test_an_open_seat_form_stays_open_while_the_table_fills(
    live_server, new_page, log_in, alice, bob, carol, dave
):
    """Someone joins while the host fills in "Change seat 4": the board refreshes by
    itself, and the form is still open with what the host chose and typed."""
    from playwright.sync_api import expect

    table = game_create(
        creator=alice, players=4, seats=[{"user": "bob"}, {"open": True}, {"open": True}]
    )
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{table.pk}/")
    seats = page.locator(".seat-list > li")
    seats.nth(3).get_by_text("Change seat 4").click()
    form = seats.nth(3).locator("form")
    form.locator("select[name=kind]").select_option("invite")
    form.locator("input[name=invite]").fill("dav")
    form.locator("input[name=invite]").focus()

    game_join(game=table, user=carol)  # takes seat 3, the lowest open one
    expect(seats.nth(2)).to_contain_text("Carol", timeout=8000)  # the board refreshed
    expect(form.locator("select[name=kind]")).to_have_value("invite")
    expect(form.locator("input[name=invite]")).to_have_value("dav")
    expect(form.locator("input[name=invite]")).to_be_focused()
    form.locator("input[name=invite]").press_sequentially("e")
    form.get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("You invited Dave to seat 4.")


def test_the_confirmation_goes_when_the_table_starts(
    live_server, new_page, log_in, alice, bob, carol
):
    """ "A bot takes seat 2." answers the host's form; once somebody else's join starts
    the game, the board moves on and the confirmation goes with the waiting table."""
    from playwright.sync_api import expect

    table = game_create(creator=alice, players=3, seats=[{"open": True}, {"open": True}])
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{table.pk}/")
    seats = page.locator(".seat-list > li")
    seats.nth(1).get_by_text("Change seat 2").click()
    seats.nth(1).locator("select[name=kind]").select_option("bot:easy")
    seats.nth(1).get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("A bot (easy) takes seat 2.")

    game_join(game=table, user=carol)  # the last seat: the game starts
    expect(page.locator("#board.board--active")).to_be_attached(timeout=8000)
    expect(page.locator(".messages")).not_to_be_attached()


def test_the_confirmation_goes_with_the_players_first_move(
    live_server, new_page, log_in, dora, screenshot
):
    """The host's seat change starts the game on her turn: the page that comes back says
    so at the top; her first move takes that message away."""
    from playwright.sync_api import expect

    from tests.games.factories import scenario_deck

    table = game_create(
        creator=dora,
        players=3,
        seats=[{"open": True}, {"ai": "easy"}],
        deck=scenario_deck("lux5 lux3"),
        first_player=0,
    )
    page = log_in(new_page(), dora)
    page.goto(f"{live_server.url}/games/{table.pk}/")
    seat = page.locator(".seat-list > li").nth(1)
    seat.get_by_text("Change seat 2").click()
    seat.locator("select[name=kind]").select_option("bot:easy")
    seat.get_by_role("button", name="Save").click()
    expect(page.locator("#board.board--my-turn")).to_be_attached()
    expect(page.locator(".messages")).to_contain_text("A bot (easy) takes seat 2.")
    page.locator("#pass-button").click()
    expect(page.locator(".messages")).not_to_be_attached()
    expect(page.locator("#board .log")).to_contain_text("Dora passes")


def test_the_host_closes_the_table_after_a_second_press(
    live_server, new_page, log_in, screenshot, alice, carol
):
    """The host's "Close this table" closed it at one press; now it says what closing does."""
    from playwright.sync_api import expect

    table = game_create(creator=alice, players=3, seats=[{"open": True}, {"open": True}])
    game_join(game=table, user=carol)
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{table.pk}/")
    close = page.get_by_role("button", name="Close the table")
    expect(close).to_be_hidden()
    page.get_by_text("Close this table").click()
    expect(close).to_be_visible()
    expect(page.locator(".close-table")).to_contain_text("told by e-mail")
    assert Game.objects.get(pk=table.pk).status == Game.Status.OPEN
    screenshot(page, "waiting-table-close")
    close.click()
    expect(page.locator(".messages")).to_contain_text("You closed the table.")
    assert Game.objects.get(pk=table.pk).status == Game.Status.ABANDONED


def test_the_host_hears_the_game_begin(live_server, new_page, log_in, alice, bob):
    """Waiting at her table, the host heard "Waiting for Bob." when the game began: not
    its set-up (the card revealed) in the log, drawn as if it were old news."""
    from playwright.sync_api import expect

    table = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"ai": "easy"}])
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{table.pk}/")
    expect(page.locator(".seat-list")).to_be_visible()
    game_invitation_respond(game=table, user=bob, accept=True)
    expect(page.locator("#board .log__lines")).to_be_visible(timeout=8000)
    expect(page.locator("#turn-announcer")).to_contain_text("Set-up: ")
