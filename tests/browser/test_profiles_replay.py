"""In Chromium: step through a replay with the keyboard and the buttons; a profile page
with its rating chart, the leaderboard and the history (screenshots in test-artifacts/).

Part of the profiles work (tests/games/records/); it lives here to share this folder's one
Playwright browser (a second sync Playwright in the same process is refused)."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import ARTIFACTS, PHONE
from tests.games.records.conftest import played_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def press(page, key):
    """A key press once the page (and its deferred replay.js) has loaded."""
    page.wait_for_load_state("load")
    page.keyboard.press(key)


def test_step_through_a_replay(live_server, new_page, screenshot, alice, bob, carol):
    from playwright.sync_api import expect

    game = played_game([alice, bob, "medium", "hard"], seed=31, advanced=("yacht",))
    total = game.version
    url = f"{live_server.url}/games/{game.pk}/replay/"
    page = new_page()
    page.goto(f"{url}?move=0")
    position = page.locator("#replay-position")
    expect(position).to_have_text(f"Set-up, before move 1 of {total}")

    press(page, "ArrowRight")
    expect(position).to_have_text(f"Move 1 of {total}")
    assert page.url.endswith("?move=1")
    press(page, "ArrowRight")
    expect(position).to_have_text(f"Move 2 of {total}")
    press(page, "ArrowLeft")
    expect(position).to_have_text(f"Move 1 of {total}")

    page.get_by_role("link", name="Next", exact=True).click()
    expect(position).to_have_text(f"Move 2 of {total}")
    page.get_by_role("link", name="Previous", exact=True).click()
    expect(position).to_have_text(f"Move 1 of {total}")

    # Keys typed into the move box are the box's own.
    page.fill("#replay-move", "7")
    page.focus("#replay-move")
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"Move 1 of {total}")
    page.get_by_role("navigation", name="Replay steps").get_by_role("button", name="Go").click()
    expect(position).to_have_text(f"Move 7 of {total}")
    expect(page.locator(".replay__list .is-current")).to_contain_text("7")
    screenshot(page, "profiles-replay-move-7")

    # A link to a given move, from the move list: the later moves wait behind a summary.
    later = page.locator(".replay__later a")
    expect(later.first).to_be_hidden()
    page.locator(".replay__later summary").click()
    later.nth(4).click()  # moves 8, 9, 10, 11, 12
    expect(position).to_have_text(f"Move 12 of {total}")
    assert re.search(r"\?move=12$", page.url)

    page.get_by_role("link", name="Last", exact=True).click()
    expect(position).to_have_text(f"Move {total} of {total}")
    expect(page.locator(".scores")).to_contain_text("Final scores")
    press(page, "ArrowRight")  # nothing after the last move
    expect(position).to_have_text(f"Move {total} of {total}")
    screenshot(page, "profiles-replay-end")

    page.get_by_role("link", name="First", exact=True).click()
    expect(position).to_have_text(f"Set-up, before move 1 of {total}")


def test_a_replay_on_a_phone_steps_under_the_thumb(live_server, new_page, screenshot, alice, bob):
    """On a phone's touch screen: where the replay is on a line of its own, Previous and
    Next side by side on one row, First and Last under them; no keyboard hint, and
    "none" in the players' panels is as light as on the board, not dark on the felt."""
    from playwright.sync_api import expect

    game = played_game([alice, bob, "medium"], seed=33)
    page = new_page(viewport=PHONE, touch=True)
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?move=1")
    prev, next_ = page.locator("[data-replay-step=prev]"), page.locator("[data-replay-step=next]")
    where = page.locator(".replay__where").bounding_box()
    assert prev.bounding_box()["y"] == next_.bounding_box()["y"] > where["y"]
    first = page.locator("[data-replay-step=first]").bounding_box()
    assert first["y"] > prev.bounding_box()["y"]
    expect(page.locator(".replay__keys")).to_be_hidden()
    screenshot(page, "profiles-replay-phone")
    colour = page.locator(".table-top .none").first.evaluate("e => getComputedStyle(e).color")
    board = new_page()
    board.goto(f"{live_server.url}/games/{game.pk}/replay/?move=1")
    assert colour != "rgb(77, 85, 81)"  # the cream sheets' dark --ink-soft
    expect(board.locator(".replay__keys")).to_be_visible()  # a desktop has keys


def test_replay_steps_in_the_page_keeping_its_place_and_every_key(
    live_server, new_page, alice, bob, carol
):
    """A step loads into the page: where the reader scrolled to stays, and keys pressed
    faster than the steps load all count (a held key's repeat), each from the move asked
    for last; Home and End go to the set-up and the last move; Back goes back a step."""
    from playwright.sync_api import expect

    game = played_game([alice, bob, carol], seed=34)
    total = game.version
    page = new_page(viewport=PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?move=3")
    page.wait_for_load_state("load")
    position = page.locator("#replay-position")
    page.evaluate("window.marker = 'same page'; window.scrollTo(0, 600)")
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 300
    asked = []
    page.on("request", lambda request: "/replay/" in request.url and asked.append(request.url))
    for _ in range(5):
        page.keyboard.press("ArrowRight", delay=0)
    expect(position).to_have_text(f"Move 8 of {total}")
    page.wait_for_url("**move=8")
    assert page.title().startswith("Move 8 of ")
    assert page.evaluate("window.marker") == "same page"  # no page load
    assert abs(page.evaluate("window.scrollY") - scrolled) < 2
    assert page.evaluate("document.activeElement.id") == "replay-move-text"
    expect(page.locator(".replay__list .is-current")).to_contain_text("8")
    # Keys pressed quickly ask for the move they stop on, not for every one passed (a
    # loaded machine may space them out: at most one ask per key).
    assert 1 <= len(asked) <= 5, asked
    before = len(asked)
    # The header's ways back (the language's next, Log in's ?next=) name move 8.
    assert page.locator("input[name=next]").first.input_value().endswith("move=8")
    login = page.locator(".site-nav a[href*='next=']").first.get_attribute("href")
    assert login.endswith("move%3D8"), login
    # A jump within the page (the skip link) fetches nothing.
    page.evaluate("location.hash = 'main'")
    page.wait_for_timeout(300)
    assert len(asked) == before, asked

    page.keyboard.press("End")
    expect(position).to_have_text(f"Move {total} of {total}")
    expect(page.locator(".scores")).to_contain_text("Final scores")
    page.keyboard.press("ArrowRight")  # nothing after the last move
    page.keyboard.press("Home")
    expect(position).to_have_text(f"Set-up, before move 1 of {total}")
    page.go_back()
    expect(position).to_have_text(f"Move {total} of {total}")
    page.go_back()
    expect(position).to_have_text(f"Move 8 of {total}")
    assert page.evaluate("window.marker") == "same page"


def test_the_next_link_pressed_keeps_the_focus_and_the_move_is_read_out(
    live_server, new_page, alice, bob, carol
):
    """Enter on Next steps on and leaves the focus on Next (pressed again, it steps
    again); the move is read out by a status region; at the end, where Next is gone, the
    focus goes to the move's words.  A step link that cannot be used says so."""
    from playwright.sync_api import expect

    game = played_game([alice, bob, carol], seed=34)
    total = game.version
    page = new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?move={total - 2}")
    page.wait_for_load_state("load")
    position = page.locator("#replay-position")
    page.locator("a[data-replay-step=next]").focus()
    page.keyboard.press("Enter")
    expect(position).to_have_text(f"Move {total - 1} of {total}")
    assert page.evaluate("document.activeElement.dataset.replayStep") == "next"
    words = page.locator("#replay-move-text").inner_text().split()
    expect(page.locator("div[role=status].visually-hidden")).to_have_text(" ".join(words))
    page.keyboard.press("Enter")
    expect(position).to_have_text(f"Move {total} of {total}")
    assert page.evaluate("document.activeElement.id") == "replay-move-text"
    disabled = page.locator(".is-disabled[aria-disabled=true]").first
    assert disabled.get_attribute("role") == "link"


def test_replay_steps_without_javascript(live_server, new_page, alice, bob, carol):
    from playwright.sync_api import expect

    game = played_game([alice, bob, carol], seed=32)
    page = new_page(javascript=False)
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?move=3")
    page.get_by_role("link", name="Next", exact=True).click()
    expect(page.locator("#replay-position")).to_have_text(f"Move 4 of {game.version}")


def test_profile_with_its_chart(
    live_server,
    new_page,
    log_in,
    screenshot,
    alice,
    bob,
    carol,
):
    from playwright.sync_api import expect

    for seed in range(14):
        seats = [alice, bob, "medium"] if seed % 3 else [alice, carol, "easy", "hard"]
        played_game(seats, seed=100 + seed)
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/players/alice/")
    chart = page.locator("svg.chart__svg")
    expect(chart).to_be_visible()
    assert chart.get_attribute("role") == "img"
    expect(page.locator("#chart-title")).to_have_text(re.compile("Rating of Alice"))
    box = chart.bounding_box()
    assert box["width"] > 400 and box["height"] > 150
    expect(page.locator(".stat-grid")).to_contain_text("14")
    expect(page.locator(".won-cards .hs-card").first).to_be_visible()
    screenshot(page, "profiles-profile-chart")

    phone = log_in(new_page(viewport=PHONE), alice)
    phone.goto(f"{live_server.url}/players/alice/")
    expect(phone.locator("svg.chart__svg")).to_be_visible()
    # Who one played with stays on a phone: each stacked row gives it a line of its own.
    expect(phone.locator("td.col-wide").first).to_be_visible()
    expect(phone.locator("td.col-wide").first).to_contain_text(re.compile("Bob|Carol"))
    screenshot(phone, "profiles-profile-phone")
    phone.goto(f"{live_server.url}/games/history/")
    expect(phone.locator("td.col-wide").first).to_be_visible()
    screenshot(phone, "profiles-history-phone")
    phone.goto(f"{live_server.url}/players/alice/")
    phone.locator("svg.chart__svg").screenshot(
        path=str(ARTIFACTS / "profiles-chart-phone.png"), caret="initial"
    )

    page.goto(f"{live_server.url}/leaderboard/")
    expect(page.locator("h1")).to_have_text("Leaderboard")
    screenshot(page, "profiles-leaderboard")

    page.goto(f"{live_server.url}/games/history/?show=won")
    expect(page.locator("h1")).to_have_text("My games")
    screenshot(page, "profiles-history")
