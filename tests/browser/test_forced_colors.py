"""Forced colours (Windows' high contrast themes) drop backgrounds, shadows and the
site's colours: what they carried is drawn another way there.  Checked in a dark
palette, where a black-on-nothing image vanishes."""

from __future__ import annotations

import pytest

from tests.games.factories import people_game, people_play
from tests.games.pages.conftest import table_make

pytestmark = pytest.mark.django_db(transaction=True)


def _style(page, selector: str, *properties: str) -> tuple[str, ...]:
    return tuple(
        page.eval_on_selector(selector, f"e => getComputedStyle(e).{name}") for name in properties
    )


def test_a_ticked_card_the_page_shown_and_a_qr_code_show_in_forced_colours(
    live_server, new_page, log_in, alice, bob, carol
):
    import random

    from tests.factories import PASSWORD

    alice.is_staff = True  # a staff table: Alice bids first
    alice.save(update_fields=["is_staff"])
    running = table_make(alice, [bob, carol])
    finished = people_play(people_game(alice, bob, carol), random.Random(4))
    page = new_page()
    page.emulate_media(forced_colors="active", color_scheme="dark")
    log_in(page, alice)
    # The board: a focused ticked card kept only the ticked card's ring (an outline
    # that hid the focus's dashed one); now the tick rings the card's edge.
    page.goto(f"{live_server.url}/games/{running.pk}/")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.pick__input')"):
            break
    first = page.evaluate("document.activeElement.id")
    assert first.startswith("hand-")
    page.keyboard.press("Space")
    card = f"#{first} + .hs-money"
    assert page.eval_on_selector(f"#{first}", "e => e.checked")
    assert _style(page, card, "outlineStyle", "borderTopWidth") == ("dashed", "4px")
    page.keyboard.press("Tab")
    assert _style(page, card, "outlineStyle", "borderTopWidth") == ("none", "4px")
    # The replay's step shown: its gold is gone, a ring stays.
    page.goto(f"{live_server.url}/games/{finished.pk}/replay/?move=5")
    step = ".replay__list .is-current a"
    assert _style(page, step, "borderTopStyle", "outlineStyle") == ("solid", "none")
    page.focus(step)
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # reached by the keyboard: its focus ring shows as well
    assert _style(page, step, "borderTopStyle", "outlineStyle") == ("solid", "solid")
    # The header's link of the page one is on: its gold is gone, its underline stays.
    page.goto(f"{live_server.url}/leaderboard/")
    current = '.site-nav__links a[aria-current="page"]'
    assert _style(page, current, "borderBottomWidth")[0] == "3px"
    other = ".site-nav__links a:not([aria-current]):not(.button)"
    canvas = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert _style(page, other, "borderBottomColor")[0] == canvas  # no underline
    # The 2FA QR code, black on nothing: on white, as in any palette.
    page.goto(f"{live_server.url}/accounts/2fa/totp/activate/")
    page.fill("input[name=password]", PASSWORD)  # allauth asks for it once more
    page.click("main form button[type=submit]")
    qr = 'img[src^="data:image/svg+xml"]'
    assert _style(page, qr, "backgroundColor", "forcedColorAdjust") == (
        "rgb(255, 255, 255)",
        "none",
    )
