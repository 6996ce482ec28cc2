"""The table chat in a real browser: a message sent by htmx appears for the other
player with their board's next refresh, and what someone is typing survives it."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.chat import chat_post
from games.models import ChatMessage
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


def test_a_refresh_that_crosses_a_chat_message_keeps_the_fields_on_the_page(
    live_server, new_page, log_in, alice, bob, carol
):
    """The board refreshes on its own while the player's message is on its way; the
    message's answer replaces the board first, then the refresh's answer comes for the
    board that is gone.  The message box and the order's maximum (both kept across
    refreshes) stay on the page, the maximum with what was typed."""
    from playwright.sync_api import expect

    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [bob, carol])
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#order-max")).to_be_visible()
    page.fill("#order-max", "7000")

    held = []  # the board's next refresh (it polls every 3 s), held back for now
    page.route("**/board/*", lambda route: held.append(route))
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the board asked for no refresh"
    page.fill("#chat-text", "Crossing the refresh")
    page.click(".chat__form button[type=submit]")
    expect(page.locator(".chat__lines")).to_contain_text("Crossing the refresh")
    for route in list(held):  # the crossing refresh's answer comes now
        route.continue_()
    page.unroute("**/board/*")
    page.wait_for_timeout(1000)  # the held answer is in and handled

    expect(page.locator("#chat-text")).to_be_visible()
    expect(page.locator("#order-max")).to_be_visible()
    expect(page.locator("#order-max")).to_have_value("7000")


def _chat_scroll(page):
    return page.evaluate(
        "(() => { const l = document.getElementById('chat-lines');"
        " return {top: l.scrollTop, gap: l.scrollHeight - l.scrollTop - l.clientHeight}; })()"
    )


def test_the_chat_shows_its_newest_lines_unless_the_player_reads_older_ones(
    live_server, new_page, log_in, alice, bob, carol
):
    """The box of lines scrolls: it opens on the newest, follows one's own message and
    new lines while the player is at its bottom, and leaves a player who scrolled up
    to read older lines where they are."""
    from playwright.sync_api import expect

    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [bob, carol])
    ChatMessage.objects.bulk_create(
        ChatMessage(game=game, user=(bob, carol)[n % 2], text=f"old line {n}") for n in range(30)
    )
    ChatMessage.objects.filter(game=game).update(created_at=timezone.now() - timedelta(hours=1))
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".chat__lines")).to_contain_text("old line 29")
    opened = _chat_scroll(page)
    assert opened["top"] > 0 and opened["gap"] < 2, opened

    page.fill("#chat-text", "My own line")
    page.click(".chat__form button[type=submit]")
    expect(page.locator(".chat__lines")).to_contain_text("My own line")
    assert _chat_scroll(page)["gap"] < 2

    page.evaluate("document.getElementById('chat-lines').scrollTop = 0")
    chat_post(game=game, user=bob, text="A line while Alice reads")
    expect(page.locator(".chat__lines")).to_contain_text("A line while Alice reads", timeout=8000)
    assert _chat_scroll(page)["top"] == 0


def test_muting_leaves_the_player_where_they_were(live_server, new_page, log_in, alice, bob, carol):
    """Pressing "Mute" reloaded the whole page at its top, five screens above the chat on a
    phone; now the board redraws in place and says who is muted there."""
    from playwright.sync_api import expect

    from tests.browser.conftest import PHONE

    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [bob, carol])
    chat_post(game=game, user=bob, text="Buy my luxury, cheap")
    page = log_in(new_page(viewport=PHONE, touch=True), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    mute = page.get_by_role("button", name="Mute Bob")
    mute.scroll_into_view_if_needed()
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    assert mute.bounding_box()["height"] >= 40  # a finger's target (it was 25 px tall)
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 300
    mute.click()
    expect(page.locator(".chat__muted")).to_contain_text("You muted Bob")
    expect(page.locator(".chat__lines")).not_to_contain_text("Buy my luxury")
    assert abs(page.evaluate("window.scrollY") - scrolled) < 200
    # The focus is where the change shows (a screen reader reads who is muted), not
    # dropped into the hand far above.
    again = page.get_by_role("button", name=re.compile(r"^Show again ?: Bob's messages$"))
    expect(again).to_be_focused()
    again.click()
    expect(page.locator(".chat__lines")).to_contain_text("Buy my luxury")
    expect(page.locator("#chat-lines")).to_be_focused()


def test_a_refused_line_is_explained_beside_the_chat_box(
    live_server, new_page, log_in, alice, bob, carol
):
    """Enter on an empty box put "Write a message first." in the board's alert at the
    top, a screen and more above the chat; the box was not marked."""
    from playwright.sync_api import expect

    from tests.browser.conftest import PHONE

    game = table_make(bob, [alice, carol], deck=None, first_player=None)
    page = log_in(new_page(viewport=PHONE), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.focus("#chat-text")
    page.keyboard.press("Enter")
    error = page.locator("#chat-error")
    expect(error).to_have_text("Write a message first.")
    expect(error).to_be_in_viewport()
    expect(page.locator("#chat-text")).to_be_focused()
    expect(page.locator("#chat-text")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#chat-text")).to_have_attribute("aria-describedby", "chat-error")
    # The board's alert reads it out; the announcer does not say it a second time.
    expect(page.locator("#board-flash")).to_contain_text("Write a message first.")
    assert "Write a message first." not in (page.text_content("#turn-announcer") or "")
    page.keyboard.type("Now with words")
    page.keyboard.press("Enter")
    expect(page.locator(".chat__lines")).to_contain_text("Now with words")
    expect(page.locator("#chat-error")).to_have_count(0)
    expect(page.locator("#chat-text")).not_to_have_attribute("aria-invalid", "true")


def test_reporting_a_line_on_a_phone_opens_in_sight_and_stays_in_place(
    live_server, new_page, log_in, screenshot, alice, bob, carol
):
    """The last line's "Report" opens below the edge of the chat's own scrolling list:
    opened, it scrolls into sight; sent, the line says it was reported, the page stays
    where it was and the focus is on that line's note, not in the hand far above."""
    from playwright.sync_api import expect

    from games.models import ChatReport
    from tests.browser.conftest import PHONE

    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [bob, carol])
    for n in range(8):
        chat_post(game=game, user=(bob, carol)[n % 2], text=f"line {n}")
    last = chat_post(game=game, user=bob, text="you play like an idiot")
    page = log_in(new_page(viewport=PHONE, touch=True), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    line = page.locator(f'.chat__line[data-id="{last.pk}"]')
    line.locator(".chat__report summary").scroll_into_view_if_needed()
    line.locator(".chat__report summary").click()
    send = line.get_by_role("button", name="Report to the staff")
    expect(send).to_be_visible()
    # Scrolled into sight by the board's script once the report has opened: waited for
    # (a loaded machine measured before the scroll), then measured.
    page.wait_for_function(
        """() => {
          const send = [...document.querySelectorAll('.chat__report[open] button')].pop();
          const list = document.getElementById('chat-lines');
          return send && send.getBoundingClientRect().bottom
            <= list.getBoundingClientRect().bottom + 1;
        }""",
        timeout=5000,
    )
    box, chat = send.bounding_box(), page.locator("#chat-lines").bounding_box()
    assert box["y"] + box["height"] <= chat["y"] + chat["height"] + 1, (box, chat)
    screenshot(page, "browser-chat-report")
    scrolled = page.evaluate("window.scrollY")
    send.click()
    note = line.locator(".chat__reported")
    expect(note).to_have_text("Reported to the staff")
    expect(note).to_be_focused()
    assert abs(page.evaluate("window.scrollY") - scrolled) < 200
    assert ChatReport.objects.filter(message=last, reporter=alice).exists()


@pytest.mark.parametrize("width", [390, 820])
def test_opening_report_keeps_the_lines_actions_together(
    live_server, new_page, log_in, alice, bob, carol, width
):
    """Opened, "Report" dropped to the left of a line of its own while "Mute" stayed at
    the right of the message: now both keep to the right, Report under Mute."""
    alice.is_staff = True  # a staff table: the deck and the first player are set
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [bob, carol])
    chat_post(game=game, user=bob, text="Bonne chance à tous, et que le meilleur gagne !")
    page = log_in(new_page(viewport={"width": width, "height": 900}, touch=True), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator(".chat__report summary").click()
    mute = page.locator(".chat__mute button").bounding_box()
    report = page.locator(".chat__report summary").bounding_box()
    assert report["width"] < 3 * mute["width"], report  # a link, not a line-wide bar
    assert abs((mute["x"] + mute["width"]) - (report["x"] + report["width"])) < 3, (mute, report)
    assert report["y"] >= mute["y"] + mute["height"] - 1  # under it
    assert page.get_by_role("button", name="Report to the staff").is_visible()
