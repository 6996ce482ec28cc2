"""No page is wider than the screen, on a small phone (360 px, a common Android width)
in every language, nor at tablet and narrow-window widths in German (the longest
words): long words wrap, the site's tables stack (the rules' too, each cell under its
column's heading), and nothing absolutely placed (visually hidden column headings)
stretches the page.  Every ``<details>`` is opened first, so what it hides is measured
too."""

from __future__ import annotations

import pytest

from games import services
from games.chat import chat_post
from games.models import Game
from tests.games.pages.conftest import table_make
from tests.games.records.conftest import played_game

pytestmark = pytest.mark.django_db(transaction=True)

SMALL_PHONE = {"width": 360, "height": 780}
WIDTH_OF_PAGE = "() => document.documentElement.scrollWidth"
OPEN_DETAILS = "() => document.querySelectorAll('details').forEach(d => { d.open = true; })"
# Nor may a table need its box's sideways scroll: the site's tables stack on a phone.
TABLES_TOO_WIDE = """() => [...document.querySelectorAll('.table-wrap, .scores__wrap')]
    .filter(box => box.scrollWidth > box.clientWidth)
    .map(box => box.querySelector('thead').innerText.replace(/\\s+/g, ' '))"""


def alices_pages(alice, bob, carol, language):
    """Alice's world: five finished games (so she and Bob are on the leaderboard), one
    being played, and one still filling where Bob invited her; the pages to measure."""
    finished = [played_game([alice, bob, "medium"], seed=300 + seed) for seed in range(5)]
    alice.is_staff = True  # a fixed deck (scenario games) needs staff
    alice.language = language
    alice.save(update_fields=["is_staff", "language"])
    playing = table_make(alice, [bob, carol])
    chat_post(game=playing, user=bob, text="Good luck!")  # a line Alice may mute
    # A table still filling, where Bob invited Alice: her three answers on one line or more.
    waiting = services.game_create(
        creator=bob, players=4, seats=[{"user": "alice"}, {"open": True}, {"ai": "easy"}]
    )
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 5
    return [
        "/",
        "/games/new/",
        f"/games/{playing.pk}/",
        f"/games/{waiting.pk}/",
        f"/games/{finished[0].pk}/",
        f"/games/{finished[0].pk}/replay/",
        "/games/history/",
        "/accounts/profile/",
        "/accounts/profile/tokens/",
        "/players/alice/",
        "/leaderboard/",
        "/rules/",
    ]


def too_wide_pages(page, base, urls, language, width) -> dict:
    """The pages wider than the screen, or with a table that needs its own scroll."""
    from playwright.sync_api import expect

    found = {}
    for url in urls:
        page.goto(f"{base}{url}")
        expect(page.locator("html")).to_have_attribute("lang", language)
        page.evaluate(OPEN_DETAILS)
        page_width = page.evaluate(WIDTH_OF_PAGE)
        if page_width > width:
            found[url] = page_width
        if tables := page.evaluate(TABLES_TOO_WIDE):
            found[url] = tables
    return found


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_no_page_is_wider_than_a_small_phone(
    live_server, new_page, log_in, screenshot, alice, bob, carol, language
):
    from playwright.sync_api import expect

    urls = alices_pages(alice, bob, carol, language)
    page = log_in(new_page(viewport=SMALL_PHONE, locale=language), alice)
    base = live_server.url
    too_wide = too_wide_pages(page, base, urls, language, SMALL_PHONE["width"])
    assert too_wide == {}, f"too wide for a {SMALL_PHONE['width']} px screen: {too_wide}"

    # The lists of games stack on the phone: every game's replay link is on the screen,
    # not past the table's right edge.
    page.goto(f"{base}/leaderboard/")
    expect(page.locator(".leaderboard tbody tr")).to_have_count(2)
    screenshot(page, f"phone-{language}-leaderboard")
    for url in ("/games/history/", "/players/alice/"):
        page.goto(f"{base}{url}")
        replay = page.locator(".data-table--stack a[href$='/replay/']").first
        replay.scroll_into_view_if_needed()
        box = replay.bounding_box()
        assert box is not None and box["x"] + box["width"] <= SMALL_PHONE["width"], url
    screenshot(page, f"phone-{language}-profile-recent-games")

    # The header leaves the screen to the page: the signed-in header took 221 px of a
    # 360 x 780 phone before it was made compact on phones.
    page.goto(f"{base}/")
    header = page.locator(".site-header").bounding_box()
    assert header["height"] <= 180, header

    # Links and toggles a thumb taps are 24 px tall at least (WCAG 2.2, target size):
    # the board's Rules chip, Resign toggle and the chat's Mute, the tables' links to
    # games and players (not the names in a list of those played with: links in a line
    # of text, the rule's inline exception).
    small = {}
    for url, selector in (
        (urls[2], ".chip__link, .resign summary, .chat__mute button"),
        ("/games/history/", ".data-table a:not(.col-wide a)"),
        ("/players/alice/", ".data-table a:not(.col-wide a)"),
    ):
        page.goto(f"{base}{url}")
        heights = page.locator(selector).evaluate_all(
            "els => els.map(e => [e.textContent.trim(), e.getBoundingClientRect().height,"
            " e.getBoundingClientRect().width])"
        )
        assert heights, (url, selector)
        small.update(
            {f"{url} {text}": (h, w) for text, h, w in heights if 0 < h < 24 or 0 < w < 24}
        )
    assert small == {}, small


def test_between_phone_and_desktop_in_german(live_server, new_page, log_in, alice, bob, carol):
    # German has the longest words; tablets and narrow windows sit between the phone
    # layout and the desktop one, where a table that no longer stacks must still fit.
    urls = alices_pages(alice, bob, carol, "de")
    page = log_in(new_page(viewport={"width": 600, "height": 900}, locale="de"), alice)
    for width in (600, 700, 768, 800, 900):
        page.set_viewport_size({"width": width, "height": 900})
        too_wide = too_wide_pages(page, live_server.url, urls, "de", width)
        assert too_wide == {}, f"too wide for a {width} px screen: {too_wide}"


def test_the_longest_username_fits_a_small_phone(live_server, new_page, log_in, bob, carol):
    """A player with the longest username a sign-up allows (30 wide letters, no display
    name): the header's "Signed in as", the profile's heading and handle, and a board
    with them at it wrap rather than widen the page."""
    from tests.factories import UserFactory

    wide = UserFactory(username="W" * 30, display_name="", is_staff=True)  # a fixed deck
    playing = table_make(wide, [bob, carol])
    page = log_in(new_page(viewport=SMALL_PHONE, locale="en"), wide)
    urls = ["/", f"/players/{wide.username}/", f"/games/{playing.pk}/", "/accounts/profile/"]
    too_wide = too_wide_pages(page, live_server.url, urls, "en", SMALL_PHONE["width"])
    assert too_wide == {}, f"too wide for a {SMALL_PHONE['width']} px screen: {too_wide}"


# Inside the board, a long word may also be cut off by a box that scrolls or clips
# rather than widening the page: the high bid's line, the log's lines, the scores.
CLIPPED = """() => [...document.querySelectorAll(
        '.auction__info, .auction__high, .log__lines li, .scores__table th, .scores__table td')]
    .filter(el => el.scrollWidth > el.clientWidth + 1)
    .map(el => el.className + ': ' + el.innerText.slice(0, 40))"""


@pytest.mark.parametrize("width", [360, 1280])
def test_a_long_one_word_name_wraps_on_the_board(
    live_server, new_page, log_in, screenshot, bob, carol, width
):
    """A display name of forty letters in one word (the longest allowed), holding the
    high bid, in the log and in a finished game's scores: it wraps everywhere.  It
    widened a phone's page to 569 px beside the card up for auction, and at 1280 px
    the scores' unwrapped name squeezed the status cards into one column."""
    from tests.factories import UserFactory
    from tests.games.pages.conftest import act

    long = UserFactory(username="wolfe", display_name="Wolfeschlegelsteinhausenbergerdorffwelch")
    long.is_staff = True  # a fixed deck
    long.save(update_fields=["is_staff"])
    playing = table_make(long, [bob, carol])
    act(playing, long, type="bid", cards=[1000])
    finished = played_game([long, bob, "medium"], seed=301)
    page = log_in(new_page(viewport={"width": width, "height": 900}, locale="de"), bob)
    urls = [f"/games/{playing.pk}/", f"/games/{finished.pk}/", f"/games/{finished.pk}/replay/"]
    assert too_wide_pages(page, live_server.url, urls, "de", width) == {}
    clipped = {}
    for url in urls:
        page.goto(f"{live_server.url}{url}")
        if found := page.evaluate(CLIPPED):
            clipped[url] = found
    assert clipped == {}
    page.goto(f"{live_server.url}{urls[1]}")
    screenshot(page, f"long-name-scores-{width}")
    if width > 1000:  # the status cards keep a row of their own width, not one card wide
        rows = page.locator(".scores__table .card-row").evaluate_all(
            "rows => rows.map(r => r.getBoundingClientRect().width)"
        )
        assert min(rows) > 150, rows  # three cards at least: it was one


def test_the_final_scores_on_a_phone_show_no_bare_dash(live_server, new_page, log_in, bob):
    """Stacked on a phone, each value of a row carries its label; a player neither
    winner nor cast out showed a bare "—" on a line of its own (at 1280 px the column
    says "Result" above it)."""
    finished = played_game([bob, "easy", "medium", "hard"], seed=304)  # two in the middle
    page = log_in(new_page(viewport=SMALL_PHONE, locale="en"), bob)
    page.goto(f"{live_server.url}/games/{finished.pk}/")
    cells = page.locator(".scores__table td").evaluate_all(
        "cells => cells.filter(c => c.offsetParent !== null).map(c => c.innerText.trim())"
    )
    assert "—" not in cells, cells
    assert page.locator(".scores__table td.scores__no-result").count() >= 1
    page.set_viewport_size({"width": 1280, "height": 900})
    assert page.locator(".scores__table td.scores__no-result").first.is_visible()


SELECTED_FITS = """() => [...document.querySelectorAll('.seat-row select')].filter(s => s.offsetParent)
  .map(s => { const cs = getComputedStyle(s); const c = document.createElement('canvas').getContext('2d');
    c.font = cs.font; const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 16;
    return c.measureText(s.selectedOptions[0].text).width <= room ? '' : s.selectedOptions[0].text; })
  .filter(Boolean)"""


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_a_seats_choice_reads_whole_on_a_phone(live_server, new_page, log_in, alice, language):
    """ "Open seat (anyone may jo", "Place libre (ouverte à tou": the seats' choices were
    cut off at 360 px, their card's padding taking the room."""
    page = log_in(new_page(viewport={"width": 360, "height": 800}, locale=language), alice)
    page.goto(f"{live_server.url}/games/new/")
    assert page.evaluate("document.documentElement.lang") == language
    assert page.evaluate(SELECTED_FITS) == []
