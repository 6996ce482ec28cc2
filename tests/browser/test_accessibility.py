"""axe-core (through axe-playwright-python) finds no serious or critical problem on the
pages a player spends time on (issue #14): the lobby, the board on their turn, the end
screen, a profile and a replay, and a host's waiting table with a seat's form open."""

from __future__ import annotations

import random

import pytest

from games.models import Game, Seat
from games.services import game_create, game_invitation_respond
from tests.games.factories import people_game, people_play
from tests.games.pages.conftest import table_make

pytestmark = pytest.mark.django_db(transaction=True)

SERIOUS = {"serious", "critical"}


def _problems(page) -> tuple[list[str], int]:
    """The serious and critical violations on the page, and how many rules passed (so
    that a page axe could not check fails too)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page).response
    problems = [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(str(node["target"][0]) for node in v["nodes"][:3])
        for v in results["violations"]
        if v["impact"] in SERIOUS
    ]
    return problems, len(results.get("passes", ()))


def test_no_serious_accessibility_problem(live_server, browser, log_in, alice, bob, carol):
    alice.is_staff = True  # a staff table: the deck and the first player are set
    alice.save(update_fields=["is_staff"])
    running = table_make(alice, [bob, carol])
    # A day per move, and Bob has missed his deadlines: the host's board offers to hand
    # his seat to a bot.
    Game.objects.filter(pk=running.pk).update(move_deadline_hours=24)
    Seat.objects.filter(game=running, user=bob).update(timeouts=2)
    finished = people_play(people_game(alice, bob, carol), random.Random(4))
    waiting = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"ai": "easy"}])
    game_invitation_respond(game=waiting, user=bob, accept=False)
    # axe's script is injected into the page: the test's browser lets it past the CSP.
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 900})
    page = log_in(context.new_page(), alice)
    found, checked = {}, {}
    for name, path in (
        ("lobby", "/"),
        ("board", f"/games/{running.pk}/"),
        ("end screen", f"/games/{finished.pk}/"),
        ("profile", "/players/alice/"),
        ("replay", f"/games/{finished.pk}/replay/?move=5"),
        ("waiting table", f"/games/{waiting.pk}/"),
    ):
        page.goto(f"{live_server.url}{path}")
        if name == "board":  # the hand-over's second step, open
            page.click(".player details.confirm-step summary")
        if name == "waiting table":
            page.click("details.seat-change summary")
            page.select_option("details.seat-change[open] select[name=kind]", "invite")
        found[name], checked[name] = _problems(page)
    context.close()
    assert not any(found.values()), found
    assert all(passed > 20 for passed in checked.values()), checked


def test_the_card_buttons_are_named_by_what_they_show(
    live_server, browser, log_in, alice, bob, carol
):
    """Theft's discard and the secret Yacht Club choice: each button's name holds its
    visible word ("Discard", "Choose"), so a voice-control user can say what they see
    (axe's label-content-name-mismatch, off by default: asked for here)."""
    from axe_playwright_python.sync_playwright import Axe

    from games.models import Game
    from tests.games.factories import scenario_deck
    from tests.games.pages.conftest import act

    alice.is_staff = True  # staff tables: the decks are set
    alice.save(update_fields=["is_staff"])
    theft = table_make(alice, [bob, carol], deck=scenario_deck("lux1 theft"))
    act(theft, alice, type="bid", cards=[1000])
    act(theft, bob, type="pass")
    act(theft, carol, type="pass")
    act(Game.objects.get(pk=theft.pk), alice, type="pass")  # first to pass takes Theft
    yacht = table_make(
        alice, [bob, carol], deck=scenario_deck("yacht lux5", ("yacht",)), advanced=("yacht",)
    )
    context = browser.new_context(bypass_csp=True)
    page = log_in(context.new_page(), alice)
    names = {}
    for game, button in ((theft, "#discard-lux1"), (yacht, "#seal-1000")):
        page.goto(f"{live_server.url}/games/{game.pk}/")
        names[button] = (
            page.locator(button).get_attribute("aria-label"),
            page.evaluate(
                f"document.querySelector('{button}').textContent.replace(/\\s+/g, ' ').trim()"
            ),
        )
        results = Axe().run(page, options={"runOnly": ["label-content-name-mismatch"]}).response
        assert results["violations"] == [], [v["nodes"][0]["html"] for v in results["violations"]]
    context.close()
    assert names["#discard-lux1"][0] is None and names["#discard-lux1"][1].endswith("Discard")
    assert names["#seal-1000"][0] is None and names["#seal-1000"][1].endswith("Choose")


def test_log_in_with_the_keyboard_alone(live_server, new_page, alice):
    """Type the username, Tab, type the password, Enter: signed in."""
    from playwright.sync_api import expect

    from tests.factories import PASSWORD

    page = new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("input[name=login]").focus()
    page.keyboard.type("alice")
    page.keyboard.press("Tab")
    expect(page.locator("input[name=password]")).to_be_focused()
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_server.url}/")
    expect(page.locator(".site-header__who")).to_contain_text("Alice")
