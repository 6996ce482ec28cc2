"""Layout a person would see as broken though every word is on the page: measured in
Chromium from the boxes the browser draws (a review's screenshots found each of these)."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import PHONE
from tests.games.records.conftest import played_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The left edges of the lines of the words in each element after its ``after`` child
# (a box, a number) and the space that follows it: one list per element.
LINE_LEFTS = """(els, after) => els.map(e => {
  const range = document.createRange();
  range.setStart(e.querySelector(after).nextSibling, 1);
  range.setEnd(e, e.childNodes.length);
  const tops = new Map();
  for (const r of range.getClientRects()) {
    if (r.width > 0) tops.set(Math.round(r.top), Math.min(tops.get(Math.round(r.top)) ?? 1e9, r.left));
  }
  return [...tops.values()];
})"""


def test_the_profile_figures_line_up_and_the_email_choices_wrap_beside_their_boxes(
    live_server, new_page, log_in, alice, bob, carol
):
    played_game([alice, bob, carol], seed=5)
    page = new_page()
    page.goto(f"{live_server.url}/players/{alice.username}/")
    tops = page.locator(".stat dd").evaluate_all(
        "els => els.map(e => Math.round(e.getBoundingClientRect().bottom))"
    )
    rows = page.locator(".stat").evaluate_all(
        "els => els.map(e => Math.round(e.getBoundingClientRect().top))"
    )
    # The figures of each row of tiles end on one line, whatever their labels' lengths.
    for row in set(rows):
        assert len({bottom for bottom, top in zip(tops, rows, strict=True) if top == row}) == 1, (
            tops
        )

    phone = new_page(viewport=PHONE, locale="de-DE")
    log_in(phone, alice)
    phone.goto(f"{live_server.url}/accounts/profile/")
    options = phone.locator(".choices label")
    assert options.count() >= 3
    boxes = options.evaluate_all(
        "els => els.map(e => e.querySelector('input').getBoundingClientRect().right)"
    )
    words = options.evaluate_all(LINE_LEFTS, "input")
    wrapped = 0
    for box, lefts in zip(boxes, words, strict=True):
        assert lefts and min(lefts) >= box, (box, lefts)  # never under the box
        wrapped += len(lefts) > 1
    assert wrapped, "no option wraps on a phone in German: the check saw nothing"


def test_a_long_move_of_the_replay_continues_under_its_text(live_server, new_page, alice, bob):
    game = played_game([alice, bob, "medium", "hard"], seed=31)
    page = new_page(viewport=PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?move={game.version}")
    texts = page.locator(".replay__list a").evaluate_all(LINE_LEFTS, ".replay__num")
    long = [lefts for lefts in texts if len(lefts) > 1]
    assert long, "no move takes two lines on a phone: the check saw nothing"
    for lefts in long:
        assert max(lefts) - min(lefts) < 2, lefts


def test_the_language_switch_is_one_row_of_equal_height(live_server, new_page):
    """The header's language select was a form field's 44 px beside a 28 px Go."""
    for viewport in (None, PHONE):
        page = new_page(**({"viewport": viewport} if viewport else {}))
        page.goto(f"{live_server.url}/rules/")
        heights = [
            round(page.locator(f".site-header .language-form {part}").bounding_box()["height"])
            for part in ("select", "button")
        ]
        assert heights[0] == heights[1] and heights[0] >= 24, heights


def test_or_log_in_stays_on_one_line_on_a_phone(live_server, new_page):
    """Under "Sign up to join a table" on a phone, "log in" broke into "log" and "in"."""
    page = new_page(viewport=PHONE)
    page.goto(f"{live_server.url}/")
    link = page.locator(".panel__cta a:not(.button)")
    rects = link.evaluate("e => e.getClientRects().length")
    assert rects == 1, rects


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_header_links_stand_beside_the_brand_on_a_laptop(
    live_server, new_page, log_in, language, alice, bob, dora
):
    """In German and French the links wrapped under the brand at every desktop width: the
    longest row, with the "your turn" count shown, fits beside it at 1,024 px."""
    from tests.games.factories import people_game, scenario_deck

    alice.language = language
    alice.save(update_fields=["language"])
    people_game(dora, alice, bob, deck=scenario_deck("lux5"), first_player=1)  # her turn
    page = new_page(viewport={"width": 1024, "height": 700})
    log_in(page, alice)
    page.goto(f"{live_server.url}/rules/")
    assert page.locator("#turns-waiting").is_visible()
    brand, links = (
        page.locator(selector).bounding_box() for selector in (".brand", ".site-nav__links")
    )
    assert links["y"] < brand["y"] + brand["height"], (brand, links)  # one row
    assert links["height"] < 60, links  # the links themselves on one line
    logout = page.locator(".site-header__who button")
    assert logout.is_visible() and logout.bounding_box()["height"] >= 24


def test_the_hand_over_step_reads_on_the_board(live_server, new_page, log_in, alice, bob, carol):
    """The cream sheets' dark red, on the board's dark felt, read at about 2:1 (axe
    cannot judge text on the felt's gradient, so the colour is measured here)."""
    from games.models import Game, Seat
    from tests.games.pages.conftest import table_make

    alice.is_staff = True  # table_make fixes the deck and the first player
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [bob, carol])
    Game.objects.filter(pk=game.pk).update(move_deadline_hours=24)  # and he missed two
    Seat.objects.filter(game=game, user=bob).update(timeouts=2)
    page = new_page()
    log_in(page, alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    rgb = page.locator(".player details.confirm-step summary").evaluate(
        "e => getComputedStyle(e).color.match(/\\d+/g).slice(0, 3).map(Number)"
    )

    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    luminance = 0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2])
    # The felt is darker than luminance 0.05: 4.5:1 needs the text at 0.29 or more.
    assert luminance >= 0.29, (rgb, luminance)


def test_a_board_left_open_shows_a_turn_at_another_table(
    live_server, new_page, log_in, alice, bob, dora
):
    """The header's count and the tab's title followed only the table on screen: a
    turn at another table showed on the lobby, or after a reload."""
    from playwright.sync_api import expect

    from tests.games.factories import people_game, scenario_deck
    from tests.games.pages.conftest import act

    watched = people_game(dora, alice, bob, deck=scenario_deck("lux5"), first_player=2)
    other = people_game(dora, alice, bob, deck=scenario_deck("lux5"), first_player=2)
    page = new_page()
    page.clock.install()
    log_in(page, dora)
    page.goto(f"{live_server.url}/games/{watched.pk}/")
    assert page.locator("#turns-waiting").is_hidden()
    assert page.title() == f"Table {watched.pk} · High Society"
    act(other, bob, type="pass")  # Dora's turn over there
    page.clock.run_for(61_000)
    page.wait_for_selector("#turns-waiting:not([hidden])")
    assert page.locator("#turns-waiting-count").text_content() == "1"
    # Its name says what the number counts (it read "Your turn 1").
    name = re.compile(r"^Your turn\s*, tables waiting: 1$")
    expect(page.get_by_role("link", name=name)).to_be_visible()
    # The title follows the count in a step of its own: wait for it as for the count.
    expect(page).to_have_title(f"(1) Table {watched.pk} · High Society")


def test_an_error_under_a_username_leaves_the_seat_choice_in_line(
    live_server, new_page, log_in, alice
):
    """The create form's error for an invitee went above the username, and pushed the
    seat's choice down beside it, the seat's name far below its box's top."""
    from playwright.sync_api import expect

    new_page.expect("status of 400")  # the refused form answers 400
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/new/")
    page.check("input[name=players][value='3']")
    page.select_option("select[name=seat_2]", "invite")
    page.fill("input[name=invite_2]", "someone@example.com")
    page.get_by_role("button", name="Create the table").click()
    row = page.locator(".seat-row--2")
    expect(row.locator(".errorlist")).to_contain_text("not by an e-mail address")
    select, box = row.locator("select").bounding_box(), row.locator("input").bounding_box()
    error = row.locator(".errorlist").bounding_box()
    assert abs(select["y"] - box["y"]) < 2, (select, box)
    assert error["y"] >= box["y"] + box["height"]  # under the box it is about


def test_forgot_your_password_is_a_fingers_height_on_a_phone(live_server, new_page):
    """The log-in page's "Forgot your password?" stood alone under the form at 19 px tall,
    where a thumb hits the button above or nothing."""
    page = new_page(viewport=PHONE, touch=True, locale="de-DE")
    page.goto(f"{live_server.url}/accounts/login/")
    link = page.locator(".form__aside a")
    assert link.inner_text() == "Passwort vergessen?"
    assert link.bounding_box()["height"] >= 40, link.bounding_box()


def test_the_replay_steps_on_a_french_tablet(live_server, new_page, alice, bob):
    """At 820 px in French "Fin »" wrapped alone onto a line of its own, and the keys'
    help (no use on a touch screen) was shown; on a phone "· The table" began a line
    with its separator."""
    game = played_game([alice, bob, "medium", "hard"], seed=31)
    page = new_page(viewport={"width": 820, "height": 1180}, touch=True, locale="fr-FR")
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?move=5")
    tops = page.locator(".replay__steps .button").evaluate_all(
        "els => els.map(e => Math.round(e.getBoundingClientRect().top))"
    )
    assert len(tops) == 4 and len(set(tops)) == 2, tops  # two rows of two
    assert not page.locator(".replay__keys").is_visible()
    phone = new_page(viewport=PHONE, touch=True)
    phone.goto(f"{live_server.url}/games/{game.pk}/replay/?move=5")
    for link in phone.locator(".replay__link").all():
        assert link.evaluate("e => e.getClientRects().length") == 1, link.inner_text()
